// SPDX-License-Identifier: GPL-2.0-or-later
/* test_procmap.c - numa_maps/status/stat parsers and the check --pid verdicts
 * on the fixture processes (tests/fixtures/procmap/root, see mkroot.py) and on
 * hand-written edge cases. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <limits.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/procmap.h"

#ifndef FIXTURE_DIR
#error "FIXTURE_DIR must name tests/fixtures/procmap/root"
#endif

#define KB 1024ULL

static char *slurp(const char *rel)
{
	char path[512];
	char *buf = NULL;
	size_t len = 0;
	FILE *fp, *mem;
	int c;

	snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, rel);
	fp = fopen(path, "r");
	assert_non_null(fp);
	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	while ((c = fgetc(fp)) != EOF)
		fputc(c, mem);
	fclose(fp);
	fclose(mem);
	return buf;
}

static void set_of(struct nn_cpuset *s, const char *list)
{
	assert_int_equal(nn_cpuset_parse_list(list, s), 0);
}

/* Parses /proc/PID/numa_maps of the fixture and judges it against @nodes. */
static void judge(int pid, const char *nodes, struct nn_numa_maps *m, struct nn_pm_verdict *v)
{
	struct nn_pm_thresholds t;
	struct nn_cpuset tn = NN_CPUSET_INIT;
	char rel[64];
	char *text;

	snprintf(rel, sizeof(rel), "proc/%d/numa_maps", pid);
	text = slurp(rel);
	assert_int_equal(nn_numa_maps_parse(text, 4, m), 0);
	free(text);
	set_of(&tn, nodes);
	nn_pm_thresholds_default(&t);
	nn_pm_verdict_make(m, &tn, &t, v);
	nn_cpuset_free(&tn);
}

static void test_remote_heap(void **state)
{
	struct nn_numa_maps m;
	struct nn_pm_verdict v;
	const struct nn_pm_node *n0, *n1;

	(void)state;
	judge(101, "0", &m, &v);
	assert_int_equal(m.nmappings, 6);
	assert_int_equal(m.nbad, 0);
	n0 = nn_numa_maps_node(&m, 0);
	n1 = nn_numa_maps_node(&m, 1);
	assert_non_null(n0);
	assert_non_null(n1);
	/* heap 1200 + 2 private copies + 8 stack pages on node 0 */
	assert_int_equal(n0->bytes[NN_MEM_ANON], (1200 + 2 + 8) * 4 * KB);
	assert_int_equal(n0->bytes[NN_MEM_FILE], (10 + 20) * 4 * KB);
	assert_int_equal(n1->bytes[NN_MEM_ANON], (50000 + 25600) * 4 * KB);
	assert_int_equal(n1->bytes[NN_MEM_FILE], 20 * 4 * KB);
	assert_int_equal(n1->bytes[NN_MEM_HUGE], 0);
	assert_int_equal(v.remote_bytes, 75600 * 4 * KB);
	assert_int_equal(v.local_bytes, 1210 * 4 * KB);
	assert_true(v.flags & NN_PMV_REMOTE);
	assert_false(v.flags & NN_PMV_SPAN_NO_POLICY);
	assert_false(v.flags & NN_PMV_LOCAL);
	assert_true(v.flags & NN_PMV_FLAGGED);
	assert_true(v.remote_fraction > 0.98 && v.remote_fraction < 0.99);
	/* the same memory seen from threads on node 1 is local */
	nn_numa_maps_free(&m);
	judge(101, "1", &m, &v);
	assert_false(v.flags & NN_PMV_FLAGGED);
	assert_true(v.flags & NN_PMV_LOCAL);
	nn_numa_maps_free(&m);
}

static void test_interleaved(void **state)
{
	struct nn_numa_maps m;
	struct nn_pm_verdict v;

	(void)state;
	judge(102, "0-1", &m, &v);
	assert_true(v.flags & NN_PMV_INTERLEAVED);
	/* a policy is set, so spanning both nodes is deliberate */
	assert_false(v.flags & NN_PMV_SPAN_NO_POLICY);
	assert_false(v.flags & NN_PMV_FLAGGED);
	assert_int_equal(v.judged_bytes, 0);
	assert_true(v.remote_fraction < 0);
	assert_int_equal(v.interleaved_bytes, (51200 + 1024 + 8) * 4 * KB);
	assert_true(nn_cpuset_test(&m.interleave_nodes, 0));
	assert_true(nn_cpuset_test(&m.interleave_nodes, 1));
	/* interleaved memory seen from one node is not "mostly remote" */
	nn_numa_maps_free(&m);
	judge(102, "0", &m, &v);
	assert_false(v.flags & NN_PMV_REMOTE);
	nn_numa_maps_free(&m);
}

static void test_bound(void **state)
{
	struct nn_numa_maps m;
	struct nn_pm_verdict v;
	const struct nn_pm_node *n1;

	(void)state;
	judge(103, "1", &m, &v);
	n1 = nn_numa_maps_node(&m, 1);
	assert_non_null(n1);
	assert_int_equal(n1->bytes[NN_MEM_HUGE], 512 * 2048 * KB);
	assert_int_equal(n1->bytes[NN_MEM_ANON], (4096 + 8) * 4 * KB);
	/* libc's page cache on node 0 is file memory: reported, not judged */
	assert_int_equal(nn_numa_maps_node(&m, 0)->bytes[NN_MEM_FILE], 40 * 4 * KB);
	assert_int_equal(nn_numa_maps_node(&m, 0)->outside_bind, 0);
	assert_true(v.flags & NN_PMV_BOUND);
	assert_true(v.flags & NN_PMV_LOCAL);
	assert_false(v.flags & NN_PMV_FLAGGED);
	assert_true(nn_cpuset_test(&m.bind_nodes, 1));
	assert_false(nn_cpuset_test(&m.bind_nodes, 0));
	nn_numa_maps_free(&m);
}

static void test_span_without_policy(void **state)
{
	struct nn_numa_maps m;
	struct nn_pm_verdict v;

	(void)state;
	judge(104, "0-1", &m, &v);
	assert_true(v.flags & NN_PMV_SPAN_NO_POLICY);
	assert_false(v.flags & NN_PMV_REMOTE);
	assert_true(v.flags & NN_PMV_FLAGGED);
	nn_numa_maps_free(&m);
}

static void test_bound_to_the_other_node(void **state)
{
	struct nn_numa_maps m;
	struct nn_pm_verdict v;

	(void)state;
	/* numactl --cpunodebind=0 --membind=1: the policy holds, the placement is wrong */
	judge(105, "0", &m, &v);
	assert_true(v.flags & NN_PMV_BOUND);
	assert_true(v.flags & NN_PMV_REMOTE);
	assert_true(v.flags & NN_PMV_FLAGGED);
	assert_true(v.remote_fraction == 1.0);
	nn_numa_maps_free(&m);
}

static void test_outside_bind(void **state)
{
	static const char text[] =
		"7f0000000000 bind:1 anon=100 dirty=100 N0=60 N1=40 kernelpagesize_kB=4\n";
	struct nn_pm_thresholds t;
	struct nn_numa_maps m;
	struct nn_pm_verdict v;
	struct nn_cpuset tn = NN_CPUSET_INIT;

	(void)state;
	assert_int_equal(nn_numa_maps_parse(text, 4, &m), 0);
	set_of(&tn, "1");
	nn_pm_thresholds_default(&t);
	nn_pm_verdict_make(&m, &tn, &t, &v);
	assert_int_equal(v.outside_bind_bytes, 60 * 4 * KB);
	assert_true(v.flags & NN_PMV_OUTSIDE_BIND);
	assert_false(v.flags & NN_PMV_BOUND);
	assert_true(v.flags & NN_PMV_REMOTE);	/* 60% off node 1 */
	nn_numa_maps_free(&m);
	nn_cpuset_free(&tn);
}

static void test_mixed_file_mapping(void **state)
{
	/* Seen in the 2-node guest: numactl --membind=0, a library's .data with
	 * 2 private copies among 5 pages, 3 of them page cache on node 1. Which
	 * pages are the copies is unknown: no "outside bind" from that. */
	static const char text[] =
		"1000 bind:0 file=/usr/lib/libx.so anon=2 dirty=2 mapped=5 N0=2 N1=3 kernelpagesize_kB=4\n"
		"2000 bind:0 anon=100 dirty=100 N0=100 kernelpagesize_kB=4\n";
	struct nn_pm_thresholds t;
	struct nn_numa_maps m;
	struct nn_pm_verdict v;
	struct nn_cpuset tn = NN_CPUSET_INIT;

	(void)state;
	assert_int_equal(nn_numa_maps_parse(text, 4, &m), 0);
	set_of(&tn, "0");
	nn_pm_thresholds_default(&t);
	nn_pm_verdict_make(&m, &tn, &t, &v);
	assert_int_equal(v.outside_bind_bytes, 0);
	assert_true(v.flags & NN_PMV_BOUND);
	assert_false(v.flags & NN_PMV_FLAGGED);
	/* whole pages: node 0 gets 2*2/5 = 0 copies + 100, node 1 3*2/5 = 1 */
	assert_int_equal(nn_numa_maps_node(&m, 0)->bytes[NN_MEM_ANON], 100 * 4 * KB);
	assert_int_equal(nn_numa_maps_node(&m, 1)->bytes[NN_MEM_ANON], 1 * 4 * KB);
	assert_int_equal(nn_numa_maps_node(&m, 1)->bytes[NN_MEM_FILE], 2 * 4 * KB);
	nn_numa_maps_free(&m);
	/* all pages of a file mapping private (anon == pages): they are ours */
	assert_int_equal(nn_numa_maps_parse("1000 bind:0 file=/usr/lib/libx.so anon=3 dirty=3 N1=3 "
					    "kernelpagesize_kB=4\n", 4, &m), 0);
	nn_pm_verdict_make(&m, &tn, &t, &v);
	assert_int_equal(v.outside_bind_bytes, 3 * 4 * KB);
	assert_true(v.flags & NN_PMV_OUTSIDE_BIND);
	nn_numa_maps_free(&m);
	nn_cpuset_free(&tn);
}

static void test_policy_words(void **state)
{
	/* every policy spelling the kernel prints, plus a word it may add later */
	static const char text[] =
		"1000 prefer (many):0-1 anon=1 N0=1 kernelpagesize_kB=4\n"
		"2000 weighted interleave:0-1 anon=2 N0=1 N1=1 kernelpagesize_kB=4\n"
		"3000 prefer=relative:1 anon=1 N1=1 kernelpagesize_kB=4\n"
		"4000 local anon=1 N0=1 kernelpagesize_kB=4 newword=7 shiny\n"
		"5000 bind=static|balancing:0 anon=1 N0=1\n"
		"6000 default file=/tmp/a\\040b\\012c mapped=1 N0=1 kernelpagesize_kB=4\n";
	struct nn_numa_maps m;
	const struct nn_pm_node *n0;

	(void)state;
	assert_int_equal(nn_numa_maps_parse(text, 4, &m), 0);
	assert_int_equal(m.nmappings, 6);
	assert_int_equal(m.nbad, 0);
	n0 = nn_numa_maps_node(&m, 0);
	assert_non_null(n0);
	assert_int_equal(n0->private_by_policy[NN_MPOL_PREFER_MANY], 4 * KB);
	assert_int_equal(n0->private_by_policy[NN_MPOL_WEIGHTED_INTERLEAVE], 4 * KB);
	assert_int_equal(n0->private_by_policy[NN_MPOL_LOCAL], 4 * KB);
	/* no kernelpagesize_kB=: the default page size */
	assert_int_equal(n0->private_by_policy[NN_MPOL_BIND], 4 * KB);
	assert_int_equal(n0->bytes[NN_MEM_FILE], 4 * KB);
	assert_int_equal(nn_numa_maps_node(&m, 1)->private_by_policy[NN_MPOL_PREFER], 4 * KB);
	assert_true(nn_cpuset_test(&m.bind_nodes, 1));
	assert_true(nn_cpuset_test(&m.interleave_nodes, 1));
	assert_string_equal(nn_mpol_name(NN_MPOL_PREFER_MANY), "prefer (many)");
	nn_numa_maps_free(&m);
}

static void test_long_path(void **state)
{
	struct nn_numa_maps m;
	/* static, not malloc: GCC 12 with -fsanitize cannot see that cmocka's
	 * assert stops on NULL and flags the memset under -Werror=array-bounds */
	static char text[9000];
	size_t n;

	(void)state;
	/* a file= path longer than a page must not cut off the counts after it */
	n = (size_t)sprintf(text, "1000 default file=/");
	memset(text + n, 'a', 8000);
	memcpy(text + n + 8000, " anon=2 mapped=3 N1=3 kernelpagesize_kB=4\n",
	       sizeof(" anon=2 mapped=3 N1=3 kernelpagesize_kB=4\n"));
	assert_int_equal(nn_numa_maps_parse(text, 4, &m), 0);
	assert_int_equal(m.nbad, 0);
	assert_int_equal(nn_numa_maps_node(&m, 1)->bytes[NN_MEM_ANON], 2 * 4 * KB);
	assert_int_equal(nn_numa_maps_node(&m, 1)->bytes[NN_MEM_FILE], 1 * 4 * KB);
	nn_numa_maps_free(&m);
}

static void test_bad_lines(void **state)
{
	struct nn_numa_maps m;

	(void)state;
	/* a bad line is skipped and counted; the rest still adds up */
	assert_int_equal(nn_numa_maps_parse("zzz default anon=1 N0=1\n"
					    "1000 default anon=1 Nx=1\n"
					    "2000 default anon=2 N1=2 kernelpagesize_kB=4\n", 4, &m), 0);
	assert_int_equal(m.nmappings, 1);
	assert_int_equal(m.nbad, 2);
	assert_int_equal(nn_numa_maps_total(&m, NN_MEM_ANON), 8 * KB);
	nn_numa_maps_free(&m);
	/* nothing parses: -EINVAL; empty text (kernel thread, exited): nothing to say */
	assert_int_equal(nn_numa_maps_parse("garbage\n", 4, &m), -EINVAL);
	assert_int_equal(nn_numa_maps_parse("", 4, &m), 0);
	assert_int_equal(m.nnodes, 0);
	assert_int_equal(nn_numa_maps_parse("1000 default N99999999=1\n", 4, &m), -EINVAL);
	assert_int_equal(nn_numa_maps_parse("1000 default N0=1 kernelpagesize_kB=0\n", 4, &m), -EINVAL);
	nn_numa_maps_free(&m);
}

static void test_no_memory_unknown_nodes(void **state)
{
	struct nn_pm_thresholds t;
	struct nn_numa_maps m;
	struct nn_pm_verdict v;
	struct nn_cpuset tn = NN_CPUSET_INIT;

	(void)state;
	nn_pm_thresholds_default(&t);
	assert_int_equal(nn_numa_maps_parse("1000 default file=/bin/x mapped=3 N0=3\n", 4, &m), 0);
	set_of(&tn, "0");
	nn_pm_verdict_make(&m, &tn, &t, &v);
	assert_int_equal(v.flags, NN_PMV_NO_MEMORY);
	nn_numa_maps_free(&m);
	/* threads' nodes unknown: no locality verdict at all, not "remote" */
	assert_int_equal(nn_numa_maps_parse("1000 default anon=3 N1=3\n", 4, &m), 0);
	nn_cpuset_zero(&tn);
	nn_pm_verdict_make(&m, &tn, &t, &v);
	assert_int_equal(v.flags, NN_PMV_UNKNOWN_LOCALITY);
	/* below --min-bytes nothing is judged remote */
	set_of(&tn, "0");
	t.min_bytes = 1 << 20;
	nn_pm_verdict_make(&m, &tn, &t, &v);
	assert_false(v.flags & NN_PMV_REMOTE);
	nn_numa_maps_free(&m);
	nn_cpuset_free(&tn);
}

/* Counts far beyond any machine (a corrupt capture, a fuzzer) saturate:
 * bytes stop at ULLONG_MAX instead of wrapping, and the remote share stays a
 * share. Before, 2^52 pages of 4 KiB wrapped to 0 bytes and a judged total
 * that wrapped made 2^63 remote bytes "200% off node". */
static void test_saturation(void **state)
{
	static const char text[] =
		/* 2^52 pages * 4096 = 2^64: the product itself overflows */
		"1000 default anon=4503599627370496 N1=4503599627370496 kernelpagesize_kB=4\n"
		/* node 0: 3 * 2^62 bytes, node 1 another 2^63: the sum overflows */
		"2000 default anon=3377699720527872 N0=3377699720527872 kernelpagesize_kB=4\n"
		"3000 default anon=2251799813685248 N1=2251799813685248 kernelpagesize_kB=4\n"
		/* a mixed file mapping: pages * anon overflows before the division */
		"4000 default file=/lib/x anon=4611686018427387904 N0=9223372036854775807 "
		"N1=9223372036854775807 kernelpagesize_kB=4\n";
	struct nn_pm_thresholds t;
	struct nn_numa_maps m;
	struct nn_pm_verdict v;
	struct nn_cpuset tn = NN_CPUSET_INIT;
	const struct nn_pm_node *n0, *n1;

	(void)state;
	nn_pm_thresholds_default(&t);
	assert_int_equal(nn_numa_maps_parse(text, 4, &m), 0);
	assert_int_equal(m.nmappings, 4);
	n0 = nn_numa_maps_node(&m, 0);
	n1 = nn_numa_maps_node(&m, 1);
	assert_non_null(n0);
	assert_non_null(n1);
	assert_true(n1->bytes[NN_MEM_ANON] == ULLONG_MAX);
	assert_true(n0->bytes[NN_MEM_ANON] == ULLONG_MAX);
	assert_true(n0->bytes[NN_MEM_FILE] == ULLONG_MAX);
	assert_true(nn_numa_maps_total(&m, -1) == ULLONG_MAX);
	assert_true(n1->private_by_policy[NN_MPOL_DEFAULT] == ULLONG_MAX);

	set_of(&tn, "0");
	nn_pm_verdict_make(&m, &tn, &t, &v);
	assert_true(v.private_bytes == ULLONG_MAX);
	assert_true(v.judged_bytes == ULLONG_MAX);
	assert_true(v.remote_bytes <= v.judged_bytes);
	assert_true(v.local_bytes <= v.judged_bytes);
	assert_true(v.remote_fraction >= 0.0 && v.remote_fraction <= 1.0);
	nn_numa_maps_free(&m);

	/* only the sum overflows: node 0 3 * 2^62, node 1 2^63 (remote) */
	assert_int_equal(nn_numa_maps_parse(text + strlen("1000 default anon=4503599627370496 "
		"N1=4503599627370496 kernelpagesize_kB=4\n"), 4, &m), 0);
	nn_pm_verdict_make(&m, &tn, &t, &v);
	assert_true(v.remote_fraction >= 0.0 && v.remote_fraction <= 1.0);
	assert_true(v.judged_bytes == ULLONG_MAX);
	nn_numa_maps_free(&m);
	nn_cpuset_free(&tn);

	/* percentages for the report never pass 100 */
	assert_true(nn_pm_percent(ULLONG_MAX, 1) == 100.0);
	assert_true(nn_pm_percent(1, 0) == 0.0);
	assert_true(nn_pm_percent(1, 4) == 25.0);
}

/* A zombie (State Z, no numa_maps, no tasks) is "exited", not "no resident
 * memory" and not "no such process". */
static void test_zombie(void **state)
{
	struct nn_pm_thresholds t;
	struct nn_pm_cpu_nodes cn;
	struct nn_pm_snapshot s;
	struct nn_proc_status st;
	struct nn_ctx ctx;

	(void)state;
	/* status of a zombie without the allowed lists still parses */
	assert_int_equal(nn_proc_status_parse("Name:\tz\nState:\tZ (zombie)\nTgid:\t7\n", &st), 0);
	assert_true(nn_proc_status_exited(&st));
	nn_proc_status_free(&st);
	assert_int_equal(nn_proc_status_parse("Name:\tz\nState:\tS (sleeping)\n", &st), -EINVAL);

	assert_int_equal(nn_ctx_init(&ctx, FIXTURE_DIR, true), 0);
	nn_pm_thresholds_default(&t);
	assert_int_equal(nn_pm_cpu_nodes_read(&ctx, &cn), 0);
	assert_int_equal(nn_pm_cpu_node(&cn, 2), 1);
	assert_int_equal(nn_pm_snapshot_read(&ctx, &cn, &t, 106, &s), 0);
	assert_true(s.exited);
	assert_int_equal(s.st.state, 'Z');
	assert_int_equal(s.v.flags, NN_PMV_EXITED);
	assert_string_equal(nn_pm_verdict_key(s.v.flags), "exited");
	assert_string_equal(nn_pm_verdict_text(s.v.flags), "exited (zombie)");
	assert_true(s.v.remote_fraction < 0);
	nn_pm_snapshot_free(&s);
	/* a live fixture process reads as before */
	assert_int_equal(nn_pm_snapshot_read(&ctx, &cn, &t, 101, &s), 0);
	assert_false(s.exited);
	assert_int_equal(s.nthreads, 3);
	assert_int_equal(s.threads[0].tid, 101);
	assert_int_equal(s.v.flags, NN_PMV_REMOTE);
	nn_pm_snapshot_free(&s);
	assert_int_equal(ctx.nwarns, 0);
	nn_pm_cpu_nodes_free(&cn);
	nn_ctx_free(&ctx);
}

static void test_status(void **state)
{
	struct nn_proc_status st;
	char *text = slurp("proc/103/status");

	(void)state;
	assert_int_equal(nn_proc_status_parse(text, &st), 0);
	assert_string_equal(st.name, "bound");
	assert_int_equal(st.tgid, 103);
	assert_int_equal(st.threads, 4);
	assert_true(st.has_cpus_allowed && st.has_mems_allowed);
	assert_int_equal(nn_cpuset_count(&st.cpus_allowed), 2);
	assert_true(nn_cpuset_test(&st.cpus_allowed, 3));
	assert_int_equal(nn_cpuset_count(&st.mems_allowed), 2);
	nn_proc_status_free(&st);
	free(text);
	assert_int_equal(nn_proc_status_parse("Name:\tx\nState:\tR\n", &st), -EINVAL);
	assert_int_equal(nn_proc_status_parse("Cpus_allowed_list:\t0-z\n", &st), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remote_heap),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_span_without_policy),
		cmocka_unit_test(test_bound_to_the_other_node),
		cmocka_unit_test(test_outside_bind),
		cmocka_unit_test(test_mixed_file_mapping),
		cmocka_unit_test(test_policy_words),
		cmocka_unit_test(test_long_path),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_no_memory_unknown_nodes),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_zombie),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
