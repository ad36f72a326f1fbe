// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bench.c - bench mismatch without DPDK and without a host: rows planned
 * on hand-built topologies, nicnuma-fwd's JSON report parsed from a canned
 * copy (the shape of dpdk-app/report.c), and the median/min-max/ratio. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/emit/bench_exec.h"
#include "nicnuma/plan/bench.h"
#include "nicnuma/discover/topo.h"
#include "tmptree.h"

/* @n nodes of @per CPUs each (node 2 memory-only when @memonly2), distances
 * 10 local, 20 + 10 * |i - j| across. */
static void mktopo(struct nn_topo *t, size_t n, int per, bool memonly2)
{
	size_t i, j;
	int c;

	memset(t, 0, sizeof(*t));
	t->nodes = calloc(n, sizeof(*t->nodes));
	assert_non_null(t->nodes);
	t->nnodes = n;
	for (i = 0; i < n; i++) {
		struct nn_node *nd = &t->nodes[i];

		nd->id = (int)i;
		nd->mem_total_kb = 1L << 24;
		nd->distances = calloc(n, sizeof(int));
		assert_non_null(nd->distances);
		nd->ndistances = n;
		for (j = 0; j < n; j++)
			nd->distances[j] = i == j ? 10 : 20 + 10 * (int)(i > j ? i - j : j - i);
		if (memonly2 && i == 2)
			continue;
		for (c = 0; c < per; c++) {
			assert_int_equal(nn_cpuset_set(&nd->cpus, (unsigned int)(i * per + c)), 0);
			assert_int_equal(nn_cpuset_set(&t->online, (unsigned int)(i * per + c)), 0);
		}
	}
}

static void freetopo(struct nn_topo *t)
{
	size_t i;

	for (i = 0; i < t->nnodes; i++) {
		nn_cpuset_free(&t->nodes[i].cpus);
		free(t->nodes[i].distances);
	}
	free(t->nodes);
	nn_cpuset_free(&t->online);
}

static const struct nn_bench_cfg cfg = {
	.duration = 2, .repeat = 3, .size = 64, .rate = 1000, .fwd = "/opt/nicnuma-fwd",
};

static bool has_arg(const struct nn_bench_row *r, const char *a, const char *next)
{
	int i;

	for (i = 0; i < r->argc; i++)
		if (!strcmp(r->argv[i], a) && (!next || (i + 1 < r->argc && !strcmp(r->argv[i + 1], next))))
			return true;
	return false;
}

static void test_plan_two_nodes(void **state)
{
	struct nn_bench_row rows[NN_BENCH_ROWS];
	struct nn_topo t;

	(void)state;
	mktopo(&t, 2, 4, false);
	assert_int_equal(nn_bench_ref_node(&t, -1), 0);
	assert_int_equal(nn_bench_ref_node(&t, 1), 1);
	assert_int_equal(nn_bench_plan(&t, &cfg, 0, rows), 0);
	/* local/local: generator first CPU of node 0, forwarder its last */
	assert_string_equal(rows[0].skipped, "");
	assert_int_equal(rows[0].lcore_node, 0);
	assert_int_equal(rows[0].mbuf_node, 0);
	assert_string_equal(rows[0].lcores, "0@0,1@3");
	/* remote/remote: forwarder on node 1, the generator stays on node 0 */
	assert_int_equal(rows[3].lcore_node, 1);
	assert_int_equal(rows[3].mbuf_node, 1);
	assert_string_equal(rows[3].lcores, "0@0,1@7");
	assert_int_equal(rows[1].lcore_node, 0);
	assert_int_equal(rows[1].mbuf_node, 1);
	/* the command line: virtual ports, the nodes, JSON */
	assert_string_equal(rows[1].argv[0], "/opt/nicnuma-fwd");
	assert_null(rows[1].argv[rows[1].argc]);
	assert_true(has_arg(&rows[1], "--no-pci", NULL));
	assert_true(has_arg(&rows[1], "--gen", NULL));
	assert_true(has_arg(&rows[1], "--rate", "1000"));
	assert_true(has_arg(&rows[1], "--mbuf-node", "1"));
	assert_true(has_arg(&rows[1], "--lcore-node", "0"));
	assert_true(has_arg(&rows[1], "--duration", "2"));
	assert_true(has_arg(&rows[1], "--json", NULL));
	nn_bench_rows_free(rows);
	freetopo(&t);
}

static void test_plan_farthest_and_pci(void **state)
{
	struct nn_bench_cfg pci = cfg;
	struct nn_bench_row rows[NN_BENCH_ROWS];
	struct nn_topo t;

	(void)state;
	/* 4 nodes, node 2 memory-only: from node 0, memory goes to node 3
	 * (farthest), lcores to node 3 too (2 has no CPUs) */
	mktopo(&t, 4, 2, true);
	pci.npci = 2;
	pci.pci[0] = "0000:01:00.0";
	pci.pci[1] = "0000:01:00.1";
	assert_int_equal(nn_bench_plan(&t, &pci, 0, rows), 0);
	assert_int_equal(rows[1].mbuf_node, 3);
	assert_int_equal(rows[2].lcore_node, 3);
	assert_true(has_arg(&rows[0], "-a", "0000:01:00.0"));
	assert_true(has_arg(&rows[0], "-a", "0000:01:00.1"));
	assert_true(has_arg(&rows[0], "--tx-first", NULL));
	assert_false(has_arg(&rows[0], "--rate", NULL));
	nn_bench_rows_free(rows);
	/* from node 3 the farthest memory is node 0 */
	assert_int_equal(nn_bench_plan(&t, &cfg, 3, rows), 0);
	assert_int_equal(rows[1].mbuf_node, 0);
	nn_bench_rows_free(rows);
	freetopo(&t);
}

static void test_plan_one_node(void **state)
{
	struct nn_bench_row rows[NN_BENCH_ROWS];
	struct nn_topo t;
	int i;

	(void)state;
	mktopo(&t, 1, 2, false);
	assert_int_equal(nn_bench_plan(&t, &cfg, 0, rows), 0);
	assert_string_equal(rows[0].skipped, "");
	for (i = 1; i < NN_BENCH_ROWS; i++) {
		assert_string_equal(rows[i].skipped, "skipped: one NUMA node");
		assert_int_equal(rows[i].argc, 0);
	}
	nn_bench_rows_free(rows);
	freetopo(&t);
	/* one CPU only: no room for both generator and forwarder */
	mktopo(&t, 1, 1, false);
	assert_int_equal(nn_bench_plan(&t, &cfg, 0, rows), 0);
	assert_contains(rows[0].skipped, "needs a CPU for the generator on node 0");
	nn_bench_rows_free(rows);
	freetopo(&t);
}

/* The parts of a nicnuma-fwd --json report the bench reads (report.c). */
static const char report[] =
	"{\n"
	"  \"config\": { \"mbuf_node\": 1, \"lcore_node\": 0, \"port_node\": null,\n"
	"    \"lcores\": [ 1 ], \"lcore_cpus\": [ 7 ], \"main_lcore\": 0, \"gen_lcore\": 0 },\n"
	"  \"placement_verified\": true,\n"
	"  \"duration_s\": 2.001, \"mpps\": 3.25, \"mpps_per_lcore\": 3.25,\n"
	"  \"rx\": 6503250, \"tx\": 6503000, \"drops\": 250, \"loss\": 3,\n"
	"  \"latency_ns\": { \"p50\": 1200, \"p90\": 1500, \"p99\": 2100, \"p999\": 9000,\n"
	"    \"max\": 41000, \"mean\": 1300, \"samples\": 100000, \"stamp_every\": 16 },\n"
	"  \"stall_baseline_ns\": { \"p50\": null, \"p90\": null, \"p99\": null, \"p999\": null,\n"
	"    \"max\": null, \"samples\": 0 }\n"
	"}\n";

/* A run with no report read (it could not start, or exited 2): its counters
 * are unknown, printed as null, not 0. */
static void test_run_unknown(void **state)
{
	struct nn_bench_run r = { 0 };

	(void)state;
	nn_bench_run_unknown(&r);
	assert_int_equal(r.fwd_cpu_seen, -1);
	assert_int_equal(r.rx, -1);
	assert_int_equal(r.stamp_every, -1);
	assert_int_equal(r.lat_samples, -1);
	assert_int_equal(r.cdf[0], -1);
	assert_false(r.ok);
}

static void test_parse_report(void **state)
{
	struct nn_bench_run r = { 0 };

	(void)state;
	nn_bench_parse_report(report, &r);
	assert_true(r.ok);
	assert_true(r.mpps == 3.25);
	assert_true(r.verified);
	assert_int_equal(r.fwd_cpu_seen, 7);
	assert_int_equal(r.drops, 250);
	assert_int_equal(r.loss, 3);
	/* what fed the port (with --pci the only sign traffic arrived) */
	assert_int_equal(r.rx, 6503250);
	assert_true(r.lat[0] == 1200);
	assert_true(r.lat[2] == 2100);
	assert_true(r.lat[4] == 41000);
	assert_true(r.stall[4] < 0);	/* null: not measured */
	/* the sampling rate the percentiles were taken at, beside them */
	assert_int_equal(r.stamp_every, 16);
	assert_int_equal(r.lat_samples, 100000);
	assert_string_equal(nn_bench_pct_key(3), "p999");
	assert_null(nn_bench_pct_key(5));

	/* not a report: a crashed child's text, or no mpps */
	memset(&r, 0, sizeof(r));
	nn_bench_parse_report("EAL: cannot init\n", &r);
	assert_false(r.ok);
	assert_int_equal(r.fwd_cpu_seen, -1);
	assert_int_equal(r.stamp_every, -1);
	assert_int_equal(r.rx, -1);
	memset(&r, 0, sizeof(r));
	nn_bench_parse_report("{\"drops\": 1}", &r);
	assert_false(r.ok);
	memset(&r, 0, sizeof(r));
	nn_bench_parse_report(NULL, &r);
	assert_false(r.ok);
}

/* The failed run's warning: its stderr's last lines joined, no newline left
 * for the warning printer to show as \x0a. */
static void test_err_tail(void **state)
{
	char buf[64];

	(void)state;
	nn_bench_err_tail("one\ntwo\nEAL: no hugepages\nfwd: port 0 down\n\n", buf, sizeof(buf));
	assert_string_equal(buf, "two | EAL: no hugepages | fwd: port 0 down");
	nn_bench_err_tail("", buf, sizeof(buf));
	assert_string_equal(buf, "");
	nn_bench_err_tail("a\nbbbbbbbbbbbbbbbbbbbb", buf, 8);
	assert_null(strchr(buf, '\n'));
	assert_string_equal(buf, "a | b");	/* cut to fit, never past @size */
}

static void test_stats(void **state)
{
	struct nn_bench_run runs[4] = {
		{ .ok = true, .mpps = 3.0, .lat = { 100, -1, 300, -1, -1 } },
		{ .ok = true, .mpps = 1.0, .lat = { 200, -1, 100, -1, -1 } },
		{ .ok = false, .mpps = 99.0 },		/* a failed run does not count */
		{ .ok = true, .mpps = 2.0, .lat = { -1, -1, 200, -1, -1 } },
	};
	struct nn_bench_run ref_runs[2] = {
		{ .ok = true, .mpps = 4.0, .lat = { 0, 0, 100, 0, 0 } },
		{ .ok = true, .mpps = 4.0, .lat = { 0, 0, 100, 0, 0 } },
	};
	struct nn_bench_row r = { .runs = runs, .nruns = 4 }, ref = { .runs = ref_runs, .nruns = 2 };
	struct nn_bench_row none = { 0 };
	struct nn_bench_stat s, m;

	(void)state;
	s = nn_bench_stat(&r, NN_BENCH_MPPS, 0);
	assert_int_equal(s.n, 3);
	assert_true(s.med == 2.0 && s.min == 1.0 && s.max == 3.0);
	/* even count: the mean of the middle two; unmeasured values left out */
	s = nn_bench_stat(&r, NN_BENCH_LAT, 0);
	assert_int_equal(s.n, 2);
	assert_true(s.med == 150 && s.min == 100 && s.max == 200);
	s = nn_bench_stat(&r, NN_BENCH_LAT, 1);	/* p90 never measured */
	assert_int_equal(s.n, 0);
	assert_true(s.med < 0);
	s = nn_bench_stat(&none, NN_BENCH_MPPS, 0);
	assert_int_equal(s.n, 0);
	/* ratio to the matched row */
	m = nn_bench_stat(&ref, NN_BENCH_MPPS, 0);
	assert_true(nn_bench_ratio(nn_bench_stat(&r, NN_BENCH_MPPS, 0), m) == 0.5);
	assert_true(nn_bench_ratio(nn_bench_stat(&r, NN_BENCH_LAT, 2), nn_bench_stat(&ref, NN_BENCH_LAT, 2)) == 2.0);
	assert_true(nn_bench_ratio(s, m) < 0);			/* no run */
	assert_true(nn_bench_ratio(m, nn_bench_stat(&ref, NN_BENCH_LAT, 0)) < 0);	/* reference 0 */
	/* the sampling rate: unknown (-1) runs left out */
	runs[0].stamp_every = 16;
	runs[1].stamp_every = 16;
	runs[3].stamp_every = -1;
	s = nn_bench_stat(&r, NN_BENCH_STAMP_EVERY, 0);
	assert_int_equal(s.n, 2);
	assert_true(s.med == 16);
}

/* Without --pci: the first bound port on the node under test, else the first. */
static void test_pick_port(void **state)
{
	const int nodes[] = { 0, -1, 1, 1 };

	(void)state;
	assert_int_equal(nn_bench_pick_port(nodes, 4, 1), 2);
	assert_int_equal(nn_bench_pick_port(nodes, 4, 0), 0);
	assert_int_equal(nn_bench_pick_port(nodes, 4, 3), 0);	/* none there: the first */
	assert_int_equal(nn_bench_pick_port(nodes, 4, -1), 0);
	assert_int_equal(nn_bench_pick_port(nodes + 1, 3, 1), 1);
	assert_int_equal(nn_bench_pick_port(nodes, 0, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_two_nodes),
		cmocka_unit_test(test_pick_port),
		cmocka_unit_test(test_plan_farthest_and_pci),
		cmocka_unit_test(test_plan_one_node),
		cmocka_unit_test(test_run_unknown),
		cmocka_unit_test(test_parse_report),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_err_tail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
