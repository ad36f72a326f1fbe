// SPDX-License-Identifier: GPL-2.0-or-later
/* bench.c - the bench's four rows planned on a topology snapshot: which node
 * the forwarding lcores and the packet memory go to, which CPUs the generator
 * and the forwarder get, and the nicnuma-fwd command line. Pure. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/bench.h"
#include "nicnuma/discover/topo.h"

/* Farthest other node from @from with CPUs (or memory); -1 when none. The
 * topology's one rule: a node of unknown distance is never the remote one. */
static int farthest(const struct nn_topo *t, int from, bool cpus)
{
	int far = nn_topo_farthest_node(t, from, cpus ? NN_NODE_CPUS : NN_NODE_MEMORY, NULL, NULL);

	return far == from ? -1 : far;
}

int nn_bench_ref_node(const struct nn_topo *t, int port_node)
{
	size_t i;

	if (port_node >= 0)
		return port_node;
	for (i = 0; i < t->nnodes; i++)
		if (nn_topo_node_has(t, &t->nodes[i], NN_NODE_CPUS))
			return t->nodes[i].id;
	return -1;
}

int nn_bench_pick_port(const int *nodes, size_t n, int node)
{
	size_t i;

	for (i = 0; node >= 0 && i < n; i++)
		if (nodes[i] == node)
			return (int)i;
	return n ? 0 : -1;
}

static int pick_cpu(const struct nn_topo *t, int node, int avoid, bool last)
{
	const struct nn_node *n = nn_topo_node(t, node);
	int c, pick = -1;

	if (!n)
		return -1;
	for (c = nn_cpuset_first(&n->cpus); c >= 0; c = nn_cpuset_next(&n->cpus, c)) {
		if (c == avoid || !nn_cpuset_test(&t->online, (unsigned int)c))
			continue;
		pick = c;
		if (!last)
			break;
	}
	return pick;
}

static int add_arg(struct nn_bench_row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_arg(struct nn_bench_row *r, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (r->argc + 1 >= NN_BENCH_MAX_ARGS)
		return -E2BIG;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	r->argv[r->argc++] = s;
	r->argv[r->argc] = NULL;
	return 0;
}

static int build_argv(const struct nn_bench_cfg *cfg, struct nn_bench_row *r)
{
	int ret = 0;

	ret |= add_arg(r, "%s", cfg->fwd);
	ret |= add_arg(r, "--in-memory");
	ret |= add_arg(r, "--no-telemetry");
	ret |= add_arg(r, "--log-level=lib.eal:error");
	ret |= add_arg(r, "--lcores");
	ret |= add_arg(r, "%s", r->lcores);
	if (cfg->npci) {
		ret |= add_arg(r, "-a");
		ret |= add_arg(r, "%s", cfg->pci[0]);
		if (cfg->npci > 1) {
			ret |= add_arg(r, "-a");
			ret |= add_arg(r, "%s", cfg->pci[1]);
		}
	} else {
		ret |= add_arg(r, "--no-pci");
		ret |= add_arg(r, "--vdev=net_ring0");
		ret |= add_arg(r, "--vdev=net_ring1");
	}
	ret |= add_arg(r, "--");
	ret |= add_arg(r, cfg->npci ? "--tx-first" : "--gen");
	ret |= add_arg(r, "--duration");
	ret |= add_arg(r, "%g", cfg->duration);
	ret |= add_arg(r, "--size");
	ret |= add_arg(r, "%u", cfg->size);
	if (!cfg->npci) {
		ret |= add_arg(r, "--rate");
		ret |= add_arg(r, "%llu", cfg->rate);
	}
	ret |= add_arg(r, "--mbuf-node");
	ret |= add_arg(r, "%d", r->mbuf_node);
	ret |= add_arg(r, "--lcore-node");
	ret |= add_arg(r, "%d", r->lcore_node);
	ret |= add_arg(r, "--json");
	ret |= add_arg(r, "--quiet");
	return ret ? -ENOMEM : 0;
}

/* Resolves one row's nodes and CPUs, or says why it cannot run here. */
static int plan_row(const struct nn_topo *t, const struct nn_bench_cfg *cfg, int ref,
		    struct nn_bench_row *r)
{
	bool lremote = !strcmp(r->lsel, "remote"), mremote = !strcmp(r->msel, "remote");

	r->lcore_node = lremote ? farthest(t, ref, true) : ref;
	r->mbuf_node = mremote ? farthest(t, ref, false) : ref;
	r->gen_cpu = r->fwd_cpu = -1;
	r->size = cfg->size;
	if ((lremote || mremote) && t->nnodes == 1) {
		snprintf(r->skipped, sizeof(r->skipped), "skipped: one NUMA node");
		r->lcore_node = r->mbuf_node = -1;
		return 0;
	}
	if (r->lcore_node < 0 || r->mbuf_node < 0) {
		snprintf(r->skipped, sizeof(r->skipped), "skipped: no node other than %d has %s",
			 ref, r->lcore_node < 0 ? "CPUs" : "memory");
		return 0;
	}
	/* The forwarder moves between rows; the generator (the traffic) stays
	 * on the port's node so every row sees the same traffic source. */
	r->fwd_cpu = pick_cpu(t, r->lcore_node, -1, true);
	r->gen_cpu = pick_cpu(t, ref, r->fwd_cpu, false);
	if (r->fwd_cpu < 0 || r->gen_cpu < 0) {
		snprintf(r->skipped, sizeof(r->skipped),
			 "skipped: needs a CPU for the generator on node %d and one for the forwarder "
			 "on node %d", ref, r->lcore_node);
		return 0;
	}
	snprintf(r->lcores, sizeof(r->lcores), "0@%d,1@%d", r->gen_cpu, r->fwd_cpu);
	return build_argv(cfg, r);
}

int nn_bench_plan(const struct nn_topo *t, const struct nn_bench_cfg *cfg, int ref_node,
		  struct nn_bench_row rows[NN_BENCH_ROWS])
{
	static const char *const sel[NN_BENCH_ROWS][2] = {
		{ "local", "local" }, { "local", "remote" }, { "remote", "local" }, { "remote", "remote" },
	};
	int i, err = 0;

	memset(rows, 0, NN_BENCH_ROWS * sizeof(*rows));
	for (i = 0; i < NN_BENCH_ROWS && !err; i++) {
		rows[i].lsel = sel[i][0];
		rows[i].msel = sel[i][1];
		err = plan_row(t, cfg, ref_node, &rows[i]);
	}
	if (err)
		nn_bench_rows_free(rows);
	return err;
}

void nn_bench_rows_free(struct nn_bench_row rows[NN_BENCH_ROWS])
{
	int i, k;

	for (i = 0; i < NN_BENCH_ROWS; i++) {
		for (k = 0; k < rows[i].argc; k++)
			free(rows[i].argv[k]);
		free(rows[i].runs);
		rows[i].argc = 0;
		rows[i].runs = NULL;
		rows[i].nruns = 0;
	}
}
