// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bench_report.c - bench --report on canned rows: the SVG charts and
 * the HTML page are well-formed XML (xmllint, when installed), the latency
 * axis is logarithmic, a one-run row and skipped rows render honestly, text
 * from the host is escaped, and the files land in the directory. */
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
#include <math.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/bench.h"
#include "nicnuma/plan/bench_html.h"
#include "nicnuma/emit/bench_save.h"
#include "nicnuma/plan/bench_svg.h"
#include "tmptree.h"

/* A matched row at 64 B with three runs, the same at 1500 B with one, and
 * skipped rows; a CPU model that needs escaping. */
static const char canned[] =
	"{ \"report\": { \"created\": \"2026-01-01T00:00:00+0000\", \"command\": [\"nicnuma\", \"bench\", "
	"\"mismatch\", \"--report\", \"dir with space\"] },"
	"\"host\": { \"cpu_model\": \"<Xeon> & \\\"co\\\"\", \"nnodes\": 1, \"ncpus\": 2, \"hypervisor\": true,"
	"  \"trust\": \"virtual machine\", \"nodes\": [ { \"id\": 0, \"cpus\": \"0-1\", \"mem_total_kb\": 1000 } ],"
	"  \"distances\": [ [10] ], \"knobs\": { \"numa_balancing\": 0, \"zone_reclaim_mode\": 0,"
	"  \"thp_enabled\": \"madvise\", \"thp_defrag\": \"madvise\" } },"
	"\"conditions\": { \"ports\": \"virtual\", \"frame_sizes\": [64, 1500], \"repeat\": 3 },"
	"\"rows\": ["
	" { \"frame_size\": 64, \"lcores\": \"local\", \"mbufs\": \"local\", \"skipped\": null, \"good_runs\": 3,"
	"   \"lcore_node\": 0, \"mbuf_node\": 0, \"ratio_mpps\": 1.0, \"placement\": \"matched\","
	"   \"mpps\": { \"median\": 12.5, \"min\": 11.0, \"max\": 13.25 },"
	"   \"latency_ns\": { \"p50\": { \"median\": 900, \"min\": 800, \"max\": 1000 }, \"stamp_every\": 16 },"
	"   \"latency_cdf_ns\": [ { \"p\": 0, \"median\": 300 }, { \"p\": 50, \"median\": 900 },"
	"     { \"p\": 99, \"median\": 40000 }, { \"p\": 100, \"median\": 250000 } ],"
	"   \"binding\": { \"argv\": [\"/opt/nicnuma-fwd\", \"--lcores\", \"0@0,1@1\", \"--\", \"--gen\"] },"
	"   \"runs\": [ {}, {}, {} ] },"
	" { \"frame_size\": 64, \"lcores\": \"local\", \"mbufs\": \"remote\", \"skipped\": \"skipped: one NUMA node\","
	"   \"runs\": [] },"
	" { \"frame_size\": 1500, \"lcores\": \"local\", \"mbufs\": \"local\", \"skipped\": null, \"good_runs\": 1,"
	"   \"mpps\": { \"median\": 3.5, \"min\": 3.5, \"max\": 3.5 },"
	"   \"latency_cdf_ns\": [ { \"p\": 50, \"median\": 2000 }, { \"p\": 100, \"median\": 9000 } ],"
	"   \"binding\": { \"argv\": [\"/opt/nicnuma-fwd\"] }, \"runs\": [ {} ] },"
	" { \"frame_size\": 1500, \"lcores\": \"remote\", \"mbufs\": \"remote\", \"skipped\": \"skipped: one NUMA node\","
	"   \"runs\": [] } ],"
	"\"warnings\": [ { \"file\": null, \"message\": \"a <warning>\" } ] }";

/* Writes @text into a scratch file and runs xmllint --noout on it; without
 * xmllint the test is reported skipped (cmocka's skip), never passed. */
static void assert_xml(const char *text, const char *name)
{
	char dir[4096], path[4200], cmd[4400];
	FILE *fp;

	if (system("command -v xmllint >/dev/null 2>&1") != 0) {
		print_message("skip: xmllint missing (apt-get install libxml2-utils): %s not validated\n", name);
		skip();
	}
	assert_int_equal(tmptree_make(dir, sizeof(dir), "bench-xml"), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", path);
	assert_int_equal(system(cmd), 0);
	tmptree_remove(dir);
}

static void test_log_axis(void **state)
{
	double lo, hi;

	(void)state;
	nn_svg_log_range(150, 32000, &lo, &hi);
	assert_true(lo == 100 && hi == 1e5);
	nn_svg_log_range(1000, 1000, &lo, &hi);	/* one value: still a decade wide */
	assert_true(lo == 1000 && hi == 1e4);
	/* Equal ratios, equal distances: 100 -> 1000 -> 10000 on [0, 300]. */
	assert_true(fabs(nn_svg_logpos(100, 100, 1e5, 0, 300) - 0) < 1e-9);
	assert_true(fabs(nn_svg_logpos(1000, 100, 1e5, 0, 300) - 100) < 1e-9);
	assert_true(fabs(nn_svg_logpos(1e4, 100, 1e5, 0, 300) - 200) < 1e-9);
	assert_true(fabs(nn_svg_logpos(5e5, 100, 1e5, 0, 300) - 300) < 1e-9);	/* clamped */
}

/* The CDF's decade grid lines: equally spaced, one per power of ten. */
static void test_cdf_svg(void **state)
{
	static const double x[] = { 300, 900, 40000, 250000 }, y[] = { 0, 0.5, 0.99, 1 };
	struct nn_svg_series s[2] = {
		{ .label = "local/local", .x = x, .y = y, .n = 4 },
		{ .label = "local/remote", .mismatched = true, .note = "skipped: one NUMA node" },
	};
	struct nn_sb sb = NN_SB_INIT;
	const char *p;
	double pos[8], step;
	int n = 0, i;

	(void)state;
	nn_svg_cdf(&sb, "CDF <64 B>", s, 2);
	assert_int_equal(nn_sb_error(&sb), 0);
	p = nn_sb_str(&sb);
	assert_contains(p, "class=\"axis-x log\" data-lo=\"100\" data-hi=\"1e+06\"");
	assert_contains(p, "CDF &lt;64 B&gt;");
	assert_contains(p, ">1 &#181;s<");
	assert_contains(p, "local/remote: skipped: one NUMA node");
	for (const char *q = p; (q = strstr(q, "class=\"decade\" x1=\"")) && n < 8; q++)
		pos[n++] = strtod(q + strlen("class=\"decade\" x1=\""), NULL);
	assert_int_equal(n, 5);	/* 100 ns .. 1 ms */
	step = pos[1] - pos[0];
	assert_true(step > 0);
	for (i = 2; i < n; i++)
		assert_true(fabs(pos[i] - pos[i - 1] - step) < 0.11);
	/* Exactly one curve: the skipped row has a legend entry and no line. */
	assert_not_contains(strstr(p, "<polyline") + 1, "<polyline");
	assert_xml(p, "cdf.svg");
	nn_sb_free(&sb);
}

static void test_bars_svg(void **state)
{
	struct nn_svg_bar b[3] = {
		{ .label = "64 B local/local", .med = 12.5, .min = 11, .max = 13.25, .n = 3 },
		{ .label = "1500 B local/local", .med = 3.5, .min = 3.5, .max = 3.5, .n = 1 },
		{ .label = "64 B local/remote", .mismatched = true, .note = "skipped: one NUMA node" },
	};
	struct nn_sb sb = NN_SB_INIT;
	const char *p;

	(void)state;
	nn_svg_bars(&sb, "Mpps", "Mpps", b, 3);
	p = nn_sb_str(&sb);
	assert_non_null(p);
	/* Two bars, one whisker (the one-run row has no range to show). */
	assert_contains(p, "class=\"bar\"");
	assert_not_contains(strstr(strstr(p, "class=\"bar\"") + 1, "class=\"bar\"") + 1, "class=\"bar\"");
	assert_not_contains(strstr(p, "class=\"whisker\"") + 1, "class=\"whisker\"");
	assert_contains(p, "12.50 [11.00-13.25]");
	assert_contains(p, "3.50 (1 run)");
	assert_contains(p, "class=\"skipped\"");
	assert_xml(p, "bars.svg");
	nn_sb_free(&sb);
}

static void test_html(void **state)
{
	struct json_object *doc = json_tokener_parse(canned);
	struct nn_sb sb = NN_SB_INIT;
	const char *p;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(nn_bench_html(doc, &sb), 0);
	p = nn_sb_str(&sb);
	assert_contains(p, "&lt;Xeon&gt; &amp; &quot;co&quot;");
	assert_not_contains(p, "<Xeon>");
	assert_contains(p, "2 of 4 rows were not run (skipped: one NUMA node)");
	assert_contains(p, "nothing is estimated");
	assert_contains(p, "nicnuma bench mismatch --report &#39;dir with space&#39;");
	assert_contains(p, "/opt/nicnuma-fwd --lcores 0@0,1@1 -- --gen");
	assert_contains(p, "a &lt;warning&gt;");
	assert_contains(p, "Round-trip latency CDF, 64 B frames");
	assert_contains(p, "Round-trip latency CDF, 1500 B frames");
	/* the latency columns say what they sample */
	assert_contains(p, "one generator TX burst in 16 carries a timestamp");
	/* Nothing fetched: no script, no external reference. */
	assert_not_contains(p, "<script");
	assert_not_contains(p, "href=");
	assert_not_contains(p, "src=");
	assert_xml(p, "report.html");
	nn_sb_free(&sb);
	json_object_put(doc);
}

static void test_html_bad_doc(void **state)
{
	struct json_object *doc = json_tokener_parse("{\"rows\": 3}");
	struct nn_sb sb = NN_SB_INIT;

	(void)state;
	assert_int_equal(nn_bench_html(doc, &sb), -EINVAL);
	nn_sb_free(&sb);
	json_object_put(doc);
}

static void test_save(void **state)
{
	struct json_object *doc = json_tokener_parse(canned);
	char dir[4096], sub[4200], path[4300];
	const char *what = NULL;
	FILE *fp;

	(void)state;
	assert_int_equal(tmptree_make(dir, sizeof(dir), "bench-report"), 0);
	snprintf(sub, sizeof(sub), "%s/rep", dir);
	assert_int_equal(nn_bench_report_save(sub, doc, &what), 0);
	assert_int_equal(nn_bench_report_save(sub, doc, &what), 0);	/* replaces */
	snprintf(path, sizeof(path), "%s/report.html", sub);
	fp = fopen(path, "r");
	assert_non_null(fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/report.json", sub);
	fp = fopen(path, "r");
	assert_non_null(fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/missing/rep", dir);
	assert_int_equal(nn_bench_report_save(path, doc, &what), -ENOENT);

	/* Planted links (issue 22.4): DIR itself, a component above it, and
	 * report.json in DIR; nothing is written where they point. */
	snprintf(path, sizeof(path), "%s/victim", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(sub, sizeof(sub), "%s/rep-link", dir);
	assert_int_equal(symlink(path, sub), 0);
	assert_int_equal(nn_bench_report_save(sub, doc, &what), -ELOOP);
	assert_string_equal(what, sub);
	snprintf(sub, sizeof(sub), "%s/rep-link/rep", dir);
	assert_int_equal(nn_bench_report_save(sub, doc, &what), -ELOOP);
	snprintf(path, sizeof(path), "%s/victim/report.json", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/victim/rep", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/victim/target", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("precious\n", fp);
	fclose(fp);
	snprintf(sub, sizeof(sub), "%s/rep/report.json", dir);
	assert_int_equal(unlink(sub), 0);
	assert_int_equal(symlink(path, sub), 0);
	snprintf(sub, sizeof(sub), "%s/rep", dir);
	assert_int_equal(nn_bench_report_save(sub, doc, &what), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(path, sizeof(path), fp));
	assert_string_equal(path, "precious\n");
	fclose(fp);
	tmptree_remove(dir);
	json_object_put(doc);
}

/* nicnuma-fwd's "cdf" points land in the run by rank; a missing rank stays -1. */
static void test_parse_cdf(void **state)
{
	struct nn_bench_run run = { 0 };

	(void)state;
	nn_bench_parse_report("{\"mpps\": 1.5, \"drops\": 0, \"latency_ns\": {\"p50\": 900, "
			      "\"cdf\": [{\"p\": 0, \"ns\": 300}, {\"p\": 99.9, \"ns\": 5000}, {\"p\": 42, \"ns\": 1}]}}",
			      &run);
	assert_true(run.ok);
	assert_true(run.cdf[0] == 300);
	assert_true(run.cdf[11] == 5000 && nn_bench_cdf_p(11) == 99.9);
	assert_true(run.cdf[5] == -1);
	assert_true(run.lat[0] == 900);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_axis),
		cmocka_unit_test(test_cdf_svg),
		cmocka_unit_test(test_bars_svg),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_html_bad_doc),
		cmocka_unit_test(test_save),
		cmocka_unit_test(test_parse_cdf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
