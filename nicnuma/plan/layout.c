// SPDX-License-Identifier: GPL-2.0-or-later
/* layout.c - per-node service instances from a host snapshot and a plan (pure) */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/layout.h"
#include "nicnuma/discover/topo.h"

static int strv_addf(char ***v, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int strv_addf(char ***v, size_t *n, const char *fmt, ...)
{
	char **nv, *s;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	nv = realloc(*v, (*n + 2) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*n)++] = s;
	nv[*n] = NULL;
	*v = nv;
	return 0;
}

static void strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The node whose instance serves a NIC: its own, or - when that node has no
 * online CPU (CXL or other memory-only node) - the nearest node that has. */
static int serving_node(const struct nn_topo *t, const struct nn_nic *nic, bool *assumed,
			int *own)
{
	int node = nn_nic_home_node(t, nic, assumed);

	*own = node;
	if (node < 0 || !nn_topo_node(t, node))
		return node;
	return nn_topo_nearest_node(t, node, NN_NODE_ONLINE_CPUS, NULL, NULL);
}

static bool has_instance_node(const struct nn_cpuset *chosen, int node)
{
	return node >= 0 && nn_cpuset_test(chosen, (unsigned int)node);
}

static int add_nic(struct nn_layout_instance *in, const struct nn_nic *nic,
		   const struct nn_plan *plan, bool assumed, int own)
{
	struct nn_layout_nic *ln, *n;
	size_t i;
	int err = 0;

	n = realloc(in->nics, (in->nnics + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	in->nics = n;
	ln = &n[in->nnics];
	memset(ln, 0, sizeof(*ln));
	ln->name = strdup(nic->name);
	ln->pci = nic->pci ? strdup(nic->pci) : NULL;
	if (!ln->name || (nic->pci && !ln->pci)) {
		free(ln->name);
		free(ln->pci);
		return -ENOMEM;
	}
	in->nnics++;
	ln->rx_queues = nic->rx_queues;
	ln->tx_queues = nic->tx_queues;
	ln->locality_assumed = assumed;
	ln->node = own;
	for (i = 0; plan && i < plan->nirqs && !err; i++) {
		const struct nn_plan_irq *pi = &plan->irqs[i];

		/* queue-like: an index, or a queue vector of none (mlx4 EQs, SF
		 * pools) or of no known role, planned like queues */
		if ((pi->queue < 0 && pi->role == NN_IRQ_ROLE_MISC) || !pi->nic || strcmp(pi->nic, nic->name))
			continue;
		ln->queue_irqs++;
		err = nn_cpuset_or(&ln->irq_cpus, &pi->cpus);
	}
	return err;
}

static int add_hugepages(struct nn_layout_instance *in, unsigned long size_kb, long pages)
{
	struct nn_layout_hugepages *h;
	size_t i;

	if (pages <= 0)
		return 0;
	for (i = 0; i < in->nhugepages; i++)
		if (in->hugepages[i].size_kb == size_kb) {
			in->hugepages[i].pages = pages;
			goto sum;
		}
	h = realloc(in->hugepages, (in->nhugepages + 1) * sizeof(*h));
	if (!h)
		return -ENOMEM;
	in->hugepages = h;
	h[in->nhugepages].size_kb = size_kb;
	h[in->nhugepages].pages = pages;
	in->nhugepages++;
sum:
	in->hugepage_bytes = 0;
	for (i = 0; i < in->nhugepages; i++)
		in->hugepage_bytes += (unsigned long long)in->hugepages[i].pages *
				      in->hugepages[i].size_kb * 1024ULL;
	return 0;
}

/* The node's hugepages: what the plan will reserve, else what is there now. */
static int node_hugepages(struct nn_layout_instance *in, const struct nn_node *node,
			  const struct nn_plan *plan)
{
	bool planned = false;
	size_t i;
	int err = 0;

	/* The instance's share is what was asked for, not the whole pool: a pool
	 * the plan keeps larger may serve other tenants too. */
	for (i = 0; plan && i < plan->nhugepages && !err; i++) {
		const struct nn_plan_hugepages *h = &plan->hugepages[i];
		long pages = h->request > 0 ? h->request : h->target;

		if (h->node == in->node && pages > 0) {
			err = add_hugepages(in, h->size_kb, pages);
			planned = true;
		}
	}
	for (i = 0; !planned && i < node->nhugepages && !err; i++)
		err = add_hugepages(in, node->hugepages[i].size_kb, node->hugepages[i].total);
	return err;
}

/* DPDK's --file-prefix names a runtime directory: keep it to safe bytes. */
static char *file_prefix(const char *service, int node)
{
	char *s;
	size_t i;

	if (asprintf(&s, "%s-%d", service, node) < 0)
		return NULL;
	for (i = 0; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_' || s[i] == '.'))
			s[i] = '_';
	return s;
}

/* -a for the ports of @in's node bound to vfio-pci (host->ports, read by
 * the caller where --dpdk asks): the application's, not the kernel NICs
 * beside them. *@any where one was added. */
static int add_bound_ports(const struct nn_host *host, struct nn_layout_instance *in, bool *any)
{
	size_t i;

	for (i = 0; i < host->nports; i++) {
		const struct nn_port *p = &host->ports[i];

		if (p->node != in->node || strcmp(p->fn.driver, "vfio-pci"))
			continue;
		*any = true;
		if (strv_addf(&in->eal, &in->neal, "-a") || strv_addf(&in->eal, &in->neal, "%s", p->fn.pci))
			return -ENOMEM;
	}
	return 0;
}

static int build_eal(struct nn_layout *l, const struct nn_host *host, struct nn_layout_instance *in)
{
	char *list = nn_cpuset_format_list(&in->cpus), *prefix = file_prefix(l->service, in->node);
	bool any_pci = false, bound = false;
	size_t i;
	int err = -ENOMEM;

	if (!list || !prefix)
		goto out;
	/* -l: the instance's cores; --file-prefix: instances must not share
	 * DPDK's runtime directory or they fight over the same hugepage files. */
	if (strv_addf(&in->eal, &in->neal, "-l") || strv_addf(&in->eal, &in->neal, "%s", list) ||
	    strv_addf(&in->eal, &in->neal, "--file-prefix") ||
	    strv_addf(&in->eal, &in->neal, "%s", prefix))
		goto out;
	if (in->hugepage_bytes) {
		/* --socket-mem is MB per socket, indexed by node id up to ours. */
		char *sm = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&sm, &len);
		int n;

		if (!fp)
			goto out;
		for (n = 0; n <= in->node; n++)
			fprintf(fp, "%s%llu", n ? "," : "",
				n == in->node ? in->hugepage_bytes >> 20 : 0ULL);
		if (fclose(fp) || !sm) {
			free(sm);
			goto out;
		}
		err = strv_addf(&in->eal, &in->neal, "--socket-mem");
		if (!err)
			err = strv_addf(&in->eal, &in->neal, "%s", sm);
		free(sm);
		if (err)
			goto out;
	} else if (strv_addf(&l->warnings, &l->nwarnings,
			     "node %d: no hugepages reserved or planned: DPDK needs some on this node "
			     "(nicnuma hugepages reserve, or plan --hugepages SIZE:COUNT)", in->node)) {
		goto out;
	}
	if (add_bound_ports(host, in, &bound))
		goto out;
	any_pci = bound;
	for (i = 0; i < in->nnics && !bound; i++) {
		bool seen = false;

		if (!in->nics[i].pci)
			continue;
		/* Ports of one PCI function (mlx4, cxgb4) share one -a. */
		for (size_t j = 0; j < i && !seen; j++)
			seen = in->nics[j].pci && !strcmp(in->nics[j].pci, in->nics[i].pci);
		if (seen)
			continue;
		any_pci = true;
		if (strv_addf(&in->eal, &in->neal, "-a") ||
		    strv_addf(&in->eal, &in->neal, "%s", in->nics[i].pci))
			goto out;
	}
	/* Without -a the EAL probes every device: the other nodes' NICs too. */
	if (!any_pci && strv_addf(&in->eal, &in->neal, "--no-pci"))
		goto out;
	err = 0;
out:
	free(list);
	free(prefix);
	return err;
}

/* A queue IRQ's softirq work competes with whatever runs on the other
 * hyperthread of its core: leave out the whole core, as housekeeping does. */
static int add_siblings(const struct nn_topo *t, struct nn_cpuset *set)
{
	struct nn_cpuset add = NN_CPUSET_INIT;
	int cpu, err = 0;

	nn_cpuset_foreach(cpu, set) {
		const struct nn_cpu *c = nn_topo_cpu(t, cpu);

		if (c && (err = nn_cpuset_or(&add, &c->siblings)))
			break;
	}
	if (!err)
		err = nn_cpuset_or(set, &add);
	nn_cpuset_free(&add);
	return err;
}

static void instance_free(struct nn_layout_instance *in)
{
	size_t k;

	for (k = 0; k < in->nnics; k++) {
		free(in->nics[k].name);
		free(in->nics[k].pci);
		nn_cpuset_free(&in->nics[k].irq_cpus);
	}
	free(in->nics);
	free(in->hugepages);
	free(in->unit);
	strv_free(in->eal, in->neal);
	nn_cpuset_free(&in->node_cpus);
	nn_cpuset_free(&in->cpus);
	nn_cpuset_free(&in->housekeeping);
	nn_cpuset_free(&in->irq_cores);
	nn_cpuset_free(&in->isolated);
	memset(in, 0, sizeof(*in));
}

static int make_instance(struct nn_layout *l, const struct nn_host *host, const struct nn_plan *plan,
			 const struct nn_layout_opts *o, const struct nn_node *node, bool *made)
{
	struct nn_layout_instance in;
	struct nn_cpuset rest = NN_CPUSET_INIT, irq_cpus = NN_CPUSET_INIT;
	char *a = NULL;
	size_t i;
	int err;

	*made = false;
	memset(&in, 0, sizeof(in));
	in.node = node->id;
	err = nn_cpuset_copy(&in.node_cpus, &node->cpus);
	if (err)
		goto fail;
	nn_cpuset_and(&in.node_cpus, &host->topo.online);
	if (nn_cpuset_empty(&in.node_cpus)) {
		err = strv_addf(&l->warnings, &l->nwarnings, "node %d: no online CPUs: no instance",
				node->id);
		goto fail;
	}
	err = nn_cpuset_copy(&in.housekeeping, &l->housekeeping);
	if (!err)
		err = nn_cpuset_copy(&rest, &in.node_cpus);
	if (err)
		goto fail;
	nn_cpuset_and(&in.housekeeping, &in.node_cpus);
	nn_cpuset_andnot(&rest, &l->housekeeping);
	/* A claimed CPU is a workload's (nicnuma claim, a cpuset partition):
	 * never handed to an instance (issue 27). */
	if (nn_cpuset_intersects(&rest, nn_host_claimed_cpus(host))) {
		struct nn_cpuset cl = NN_CPUSET_INIT;

		err = nn_cpuset_copy(&cl, &rest);
		if (!err) {
			nn_cpuset_and(&cl, nn_host_claimed_cpus(host));
			nn_cpuset_andnot(&rest, nn_host_claimed_cpus(host));
			a = nn_cpuset_format_list(&cl);
			err = a ? strv_addf(&l->warnings, &l->nwarnings, "node %d: claimed CPUs %s left out "
					    "(a workload claimed them)", node->id, a) : -ENOMEM;
			free(a);
			a = NULL;
		}
		nn_cpuset_free(&cl);
		if (err)
			goto fail;
		if (nn_cpuset_empty(&rest)) {
			err = strv_addf(&l->warnings, &l->nwarnings, "node %d: every CPU outside housekeeping "
					"is claimed: no instance", node->id);
			goto fail;
		}
	}
	for (i = 0; plan && i < plan->nirqs && !err; i++)
		if (plan->irqs[i].queue >= 0 || plan->irqs[i].role != NN_IRQ_ROLE_MISC)
			err = nn_cpuset_or(&in.irq_cores, &plan->irqs[i].cpus);
	if (err)
		goto fail;
	nn_cpuset_and(&in.irq_cores, &in.node_cpus);
	err = nn_cpuset_copy(&irq_cpus, &in.irq_cores);	/* the IRQ CPUs alone */
	if (!err)
		err = add_siblings(&host->topo, &in.irq_cores);
	if (err)
		goto fail;
	nn_cpuset_and(&in.irq_cores, &in.node_cpus);
	if (nn_cpuset_empty(&rest)) {
		a = nn_cpuset_format_list(&in.node_cpus);
		err = strv_addf(&l->warnings, &l->nwarnings,
				"node %d: all its CPUs (%s) are housekeeping: no instance",
				node->id, a ? a : "?");
		goto fail;
	}
	err = nn_cpuset_copy(&in.cpus, &rest);
	if (err)
		goto fail;
	if (o->include_irq_cores) {
		in.irq_cores_included = !nn_cpuset_empty(&in.irq_cores);
	} else {
		nn_cpuset_andnot(&in.cpus, &in.irq_cores);
		if (nn_cpuset_empty(&in.cpus)) {
			/* Every core takes queue IRQs: their other hyperthreads,
			 * free of IRQs, before the IRQ CPUs themselves. */
			err = nn_cpuset_copy(&in.cpus, &rest);
			if (err)
				goto fail;
			nn_cpuset_andnot(&in.cpus, &irq_cpus);
			in.irq_cores_included = true;
			if (!nn_cpuset_empty(&in.cpus)) {
				a = nn_cpuset_format_list(&in.cpus);
				err = strv_addf(&l->warnings, &l->nwarnings,
						"node %d: every core outside housekeeping takes queue IRQs: the "
						"instance runs on their SMT siblings free of IRQs (%s)", node->id,
						a ? a : "?");
				if (err)
					goto fail;
				goto placed;
			}
			/* Better to share CPUs with the IRQs than to have no instance. */
			err = nn_cpuset_copy(&in.cpus, &rest);
			in.irq_cores_included = true;
			a = nn_cpuset_format_list(&rest);
			if (!err)
				err = strv_addf(&l->warnings, &l->nwarnings,
						"node %d: every non-housekeeping CPU (%s) takes queue IRQs: "
						"the instance shares them", node->id, a ? a : "?");
			if (err)
				goto fail;
		}
	}
placed:
	/* Isolated CPUs were kept for a poll-mode workload: a DPDK instance
	 * takes them first (only them, when it has any), any other service
	 * leaves them out - the scheduler does not balance a domain-isolated
	 * CPU, so its threads would pile up - unless nothing else is left. */
	err = nn_topo_isolated_cpus(&host->topo, &in.isolated);
	if (err)
		goto fail;
	nn_cpuset_and(&in.isolated, &in.cpus);
	if (!nn_cpuset_empty(&in.isolated)) {
		if (o->dpdk)
			nn_cpuset_and(&in.cpus, &in.isolated);
		else if (!nn_cpuset_equal(&in.cpus, &in.isolated))
			nn_cpuset_andnot(&in.cpus, &in.isolated);
	}
	if (asprintf(&in.unit, "%s@%d.service", l->service, node->id) < 0) {
		in.unit = NULL;
		err = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < host->nnics && !err; i++) {
		const struct nn_nic *nic = &host->nics[i];
		bool assumed;
		int own;

		if (nic->is_virtual || serving_node(&host->topo, nic, &assumed, &own) != node->id)
			continue;
		err = add_nic(&in, nic, plan, assumed, own);
	}
	if (!err)
		err = node_hugepages(&in, node, plan);
	if (err)
		goto fail;
	{
		struct nn_layout_instance *ni = realloc(l->inst, (l->ninst + 1) * sizeof(*ni));

		if (!ni) {
			err = -ENOMEM;
			goto fail;
		}
		l->inst = ni;
		ni[l->ninst++] = in;
	}
	*made = true;
	if (o->dpdk)
		err = build_eal(l, host, &l->inst[l->ninst - 1]);
	nn_cpuset_free(&rest);
	nn_cpuset_free(&irq_cpus);
	free(a);
	return err;
fail:
	nn_cpuset_free(&rest);
	nn_cpuset_free(&irq_cpus);
	free(a);
	instance_free(&in);
	return err;
}

int nn_layout_make(const struct nn_host *host, const struct nn_plan *plan,
		   const struct nn_layout_opts *o, struct nn_layout *l, char *why, size_t whylen)
{
	const struct nn_topo *t = &host->topo;
	struct nn_cpuset chosen = NN_CPUSET_INIT;
	size_t i;
	int err = 0, node;

	memset(l, 0, sizeof(*l));
	l->dpdk = o->dpdk;
	l->service = strdup(o->service);
	if (!l->service)
		return -ENOMEM;
	if (!nn_cpuset_empty(&o->housekeeping))
		err = nn_cpuset_copy(&l->housekeeping, &o->housekeeping);
	else
		err = nn_topo_default_housekeeping(t, &l->housekeeping);
	if (err)
		goto fail;

	/* Which nodes get an instance. */
	switch (o->nodes_mode) {
	case NN_LAYOUT_LIST:
		nn_cpuset_foreach(node, &o->nodes) {
			if (!nn_topo_node(t, node)) {
				snprintf(why, whylen, "--nodes: node %d does not exist on this host", node);
				err = -EINVAL;
				goto fail;
			}
		}
		err = nn_cpuset_copy(&chosen, &o->nodes);
		break;
	case NN_LAYOUT_ALL:
		for (i = 0; i < t->nnodes && !err; i++)
			if (nn_topo_node_has(t, &t->nodes[i], NN_NODE_ONLINE_CPUS))
				err = nn_cpuset_set(&chosen, (unsigned int)t->nodes[i].id);
		break;
	case NN_LAYOUT_WITH_NICS:
		for (i = 0; i < host->nnics && !err; i++) {
			bool assumed;
			int own;

			if (host->nics[i].is_virtual)
				continue;
			node = serving_node(t, &host->nics[i], &assumed, &own);
			if (node >= 0 && nn_topo_node(t, node))
				err = nn_cpuset_set(&chosen, (unsigned int)node);
		}
		if (!err && nn_cpuset_empty(&chosen)) {
			snprintf(why, whylen, "no node holds a NIC of known locality: "
				 "use --nodes all or --nodes LIST");
			err = -ENOENT;
			goto fail;
		}
		break;
	}
	if (err)
		goto fail;

	for (i = 0; i < t->nnodes; i++) {
		bool made;

		if (!nn_cpuset_test(&chosen, (unsigned int)t->nodes[i].id))
			continue;
		err = make_instance(l, host, plan, o, &t->nodes[i], &made);
		if (err)
			goto fail;
	}
	if (!l->ninst) {
		snprintf(why, whylen, "no node has CPUs left for an instance%s",
			 l->nwarnings ? " (see the warnings)" : "");
		err = -ENOENT;
		goto fail;
	}

	/* NICs no instance took: say why, so nothing is silently left out. */
	for (i = 0; i < host->nnics && !err; i++) {
		const struct nn_nic *nic = &host->nics[i];
		bool assumed;
		int own;

		if (nic->is_virtual)
			continue;
		node = serving_node(t, nic, &assumed, &own);
		if (own < 0)
			err = strv_addf(&l->unplaced, &l->nunplaced,
					"%s: unknown locality (numa_node -1): no instance takes it",
					nic->name);
		else if (node < 0)
			err = strv_addf(&l->unplaced, &l->nunplaced,
					"%s: on node %d, which has no CPUs, and no node with CPUs is known",
					nic->name, own);
		else if (!has_instance_node(&chosen, node))
			err = strv_addf(&l->unplaced, &l->nunplaced,
					"%s: on node %d, which has no instance", nic->name, node);
		else {
			size_t k;
			bool found = false;

			for (k = 0; k < l->ninst; k++)
				if (l->inst[k].node == node)
					found = true;
			if (!found)
				err = strv_addf(&l->unplaced, &l->nunplaced,
						"%s: on node %d, which has no CPUs for an instance",
						nic->name, node);
		}
	}
	if (err)
		goto fail;
	nn_cpuset_free(&chosen);
	return 0;
fail:
	if (err == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	nn_cpuset_free(&chosen);
	nn_layout_free(l);
	return err;
}

void nn_layout_free(struct nn_layout *l)
{
	size_t i;

	for (i = 0; i < l->ninst; i++)
		instance_free(&l->inst[i]);
	free(l->inst);
	strv_free(l->unplaced, l->nunplaced);
	strv_free(l->warnings, l->nwarnings);
	nn_cpuset_free(&l->housekeeping);
	free(l->service);
	memset(l, 0, sizeof(*l));
}

void nn_layout_opts_free(struct nn_layout_opts *o)
{
	nn_cpuset_free(&o->nodes);
	nn_cpuset_free(&o->housekeeping);
}

char *nn_layout_eal_string(const struct nn_layout_instance *in)
{
	char *s = NULL;
	size_t len = 0, i;
	FILE *fp = open_memstream(&s, &len);

	if (!fp)
		return NULL;
	for (i = 0; i < in->neal; i++)
		fprintf(fp, "%s%s", i ? " " : "", in->eal[i]);
	if (fclose(fp)) {
		free(s);
		return NULL;
	}
	return s;
}
