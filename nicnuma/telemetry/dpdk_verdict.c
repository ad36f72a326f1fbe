// SPDX-License-Identifier: GPL-2.0-or-later
/* dpdk_verdict.c - the lcores an EAL command line defines, and the per-port
 * verdict of "nicnuma check --dpdk" (pure; rules in dpdk_telemetry.h and
 * docs/dpdk-check.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/telemetry/dpdk_telemetry.h"
#include "nicnuma/core/fsroot.h"

/* One set of an --lcores element: "3", "2-5" or "(1,4-6)"; advances *@pp. */
static int lcores_set(const char **pp, struct nn_cpuset *out)
{
	const char *p = *pp, *end;
	char buf[256];
	size_t len;

	if (*p == '(') {
		end = strchr(p, ')');
		if (!end)
			return -EINVAL;
		p++;
		len = (size_t)(end - p);
		end++;
	} else {
		end = p + strspn(p, "0123456789-");
		len = (size_t)(end - p);
	}
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, p, len);
	buf[len] = '\0';
	*pp = end;
	return nn_cpuset_parse_list(buf, out);
}

static int lcore_add(struct nn_dt_report *r, int id, const struct nn_cpuset *cpus)
{
	struct nn_dt_lcore *l;
	size_t i;

	/* Bounded: a hostile list cannot make thousands of CPU sets. */
	if (id < 0 || id >= NN_DT_MAX_LCORES)
		return -ERANGE;
	for (i = 0; i < r->nlcores && r->lcores[i].lcore_id < id; i++)
		;
	if (i < r->nlcores && r->lcores[i].lcore_id == id)
		return nn_cpuset_copy(&r->lcores[i].cpus, cpus);	/* a later mapping wins */
	l = realloc(r->lcores, (r->nlcores + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	r->lcores = l;
	memmove(&l[i + 1], &l[i], (r->nlcores - i) * sizeof(*l));
	memset(&l[i], 0, sizeof(*l));
	l[i].lcore_id = id;
	l[i].node = -1;
	r->nlcores++;
	return nn_cpuset_copy(&l[i].cpus, cpus);
}

/* --lcores '0@0,(1,2)@(3,4),5-6' : lcores[@cpus], comma separated. */
static int lcores_spec(struct nn_dt_report *r, const char *spec)
{
	const char *p = spec;
	int err = 0, id;

	while (!err && *p) {
		struct nn_cpuset ids = NN_CPUSET_INIT, cpus = NN_CPUSET_INIT;

		err = lcores_set(&p, &ids);
		if (!err && *p == '@') {
			p++;
			err = lcores_set(&p, &cpus);
		} else if (!err) {
			err = nn_cpuset_copy(&cpus, &ids);
		}
		if (!err && *p && *p != ',')
			err = -EINVAL;
		if (!err && nn_cpuset_last(&ids) >= NN_DT_MAX_LCORES)
			err = -ERANGE;
		if (*p == ',')
			p++;
		nn_cpuset_foreach(id, &ids)
			if (!err)
				err = lcore_add(r, id, &cpus);
		nn_cpuset_free(&ids);
		nn_cpuset_free(&cpus);
	}
	return err;
}

/* -l LIST / -c MASK: lcore id = CPU. */
static int lcores_identity(struct nn_dt_report *r, const char *val, bool mask)
{
	struct nn_cpuset set = NN_CPUSET_INIT, one = NN_CPUSET_INIT;
	int err, cpu;

	if (mask && (!strncmp(val, "0x", 2) || !strncmp(val, "0X", 2)))
		val += 2;
	err = mask ? nn_cpuset_parse_mask(val, &set) : nn_cpuset_parse_list(val, &set);
	if (!err && nn_cpuset_last(&set) >= NN_DT_MAX_LCORES)
		err = -ERANGE;
	nn_cpuset_foreach(cpu, &set) {
		if (err)
			break;
		nn_cpuset_zero(&one);
		err = nn_cpuset_set(&one, (unsigned int)cpu);
		if (!err)
			err = lcore_add(r, cpu, &one);
	}
	nn_cpuset_free(&one);
	nn_cpuset_free(&set);
	return err;
}

/* The value of option @name at argv[*i] ("-l 0-1", "-l0-1", "--lcores=x"), or NULL. */
static const char *opt_value(char **argv, size_t argc, size_t *i, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return NULL;
	if (!argv[*i][n])
		return *i + 1 < argc ? argv[++*i] : NULL;
	if (name[1] != '-')
		return argv[*i] + n;		/* -l0-1 */
	return argv[*i][n] == '=' ? argv[*i] + n + 1 : NULL;
}

int nn_dt_lcores_from_params(struct nn_dt_report *r)
{
	const char *val, *last = NULL;
	int kind = 0, err = 0;	/* 1 -l, 2 -c, 3 --lcores */
	size_t i;

	for (i = 1; i < r->nparams; i++) {
		if ((val = opt_value(r->params, r->nparams, &i, "--lcores"))) {
			last = val;
			kind = 3;
		} else if ((val = opt_value(r->params, r->nparams, &i, "--main-lcore")) ||
			   (val = opt_value(r->params, r->nparams, &i, "--master-lcore"))) {
			long v;

			if (nn_parse_long(val, &v) || v < 0 || v >= NN_CPU_MAX)
				return -EINVAL;
			r->main_lcore = (int)v;
		} else if (r->params[i][0] == '-' && r->params[i][1] != '-' &&
			   (val = opt_value(r->params, r->nparams, &i, "-l"))) {
			last = val;
			kind = 1;
		} else if (r->params[i][0] == '-' && r->params[i][1] != '-' &&
			   (val = opt_value(r->params, r->nparams, &i, "-c"))) {
			last = val;
			kind = 2;
		}
	}
	if (!last)
		return 0;
	nn_dt_lcores_clear(r);
	if (kind == 3)
		err = lcores_spec(r, last);
	else
		err = lcores_identity(r, last, kind == 2);
	if (err) {
		nn_dt_lcores_clear(r);
		return err;
	}
	r->lcore_source = NN_DT_LCORES_PARAMS;
	return 0;
}

/* The node all of @cpus are on; -1 when unknown or several. */
static int cpus_node(const struct nn_cpuset *cpus, const int *cpu_node, size_t ncpus)
{
	int cpu, node = -1;

	nn_cpuset_foreach(cpu, cpus) {
		int n = (size_t)cpu < ncpus ? cpu_node[cpu] : -1;

		if (n < 0 || (node >= 0 && n != node))
			return -1;
		node = n;
	}
	return node;
}

static void judge_lcores(struct nn_dt_report *r, const int *cpu_node, size_t ncpus)
{
	size_t i, nrte = 0;
	int main_id = r->main_lcore;

	for (i = 0; i < r->nlcores; i++) {
		struct nn_dt_lcore *l = &r->lcores[i];

		l->node = cpus_node(&l->cpus, cpu_node, ncpus);
		if (!l->role[0] || !strcmp(l->role, "RTE")) {
			if (main_id < 0)
				main_id = l->lcore_id;	/* EAL's default: the first lcore */
			nrte++;
		}
	}
	r->main_lcore = main_id;
	for (i = 0; i < r->nlcores; i++) {
		struct nn_dt_lcore *l = &r->lcores[i];
		bool rte = !l->role[0] || !strcmp(l->role, "RTE");

		l->main = rte && l->lcore_id == main_id;
		/* the main lcore launches the others; it counts alone only */
		l->polling = rte && (!l->main || nrte == 1);
	}
}

void nn_dt_judge(struct nn_dt_report *r, const int *cpu_node, size_t ncpus, int vdev_node)
{
	size_t i, j;

	judge_lcores(r, cpu_node, ncpus);
	r->nflagged = 0;
	for (i = 0; i < r->nports; i++) {
		struct nn_dt_port *p = &r->ports[i];

		nn_cpuset_zero(&p->pool_nodes);
		nn_cpuset_zero(&p->lcore_nodes);
		for (j = 0; j < r->npools; j++)
			if (r->pools[j].socket >= 0 && r->pools[j].populated != 0)
				nn_cpuset_set(&p->pool_nodes, (unsigned int)r->pools[j].socket);
		for (j = 0; j < r->nlcores; j++)
			if (r->lcores[j].polling && r->lcores[j].node >= 0)
				nn_cpuset_set(&p->lcore_nodes, (unsigned int)r->lcores[j].node);

		p->node = -1;
		p->node_source = NULL;
		if (p->pci[0] && p->sysfs_node >= 0) {
			p->node = p->sysfs_node;
			p->node_source = "sysfs";
		} else if (!p->pci[0] && vdev_node >= 0) {
			p->node = vdev_node;
			p->node_source = "--vdev-node";
		}
		p->verdict = 0;
		if (p->node < 0) {
			p->verdict = NN_DTV_UNKNOWN_LOCALITY;
			continue;
		}
		if (nn_cpuset_empty(&p->pool_nodes))
			p->verdict |= NN_DTV_NO_POOL;
		else if (!nn_cpuset_test(&p->pool_nodes, (unsigned int)p->node))
			p->verdict |= NN_DTV_MEMPOOL_REMOTE;
		else if (nn_cpuset_count(&p->pool_nodes) > 1)
			/* testpmd --port-numa-config: a local pool exists, but
			 * nothing says this port uses it rather than a remote one */
			p->verdict |= NN_DTV_MEMPOOL_UNKNOWN;
		if (nn_cpuset_empty(&p->lcore_nodes))
			p->verdict |= NN_DTV_NO_LCORE;
		else if (!nn_cpuset_test(&p->lcore_nodes, (unsigned int)p->node))
			p->verdict |= NN_DTV_LCORE_REMOTE;
		if (p->verdict & NN_DTV_FLAGGED)
			r->nflagged++;
		else
			p->verdict |= NN_DTV_OK;
	}
}
