// SPDX-License-Identifier: GPL-2.0-or-later
/* test_plan.c - the planner's rules on in-memory host snapshots (no files) */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "nicnuma/plan/layout.h"
#include "nicnuma/plan/plan.h"
#include "tmptree.h"

/* ---- snapshot builder ---- */

static void set_list(struct nn_cpuset *s, const char *list)
{
	assert_int_equal(nn_cpuset_parse_list(list, s), 0);
}

static void add_cpu(struct nn_host *h, int id, int node, int pkg, int core, int l3)
{
	struct nn_topo *t = &h->topo;
	struct nn_cpu *c;

	t->cpus = realloc(t->cpus, (t->ncpus + 1) * sizeof(*t->cpus));
	assert_non_null(t->cpus);
	c = &t->cpus[t->ncpus++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->node = node;
	c->package = pkg;
	c->die = pkg < 0 ? -1 : 0;
	c->core = core;
	c->l3 = l3;
	assert_int_equal(nn_cpuset_set(&t->online, (unsigned)id), 0);
}

static int cpu_cmp(const void *a, const void *b)
{
	return ((const struct nn_cpu *)a)->id - ((const struct nn_cpu *)b)->id;
}

/* Nodes 0..n-1 from the CPUs' nodes; @dist is n*n (NULL: 10 local, 20 remote);
 * siblings from equal package+core. */
static void finish(struct nn_host *h, size_t n, const int *dist)
{
	struct nn_topo *t = &h->topo;
	size_t i, j;

	qsort(t->cpus, t->ncpus, sizeof(*t->cpus), cpu_cmp);
	t->nodes = calloc(n, sizeof(*t->nodes));
	assert_non_null(t->nodes);
	t->nnodes = n;
	for (i = 0; i < n; i++) {
		struct nn_node *nd = &t->nodes[i];

		nd->id = (int)i;
		nd->mem_total_kb = 1 << 20;
		nd->distances = calloc(n, sizeof(int));
		assert_non_null(nd->distances);
		nd->ndistances = n;
		for (j = 0; j < n; j++)
			nd->distances[j] = dist ? dist[i * n + j] : (i == j ? 10 : 20);
		nd->hugepages = calloc(1, sizeof(*nd->hugepages));
		assert_non_null(nd->hugepages);
		nd->nhugepages = 1;
		nd->hugepages[0].size_kb = 2048;
		nd->hugepages[0].total = 0;
		nd->hugepages[0].free = 0;
		nd->hugepages[0].surplus = 0;
	}
	for (i = 0; i < t->ncpus; i++) {
		struct nn_cpu *c = &t->cpus[i];

		if (c->node >= 0)
			assert_int_equal(nn_cpuset_set(&t->nodes[c->node].cpus, (unsigned)c->id), 0);
		for (j = 0; j < t->ncpus; j++)
			if (t->cpus[j].package == c->package && t->cpus[j].core == c->core &&
			    t->cpus[j].node == c->node)
				assert_int_equal(nn_cpuset_set(&c->siblings, (unsigned)t->cpus[j].id), 0);
	}
	h->irqbalance.pid = -1;
}

enum style { MLX5, VIRTIO, I40E, NOIRQ };

static struct nn_nic *add_nic(struct nn_host *h, const char *name, const char *pci, int node,
			      const char *local, int nq, int irq0, enum style style)
{
	struct nn_nic *n;
	int q, k = 0, per = style == VIRTIO ? 2 : 1, total;
	char nm[64];

	h->nics = realloc(h->nics, (h->nnics + 1) * sizeof(*h->nics));
	assert_non_null(h->nics);
	n = &h->nics[h->nnics++];
	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	n->pci = pci ? strdup(pci) : NULL;
	n->driver = strdup(style == MLX5 ? "mlx5_core" : style == VIRTIO ? "virtio_net" : "i40e");
	n->is_virtual = style == NOIRQ;
	n->numa_node = node;
	set_list(&n->local_cpus, local);
	n->locality_known = node >= 0 || (!nn_cpuset_empty(&n->local_cpus) &&
		nn_cpuset_count(&n->local_cpus) < nn_cpuset_count(&h->topo.online));
	n->rx_queues = n->tx_queues = nq;
	n->channels_combined = nq;
	n->channels_max = 64;
	n->speed_mbps = 100000;
	n->ifindex = (int)h->nnics + 1;
	if (style == NOIRQ)
		return n;
	total = 1 + nq * per;
	n->irqs = calloc((size_t)total, sizeof(*n->irqs));
	assert_non_null(n->irqs);
	n->nirqs = (size_t)total;
	/* the non-queue IRQ first (config / async / misc) */
	snprintf(nm, sizeof(nm), "%s-misc", name);
	n->irqs[k].irq = irq0 + k;
	n->irqs[k].name = strdup(nm);
	n->irqs[k].queue = -1;
	n->irqs[k].dir = NN_QDIR_NONE;
	n->irqs[k].role = NN_IRQ_ROLE_MISC;
	n->irqs[k].has_affinity = true;
	k++;
	for (q = 0; q < nq; q++) {
		int d;

		for (d = 0; d < per; d++, k++) {
			n->irqs[k].irq = irq0 + k;
			snprintf(nm, sizeof(nm), "%s-q%d-%d", name, q, d);
			n->irqs[k].name = strdup(nm);
			n->irqs[k].queue = q;
			n->irqs[k].role = NN_IRQ_ROLE_QUEUE;
			n->irqs[k].dir = style == VIRTIO ? (d ? NN_QDIR_TX : NN_QDIR_RX) : NN_QDIR_RXTX;
			n->irqs[k].has_affinity = true;
		}
	}
	return n;
}

static void host_free(struct nn_host *h)
{
	size_t i, k;

	for (i = 0; i < h->topo.ncpus; i++) {
		nn_cpuset_free(&h->topo.cpus[i].siblings);
		nn_cpuset_free(&h->topo.cpus[i].l3_cpus);
	}
	free(h->topo.cpus);
	for (i = 0; i < h->topo.nnodes; i++) {
		nn_cpuset_free(&h->topo.nodes[i].cpus);
		free(h->topo.nodes[i].distances);
		free(h->topo.nodes[i].hugepages);
	}
	free(h->topo.nodes);
	nn_cpuset_free(&h->topo.online);
	nn_cpuset_free(&h->topo.isol.isolated);
	nn_cpuset_free(&h->topo.isol.nohz_full);
	nn_cpuset_free(&h->topo.isol.isolcpus);
	for (i = 0; i < h->nnics; i++) {
		struct nn_nic *n = &h->nics[i];

		for (k = 0; k < n->nirqs; k++) {
			free(n->irqs[k].name);
			nn_cpuset_free(&n->irqs[k].affinity);
			nn_cpuset_free(&n->irqs[k].effective);
		}
		free(n->irqs);
		free(n->name);
		free(n->pci);
		free(n->driver);
		free(n->kind);
		nn_cpuset_free(&n->local_cpus);
		nn_rss_free(&n->rss);
		free(n->gqueues);
		free(n->gnapis);
		for (k = 0; k < n->nrx_rps; k++)
			nn_cpuset_free(&n->rx_rps[k].cpus);
		free(n->rx_rps);
	}
	free(h->nics);
	free(h->irqbalance.cmdline);
	nn_claims_free(&h->claims);
	memset(h, 0, sizeof(*h));
}

/* ---- plan lookups ---- */

static const struct nn_plan_irq *irq_of(const struct nn_plan *p, const char *nic, int queue, enum nn_qdir dir)
{
	size_t i;

	for (i = 0; i < p->nirqs; i++)
		if (!strcmp(p->irqs[i].nic, nic) && p->irqs[i].queue == queue &&
		    (queue < 0 || p->irqs[i].dir == dir))
			return &p->irqs[i];
	fail_msg("no planned IRQ for %s queue %d", nic, queue);
	return NULL;
}

/* The CPU list a queue IRQ got, as text. */
static char *qcpus(const struct nn_plan *p, const char *nic, int queue, enum nn_qdir dir)
{
	static char buf[8][128];
	static int slot;
	char *l = nn_cpuset_format_list(&irq_of(p, nic, queue, dir)->cpus), *out;

	assert_non_null(l);
	out = buf[slot++ % 8];
	snprintf(out, 128, "%s", l);
	free(l);
	return out;
}

static bool strv_has(char *const *v, size_t n, const char *needle)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(v[i], needle))
			return true;
	return false;
}

static bool has_warning(const struct nn_plan *p, const char *needle)
{
	return strv_has(p->warnings, p->nwarnings, needle);
}

/* A host fact no option changes: a note (exit 0), never a warning. */
static bool has_note(const struct nn_plan *p, const char *needle)
{
	return strv_has(p->notes, p->nnotes, needle);
}

static void plan_ok(const struct nn_host *h, const struct nn_plan_opts *o, struct nn_plan *p)
{
	assert_int_equal(nn_plan_make(h, o, p), 0);
}

/* Two sockets, SMT, Xeon-style numbering: node 0 = 0-3,8-11, node 1 = 4-7,12-15. */
static void xeon(struct nn_host *h)
{
	int c;

	memset(h, 0, sizeof(*h));
	for (c = 0; c < 8; c++) {
		int node = c / 4;

		add_cpu(h, c, node, node, c % 4, node * 4);
		add_cpu(h, c + 8, node, node, c % 4, node * 4);
	}
	finish(h, 2, NULL);
}

/* ---- tests ---- */

/* 8 CPUs on one node, two 3-queue i40e NICs listed out of name order. */
static void two_i40e_one_node(struct nn_host *h)
{
	int c;

	memset(h, 0, sizeof(*h));
	for (c = 0; c < 8; c++)
		add_cpu(h, c, 0, 0, c, 0);
	finish(h, 1, NULL);
	add_nic(h, "ethb", "0000:02:00.0", 0, "0-7", 3, 60, I40E);
	add_nic(h, "etha", "0000:01:00.0", 0, "0-7", 3, 40, I40E);
}

/* The names apply --plan discovers alone: every NIC an entry uses, once,
 * including one only a hand-edited entry names. */
static void test_plan_nic_names(void **state)
{
	struct nn_host h;
	struct nn_plan p;
	char **v, *x;
	size_t n;

	(void)state;
	two_i40e_one_node(&h);
	plan_ok(&h, NULL, &p);
	assert_int_equal(nn_plan_nic_names(&p, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0], "etha");
	assert_string_equal(v[1], "ethb");
	free(v);
	/* an xps entry for a NIC the nics list lacks is still read */
	assert_true(p.nxps > 0);
	x = p.xps[0].nic;
	p.xps[0].nic = (char *)"ethz";
	assert_int_equal(nn_plan_nic_names(&p, &v, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[2], "ethz");
	free(v);
	p.xps[0].nic = x;
	nn_plan_free(&p);
	host_free(&h);
	/* an empty plan names none */
	memset(&p, 0, sizeof(p));
	assert_int_equal(nn_plan_nic_names(&p, &v, &n), 0);
	assert_int_equal(n, 0);
	free(v);
}

static void test_smt_cores_before_siblings(void **state)
{
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	xeon(&h);
	add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 6, 100, MLX5);
	plan_ok(&h, NULL, &p);
	/* housekeeping: first core of each node with its sibling */
	{
		char *hk = nn_cpuset_format_list(&p.housekeeping);

		assert_string_equal(hk, "0,4,8,12");
		free(hk);
	}
	assert_string_equal(qcpus(&p, "mlx0", 0, NN_QDIR_RXTX), "5");
	assert_string_equal(qcpus(&p, "mlx0", 1, NN_QDIR_RXTX), "6");
	assert_string_equal(qcpus(&p, "mlx0", 2, NN_QDIR_RXTX), "7");
	assert_string_equal(qcpus(&p, "mlx0", 3, NN_QDIR_RXTX), "13");
	assert_string_equal(qcpus(&p, "mlx0", 5, NN_QDIR_RXTX), "15");
	assert_contains(irq_of(&p, "mlx0", 0, NN_QDIR_RXTX)->reason, "local node 1, core 1");
	assert_contains(irq_of(&p, "mlx0", 3, NN_QDIR_RXTX)->reason, "SMT sibling");
	/* non-queue IRQ on node 1's housekeeping core */
	assert_string_equal(qcpus(&p, "mlx0", -1, NN_QDIR_NONE), "4,12");
	assert_int_equal(irq_of(&p, "mlx0", -1, NN_QDIR_NONE)->node, 1);
	assert_int_equal(p.nwarnings, 0);
	/* XPS follows the queue IRQ */
	assert_int_equal(p.nxps, 6);
	assert_int_equal(p.xps[3].queue, 3);
	assert_true(nn_cpuset_test(&p.xps[3].cpus, 13));
	assert_int_equal(nn_cpuset_count(&p.xps[3].cpus), 1);
	nn_plan_free(&p);
	host_free(&h);
}

static void test_more_queues_than_cpus_wrap(void **state)
{
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	xeon(&h);
	add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 8, 100, MLX5);
	plan_ok(&h, NULL, &p);
	/* 6 usable threads: cores 5,6,7, siblings 13,14,15, then wrap */
	assert_string_equal(qcpus(&p, "mlx0", 5, NN_QDIR_RXTX), "15");
	assert_string_equal(qcpus(&p, "mlx0", 6, NN_QDIR_RXTX), "5");
	assert_string_equal(qcpus(&p, "mlx0", 7, NN_QDIR_RXTX), "6");
	assert_contains(irq_of(&p, "mlx0", 7, NN_QDIR_RXTX)->reason, "shared");
	assert_true(has_warning(&p, "8 queues on 6 CPUs"));
	/* no spill to the other socket for SMT-sized shortfalls */
	assert_false(has_warning(&p, "spill"));
	nn_plan_free(&p);
	host_free(&h);
}

/* NPS4-like: nodes 0,1 on one socket (12), 2,3 on the other (32 across), node 4 memory-only. */
static void test_nps4_spill_by_distance(void **state)
{
	static const int d[25] = {
		10, 12, 32, 32, 20,
		12, 10, 32, 32, 24,
		32, 32, 10, 12, 30,
		32, 32, 12, 10, 30,
		20, 24, 30, 30, 10,
	};
	struct nn_host h;
	struct nn_plan p;
	int c;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (c = 0; c < 16; c++)
		add_cpu(&h, c, c / 4, c / 8, c % 8, (c / 4) * 4);
	finish(&h, 5, d);
	add_nic(&h, "eth1", "0000:41:00.0", 1, "4-7", 4, 200, I40E);
	add_nic(&h, "eth4", "0000:c1:00.0", 4, "", 2, 300, I40E);
	plan_ok(&h, NULL, &p);
	/* node 1: 4 housekeeping, 5,6,7 usable; the 4th queue spills to node 0
	 * (12), not 2/3 (32), into a core node 0's own NICs leave free: from its back */
	assert_string_equal(qcpus(&p, "eth1", 0, NN_QDIR_RXTX), "5");
	assert_string_equal(qcpus(&p, "eth1", 2, NN_QDIR_RXTX), "7");
	assert_string_equal(qcpus(&p, "eth1", 3, NN_QDIR_RXTX), "3");
	assert_contains(irq_of(&p, "eth1", 3, NN_QDIR_RXTX)->reason, "spill to node 0 (distance 12)");
	assert_true(has_warning(&p, "eth1: node 1 has 3 usable cores for 4 queues: 1 spilled"));
	/* memory-only node 4: nearest node with CPUs is node 0 (distance 20); it
	 * gets the spare cores eth1 did not borrow */
	assert_string_equal(qcpus(&p, "eth4", 0, NN_QDIR_RXTX), "1");
	assert_string_equal(qcpus(&p, "eth4", 1, NN_QDIR_RXTX), "2");
	assert_contains(irq_of(&p, "eth4", 0, NN_QDIR_RXTX)->reason, "spill to node 0 (distance 20)");
	assert_string_equal(qcpus(&p, "eth4", -1, NN_QDIR_NONE), "0");
	assert_contains(irq_of(&p, "eth4", -1, NN_QDIR_NONE)->reason, "nearest to node 4");
	nn_plan_free(&p);
	host_free(&h);
}

/* Spill only borrows what the other node's own NICs leave free: two busy
 * sub-NUMA nodes keep their queues at home (siblings, then wrap). */
static void test_no_spill_into_busy_node(void **state)
{
	static const int d[4] = { 10, 12, 12, 10 };
	struct nn_host h;
	struct nn_plan p;
	int c;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (c = 0; c < 8; c++)
		add_cpu(&h, c, c / 4, 0, c, (c / 4) * 4);
	finish(&h, 2, d);
	add_nic(&h, "eth0", "0000:01:00.0", 0, "0-3", 4, 100, I40E);
	add_nic(&h, "eth1", "0000:02:00.0", 1, "4-7", 4, 200, I40E);
	plan_ok(&h, NULL, &p);
	assert_string_equal(qcpus(&p, "eth0", 3, NN_QDIR_RXTX), "1");
	assert_string_equal(qcpus(&p, "eth1", 3, NN_QDIR_RXTX), "5");
	assert_false(has_warning(&p, "spilled"));
	assert_true(has_warning(&p, "eth0: 4 queues on 3 CPUs"));
	nn_plan_free(&p);
	host_free(&h);
}

/* Nodes that interleave CPU numbers: node 0 even, node 1 odd. */
static void test_even_odd_nodes(void **state)
{
	struct nn_host h;
	struct nn_plan p;
	int c;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (c = 0; c < 8; c++)
		add_cpu(&h, c, c % 2, c % 2, c / 2, c % 2);
	finish(&h, 2, NULL);
	add_nic(&h, "eth0", "0000:01:00.0", 1, "1,3,5,7", 3, 50, I40E);
	plan_ok(&h, NULL, &p);
	assert_string_equal(qcpus(&p, "eth0", 0, NN_QDIR_RXTX), "3");
	assert_string_equal(qcpus(&p, "eth0", 1, NN_QDIR_RXTX), "5");
	assert_string_equal(qcpus(&p, "eth0", 2, NN_QDIR_RXTX), "7");
	assert_string_equal(qcpus(&p, "eth0", -1, NN_QDIR_NONE), "1");
	assert_int_equal(p.nics[0].node, 1);
	nn_plan_free(&p);
	host_free(&h);
}

static void test_unknown_node_local_cpus(void **state)
{
	struct nn_host h;
	struct nn_plan p;
	char *eal;
	bool shared;

	(void)state;
	xeon(&h);
	/* numa_node -1, but local_cpus names node 1 only: use it, no warning */
	add_nic(&h, "vnet0", "0000:00:03.0", -1, "4-7,12-15", 2, 30, VIRTIO);
	plan_ok(&h, NULL, &p);
	assert_string_equal(qcpus(&p, "vnet0", 0, NN_QDIR_RX), "5");
	/* rx and tx of the same index share a CPU */
	assert_string_equal(qcpus(&p, "vnet0", 0, NN_QDIR_TX), "5");
	assert_string_equal(qcpus(&p, "vnet0", 1, NN_QDIR_TX), "6");
	assert_contains(irq_of(&p, "vnet0", 1, NN_QDIR_TX)->reason, "local_cpus");
	assert_false(has_warning(&p, "unknown locality"));
	assert_string_equal(qcpus(&p, "vnet0", -1, NN_QDIR_NONE), "4,12");
	/* EAL: node 1's CPUs minus housekeeping and the IRQ cores with their
	 * SMT siblings (5/13, 6/14: layout --dpdk's rule); the NIC's home is node 1 */
	assert_int_equal(nn_plan_eal_args(&p, &h, 1, &eal, &shared), 0);
	assert_string_equal(eal, "-l 7,15 -a 0000:00:03.0");
	assert_false(shared);
	free(eal);
	nn_plan_free(&p);
	host_free(&h);

	/* local_cpus = all CPUs: unknown locality, spread across both nodes */
	xeon(&h);
	add_nic(&h, "vnet0", "0000:00:03.0", -1, "0-15", 2, 30, VIRTIO);
	plan_ok(&h, NULL, &p);
	assert_true(has_note(&p, "vnet0: unknown locality"));
	assert_false(has_warning(&p, "vnet0: unknown locality"));
	assert_string_equal(qcpus(&p, "vnet0", 0, NN_QDIR_RX), "1");
	assert_string_equal(qcpus(&p, "vnet0", 1, NN_QDIR_RX), "5");
	assert_string_equal(qcpus(&p, "vnet0", 1, NN_QDIR_TX), "5");
	assert_contains(irq_of(&p, "vnet0", 1, NN_QDIR_TX)->reason, "unknown locality");
	assert_int_equal(p.nics[0].node, -1);
	assert_string_equal(qcpus(&p, "vnet0", -1, NN_QDIR_NONE), "0,4,8,12");
	nn_plan_free(&p);
	host_free(&h);
}

/* Never worse than before: vectors of no recognised role (a driver whose
 * names nicnuma does not know) are spread over the NIC's CPUs like queues,
 * never piled on housekeeping; a misc vector still goes there; a warning
 * names each unknown one. */
static void test_unknown_role_spread(void **state)
{
	struct nn_host h;
	struct nn_plan p;
	struct nn_nic *n;
	size_t i, k, onhk = 0, unknown = 0;
	bool warned = false;
	int c;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (c = 0; c < 8; c++)
		add_cpu(&h, c, 0, 0, c, 0);
	finish(&h, 1, NULL);
	n = add_nic(&h, "eth0", "0000:01:00.0", 0, "0-7", 4, 40, I40E);
	/* the names are a vendor's nicnuma does not know: queue -1, role unknown */
	for (k = 1; k < n->nirqs; k++) {
		n->irqs[k].queue = -1;
		n->irqs[k].dir = NN_QDIR_NONE;
		n->irqs[k].role = NN_IRQ_ROLE_UNKNOWN;
	}
	plan_ok(&h, NULL, &p);
	for (i = 0; i < p.nirqs; i++) {
		char *cpus = nn_cpuset_format_list(&p.irqs[i].cpus);

		if (p.irqs[i].irq == 40) {
			assert_int_equal(p.irqs[i].role, NN_IRQ_ROLE_MISC);
			assert_true(nn_cpuset_equal(&p.irqs[i].cpus, &p.housekeeping));
		} else {
			assert_int_equal(p.irqs[i].role, NN_IRQ_ROLE_UNKNOWN);
			assert_int_equal(p.irqs[i].queue, -1);
			assert_int_equal(nn_cpuset_count(&p.irqs[i].cpus), 1);
			onhk += nn_cpuset_intersects(&p.irqs[i].cpus, &p.housekeeping);
			unknown++;
			assert_non_null(strstr(p.irqs[i].reason, "role unknown, placed like a queue"));
		}
		free(cpus);
	}
	assert_int_equal(unknown, 4);
	assert_int_equal(onhk, 0);
	/* one CPU each, all different: spread, not stacked */
	for (i = 1; i < p.nirqs; i++)
		for (k = i + 1; k < p.nirqs; k++)
			assert_false(nn_cpuset_equal(&p.irqs[i].cpus, &p.irqs[k].cpus));
	for (i = 0; i < p.nwarnings; i++)
		warned |= strstr(p.warnings[i], "eth0: 4 IRQs of no recognised role") &&
			strstr(p.warnings[i], "41 (eth0-q0-0)") && strstr(p.warnings[i], "44 (eth0-q3-0)");
	assert_true(warned);
	nn_plan_free(&p);
	host_free(&h);
}

static void test_two_nics_one_node(void **state)
{
	struct nn_host h;
	struct nn_plan p;
	int c;

	(void)state;
	two_i40e_one_node(&h);
	plan_ok(&h, NULL, &p);
	/* disjoint cores, NICs in name order */
	assert_string_equal(qcpus(&p, "etha", 0, NN_QDIR_RXTX), "1");
	assert_string_equal(qcpus(&p, "etha", 2, NN_QDIR_RXTX), "3");
	assert_string_equal(qcpus(&p, "ethb", 0, NN_QDIR_RXTX), "4");
	assert_string_equal(qcpus(&p, "ethb", 2, NN_QDIR_RXTX), "6");
	assert_string_equal(p.nics[0].nic, "etha");
	assert_int_equal(p.nirqs, 8);
	assert_int_equal(p.irqs[0].irq, 40);	/* deterministic: NIC name, then IRQ */
	nn_plan_free(&p);
	host_free(&h);

	/* 6 + 6 queues on 7 cores: an even share, 4 and 3, each NIC wraps inside its own */
	memset(&h, 0, sizeof(h));
	for (c = 0; c < 8; c++)
		add_cpu(&h, c, 0, 0, c, 0);
	finish(&h, 1, NULL);
	add_nic(&h, "etha", "0000:01:00.0", 0, "0-7", 6, 40, I40E);
	add_nic(&h, "ethb", "0000:02:00.0", 0, "0-7", 6, 60, I40E);
	plan_ok(&h, NULL, &p);
	{
		char *a = nn_cpuset_format_list(&p.nics[0].cpus), *b = nn_cpuset_format_list(&p.nics[1].cpus);

		assert_string_equal(a, "1-4");
		assert_string_equal(b, "5-7");
		free(a);
		free(b);
	}
	assert_string_equal(qcpus(&p, "etha", 4, NN_QDIR_RXTX), "1");
	assert_string_equal(qcpus(&p, "ethb", 3, NN_QDIR_RXTX), "5");
	assert_contains(p.nics[0].reason, "even share of 4 cores");
	nn_plan_free(&p);
	host_free(&h);

	/* a small NIC takes what it needs, the big one gets the rest */
	memset(&h, 0, sizeof(h));
	for (c = 0; c < 8; c++)
		add_cpu(&h, c, 0, 0, c, 0);
	finish(&h, 1, NULL);
	add_nic(&h, "etha", "0000:01:00.0", 0, "0-7", 1, 40, I40E);
	add_nic(&h, "ethb", "0000:02:00.0", 0, "0-7", 16, 60, I40E);
	plan_ok(&h, NULL, &p);
	assert_string_equal(qcpus(&p, "etha", 0, NN_QDIR_RXTX), "1");
	{
		char *b = nn_cpuset_format_list(&p.nics[1].cpus);

		assert_string_equal(b, "2-7");
		free(b);
	}
	nn_plan_free(&p);
	host_free(&h);
}

static void test_housekeeping_reserve_and_cpus(void **state)
{
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	xeon(&h);
	add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 2, 100, MLX5);
	memset(&o, 0, sizeof(o));
	o.has_reserve = true;
	set_list(&o.reserve, "4-5,12-13");
	plan_ok(&h, &o, &p);
	assert_string_equal(qcpus(&p, "mlx0", 0, NN_QDIR_RXTX), "6");
	assert_string_equal(qcpus(&p, "mlx0", 1, NN_QDIR_RXTX), "7");
	assert_string_equal(qcpus(&p, "mlx0", -1, NN_QDIR_NONE), "4-5,12-13");
	nn_plan_free(&p);
	nn_plan_opts_free(&o);

	/* --cpus restricts the queues */
	memset(&o, 0, sizeof(o));
	set_list(&o.cpus, "6,14-15");
	plan_ok(&h, &o, &p);
	assert_string_equal(qcpus(&p, "mlx0", 0, NN_QDIR_RXTX), "6");
	assert_string_equal(qcpus(&p, "mlx0", 1, NN_QDIR_RXTX), "15");
	nn_plan_free(&p);
	nn_plan_opts_free(&o);

	/* nothing online in --cpus: refused */
	memset(&o, 0, sizeof(o));
	set_list(&o.cpus, "100");
	assert_int_equal(nn_plan_make(&h, &o, &p), -EINVAL);
	nn_plan_opts_free(&o);

	/* unknown NIC name: refused */
	memset(&o, 0, sizeof(o));
	o.nics = calloc(1, sizeof(char *));
	o.nics[0] = strdup("nope");
	o.nnics = 1;
	assert_int_equal(nn_plan_make(&h, &o, &p), -ENODEV);
	nn_plan_opts_free(&o);
	host_free(&h);
}

/* Isolated CPUs take no queue IRQ and no housekeeping role unless --cpus
 * names them, and the plan lists what it left out. */
static void test_isolated_left_out(void **state)
{
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p, back;
	struct json_object *doc;
	char why[256], *s;

	(void)state;
	xeon(&h);
	/* node 1 = 4-7,12-15: its first two cores (4/12, 5/13) isolated */
	set_list(&h.topo.isol.isolcpus, "4-5");
	h.topo.isol.isolcpus_flags = NN_ISOL_DOMAIN | NN_ISOL_MANAGED_IRQ;
	set_list(&h.topo.isol.nohz_full, "12-13");
	add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 2, 100, MLX5);
	memset(&o, 0, sizeof(o));
	plan_ok(&h, &o, &p);
	s = nn_cpuset_format_list(&p.isolated);
	assert_string_equal(s, "4-5,12-13");
	free(s);
	s = nn_cpuset_format_list(&p.housekeeping);
	assert_string_equal(s, "0,6,8,14");	/* node 1: its lowest non-isolated core */
	free(s);
	assert_string_equal(qcpus(&p, "mlx0", 0, NN_QDIR_RXTX), "7");
	assert_string_equal(qcpus(&p, "mlx0", 1, NN_QDIR_RXTX), "15");
	assert_string_equal(qcpus(&p, "mlx0", -1, NN_QDIR_NONE), "6,14");
	/* The plan file keeps the list. */
	doc = nn_plan_to_json(&p);
	assert_non_null(doc);
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), 0);
	assert_true(nn_cpuset_equal(&back.isolated, &p.isolated));
	json_object_put(doc);
	nn_plan_free(&back);
	nn_plan_free(&p);

	/* --cpus naming isolated CPUs hands them over. */
	set_list(&o.cpus, "4-7,12-15");
	plan_ok(&h, &o, &p);
	assert_true(nn_cpuset_empty(&p.isolated));
	assert_string_equal(qcpus(&p, "mlx0", 0, NN_QDIR_RXTX), "4");
	assert_string_equal(qcpus(&p, "mlx0", 1, NN_QDIR_RXTX), "5");
	nn_plan_free(&p);
	nn_plan_opts_free(&o);

	/* --reserve on an isolated CPU: dropped, with a warning. */
	memset(&o, 0, sizeof(o));
	o.has_reserve = true;
	set_list(&o.reserve, "0,4,6");
	plan_ok(&h, &o, &p);
	assert_true(has_warning(&p, "--reserve: CPUs 4 are isolated"));
	s = nn_cpuset_format_list(&p.housekeeping);
	assert_string_equal(s, "0,6");
	free(s);
	nn_plan_free(&p);
	nn_plan_opts_free(&o);

	/* Every allowed CPU isolated: nothing left to plan on. */
	set_list(&h.topo.isol.isolated, "0-15");
	memset(&o, 0, sizeof(o));
	assert_int_equal(nn_plan_make(&h, &o, &p), -EINVAL);
	nn_plan_opts_free(&o);
	host_free(&h);
}

/* The RPS entry of @nic's rx queue @q, or NULL. */
static const struct nn_plan_rps *rps_of(const struct nn_plan *p, const char *nic, int q)
{
	for (size_t i = 0; i < p->nrps; i++)
		if (!strcmp(p->rps[i].nic, nic) && p->rps[i].queue == q)
			return &p->rps[i];
	return NULL;
}

static char *rps_cpus(const struct nn_plan *p, const char *nic, int q)
{
	static char buf[64];
	const struct nn_plan_rps *r = rps_of(p, nic, q);
	char *l;

	if (!r)
		return NULL;
	l = nn_cpuset_format_list(&r->cpus);
	snprintf(buf, sizeof(buf), "%s", l);
	free(l);
	return buf;
}

/* No queue IRQ of @p on a CPU of @s. */
static void irqs_off(const struct nn_plan *p, const struct nn_cpuset *s)
{
	for (size_t i = 0; i < p->nirqs; i++)
		assert_false(nn_cpuset_intersects(&p->irqs[i].cpus, s));
	for (size_t i = 0; i < p->nxps; i++)
		assert_false(nn_cpuset_intersects(&p->xps[i].cpus, s));
	for (size_t i = 0; i < p->nrps; i++)
		assert_false(nn_cpuset_intersects(&p->rps[i].cpus, s));
}

/* The lcores layout --dpdk hands out for plan @p (its housekeeping). */
static void layout_lcores(const struct nn_host *h, const struct nn_plan *p, struct nn_cpuset *out)
{
	struct nn_layout_opts lo = { .service = "fwd", .dpdk = true };
	struct nn_layout l;
	char why[256];

	assert_int_equal(nn_cpuset_copy(&lo.housekeeping, &p->housekeeping), 0);
	assert_int_equal(nn_layout_make(h, p, &lo, &l, why, sizeof(why)), 0);
	for (size_t i = 0; i < l.ninst; i++)
		assert_int_equal(nn_cpuset_or(out, &l.inst[i].cpus), 0);
	nn_layout_free(&l);
	nn_layout_opts_free(&lo);
}

/* --profile dpdk: the lcores layout --dpdk hands out take no queue IRQ,
 * XPS or RPS CPU; a node left only its housekeeping keeps its NIC there
 * (no spill to the other node, no warning); with isolated CPUs the lcores
 * are those; the plan file keeps them; a layout of that plan hands out
 * the same lcores. Without the profile there are none. */
static void test_dpdk_profile(void **state)
{
	struct nn_cpuset lay = NN_CPUSET_INIT;
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p, back;
	struct json_object *doc;
	char why[256], *s;

	(void)state;
	xeon(&h);
	/* node 1 = 4-7,12-15, housekeeping 4,12 */
	add_nic(&h, "i40e0", "0000:81:00.0", 1, "4-7,12-15", 1, 100, I40E);
	memset(&o, 0, sizeof(o));
	plan_ok(&h, &o, &p);
	assert_true(nn_cpuset_empty(&p.dpdk_lcores));
	assert_null(p.dpdk_reason);
	assert_string_equal(qcpus(&p, "i40e0", 0, NN_QDIR_RXTX), "5");	/* today's placement */
	nn_plan_free(&p);

	o.profile = NN_PROFILE_DPDK;
	o.rps = NN_RPS_AUTO;
	plan_ok(&h, &o, &p);
	s = nn_cpuset_format_list(&p.dpdk_lcores);
	assert_string_equal(s, "5-7,13-15");	/* node 0 holds no NIC: no instance there */
	free(s);
	assert_non_null(strstr(p.dpdk_reason, "node 1: 5-7,13-15 (every CPU outside housekeeping)"));
	/* at home on node 1's housekeeping, not spilled to node 0 */
	assert_string_equal(qcpus(&p, "i40e0", 0, NN_QDIR_RXTX), "4");
	assert_int_equal(p.nwarnings, 0);
	irqs_off(&p, &p.dpdk_lcores);
	/* RPS: 1 queue < 2 usable (4,12): the other housekeeping CPU, not an lcore */
	assert_string_equal(rps_cpus(&p, "i40e0", 0), "12");
	layout_lcores(&h, &p, &lay);
	assert_true(nn_cpuset_equal(&lay, &p.dpdk_lcores));
	nn_cpuset_free(&lay);
	doc = nn_plan_to_json(&p);
	assert_non_null(doc);
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), 0);
	assert_true(nn_cpuset_equal(&back.dpdk_lcores, &p.dpdk_lcores));
	assert_string_equal(back.dpdk_reason, p.dpdk_reason);
	assert_int_equal(back.profile, NN_PROFILE_DPDK);
	json_object_put(doc);
	nn_plan_free(&back);
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);

	/* isolated CPUs on the NIC's node: they are the lcores, the rest stays the kernel's */
	xeon(&h);
	set_list(&h.topo.isol.isolcpus, "5,13");
	h.topo.isol.isolcpus_flags = NN_ISOL_DOMAIN;
	add_nic(&h, "i40e0", "0000:81:00.0", 1, "4-7,12-15", 2, 100, I40E);
	memset(&o, 0, sizeof(o));
	o.profile = NN_PROFILE_DPDK;
	plan_ok(&h, &o, &p);
	s = nn_cpuset_format_list(&p.dpdk_lcores);
	assert_string_equal(s, "5,13");
	free(s);
	assert_non_null(strstr(p.dpdk_reason, "(its isolated CPUs)"));
	assert_string_equal(qcpus(&p, "i40e0", 0, NN_QDIR_RXTX), "6");
	assert_string_equal(qcpus(&p, "i40e0", 1, NN_QDIR_RXTX), "7");
	irqs_off(&p, &p.dpdk_lcores);
	layout_lcores(&h, &p, &lay);
	assert_true(nn_cpuset_equal(&lay, &p.dpdk_lcores));
	nn_cpuset_free(&lay);
	nn_plan_free(&p);

	/* 16 queues left 2 CPUs by the lcores: a warning with the way out */
	add_nic(&h, "ice0", "0000:82:00.0", 1, "4-7,12-15", 16, 200, I40E);
	plan_ok(&h, &o, &p);
	assert_true(has_warning(&p, "ice0: 16 queues on 2 CPUs: queues share CPUs, as profile dpdk keeps the "
				"kernel's NIC work off its lcores 5,13; for a kernel NIC that carries the data "
				"traffic: fewer queues (--channels), the port to a PMD (--dpdk-ports ice0)"));
	nn_plan_free(&p);
	o.profile = NN_PROFILE_NONE;
	plan_ok(&h, &o, &p);
	assert_true(has_warning(&p, "ice0: 16 queues on"));
	assert_false(has_warning(&p, "profile dpdk"));
	nn_plan_free(&p);
	o.profile = NN_PROFILE_DPDK;

	/* --cpus naming only the lcores: placed as without the profile, and said */
	set_list(&o.cpus, "5,13");
	plan_ok(&h, &o, &p);
	assert_true(nn_cpuset_empty(&p.dpdk_lcores));
	assert_true(has_warning(&p, "profile dpdk: --cpus leaves no CPU outside the lcores"));
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}

/* --rps auto: off by default; the node's CPUs without the NIC's IRQ CPUs,
 * housekeeping or isolated ones; none where the queues cover the node;
 * housekeeping as the last resort; none for an unknown node on 2 nodes. */
/* The running kernel as plan_boot.c reads it: @config for every option
 * the planner asks about (1 built, 0 not, -1 no configuration found). */
static void boot_kernel(struct nn_host *h, const char *rel, int config, const char *vendor)
{
	h->boot.read = true;
	snprintf(h->boot.kernel.release, sizeof(h->boot.kernel.release), "%s", rel);
	assert_int_equal(nn_kernel_release_parse(rel, &h->boot.kernel.major, &h->boot.kernel.minor), 0);
	for (int k = 0; k < NN_KCONF_N; k++)
		h->boot.kernel.config[k] = (signed char)config;
	if (config >= 0)
		snprintf(h->boot.kernel.config_file, sizeof(h->boot.kernel.config_file), "/boot/config-%s", rel);
	snprintf(h->topo.knobs.cpu_vendor, sizeof(h->topo.knobs.cpu_vendor), "%s", vendor);
}

/* Each node a 1 GB pool beside the 2 MB one, empty. */
static void gig_pools(struct nn_host *h)
{
	for (size_t i = 0; i < h->topo.nnodes; i++) {
		struct nn_node *nd = &h->topo.nodes[i];

		nd->hugepages = realloc(nd->hugepages, 2 * sizeof(*nd->hugepages));
		assert_non_null(nd->hugepages);
		nd->hugepages[1] = (struct nn_hugepages){ .size_kb = 1048576, .total = 0, .free = 0, .surplus = 0 };
		nd->nhugepages = 2;
	}
}

static const char *barg(const struct nn_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nboot_args; i++)
		if (!strcmp(p->boot_args[i].name, name))
			return p->boot_args[i].text;
	return NULL;
}

static const char *bskip(const struct nn_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nboot_left; i++)
		if (!strcmp(p->boot_left[i].name, name))
			return p->boot_left[i].reason;
	return NULL;
}

static const char *breason(const struct nn_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nboot_args; i++)
		if (!strcmp(p->boot_args[i].name, name))
			return p->boot_args[i].reason;
	return "";
}

/* A port planned for vfio-pci (plan --dpdk-ports fills them; set by hand here). */
static void vfio_port(struct nn_plan *p, bool noiommu)
{
	p->ports = calloc(1, sizeof(*p->ports));
	assert_non_null(p->ports);
	p->nports = 1;
	snprintf(p->ports[0].pci, sizeof(p->ports[0].pci), "0000:81:00.1");
	snprintf(p->ports[0].driver, sizeof(p->ports[0].driver), "vfio-pci");
	p->ports[0].node = 1;
	p->ports[0].iommu_group = 42;
	p->ports[0].noiommu = noiommu;
}

static void ports_free(struct nn_plan *p)
{
	free(p->ports);
	p->ports = NULL;
	p->nports = 0;
}

static void test_boot_args(void **state)
{
	struct nn_plan_opts o;
	struct nn_plan p, back;
	struct nn_host h;
	struct json_object *doc, *a;
	char why[256];

	(void)state;
	xeon(&h);
	gig_pools(&h);
	/* node 1 = 4-7,12-15, housekeeping 4,12: the lcores are 5-7,13-15 */
	add_nic(&h, "i40e0", "0000:81:00.0", 1, "4-7,12-15", 2, 100, I40E);
	boot_kernel(&h, "6.1.0-26-amd64", 1, "GenuineIntel");
	memset(&o, 0, sizeof(o));
	o.profile = NN_PROFILE_DPDK;
	o.hugepage_size_kb = 1048576;
	o.hugepage_count = 4;
	/* none: nothing at boot (the default without a profile; the commands that write boot arguments choose it) */
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nboot_args + p.nboot_left, 0);
	nn_plan_free(&p);

	o.boot_mode = NN_BOOT_AUTO;
	plan_ok(&h, &o, &p);
	assert_string_equal(barg(&p, "hugepages"), "hugepagesz=1G hugepages=1:4");	/* per node: 6.1 >= 5.16 */
	assert_string_equal(barg(&p, "isolcpus"), "isolcpus=managed_irq,domain,5-7,13-15");
	assert_string_equal(barg(&p, "nohz_full"), "nohz_full=5-7,13-15");
	assert_string_equal(barg(&p, "rcu_nocbs"), "rcu_nocbs=5-7,13-15");
	assert_string_equal(barg(&p, "irqaffinity"), "irqaffinity=0-4,8-12");
	assert_contains(breason(&p, "isolcpus"), "profile dpdk");
	/* no port for vfio-pci: no IOMMU argument, and nothing to say about it under auto */
	assert_null(barg(&p, "iommu"));
	assert_null(bskip(&p, "iommu"));
	assert_int_equal(p.nboot_left, 0);
	/* the plan file keeps them */
	doc = nn_plan_to_json(&p);
	assert_non_null(doc);
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), 0);
	assert_int_equal(back.boot_mode, NN_BOOT_AUTO);
	assert_int_equal(back.nboot_args, p.nboot_args);
	assert_string_equal(back.boot_args[1].text, p.boot_args[1].text);
	nn_plan_free(&back);
	/* and a hand-made one cannot slip a word into the bootloader */
	assert_true(json_object_object_get_ex(json_object_object_get(json_object_object_get(doc, "plan"), "boot_args"),
					      "args", &a));
	json_object_object_add(json_object_array_get_idx(a, 1), "text",
			       json_object_new_string("isolcpus=2 init=/bin/sh"));
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), -EINVAL);
	assert_contains(why, "plan.boot_args.args[1]");
	json_object_put(doc);

	/* a port on vfio-pci: Intel's IOMMU asked for, passthrough for the rest */
	vfio_port(&p, false);
	assert_int_equal(nn_plan_boot(&h, &o, &p), 0);
	assert_string_equal(barg(&p, "intel_iommu"), "intel_iommu=on");
	assert_string_equal(barg(&p, "iommu"), "iommu=pt");
	/* AMD's is on by default: passthrough only */
	boot_kernel(&h, "6.1.0-26-amd64", 1, "AuthenticAMD");
	assert_int_equal(nn_plan_boot(&h, &o, &p), 0);
	assert_null(barg(&p, "intel_iommu"));
	assert_string_equal(barg(&p, "iommu"), "iommu=pt");
	assert_contains(breason(&p, "iommu"), "amd_iommu= takes no");
	/* no-IOMMU mode: nothing to turn on */
	ports_free(&p);
	vfio_port(&p, true);
	assert_int_equal(nn_plan_boot(&h, &o, &p), 0);
	assert_null(barg(&p, "iommu"));
	assert_contains(bskip(&p, "iommu"), "no-IOMMU mode");
	ports_free(&p);
	nn_plan_free(&p);

	/* a kernel built without NO_HZ_FULL, older than 5.16 and 5.6 */
	boot_kernel(&h, "5.4.0-150-generic", 1, "GenuineIntel");
	h.boot.kernel.config[NN_KCONF_NO_HZ_FULL] = 0;
	plan_ok(&h, &o, &p);
	assert_null(barg(&p, "nohz_full"));
	assert_contains(bskip(&p, "nohz_full"), "built without CONFIG_NO_HZ_FULL (/boot/config-5.4.0-150-generic)");
	assert_string_equal(barg(&p, "isolcpus"), "isolcpus=domain,5-7,13-15");
	assert_contains(breason(&p, "isolcpus"), "managed_irq needs Linux 5.6");
	/* the total, 4 on each node with memory: the run-time split as before */
	assert_string_equal(barg(&p, "hugepages"), "hugepagesz=1G hugepages=8");
	nn_plan_free(&p);
	/* named: planned although the configuration lacks it; only those */
	o.boot_mode = NN_BOOT_NAMED;
	o.boot_names = NN_BARG_NOHZ_FULL | NN_BARG_IOMMU;
	plan_ok(&h, &o, &p);
	assert_string_equal(barg(&p, "nohz_full"), "nohz_full=5-7,13-15");
	assert_contains(breason(&p, "nohz_full"), "named in --boot-args although");
	assert_null(barg(&p, "isolcpus"));
	assert_null(barg(&p, "hugepages"));
	assert_contains(bskip(&p, "iommu"), "no port is planned for vfio-pci");
	nn_plan_free(&p);
	/* the kernel not read: planned, and said */
	h.boot.read = false;
	o.boot_mode = NN_BOOT_AUTO;
	plan_ok(&h, &o, &p);
	assert_contains(breason(&p, "nohz_full"), "configuration was not found");
	assert_true(has_warning(&p, "the running kernel was not read"));
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}

/* --profile latency --isolate: the application's CPUs take no NIC work and
 * are isolated at boot like the dpdk lcores. */
static void test_isolate(void **state)
{
	struct nn_plan_opts o;
	struct nn_plan p;
	struct nn_host h;

	(void)state;
	xeon(&h);
	add_nic(&h, "i40e0", "0000:81:00.0", 1, "4-7,12-15", 4, 100, I40E);
	boot_kernel(&h, "6.12.0", 1, "GenuineIntel");
	memset(&o, 0, sizeof(o));
	o.profile = NN_PROFILE_LATENCY;
	o.boot_mode = NN_BOOT_AUTO;
	set_list(&o.isolate, "6-7,14-15");
	plan_ok(&h, &o, &p);
	assert_true(nn_cpuset_equal(&p.isolate, &o.isolate));
	irqs_off(&p, &o.isolate);
	assert_string_equal(barg(&p, "isolcpus"), "isolcpus=managed_irq,domain,6-7,14-15");
	assert_string_equal(barg(&p, "irqaffinity"), "irqaffinity=0-5,8-13");
	assert_contains(breason(&p, "isolcpus"), "profile latency (--isolate's CPUs)");
	nn_plan_free(&p);
	/* every CPU NIC work may use: left as without it, and said */
	nn_cpuset_free(&o.isolate);
	set_list(&o.isolate, "0-15");
	plan_ok(&h, &o, &p);
	assert_true(has_warning(&p, "--isolate 0-15 leaves no CPU for the kernel's NIC work"));
	assert_true(nn_cpuset_empty(&p.isolate));
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}

static void test_rps_rule(void **state)
{
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	xeon(&h);
	/* node 1 = 4-7,12-15; 5/13 isolated */
	set_list(&h.topo.isol.isolcpus, "5,13");
	h.topo.isol.isolcpus_flags = NN_ISOL_DOMAIN;
	add_nic(&h, "i40e0", "0000:81:00.0", 1, "4-7,12-15", 2, 100, I40E);
	memset(&o, 0, sizeof(o));
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrps, 0);	/* default: today's placement */
	assert_int_equal(p.rps_sock_flow_entries, 0);
	nn_plan_free(&p);

	o.rps = NN_RPS_AUTO;
	plan_ok(&h, &o, &p);
	/* housekeeping 4,12; IRQs on 6 and 7; isolated 5,13: left 14,15 */
	assert_string_equal(qcpus(&p, "i40e0", 0, NN_QDIR_RXTX), "6");
	assert_string_equal(qcpus(&p, "i40e0", 1, NN_QDIR_RXTX), "7");
	assert_int_equal(p.nrps, 2);
	assert_string_equal(rps_cpus(&p, "i40e0", 0), "14-15");
	assert_string_equal(rps_cpus(&p, "i40e0", 1), "14-15");
	assert_int_equal(rps_of(&p, "i40e0", 0)->flow_cnt, 16384);
	assert_int_equal(p.rps_sock_flow_entries, 32768);
	assert_non_null(strstr(rps_of(&p, "i40e0", 0)->reason, "free of its IRQs"));
	nn_plan_free(&p);

	/* no RFS table here (a child network namespace): rps_flow_cnt still,
	 * the global table not planned (null), one warning that says why */
	h.rps_sock_flow_entries = -1;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrps, 2);
	assert_int_equal(rps_of(&p, "i40e0", 0)->flow_cnt, 16384);
	assert_int_equal(p.rps_sock_flow_entries, 0);
	{
		size_t i, n = 0;

		for (i = 0; i < p.nnotes; i++)
			n += strstr(p.notes[i], "not the initial network namespace") != NULL;
		assert_int_equal(n, 1);
	}
	nn_plan_free(&p);
	h.rps_sock_flow_entries = 0;

	/* --cpus 4-7: 2 queues, 3 usable CPUs (5 isolated): housekeeping 4 the last resort */
	set_list(&o.cpus, "4,6-7");
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrps, 2);
	assert_non_null(strstr(rps_of(&p, "i40e0", 0)->reason, "housekeeping"));
	assert_false(nn_cpuset_test(&rps_of(&p, "i40e0", 0)->cpus, 6) ||
		     nn_cpuset_test(&rps_of(&p, "i40e0", 0)->cpus, 7));
	nn_plan_free(&p);
	nn_plan_opts_free(&o);

	/* the queues cover the node: none */
	memset(&o, 0, sizeof(o));
	o.rps = NN_RPS_AUTO;
	set_list(&o.cpus, "6-7");
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrps, 0);
	assert_int_equal(p.rps_sock_flow_entries, 0);
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);

	/* unknown locality on two nodes: none, and a warning */
	xeon(&h);
	add_nic(&h, "x0", "0000:03:00.0", -1, "", 1, 100, I40E);
	memset(&o, 0, sizeof(o));
	o.rps = NN_RPS_AUTO;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrps, 0);
	assert_true(has_note(&p, "rps: locality unknown"));
	assert_false(has_warning(&p, "rps: locality unknown"));
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}

/* NAPI settings: per NAPI where napi-get reports them, else the device-wide
 * file with a warning; irq-suspend-timeout has no file. JSON round trip. */
static void test_napi_conf_plan(void **state)
{
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p, back;
	struct json_object *doc;
	struct nn_nic *n;
	char why[256];

	(void)state;
	xeon(&h);
	n = add_nic(&h, "i40e0", "0000:81:00.0", 1, "4-7,12-15", 2, 100, I40E);
	n->genl_read = true;
	n->gnapis = calloc(2, sizeof(*n->gnapis));
	assert_non_null(n->gnapis);
	n->ngnapis = 2;
	for (int i = 0; i < 2; i++) {
		n->gnapis[i] = (struct nn_genl_napi){ .ifindex = n->ifindex, .id = 8193 + i, .irq = -1, .pid = -1,
			.threaded = -1, .defer_hard_irqs = 0, .gro_flush_timeout = 0, .irq_suspend_timeout = -1 };
	}
	memset(&o, 0, sizeof(o));
	o.napi_set = (1u << NN_NAPI_DEFER_HARD_IRQS) | (1u << NN_NAPI_THREADED) | (1u << NN_NAPI_IRQ_SUSPEND_TIMEOUT);
	o.napi_value[NN_NAPI_DEFER_HARD_IRQS] = 2;
	o.napi_value[NN_NAPI_THREADED] = 1;
	o.napi_value[NN_NAPI_IRQ_SUSPEND_TIMEOUT] = 1000;
	plan_ok(&h, &o, &p);
	/* 2 per-NAPI defer entries, threaded device-wide (6.17's per-NAPI threaded not reported) */
	assert_int_equal(p.nnapi_conf, 3);
	assert_int_equal(p.napi_conf[0].napi_id, 8193);
	assert_int_equal(p.napi_conf[1].napi_id, 8194);
	assert_int_equal(p.napi_conf[0].attr, NN_NAPI_DEFER_HARD_IRQS);
	assert_int_equal(p.napi_conf[2].napi_id, -1);
	assert_int_equal(p.napi_conf[2].attr, NN_NAPI_THREADED);
	assert_true(has_note(&p, "threaded: the kernel reports no per-NAPI setting: the device-wide file threaded"));
	assert_false(has_warning(&p, "threaded: the kernel reports no per-NAPI setting: the device-wide file threaded"));
	assert_true(has_warning(&p, "irq-suspend-timeout: the kernel reports no per-NAPI setting and there is no"));
	doc = nn_plan_to_json(&p);
	assert_non_null(doc);
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), 0);
	assert_int_equal(back.nnapi_conf, 3);
	assert_int_equal(back.napi_conf[1].napi_id, 8194);
	assert_int_equal(back.napi_conf[1].ifindex, n->ifindex);
	assert_int_equal(back.napi_conf[2].napi_id, -1);
	assert_int_equal(back.napi_conf[2].value, 1);
	json_object_put(doc);
	nn_plan_free(&back);
	nn_plan_free(&p);

	/* napi-set's policy (asked live) lacks defer-hard-irqs: device-wide, though napi-get reports it */
	n->napi_set_known = true;
	n->napi_set_attrs = 1u << NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.napi_conf[0].napi_id, -1);
	assert_int_equal(p.napi_conf[0].attr, NN_NAPI_DEFER_HARD_IRQS);
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}

static void test_remote_and_spread_policy(void **state)
{
	static const int d[9] = { 10, 20, 30, 20, 10, 20, 30, 20, 10 };
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p;
	int c;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (c = 0; c < 12; c++)
		add_cpu(&h, c, c / 4, c / 4, c % 4, (c / 4) * 4);
	finish(&h, 3, d);
	add_nic(&h, "eth0", "0000:01:00.0", 0, "0-3", 2, 10, I40E);
	memset(&o, 0, sizeof(o));
	o.policy = NN_POLICY_REMOTE;
	plan_ok(&h, &o, &p);
	assert_string_equal(qcpus(&p, "eth0", 0, NN_QDIR_RXTX), "9");
	assert_string_equal(qcpus(&p, "eth0", 1, NN_QDIR_RXTX), "10");
	assert_contains(irq_of(&p, "eth0", 0, NN_QDIR_RXTX)->reason, "remote node 2 (distance 30)");
	assert_string_equal(qcpus(&p, "eth0", -1, NN_QDIR_NONE), "8");
	nn_plan_free(&p);

	o.policy = NN_POLICY_SPREAD;
	o.hugepage_size_kb = 2048;
	o.hugepage_count = 512;
	plan_ok(&h, &o, &p);
	assert_string_equal(qcpus(&p, "eth0", 0, NN_QDIR_RXTX), "1");
	assert_string_equal(qcpus(&p, "eth0", 1, NN_QDIR_RXTX), "5");
	/* hugepages stay on the NIC's node */
	assert_int_equal(p.nhugepages, 1);
	assert_int_equal(p.hugepages[0].node, 0);
	assert_int_equal(p.hugepages[0].target, 512);
	assert_int_equal(p.hugepages[0].current, 0);
	{
		char *eal;
		bool shared;

		assert_int_equal(nn_plan_eal_args(&p, &h, 0, &eal, &shared), 0);
		assert_string_equal(eal, "-l 2-3 --socket-mem 1024,0,0 -a 0000:01:00.0");
		free(eal);
	}
	nn_plan_free(&p);

	/* a pool that already holds more is kept; DPDK still asks for COUNT */
	h.topo.nodes[0].hugepages[0].total = 2048;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.hugepages[0].current, 2048);
	assert_int_equal(p.hugepages[0].target, 2048);
	assert_int_equal(p.hugepages[0].request, 512);
	{
		char *eal;
		bool shared;

		assert_int_equal(nn_plan_eal_args(&p, &h, 0, &eal, &shared), 0);
		assert_contains(eal, "--socket-mem 1024,0,0");
		free(eal);
	}
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}


/* ---- --rss local ---- */

/* One package in two near nodes (10/12), 5 cores each, no SMT: node 0 =
 * 0-4, node 1 = 5-9; the first core of each is housekeeping, so node 0 has 4
 * usable CPUs. An mlx5 NIC with @nq queues on node 0 whose driver reports a
 * table of @size entries over @nq rings (@size 0: @state as given). */
static struct nn_nic *rss_host(struct nn_host *h, int nq, unsigned int size, enum nn_rss_state state)
{
	static const int d[4] = { 10, 12, 12, 10 };
	struct nn_nic *n;
	unsigned int i;
	int c;

	memset(h, 0, sizeof(*h));
	for (c = 0; c < 10; c++)
		add_cpu(h, c, c / 5, 0, c, c / 5);
	finish(h, 2, d);
	n = add_nic(h, "ens1", "0000:17:00.0", 0, "0-4", nq, 40, MLX5);
	n->rss.state = state;
	if (state == NN_RSS_OK) {
		n->rss.size = size;
		n->rss.rings = (unsigned int)nq;
		n->rss.table = calloc(size, sizeof(*n->rss.table));
		assert_non_null(n->rss.table);
		for (i = 0; i < size; i++)
			n->rss.table[i] = i % (unsigned int)nq;
	}
	return n;
}

static void table_of(const struct nn_plan_rss *r, unsigned int size, unsigned int *t)
{
	assert_int_equal(nn_plan_rss_table(r, size, t), 0);
}

/* 16 queues, 4 usable CPUs: queues 0-3 and 8-11 are planned on node 0,
 * 4-7 and 12-15 spill to node 1; the table spreads round-robin over the 8. */
static void test_rss_equal(void **state)
{
	static const int want[] = { 0, 1, 2, 3, 8, 9, 10, 11 };
	struct nn_plan_opts o = { 0 };
	unsigned int t[128], i;
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	rss_host(&h, 16, 128, NN_RSS_OK);
	o.rss = NN_RSSP_LOCAL;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 1);
	assert_string_equal(p.rss[0].nic, "ens1");
	assert_int_equal(p.rss[0].table_size, 128);
	assert_null(p.rss[0].weights);
	assert_int_equal(p.rss[0].nqueues, 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(p.rss[0].queues[i], want[i]);
	table_of(&p.rss[0], 128, t);
	for (i = 0; i < 128; i++)
		assert_int_equal(t[i], (unsigned int)want[i % 8]);
	nn_plan_free(&p);

	/* without --rss: no table at all */
	o.rss = NN_RSSP_NONE;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 0);
	nn_plan_free(&p);
	host_free(&h);
}

/* queue-get rows for @n: rx and tx queues 0..@nq-1, rx @xsk bound to an
 * AF_XDP socket, rx @dmabuf to devmem, rx @uring to io_uring (-1: none). */
static void genl_queues(struct nn_nic *n, int nq, int xsk, int dmabuf, int uring)
{
	int t, q;

	n->gqueues = calloc((size_t)nq * 2, sizeof(*n->gqueues));
	assert_non_null(n->gqueues);
	n->ngqueues = n->gqcap = (size_t)nq * 2;
	for (t = 0; t < 2; t++)
		for (q = 0; q < nq; q++) {
			struct nn_genl_queue *g = &n->gqueues[t * nq + q];

			g->ifindex = n->ifindex;
			g->id = q;
			g->type = t ? NN_GENL_QUEUE_TX : NN_GENL_QUEUE_RX;
			g->napi_id = 8200 + q;
			g->dmabuf = -1;
			/* tx bindings never matter to RSS: mark tx too */
			g->xsk = q == xsk;
			g->io_uring = q == uring && !t;
			if (q == dmabuf && !t)
				g->dmabuf = 3;
		}
}

/* Queues an AF_XDP socket, io_uring zero-copy or devmem holds take no RSS
 * flow: left out of the table and named in "reserved" (a note, not a
 * warning); all of them bound: no table, a warning. */
static void test_rss_reserved_queues(void **state)
{
	static const int want[] = { 0, 3, 8, 11 };
	struct nn_plan_opts o = { 0 };
	struct nn_plan p, back;
	struct json_object *doc;
	struct nn_host h;
	struct nn_nic *n;
	char why[256];
	unsigned int i;

	(void)state;
	n = rss_host(&h, 16, 128, NN_RSS_OK);
	genl_queues(n, 16, 1, 9, 10);
	n->gqueues[2].xsk = true;	/* rx 2: xsk as well */
	o.rss = NN_RSSP_LOCAL;
	plan_ok(&h, &o, &p);
	assert_false(has_warning(&p, "bound"));	/* a note, not a warning */
	assert_int_equal(p.nrss, 1);
	assert_int_equal(p.rss[0].nqueues, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(p.rss[0].queues[i], want[i]);
	/* every bound rx queue with a ring, local or not */
	assert_int_equal(p.rss[0].nreserved, 4);
	assert_int_equal(p.rss[0].reserved[0].queue, 1);
	assert_int_equal(p.rss[0].reserved[0].bound, NN_QBIND_XSK);
	assert_int_equal(p.rss[0].reserved[1].queue, 2);
	assert_int_equal(p.rss[0].reserved[1].bound, NN_QBIND_XSK);
	assert_int_equal(p.rss[0].reserved[2].queue, 9);
	assert_int_equal(p.rss[0].reserved[2].bound, NN_QBIND_DMABUF);
	assert_int_equal(p.rss[0].reserved[3].queue, 10);
	assert_int_equal(p.rss[0].reserved[3].bound, NN_QBIND_IO_URING);
	/* The plan file keeps them; a reserved queue inside the table is refused. */
	doc = nn_plan_to_json(&p);
	assert_non_null(doc);
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), 0);
	assert_int_equal(back.rss[0].nreserved, 4);
	assert_int_equal(back.rss[0].reserved[3].bound, NN_QBIND_IO_URING);
	nn_plan_free(&back);
	{
		struct json_object *pl, *rss, *e, *res, *r0;

		assert_true(json_object_object_get_ex(doc, "plan", &pl));
		assert_true(json_object_object_get_ex(pl, "rss", &rss));
		e = json_object_array_get_idx(rss, 0);
		assert_true(json_object_object_get_ex(e, "reserved", &res));
		r0 = json_object_array_get_idx(res, 0);
		json_object_object_add(r0, "queue", json_object_new_int(0));
		assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, "also in the table"));
		nn_plan_free(&back);
		json_object_object_add(r0, "queue", json_object_new_int(1));
		json_object_array_put_idx(json_object_object_get(r0, "bound"), 0,
					  json_object_new_string("afxdp"));
		assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), -EINVAL);
		nn_plan_free(&back);
	}
	json_object_put(doc);
	nn_plan_free(&p);
	host_free(&h);

	/* Every local queue bound: no table, and the warning says why. */
	n = rss_host(&h, 2, 128, NN_RSS_OK);
	genl_queues(n, 2, 0, 1, -1);
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 0);
	assert_true(has_warning(&p, "every queue on node 0 is bound"));
	nn_plan_free(&p);
	host_free(&h);
}

/* 10 queues: 0-3 and 8-9 on node 0, where CPUs 1 and 2 carry two queues
 * each (0+8, 1+9) and CPUs 3 and 4 one: local:cpu gives 1,1,2,2,1,1, and
 * the table gives each weight unit one block of entries. */
static void test_rss_weights(void **state)
{
	static const int wq[] = { 0, 1, 2, 3, 8, 9 }, ww[] = { 1, 1, 2, 2, 1, 1 };
	static const unsigned int wt[8] = { 0, 1, 2, 2, 3, 3, 8, 9 };
	struct nn_plan_opts o = { 0 };
	unsigned int t[8], i;
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	rss_host(&h, 10, 8, NN_RSS_OK);
	o.rss = NN_RSSP_LOCAL_CPU;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 1);
	assert_int_equal(p.rss[0].nqueues, 6);
	assert_non_null(p.rss[0].weights);
	for (i = 0; i < 6; i++) {
		assert_int_equal(p.rss[0].queues[i], wq[i]);
		assert_int_equal(p.rss[0].weights[i], ww[i]);
	}
	table_of(&p.rss[0], 8, t);
	for (i = 0; i < 8; i++)
		assert_int_equal(t[i], wt[i]);
	nn_plan_free(&p);
	host_free(&h);
}

/* Only tx IRQs are known (rx ones elsewhere): no queue is known to be
 * local, so no table and a warning. */
static void test_rss_no_local_queue(void **state)
{
	struct nn_plan_opts o = { 0 };
	struct nn_host h;
	struct nn_plan p;
	struct nn_nic *n;
	size_t i;

	(void)state;
	n = rss_host(&h, 4, 64, NN_RSS_OK);
	for (i = 0; i < n->nirqs; i++)
		if (n->irqs[i].queue >= 0)
			n->irqs[i].dir = NN_QDIR_TX;
	o.rss = NN_RSSP_LOCAL;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 0);
	assert_true(has_warning(&p, "ens1: rss local: no queue's IRQs are on node 0"));
	nn_plan_free(&p);
	host_free(&h);
}

/* A table size that is no multiple of the queues: shares differ by one
 * entry; a table smaller than the queues: a warning. */
static void test_rss_not_multiple(void **state)
{
	static const unsigned int want[10] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1 };
	struct nn_plan_opts o = { 0 };
	unsigned int t[10], i;
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	rss_host(&h, 4, 10, NN_RSS_OK);
	o.rss = NN_RSSP_LOCAL;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 1);
	assert_int_equal(p.rss[0].nqueues, 4);
	table_of(&p.rss[0], 10, t);
	for (i = 0; i < 10; i++)
		assert_int_equal(t[i], want[i]);
	assert_false(has_warning(&p, "rss"));
	nn_plan_free(&p);
	host_free(&h);

	rss_host(&h, 4, 3, NN_RSS_OK);
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 1);
	assert_true(has_warning(&p, "a table of 3 entries for 4 local queues"));
	nn_plan_free(&p);
	host_free(&h);
}

/* A driver without RSS: no table, a warning; a snapshot from --root (not
 * read): the queues with table_size unknown (-1) and a warning. */
static void test_rss_unsupported(void **state)
{
	struct nn_plan_opts o = { 0 };
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	rss_host(&h, 4, 0, NN_RSS_UNSUPPORTED);
	o.rss = NN_RSSP_LOCAL;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 0);
	assert_true(has_warning(&p, "ens1: rss: not supported by this driver"));
	nn_plan_free(&p);
	host_free(&h);

	rss_host(&h, 4, 0, NN_RSS_NOT_READ);
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrss, 1);
	assert_int_equal(p.rss[0].table_size, -1);
	assert_true(has_note(&p, "table size unknown"));
	assert_false(has_warning(&p, "table size unknown"));
	nn_plan_free(&p);
	host_free(&h);
}

/* The plan's "rss" back from JSON; the reader refuses what apply must not act on. */
static void test_rss_json(void **state)
{
	static const char *const bad[] = {
		"\"rss\":[{\"nic\":\"eth9\",\"table_size\":128,\"queues\":[0]}]",
		"\"rss\":[{\"nic\":\"ens1\",\"table_size\":128,\"queues\":[1,0]}]",
		"\"rss\":[{\"nic\":\"ens1\",\"table_size\":128,\"queues\":[]}]",
		"\"rss\":[{\"nic\":\"ens1\",\"table_size\":65537,\"queues\":[0]}]",
		"\"rss\":[{\"nic\":\"ens1\",\"table_size\":128,\"queues\":[65536]}]",
		"\"rss\":[{\"nic\":\"ens1\",\"table_size\":128,\"queues\":[0,1],\"weights\":[1]}]",
		"\"rss\":[{\"nic\":\"ens1\",\"table_size\":128,\"queues\":[0],\"weights\":[0]}]",
		"\"rss\":[{\"nic\":\"../x\",\"table_size\":128,\"queues\":[0]}]",
		"\"rss\":[{\"nic\":\"ens1\",\"queues\":[0]},{\"nic\":\"ens1\",\"queues\":[1]}]",
	};
	struct nn_plan_opts o = { 0 };
	struct json_object *j;
	struct nn_host h;
	struct nn_plan p, q;
	char why[256], buf[1024];
	size_t i;

	(void)state;
	rss_host(&h, 10, 8, NN_RSS_OK);
	o.rss = NN_RSSP_LOCAL_CPU;
	plan_ok(&h, &o, &p);
	j = nn_plan_to_json(&p);
	assert_non_null(j);
	assert_int_equal(nn_plan_from_json(j, &q, why, sizeof(why)), 0);
	assert_int_equal(q.nrss, 1);
	assert_int_equal(q.rss[0].table_size, 8);
	assert_int_equal(q.rss[0].nqueues, 6);
	assert_int_equal(q.rss[0].weights[2], 2);
	nn_plan_free(&q);
	json_object_put(j);
	nn_plan_free(&p);
	host_free(&h);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(buf, sizeof(buf), "{\"plan\":{\"shape\":{\"ncpus\":2,\"nnodes\":1,\"pci\":[]},"
			 "\"nics\":[{\"nic\":\"ens1\",\"queues\":1,\"cpus\":\"1\"}],\"irqs\":[],%s}}", bad[i]);
		if (!nn_plan_parse("p", buf, strlen(buf), &q, why, sizeof(why))) {
			nn_plan_free(&q);
			fail_msg("accepted: %s", bad[i]);
		}
	}
}

/* The table's text form (undo log, apply rows): shortest period, runs. */
static void test_rss_text(void **state)
{
	static const char *const bad[] = {
		"0:1", "65537:0", "4:", "4:1,,2", "4:-1", "4:1*0", "4:1*5", "4:65536", "4:1 ",
		"+4:1", "4:1,", ":1", "4", "4:1*", "4:0x1", "",
	};
	unsigned int t[128], *r, n, i;
	char *s;

	(void)state;
	for (i = 0; i < 128; i++)
		t[i] = i % 4;
	s = nn_rss_format(t, 128);
	assert_string_equal(s, "128:0,1,2,3");
	free(s);
	for (i = 0; i < 128; i++)
		t[i] = i / 32;
	s = nn_rss_format(t, 128);
	assert_string_equal(s, "128:0*32,1*32,2*32,3*32");
	assert_int_equal(nn_rss_parse(s, &r, &n), 0);
	assert_int_equal(n, 128);
	assert_memory_equal(r, t, sizeof(t));
	free(r);
	free(s);
	for (i = 0; i < 10; i++)
		t[i] = i % 4;	/* a period that does not divide the size */
	s = nn_rss_format(t, 10);
	assert_string_equal(s, "10:0,1,2,3");
	assert_int_equal(nn_rss_parse(s, &r, &n), 0);
	assert_int_equal(n, 10);
	assert_memory_equal(r, t, 10 * sizeof(*t));
	free(r);
	free(s);
	assert_true(nn_rss_is_default(t, 10, 4));
	assert_false(nn_rss_is_default(t, 10, 3));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!nn_rss_parse(bad[i], &r, &n)) {
			free(r);
			fail_msg("accepted '%s'", bad[i]);
		}
}

static void test_channels_irqbalance_novirt(void **state)
{
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	xeon(&h);
	add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 8, 100, MLX5);
	add_nic(&h, "veth0", NULL, -1, "", 4, 0, NOIRQ);
	h.irqbalance.running = true;
	memset(&o, 0, sizeof(o));
	o.channels = true;
	o.irqbalance = NN_IRQB_BAN;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nnics, 1);	/* virtual NICs only when named */
	assert_int_equal(p.nchannels, 1);
	assert_int_equal(p.channels[0].target, 3);	/* one channel per planned core */
	assert_int_equal(p.channels[0].current, 8);
	assert_true(p.irqbalance.running);
	assert_int_equal(p.irqbalance.action, NN_IRQB_BAN);
	nn_plan_free(&p);
	nn_plan_opts_free(&o);

	/* a named veth without IRQs: XPS spread over its planned CPUs */
	memset(&o, 0, sizeof(o));
	o.nics = calloc(1, sizeof(char *));
	o.nics[0] = strdup("veth0");
	o.nnics = 1;
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nirqs, 0);
	assert_int_equal(p.nxps, 4);
	assert_true(has_note(&p, "veth0: unknown locality"));
	assert_false(has_warning(&p, "veth0: unknown locality"));
	assert_true(nn_cpuset_test(&p.xps[0].cpus, 1));
	assert_true(nn_cpuset_test(&p.xps[1].cpus, 5));
	assert_int_equal(p.shape.npci, 0);
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}

static char *plan_text(const struct nn_plan *p)
{
	struct json_object *j = nn_plan_to_json(p);
	char *s;

	assert_non_null(j);
	s = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return s;
}

static void test_json_round_trip(void **state)
{
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p, q;
	struct json_object *j;
	char why[256], *a, *b;

	(void)state;
	xeon(&h);
	add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 8, 100, MLX5);
	add_nic(&h, "vnet0", "0000:00:03.0", -1, "0-15", 2, 30, VIRTIO);
	h.irqbalance.running = true;
	memset(&o, 0, sizeof(o));
	o.channels = true;
	o.hugepage_size_kb = 1048576;
	o.hugepage_count = 2;
	plan_ok(&h, &o, &p);
	a = plan_text(&p);
	j = json_tokener_parse(a);
	assert_non_null(j);
	assert_int_equal(nn_plan_from_json(j, &q, why, sizeof(why)), 0);
	json_object_put(j);
	b = plan_text(&q);
	assert_string_equal(a, b);
	assert_int_equal(q.nirqs, p.nirqs);
	assert_int_equal(q.irqs[1].dir, p.irqs[1].dir);
	assert_int_equal(nn_plan_check_shape(&q, &h, why, sizeof(why)), 0);
	free(b);
	nn_plan_free(&q);

	/* strict reading names the key */
	j = json_tokener_parse(a);
	json_object_object_add(json_object_array_get_idx(
		json_object_object_get(json_object_object_get(j, "plan"), "irqs"), 2),
		"cpus", json_object_new_string("0-x"));
	assert_int_equal(nn_plan_from_json(j, &q, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "plan.irqs[2].cpus: bad CPU list '0-x'");
	json_object_put(j);
	j = json_tokener_parse("{\"plan\":{\"shape\":{\"ncpus\":\"16\"}}}");
	assert_int_equal(nn_plan_from_json(j, &q, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "plan.shape.ncpus: expected int, got string");
	json_object_put(j);
	free(a);
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}

static void test_shape_mismatch_refused(void **state)
{
	struct nn_host h, other;
	struct nn_plan p;
	char why[256];

	(void)state;
	xeon(&h);
	add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 2, 100, MLX5);
	plan_ok(&h, NULL, &p);

	/* fewer CPUs */
	memset(&other, 0, sizeof(other));
	add_cpu(&other, 0, 0, 0, 0, 0);
	add_cpu(&other, 1, 0, 0, 1, 0);
	finish(&other, 1, NULL);
	add_nic(&other, "mlx0", "0000:81:00.0", 0, "0-1", 2, 100, MLX5);
	assert_int_equal(nn_plan_check_shape(&p, &other, why, sizeof(why)), -EXDEV);
	assert_string_equal(why, "plan is for 16 CPUs, host has 2");
	host_free(&other);

	/* same CPUs, NIC at another PCI address */
	xeon(&other);
	add_nic(&other, "mlx0", "0000:82:00.0", 1, "4-7,12-15", 2, 100, MLX5);
	assert_int_equal(nn_plan_check_shape(&p, &other, why, sizeof(why)), -EXDEV);
	assert_string_equal(why, "plan has NIC mlx0 at 0000:81:00.0, here it is at 0000:82:00.0");
	host_free(&other);

	/* IRQ numbers moved (driver reload) */
	xeon(&other);
	add_nic(&other, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 2, 150, MLX5);
	assert_int_equal(nn_plan_check_shape(&p, &other, why, sizeof(why)), -EXDEV);
	assert_contains(why, "plan has IRQ 100 for mlx0");
	host_free(&other);

	assert_int_equal(nn_plan_check_shape(&p, &h, why, sizeof(why)), 0);
	nn_plan_free(&p);
	host_free(&h);
}

/* mlx5 asks for more completion vectors than it has channels: its share of
 * cores follows the active queues, the extra vectors wrap over that share. */
static void test_extra_vectors(void **state)
{
	struct nn_host h;
	struct nn_plan p;
	struct nn_nic *n;
	int c;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (c = 0; c < 8; c++)
		add_cpu(&h, c, 0, 0, c, 0);
	finish(&h, 1, NULL);
	n = add_nic(&h, "etha", "0000:01:00.0", 0, "0-7", 6, 40, MLX5);
	n->rx_queues = n->tx_queues = 3;	/* 3 channels, 6 vectors */
	add_nic(&h, "ethb", "0000:02:00.0", 0, "0-7", 4, 60, I40E);
	plan_ok(&h, NULL, &p);
	/* 3 + 4 active queues fit 7 cores: disjoint, etha 1-3, ethb 4-7 */
	assert_string_equal(qcpus(&p, "etha", 2, NN_QDIR_RXTX), "3");
	assert_string_equal(qcpus(&p, "etha", 3, NN_QDIR_RXTX), "1");
	assert_contains(irq_of(&p, "etha", 3, NN_QDIR_RXTX)->reason, "vector beyond the active queues");
	assert_string_equal(qcpus(&p, "ethb", 0, NN_QDIR_RXTX), "4");
	assert_string_equal(qcpus(&p, "ethb", 3, NN_QDIR_RXTX), "7");
	assert_false(has_warning(&p, "share CPUs"));
	nn_plan_free(&p);
	host_free(&h);
}

/* All CPUs housekeeping (a 1-core host): queue IRQs still get a CPU, with a warning. */
static void test_tiny_host(void **state)
{
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	memset(&h, 0, sizeof(h));
	add_cpu(&h, 0, 0, 0, 0, 0);
	finish(&h, 1, NULL);
	add_nic(&h, "eth0", "0000:00:03.0", -1, "0", 1, 30, VIRTIO);
	h.nics[0].irqs[0].has_affinity = false;	/* listed in msi_irqs, no /proc/irq/30 */
	plan_ok(&h, NULL, &p);
	assert_true(has_warning(&p, "every allowed CPU is a housekeeping CPU"));
	assert_true(has_warning(&p, "eth0: IRQ 30 has no readable affinity: left out of the plan"));
	assert_int_equal(p.nirqs, 2);
	assert_string_equal(qcpus(&p, "eth0", 0, NN_QDIR_RX), "0");
	nn_plan_free(&p);
	host_free(&h);
}

/* Threaded NAPI: each kthread follows its IRQ's planned CPUs; an IRQ-less
 * one its queue's planned CPU; a NAPI without a thread (not threaded) or
 * with threaded off gets none. The plan file reads them back, and refuses a
 * name that is not that NAPI's thread. */
static void test_napi_threads_follow_irqs(void **state)
{
	struct nn_host h;
	struct nn_plan p, back;
	struct json_object *doc;
	struct nn_nic *n, *v;
	char why[256];
	size_t i;

	(void)state;
	xeon(&h);
	n = add_nic(&h, "eth1", "0000:5e:00.0", 1, "4-7,12-15", 4, 100, MLX5);
	n->gnapis = calloc(4, sizeof(*n->gnapis));
	assert_non_null(n->gnapis);
	n->ngnapis = n->gncap = 4;
	for (i = 0; i < 4; i++) {
		n->gnapis[i].ifindex = n->ifindex;
		n->gnapis[i].id = 8193 + (long long)i;
		n->gnapis[i].irq = 101 + (int)i;	/* queue i's IRQ */
		n->gnapis[i].pid = 500 + (int)i;
		n->gnapis[i].threaded = 1;
	}
	n->gnapis[2].pid = -1;		/* not threaded: no thread */
	n->gnapis[3].threaded = 0;	/* threaded off (a stale pid) */
	v = add_nic(&h, "vethlongname01", NULL, -1, "", 1, 0, NOIRQ);
	n = NULL;	/* moved by the realloc: h.nics[0] from here on */
	v->gnapis = calloc(1, sizeof(*v->gnapis));
	v->gqueues = calloc(2, sizeof(*v->gqueues));
	assert_non_null(v->gnapis);
	assert_non_null(v->gqueues);
	v->ngnapis = v->gncap = 1;
	v->ngqueues = v->gqcap = 2;
	v->gnapis[0] = (struct nn_genl_napi){ .ifindex = v->ifindex, .id = 9000, .irq = -1, .pid = 700,
					      .threaded = -1, .defer_hard_irqs = -1,
					      .gro_flush_timeout = -1, .irq_suspend_timeout = -1 };
	v->gqueues[0] = (struct nn_genl_queue){ .ifindex = v->ifindex, .id = 0,
						.type = NN_GENL_QUEUE_RX, .napi_id = 9000, .dmabuf = -1 };
	v->gqueues[1] = (struct nn_genl_queue){ .ifindex = v->ifindex, .id = 0,
						.type = NN_GENL_QUEUE_TX, .napi_id = -1, .dmabuf = -1 };
	{
		struct nn_plan_opts o = { 0 };
		char *names[] = { "eth1", "vethlongname01" };

		o.nics = names;
		o.nnics = 2;
		plan_ok(&h, &o, &p);
	}
	assert_int_equal(p.nnapi_threads, 3);
	for (i = 0; i < 2; i++) {
		const struct nn_plan_napi *t = &p.napi_threads[i];
		size_t j;
		bool found = false;

		assert_string_equal(t->nic, "eth1");
		assert_int_equal(t->pid, 500 + (int)i);
		for (j = 0; j < p.nirqs; j++)
			if (p.irqs[j].irq == 101 + (int)i) {
				assert_true(nn_cpuset_equal(&t->cpus, &p.irqs[j].cpus));
				found = true;
			}
		assert_true(found);
		assert_true(nn_cpuset_subset(&t->cpus, &h.nics[0].local_cpus));
	}
	assert_string_equal(p.napi_threads[0].name, "napi/eth1-8193");
	/* IRQ-less, on a NIC with no queue IRQs: the CPUs the plan may use;
	 * its name in full, as a kernel thread's comm reads (not cut at 15). */
	assert_string_equal(p.napi_threads[2].nic, "vethlongname01");
	assert_string_equal(p.napi_threads[2].name, "napi/vethlongname01-9000");
	assert_false(nn_cpuset_empty(&p.napi_threads[2].cpus));

	doc = nn_plan_to_json(&p);
	assert_non_null(doc);
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), 0);
	assert_int_equal(back.nnapi_threads, 3);
	for (i = 0; i < 3; i++) {
		assert_string_equal(back.napi_threads[i].name, p.napi_threads[i].name);
		assert_int_equal(back.napi_threads[i].pid, p.napi_threads[i].pid);
		assert_true(back.napi_threads[i].napi_id == p.napi_threads[i].napi_id);
		assert_true(nn_cpuset_equal(&back.napi_threads[i].cpus, &p.napi_threads[i].cpus));
	}
	nn_plan_free(&back);
	/* a plan file aiming apply at another task by name is refused */
	{
		struct json_object *pl, *a, *o;

		assert_true(json_object_object_get_ex(doc, "plan", &pl));
		assert_true(json_object_object_get_ex(pl, "napi_threads", &a));
		o = json_object_array_get_idx(a, 0);
		json_object_object_add(o, "name", json_object_new_string("sshd"));
		assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), -EINVAL);
		assert_contains(why, "is not the thread of NAPI 8193 of eth1");
	}
	json_object_put(doc);
	nn_plan_free(&p);
	host_free(&h);
}

/* ---- run-time claims ---- */

static void claim(struct nn_host *h, const char *name, const char *cpus)
{
	struct nn_claims *cl = &h->claims;
	struct nn_claim_item *it;

	cl->items = realloc(cl->items, (cl->n + 1) * sizeof(*cl->items));
	assert_non_null(cl->items);
	it = &cl->items[cl->n++];
	memset(it, 0, sizeof(*it));
	it->c = (struct nn_claim)NN_CLAIM_INIT;
	it->c.name = strdup(name);
	it->c.owner = strdup("claim");
	set_list(&it->c.cpus, cpus);
	it->live = true;
	assert_int_equal(nn_cpuset_or(&cl->cpus, &it->c.cpus), 0);
}

/* @n's rx queue @q found with rps_cpus @cpus (NULL: unknown). */
static void found_rps(struct nn_nic *n, int q, const char *cpus)
{
	if (!n->rx_rps) {
		n->rx_rps = calloc((size_t)n->rx_queues, sizeof(*n->rx_rps));
		assert_non_null(n->rx_rps);
		n->nrx_rps = (size_t)n->rx_queues;
	}
	n->rx_rps[q].known = cpus != NULL;
	if (cpus)
		set_list(&n->rx_rps[q].cpus, cpus);
}

/* No RPS entry of @p on a DPDK lcore, isolated or claimed CPU (the planner
 * invariant, whatever the profile). */
static void rps_off_taken(const struct nn_plan *p)
{
	for (size_t i = 0; i < p->nrps; i++) {
		assert_false(nn_cpuset_intersects(&p->rps[i].cpus, &p->dpdk_lcores));
		assert_false(nn_cpuset_intersects(&p->rps[i].cpus, &p->isolated));
		assert_false(nn_cpuset_intersects(&p->rps[i].cpus, &p->claimed));
	}
}

/* RPS masks someone else left: a mask found on an isolated or claimed CPU
 * (any profile) or a DPDK lcore (--profile dpdk) is planned without them,
 * an empty one as RPS off with rps_flow_cnt left alone (-1); a mask that
 * touches none of them, or one unknown, is not planned at all. */
static void test_rps_keep_off(void **state)
{
	struct nn_plan_opts o;
	struct nn_host h;
	struct nn_plan p;
	struct nn_nic *n;

	(void)state;
	xeon(&h);
	/* node 1 = 4-7,12-15; 5/13 isolated, 14 claimed */
	set_list(&h.topo.isol.isolcpus, "5,13");
	h.topo.isol.isolcpus_flags = NN_ISOL_DOMAIN;
	claim(&h, "app", "14");
	n = add_nic(&h, "i40e0", "0000:81:00.0", 1, "4-7,12-15", 4, 100, I40E);
	memset(&o, 0, sizeof(o));

	/* masks that touch no such CPU, or unknown: the plan is today's */
	found_rps(n, 0, "6-7");
	found_rps(n, 1, "");
	found_rps(n, 2, NULL);
	found_rps(n, 3, "15");
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrps, 0);
	assert_int_equal(p.rps_sock_flow_entries, 0);
	nn_plan_free(&p);

	found_rps(n, 0, "4-7,12-15");
	found_rps(n, 1, "5,13-14");
	plan_ok(&h, &o, &p);
	assert_int_equal(p.nrps, 2);
	assert_string_equal(rps_cpus(&p, "i40e0", 0), "4,6-7,12,15");
	assert_int_equal(rps_of(&p, "i40e0", 0)->flow_cnt, -1);
	assert_non_null(strstr(rps_of(&p, "i40e0", 0)->reason, "isolated CPUs 5,13"));
	assert_non_null(strstr(rps_of(&p, "i40e0", 0)->reason, "claimed CPUs 14"));
	assert_string_equal(rps_cpus(&p, "i40e0", 1), "");
	assert_non_null(strstr(rps_of(&p, "i40e0", 1)->reason, "RPS off"));
	assert_null(rps_of(&p, "i40e0", 2));
	assert_int_equal(p.rps_sock_flow_entries, 0);	/* nothing spread: no RFS */
	rps_off_taken(&p);
	nn_plan_free(&p);

	/* --profile dpdk: node 1's lcores leave the masks too */
	o.profile = NN_PROFILE_DPDK;
	plan_ok(&h, &o, &p);
	assert_false(nn_cpuset_empty(&p.dpdk_lcores));
	assert_non_null(rps_of(&p, "i40e0", 0));
	assert_non_null(strstr(rps_of(&p, "i40e0", 0)->reason, "DPDK lcores"));
	assert_int_equal(rps_of(&p, "i40e0", 0)->flow_cnt, -1);
	rps_off_taken(&p);
	nn_plan_free(&p);

	/* --rps auto: its own entries (on free CPUs) stand; a queue it plans
	 * gets no second entry */
	o.profile = NN_PROFILE_NONE;
	o.rps = NN_RPS_AUTO;
	plan_ok(&h, &o, &p);
	for (size_t i = 0; i < p.nrps; i++)
		for (size_t k = i + 1; k < p.nrps; k++)
			assert_false(p.rps[i].queue == p.rps[k].queue && !strcmp(p.rps[i].nic, p.rps[k].nic));
	rps_off_taken(&p);
	nn_plan_free(&p);
	host_free(&h);
}

/* plan's EAL -l is layout --dpdk's lcores (one rule): a node's isolated
 * CPUs first, never a claimed CPU, the same list `layout --dpdk` gives. */
static void test_eal_is_layout(void **state)
{
	struct nn_layout_opts lo = { .service = "dpdk", .dpdk = true };
	struct nn_layout l;
	struct nn_plan p;
	struct nn_host h;
	char *eal, *list, why[128];
	bool shared;

	(void)state;
	xeon(&h);
	/* node 1 = 4-7,12-15, siblings n/n+8 */
	add_nic(&h, "i40e0", "0000:81:00.0", 1, "4-7,12-15", 1, 100, I40E);
	plan_ok(&h, NULL, &p);
	assert_int_equal(nn_plan_eal_args(&p, &h, 1, &eal, &shared), 0);
	/* housekeeping 4/12, the IRQ core 5/13: 6-7,14-15 */
	assert_string_equal(eal, "-l 6-7,14-15 -a 0000:81:00.0");
	free(eal);
	nn_plan_free(&p);

	/* a claim on 7: never an lcore; isolated 6,14: the lcores are those */
	claim(&h, "app", "7");
	plan_ok(&h, NULL, &p);
	assert_int_equal(nn_plan_eal_args(&p, &h, 1, &eal, &shared), 0);
	assert_string_equal(eal, "-l 6,14-15 -a 0000:81:00.0");
	free(eal);
	nn_plan_free(&p);
	set_list(&h.topo.isol.isolcpus, "6,14");
	h.topo.isol.isolcpus_flags = NN_ISOL_DOMAIN;
	plan_ok(&h, NULL, &p);
	assert_int_equal(nn_plan_eal_args(&p, &h, 1, &eal, &shared), 0);
	assert_string_equal(eal, "-l 6,14 -a 0000:81:00.0");
	assert_false(shared);
	/* the same lcores as layout --dpdk made from this plan */
	assert_int_equal(nn_cpuset_copy(&lo.housekeeping, &p.housekeeping), 0);
	assert_int_equal(nn_layout_make(&h, &p, &lo, &l, why, sizeof(why)), 0);
	assert_int_equal(l.ninst, 1);
	list = nn_cpuset_format_list(&l.inst[0].cpus);
	assert_non_null(strstr(eal, list));
	free(list);
	nn_layout_free(&l);
	nn_layout_opts_free(&lo);
	free(eal);
	nn_plan_free(&p);
	host_free(&h);
}

/* The invariants every plan keeps under claims: no queue IRQ, housekeeping
 * IRQ, XPS mask or NAPI thread on a claimed CPU. */
static void no_claimed(const struct nn_host *h, const struct nn_plan *p)
{
	const struct nn_cpuset *cl = &h->claims.cpus;
	size_t i;

	assert_true(nn_cpuset_equal(&p->claimed, cl));
	for (i = 0; i < p->nirqs; i++) {
		assert_false(nn_cpuset_empty(&p->irqs[i].cpus));
		assert_false(nn_cpuset_intersects(&p->irqs[i].cpus, cl));
	}
	for (i = 0; i < p->nxps; i++) {
		assert_false(nn_cpuset_empty(&p->xps[i].cpus));
		assert_false(nn_cpuset_intersects(&p->xps[i].cpus, cl));
	}
	for (i = 0; i < p->nnapi_threads; i++)
		assert_false(nn_cpuset_intersects(&p->napi_threads[i].cpus, cl));
	assert_false(nn_cpuset_intersects(&p->housekeeping, cl));
}

/* Every planned CPU of @nic's IRQs on @node. */
static void all_on_node(const struct nn_host *h, const struct nn_plan *p, const char *nic, int node)
{
	size_t i;
	int cpu;

	for (i = 0; i < p->nirqs; i++) {
		if (strcmp(p->irqs[i].nic, nic))
			continue;
		nn_cpuset_foreach(cpu, &p->irqs[i].cpus)
			assert_int_equal(h->topo.cpus[cpu].node, node);	/* xeon: cpus[] by id */
	}
}

static void test_claims_left_out(void **state)
{
	struct nn_host h;
	struct nn_plan p, back;
	struct nn_plan_opts o;
	struct json_object *doc;
	struct nn_nic *n;
	char why[256], *s;
	size_t i;

	(void)state;
	xeon(&h);
	/* node 1 = 4-7,12-15, housekeeping core 4/12; 4 queues with NAPI threads */
	n = add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 4, 100, MLX5);
	n->gnapis = calloc(4, sizeof(*n->gnapis));
	assert_non_null(n->gnapis);
	n->ngnapis = n->gncap = 4;
	for (i = 0; i < 4; i++)
		n->gnapis[i] = (struct nn_genl_napi){ .ifindex = n->ifindex, .id = 100 + (long long)i,
						      .irq = 101 + (int)i, .pid = 600 + (int)i, .threaded = 1,
						      .defer_hard_irqs = -1, .gro_flush_timeout = -1,
						      .irq_suspend_timeout = -1 };
	/* unclaimed: queues on node 1's cores 5, 6, 7 then siblings */
	plan_ok(&h, NULL, &p);
	assert_string_equal(qcpus(&p, "mlx0", 0, NN_QDIR_RXTX), "5");
	assert_int_equal(p.nclaims, 0);
	nn_plan_free(&p);

	/* A claim of 5-6,13-14: every queue on 7/15, still node 1. */
	claim(&h, "dpdk", "5-6,13-14");
	plan_ok(&h, NULL, &p);
	no_claimed(&h, &p);
	all_on_node(&h, &p, "mlx0", 1);
	assert_string_equal(qcpus(&p, "mlx0", 0, NN_QDIR_RXTX), "7");
	assert_string_equal(qcpus(&p, "mlx0", 1, NN_QDIR_RXTX), "15");
	assert_int_equal(p.nnapi_threads, 4);
	assert_true(p.nxps >= 4);	/* the XPS invariant is not vacuous */
	assert_int_equal(p.claim_spills, 0);
	assert_int_equal(p.nclaims, 1);
	assert_string_equal(p.claims[0].name, "dpdk");
	assert_string_equal(p.claims[0].source, "record");
	/* the plan file keeps the claims */
	doc = nn_plan_to_json(&p);
	assert_non_null(doc);
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), 0);
	assert_true(nn_cpuset_equal(&back.claimed, &p.claimed));
	assert_int_equal(back.nclaims, 1);
	assert_string_equal(back.claims[0].owner, "claim");
	json_object_put(doc);
	nn_plan_free(&back);
	nn_plan_free(&p);

	/* --cpus naming a claimed CPU does not hand it over. */
	memset(&o, 0, sizeof(o));
	set_list(&o.cpus, "4-7,12-15");
	plan_ok(&h, &o, &p);
	no_claimed(&h, &p);
	assert_true(has_warning(&p, "--cpus: claimed CPUs 5-6,13-14 left out"));
	nn_plan_free(&p);
	nn_plan_opts_free(&o);

	/* Everything but node 1's housekeeping core claimed: NIC work stays on
	 * its node, sharing housekeeping, instead of crossing to node 0. */
	claim(&h, "more", "7,15");
	plan_ok(&h, NULL, &p);
	no_claimed(&h, &p);
	all_on_node(&h, &p, "mlx0", 1);
	assert_true(has_warning(&p, "claims leave node 1 only its housekeeping CPUs"));
	assert_int_equal(p.claim_spills, 0);
	nn_plan_free(&p);

	/* The whole node claimed: it spills by distance, with a warning and a
	 * count, and never onto another claim (node 0's 1-3 are claimed too). */
	claim(&h, "node1", "4,12");
	claim(&h, "other", "1-3");
	plan_ok(&h, NULL, &p);
	no_claimed(&h, &p);
	all_on_node(&h, &p, "mlx0", 0);
	assert_int_equal(p.claim_spills, 1);
	assert_true(has_warning(&p, "mlx0: claims leave node 1 no CPU for NIC work"));
	s = nn_cpuset_format_list(&p.housekeeping);
	assert_string_equal(s, "0,8");
	free(s);
	nn_plan_free(&p);
	host_free(&h);
}

/* Claims no door judged (cgroup partitions) that hold every usable CPU:
 * the plan does not fail (the watcher keeps placing); NIC work shares the
 * housekeeping CPUs on its own node, with a warning, and the plan honours
 * the rest of the claims. */
static void test_claims_unhonoured(void **state)
{
	struct nn_host h;
	struct nn_plan p;
	struct nn_plan_opts o;
	char *s;

	(void)state;
	xeon(&h);
	add_nic(&h, "mlx0", "0000:81:00.0", 1, "4-7,12-15", 4, 100, MLX5);
	add_nic(&h, "i40e0", "0000:01:00.0", 0, "0-3,8-11", 2, 200, MLX5);
	claim(&h, "partition", "0-15");
	plan_ok(&h, NULL, &p);
	assert_true(has_warning(&p, "claims hold every CPU NIC work may use (0-15): NIC work shares "
				"CPUs 0,4,8,12 with them"));
	s = nn_cpuset_format_list(&p.claimed);
	assert_string_equal(s, "1-3,5-7,9-11,13-15");
	free(s);
	all_on_node(&h, &p, "mlx0", 1);
	all_on_node(&h, &p, "i40e0", 0);
	assert_string_equal(qcpus(&p, "mlx0", 0, NN_QDIR_RXTX), "4");
	assert_int_equal(p.claim_spills, 0);
	nn_plan_free(&p);

	/* within --cpus 4-7: only node 1's housekeeping core is handed back,
	 * and i40e0 spills to it */
	memset(&o, 0, sizeof(o));
	set_list(&o.cpus, "4-7");
	plan_ok(&h, &o, &p);
	assert_true(has_warning(&p, "claims hold every CPU NIC work may use (4-7): NIC work shares "
				"CPUs 4 with them"));
	all_on_node(&h, &p, "i40e0", 1);
	nn_plan_free(&p);
	nn_plan_opts_free(&o);
	host_free(&h);
}

/* The 2-CPU test host: claiming CPU 1 leaves CPU 0, which everything shares. */
static void test_claims_tiny_host(void **state)
{
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	memset(&h, 0, sizeof(h));
	add_cpu(&h, 0, 0, 0, 0, 0);
	add_cpu(&h, 1, 0, 0, 1, 0);
	finish(&h, 1, NULL);
	add_nic(&h, "eth0", "0000:00:03.0", -1, "0-1", 1, 37, VIRTIO);
	plan_ok(&h, NULL, &p);
	assert_string_equal(qcpus(&p, "eth0", 0, NN_QDIR_RX), "1");
	nn_plan_free(&p);
	claim(&h, "c1", "1");
	plan_ok(&h, NULL, &p);
	no_claimed(&h, &p);
	assert_string_equal(qcpus(&p, "eth0", 0, NN_QDIR_RX), "0");
	assert_string_equal(qcpus(&p, "eth0", 0, NN_QDIR_TX), "0");
	nn_plan_free(&p);
	host_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smt_cores_before_siblings),
		cmocka_unit_test(test_more_queues_than_cpus_wrap),
		cmocka_unit_test(test_nps4_spill_by_distance),
		cmocka_unit_test(test_no_spill_into_busy_node),
		cmocka_unit_test(test_even_odd_nodes),
		cmocka_unit_test(test_unknown_node_local_cpus),
		cmocka_unit_test(test_two_nics_one_node),
		cmocka_unit_test(test_plan_nic_names),
		cmocka_unit_test(test_unknown_role_spread),
		cmocka_unit_test(test_housekeeping_reserve_and_cpus),
		cmocka_unit_test(test_isolated_left_out),
		cmocka_unit_test(test_dpdk_profile),
		cmocka_unit_test(test_boot_args),
		cmocka_unit_test(test_isolate),
		cmocka_unit_test(test_rps_rule),
		cmocka_unit_test(test_rps_keep_off),
		cmocka_unit_test(test_eal_is_layout),
		cmocka_unit_test(test_napi_conf_plan),
		cmocka_unit_test(test_remote_and_spread_policy),
		cmocka_unit_test(test_channels_irqbalance_novirt),
		cmocka_unit_test(test_rss_equal),
		cmocka_unit_test(test_rss_weights),
		cmocka_unit_test(test_rss_reserved_queues),
		cmocka_unit_test(test_rss_no_local_queue),
		cmocka_unit_test(test_rss_not_multiple),
		cmocka_unit_test(test_rss_unsupported),
		cmocka_unit_test(test_rss_json),
		cmocka_unit_test(test_rss_text),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_shape_mismatch_refused),
		cmocka_unit_test(test_extra_vectors),
		cmocka_unit_test(test_tiny_host),
		cmocka_unit_test(test_napi_threads_follow_irqs),
		cmocka_unit_test(test_claims_left_out),
		cmocka_unit_test(test_claims_tiny_host),
		cmocka_unit_test(test_claims_unhonoured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
