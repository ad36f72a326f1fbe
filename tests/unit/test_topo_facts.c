// SPDX-License-Identifier: GPL-2.0-or-later
/* test_topo_facts.c - one answer per host fact: each test pins a rule that
 * two copies of the same lookup used to answer differently */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "hugepages/hugepages.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/topo.h"
#include "tmptree.h"

/* ---- snapshot builder: nodes with explicit ids, rows and memory ---- */

static void add_node(struct nn_topo *t, int id, const char *cpus, long mem_kb, const int *row)
{
	struct nn_node *n;

	t->nodes = realloc(t->nodes, (t->nnodes + 1) * sizeof(*t->nodes));
	assert_non_null(t->nodes);
	n = &t->nodes[t->nnodes++];
	memset(n, 0, sizeof(*n));
	n->id = id;
	n->mem_total_kb = mem_kb;
	n->mem_free_kb = -1;
	if (*cpus)
		assert_int_equal(nn_cpuset_parse_list(cpus, &n->cpus), 0);
	if (row) {
		n->distances = malloc(64 * sizeof(int));
		assert_non_null(n->distances);
		memcpy(n->distances, row, 64 * sizeof(int));
		n->ndistances = 0;	/* set by done() once the node count is known */
	}
}

/* Online CPUs @online, each in the node whose cpulist has it; @sib: SMT
 * pairs (cpu, cpu + sib) when > 0, unknown siblings when 0. */
static void done(struct nn_topo *t, const char *online, int sib)
{
	int cpu;
	size_t i;

	assert_int_equal(nn_cpuset_parse_list(online, &t->online), 0);
	t->ncpus = nn_cpuset_count(&t->online);
	t->cpus = calloc(t->ncpus, sizeof(*t->cpus));
	assert_non_null(t->cpus);
	i = 0;
	nn_cpuset_foreach(cpu, &t->online) {
		struct nn_cpu *c = &t->cpus[i++];
		size_t k;

		c->id = cpu;
		c->node = -1;
		c->package = 0;
		c->die = 0;
		c->core = sib > 0 ? cpu % sib : cpu;
		c->l3 = -1;
		for (k = 0; k < t->nnodes; k++)
			if (nn_cpuset_test(&t->nodes[k].cpus, (unsigned)cpu))
				c->node = t->nodes[k].id;
		if (sib > 0) {
			assert_int_equal(nn_cpuset_set(&c->siblings, (unsigned)(cpu % sib)), 0);
			assert_int_equal(nn_cpuset_set(&c->siblings, (unsigned)(cpu % sib + sib)), 0);
		}
	}
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].distances)
			t->nodes[i].ndistances = t->nnodes;
}

static const int row0[64] = { 10, 20, 30, 20 };
static const int row1[64] = { 20, 10, 20, 30 };

/* Four nodes: 0 (CPUs 0-1), 1 (CPUs 2-3), 2 (memory only), 3 (CPUs 4-5,
 * offline). Node 2 and node 3 have no distance row. */
static void four(struct nn_topo *t)
{
	memset(t, 0, sizeof(*t));
	add_node(t, 0, "0-1", 1 << 20, row0);
	add_node(t, 1, "2-3", 1 << 20, row1);
	add_node(t, 2, "", 1 << 20, NULL);
	add_node(t, 3, "4-5", 0, NULL);
	done(t, "0-3", 0);
}

/* plan.c said 10 for a node's distance to itself without a row, topo.c -1. */
static void test_self_distance_without_row(void **state)
{
	struct nn_topo t;

	(void)state;
	four(&t);
	assert_int_equal(nn_topo_distance(&t, 2, 2), NN_LOCAL_DISTANCE);
	assert_int_equal(nn_topo_distance(&t, 0, 0), 10);
	assert_int_equal(nn_topo_distance(&t, 2, 0), -1);	/* no row: unknown */
	assert_int_equal(nn_topo_distance(&t, 0, 2), 30);
	assert_int_equal(nn_topo_distance(&t, 0, 7), -1);	/* no such node */
	nn_topo_free(&t);
}

/* plan.c skipped an unknown distance when looking for the farthest node,
 * cmd_bench.c took it when nothing better was there. */
static void test_unknown_distance_never_farthest(void **state)
{
	struct nn_topo t;

	(void)state;
	four(&t);
	/* From node 2 every other distance is unknown: no remote node. */
	assert_int_equal(nn_topo_farthest_node(&t, 2, NN_NODE_CPUS, NULL, NULL), -1);
	assert_int_equal(nn_topo_farthest_node(&t, 2, NN_NODE_MEMORY, NULL, NULL), 2);
	/* From node 0: node 2 at 30 (memory), node 3 at 20 but no memory. */
	assert_int_equal(nn_topo_farthest_node(&t, 0, NN_NODE_MEMORY, NULL, NULL), 2);
	assert_int_equal(nn_topo_farthest_node(&t, 0, NN_NODE_ONLINE_CPUS, NULL, NULL), 1);
	nn_topo_free(&t);
}

/* Nearest: a node of unknown distance is the last resort, not skipped. */
static void test_unknown_distance_nearest_last_resort(void **state)
{
	struct nn_topo t;

	(void)state;
	four(&t);
	assert_int_equal(nn_topo_nearest_node(&t, 2, NN_NODE_ONLINE_CPUS, NULL, NULL), 0);
	assert_int_equal(nn_topo_nearest_node(&t, 0, NN_NODE_ONLINE_CPUS, NULL, NULL), 0);
	assert_int_equal(nn_topo_nearest_node(&t, 9, 0, NULL, NULL), -1);
	nn_topo_free(&t);
}

/* cmd_nics.c asked "has CPUs" (cpulist), layout.c "has online CPUs". */
static void test_cpus_vs_online_cpus(void **state)
{
	struct nn_topo t;

	(void)state;
	four(&t);
	assert_true(nn_topo_node_has(&t, nn_topo_node(&t, 3), NN_NODE_CPUS));
	assert_false(nn_topo_node_has(&t, nn_topo_node(&t, 3), NN_NODE_ONLINE_CPUS));
	assert_false(nn_topo_node_has(&t, nn_topo_node(&t, 2), NN_NODE_CPUS));
	/* From node 1, node 3 is farther (30) but all its CPUs are offline. */
	assert_int_equal(nn_topo_farthest_node(&t, 1, NN_NODE_CPUS, NULL, NULL), 3);
	assert_int_equal(nn_topo_farthest_node(&t, 1, NN_NODE_ONLINE_CPUS, NULL, NULL), 0);
	nn_topo_free(&t);
}

/* fwd read has_memory, bench took MemTotal != 0 with unknown as maybe. */
static void test_memory_unknown_counts(void **state)
{
	struct nn_topo t;

	(void)state;
	four(&t);
	t.nodes[1].mem_total_kb = -1;
	assert_true(nn_topo_node_has(&t, &t.nodes[1], NN_NODE_MEMORY));
	assert_false(nn_topo_node_has(&t, &t.nodes[3], NN_NODE_MEMORY));
	nn_topo_free(&t);
}

/* Farthest is another node when one qualifies, even at distance 10; ties by id. */
static bool not_one(const struct nn_topo *t, int node, void *arg)
{
	(void)t;
	(void)arg;
	return node != 1;
}

static void test_farthest_prefers_other_nodes(void **state)
{
	static const int flat[64] = { 10, 10, 10 };
	struct nn_topo t;

	(void)state;
	memset(&t, 0, sizeof(t));
	add_node(&t, 0, "0", 1, flat);
	add_node(&t, 1, "1", 1, flat);
	add_node(&t, 2, "2", 1, flat);
	done(&t, "0-2", 0);
	assert_int_equal(nn_topo_farthest_node(&t, 2, 0, NULL, NULL), 0);
	assert_int_equal(nn_topo_farthest_node(&t, 0, 0, not_one, NULL), 2);
	assert_int_equal(nn_topo_nearest_node(&t, 0, 0, NULL, NULL), 0);
	nn_topo_free(&t);
}

static void test_nodes_by_distance(void **state)
{
	struct nn_topo t;
	int ids[4];

	(void)state;
	four(&t);
	/* from 0: itself, 1 (20), 3 (20, tie by id), 2 (30) */
	assert_int_equal(nn_topo_nodes_by_distance(&t, 0, ids, 4), 4);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 1);
	assert_int_equal(ids[2], 3);
	assert_int_equal(ids[3], 2);
	/* from 2 (no row): itself, then the unknown ones by id; @max truncates */
	assert_int_equal(nn_topo_nodes_by_distance(&t, 2, ids, 2), 2);
	assert_int_equal(ids[0], 2);
	assert_int_equal(ids[1], 0);
	assert_int_equal(nn_topo_nodes_by_distance(&t, 0, ids, 0), 0);
	nn_topo_free(&t);
}

static void test_cpu_node(void **state)
{
	struct nn_topo t;

	(void)state;
	four(&t);
	assert_int_equal(nn_topo_cpu_node(&t, 0), 0);
	assert_int_equal(nn_topo_cpu_node(&t, 3), 1);
	assert_int_equal(nn_topo_cpu_node(&t, 4), -1);	/* offline */
	assert_int_equal(nn_topo_cpu_node(&t, -1), -1);
	nn_topo_free(&t);
}

/* plan.c took the first core in core order (and CPUs of no node), layout.c
 * the lowest online CPU of each node and its siblings. */
static void test_default_housekeeping(void **state)
{
	struct nn_cpuset hk = NN_CPUSET_INIT;
	struct nn_topo t;
	char *s;

	(void)state;
	/* SMT pairs (n, n+4): node 0 holds 0,1,4,5 and node 1 holds 2,3,6,7. */
	memset(&t, 0, sizeof(t));
	add_node(&t, 0, "0-1,4-5", 1, row0);
	add_node(&t, 1, "2-3,6-7", 1, row1);
	done(&t, "1-7", 4);	/* CPU 0 offline: node 0's first online is 1 */
	assert_int_equal(nn_topo_default_housekeeping(&t, &hk), 0);
	s = nn_cpuset_format_list(&hk);
	assert_string_equal(s, "1-2,5-6");
	free(s);
	nn_topo_free(&t);

	/* Siblings unknown: same package/core ids; an orphan CPU is one more group. */
	memset(&t, 0, sizeof(t));
	add_node(&t, 0, "0-1", 1, NULL);
	done(&t, "0-2", 0);
	t.cpus[1].core = t.cpus[0].core;
	assert_int_equal(nn_topo_default_housekeeping(&t, &hk), 0);
	s = nn_cpuset_format_list(&hk);
	assert_string_equal(s, "0-2");
	free(s);
	nn_topo_free(&t);
	nn_cpuset_free(&hk);
}

/* topo.c parsed "hugepages-NkB" with its own parser that took any size. */
static void test_hugepage_dirname(void **state)
{
	unsigned long kb;
	char path[256];

	(void)state;
	assert_int_equal(nn_hp_parse_dirname("hugepages-2048kB", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(nn_hp_parse_dirname("hugepages-3kB", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_dirname("hugepages-2048", &kb), -EINVAL);
	assert_int_equal(nn_hp_pool_path(true, -1, 2048, "free_hugepages", path, sizeof(path)), 0);
	assert_string_equal(path, "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages");
	assert_int_equal(nn_hp_pool_path(true, 1, 2048, "nr_hugepages", path, sizeof(path)), 0);
	assert_string_equal(path, "/sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages");
}

static void put(const char *dir, const char *rel, const char *text)
{
	assert_int_equal(tmptree_put(dir, rel, text), 0);
}

/* hp_state.c took a negative count as -1, topo.c as the value. */
static void test_pool_read_negative_is_unknown(void **state)
{
	char dir[] = "/tmp/nn-topo-facts.XXXXXX", cmd[600];
	struct nn_hp_pool p;
	struct nn_ctx ctx;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/devices/system/node/node0/hugepages/hugepages-2048kB", dir);
	assert_int_equal(system(cmd), 0);
	put(dir, "/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages", "8\n");
	put(dir, "/sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages", "-3\n");
	assert_int_equal(nn_ctx_init(&ctx, dir, false), 0);
	nn_hp_pool_read(&ctx, true, 0, 2048, &p);
	assert_int_equal(p.total, 8);
	assert_int_equal(p.free, -1);		/* negative: malformed */
	assert_int_equal(p.surplus, -1);	/* missing */
	assert_int_equal(p.reserved, -1);	/* per node: not read */
	assert_int_equal(ctx.nwarns, 2);
	nn_ctx_free(&ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_distance_without_row),
		cmocka_unit_test(test_unknown_distance_never_farthest),
		cmocka_unit_test(test_unknown_distance_nearest_last_resort),
		cmocka_unit_test(test_cpus_vs_online_cpus),
		cmocka_unit_test(test_memory_unknown_counts),
		cmocka_unit_test(test_farthest_prefers_other_nodes),
		cmocka_unit_test(test_nodes_by_distance),
		cmocka_unit_test(test_cpu_node),
		cmocka_unit_test(test_default_housekeeping),
		cmocka_unit_test(test_hugepage_dirname),
		cmocka_unit_test(test_pool_read_negative_is_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
