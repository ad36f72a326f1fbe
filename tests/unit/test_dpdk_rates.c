// SPDX-License-Identifier: GPL-2.0-or-later
/* test_dpdk_rates.c - observe --dpdk's pure part: the counters of
 * /ethdev/stats, /ethdev/xstats and lcore cycles (both shapes: 23.03's
 * /eal/lcore/usage arrays and 23.11's /eal/lcore/info cycles) on canned
 * replies in 22.11's layout, and the rates between two samples. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/telemetry/dpdk_telemetry.h"

#define Q16(a, b) "[" #a "," #b ",0,0,0,0,0,0,0,0,0,0,0,0,0,0]"

/* two queues' counters, as 22.11 lays out /ethdev/stats (16 slots each) */
static const char stats_t0[] =
	"{\"/ethdev/stats\":{\"ipackets\":1000,\"opackets\":900,\"ibytes\":64000,\"obytes\":57600,"
	"\"imissed\":10,\"ierrors\":0,\"oerrors\":0,\"rx_nombuf\":0,"
	"\"q_ipackets\":" Q16(600, 400) ",\"q_opackets\":" Q16(900, 0) ","
	"\"q_ibytes\":" Q16(0, 0) ",\"q_obytes\":" Q16(0, 0) ",\"q_errors\":" Q16(0, 0) "}}";
static const char stats_t1[] =
	"{\"/ethdev/stats\":{\"ipackets\":3000,\"opackets\":1900,\"ibytes\":192000,\"obytes\":121600,"
	"\"imissed\":50,\"ierrors\":0,\"oerrors\":0,\"rx_nombuf\":0,"
	"\"q_ipackets\":" Q16(1600, 1400) ",\"q_opackets\":" Q16(1900, 0) ","
	"\"q_ibytes\":" Q16(0, 0) ",\"q_obytes\":" Q16(0, 0) ",\"q_errors\":" Q16(0, 0) "}}";
static const char xstats[] =
	"{\"/ethdev/xstats\":{\"rx_good_packets\":3000,\"tx_good_packets\":1900,"
	"\"rx_q0_packets\":10,\"rx_q0_bytes\":640,\"rx_q0_errors\":0,\"rx_q17_packets\":20,"
	"\"tx_q0_packets\":30,\"tx_q2_packets\":40,\"rx_q1_bytes\":7,\"rx_qx_packets\":99}}";
static const char usage_2303[] =
	"{\"/eal/lcore/usage\":{\"lcore_ids\":[1,2],\"total_cycles\":[1000,2000],"
	"\"busy_cycles\":[250,2000]}}";
static const char usage_2303_t1[] =
	"{\"/eal/lcore/usage\":{\"lcore_ids\":[1,2],\"total_cycles\":[3000,4000],"
	"\"busy_cycles\":[1750,4000]}}";
static const char info_2311[] =
	"{\"/eal/lcore/info\":{\"lcore_id\":3,\"socket\":0,\"role\":\"RTE\",\"cpuset\":[3],"
	"\"busy_cycles\":500,\"total_cycles\":1000}}";
static const char info_2211[] =
	"{\"/eal/lcore/info\":{\"lcore_id\":3,\"socket\":0,\"role\":\"RTE\",\"cpuset\":[3]}}";

static void take(struct nn_dt_sample *s, const char *stats, long long t_ms)
{
	memset(s, 0, sizeof(*s));
	s->ports = calloc(1, sizeof(*s->ports));
	assert_non_null(s->ports);
	s->ports[0].port_id = 0;
	s->ports[0].node = 1;
	snprintf(s->ports[0].name, sizeof(s->ports[0].name), "net_null0");
	assert_int_equal(nn_dt_parse_stats(stats, &s->ports[0]), 0);
	s->ports[0].nrxq = s->ports[0].ntxq = 2;	/* the port's two queues */
	s->nports = 1;
	s->t_ms = t_ms;
}

static void test_stats_rates(void **state)
{
	struct nn_dt_sample a, b;
	struct nn_dt_rates r;

	(void)state;
	take(&a, stats_t0, 10000);
	assert_int_equal(a.ports[0].ipackets, 1000);
	assert_int_equal(a.ports[0].imissed, 10);
	take(&b, stats_t1, 10500);
	assert_int_equal(nn_dt_rates(&a, &b, 0.5, &r), 0);
	assert_int_equal(r.nports, 1);
	assert_string_equal(r.ports[0].name, "net_null0");
	assert_int_equal(r.ports[0].node, 1);
	assert_true(r.ports[0].rx_pps == 4000.0);
	assert_true(r.ports[0].tx_pps == 2000.0);
	assert_true(r.ports[0].rx_missed_pps == 80.0);
	assert_int_equal(r.ports[0].nqueues, 2);
	assert_true(r.ports[0].queues[0].rx_pps == 2000.0);
	assert_true(r.ports[0].queues[1].rx_pps == 2000.0);
	assert_true(r.ports[0].queues[0].tx_pps == 2000.0);
	assert_true(r.ports[0].queues[1].tx_pps == 0.0);
	nn_dt_rates_free(&r);
	/* a counter that went back (port reset): unknown, never negative */
	assert_int_equal(nn_dt_rates(&b, &a, 0.5, &r), 0);
	assert_true(isnan(r.ports[0].rx_pps));
	assert_true(isnan(r.ports[0].queues[0].rx_pps));
	nn_dt_rates_free(&r);
	/* no previous sample of the port: unknown */
	assert_int_equal(nn_dt_rates(NULL, &b, 0.5, &r), 0);
	assert_true(isnan(r.ports[0].tx_pps));
	nn_dt_rates_free(&r);
	/* no elapsed time: unknown */
	assert_int_equal(nn_dt_rates(&a, &b, 0, &r), 0);
	assert_true(isnan(r.ports[0].rx_pps));
	nn_dt_rates_free(&r);
	nn_dt_sample_free(&a);
	nn_dt_sample_free(&b);
}

static void test_xstats(void **state)
{
	struct nn_dt_pstats p;

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(nn_dt_parse_stats(stats_t0, &p), 0);
	assert_int_equal(p.nrxq, 16);
	assert_int_equal(nn_dt_parse_xstats(xstats, &p), 0);
	/* the xstats name queues 0 and 17 (rx), 0 and 2 (tx): they replace
	 * the 16 slots; queues they skip are unknown */
	assert_int_equal(p.nrxq, 18);
	assert_int_equal(p.rxq[0], 10);
	assert_int_equal(p.rxq[1], -1);
	assert_int_equal(p.rxq[17], 20);
	assert_int_equal(p.ntxq, 3);
	assert_int_equal(p.txq[2], 40);
	assert_int_equal(p.txq[1], -1);
	/* a PMD without per-queue xstats leaves /ethdev/stats' counts */
	memset(&p, 0, sizeof(p));
	assert_int_equal(nn_dt_parse_stats(stats_t0, &p), 0);
	assert_int_equal(nn_dt_parse_xstats("{\"/ethdev/xstats\":{\"rx_good_packets\":1}}", &p), 0);
	assert_int_equal(p.rxq[0], 600);
	/* null: no such port; garbage */
	assert_int_equal(nn_dt_parse_xstats("{\"/ethdev/xstats\":null}", &p), -ENOENT);
	assert_int_equal(nn_dt_parse_stats("{\"/ethdev/stats\":null}", &p), -ENOENT);
	assert_int_equal(nn_dt_parse_stats("{\"/ethdev/stats\":{\"ipackets\":\"x\"}}", &p), -EINVAL);
	assert_int_equal(nn_dt_parse_stats("{\"/ethdev/stats\":{\"ipackets\":-5}}", &p), -EINVAL);
	assert_int_equal(nn_dt_parse_stats("{\"/ethdev/stats\":{\"q_ipackets\":[1,\"a\"]}}", &p),
			 -EINVAL);
	assert_int_equal(nn_dt_parse_stats("not json", &p), -EINVAL);
	assert_int_equal(nn_dt_parse_xstats("{\"/ethdev/xstats\":{\"rx_q0_packets\":true}}", &p),
			 -EINVAL);
}

static void test_usage(void **state)
{
	struct nn_dt_sample a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* 23.03's shape */
	assert_int_equal(nn_dt_parse_usage(usage_2303, &a), 0);
	assert_true(a.usage_available);
	assert_int_equal(a.nusage, 2);
	assert_int_equal(nn_dt_parse_usage(usage_2303_t1, &b), 0);
	assert_true(nn_dt_busy_share(&a, &b, 1) == 0.75);
	assert_true(nn_dt_busy_share(&a, &b, 2) == 1.0);
	assert_true(isnan(nn_dt_busy_share(&a, &b, 7)));	/* no such lcore */
	assert_true(isnan(nn_dt_busy_share(&b, &a, 1)));	/* cycles went back */
	assert_true(isnan(nn_dt_busy_share(NULL, &b, 1)));
	nn_dt_sample_free(&a);
	nn_dt_sample_free(&b);
	/* 23.11's shape: cycles in /eal/lcore/info; 22.11's info has none */
	assert_int_equal(nn_dt_parse_usage(info_2311, &a), 0);
	assert_int_equal(a.nusage, 1);
	assert_int_equal(a.usage[0].lcore_id, 3);
	assert_int_equal(a.usage[0].busy_cycles, 500);
	assert_int_equal(nn_dt_parse_usage(info_2211, &b), -ENOENT);
	assert_false(b.usage_available);
	/* 22.11 answers null: not available */
	assert_int_equal(nn_dt_parse_usage("{\"/eal/lcore/usage\":null}", &b), -ENOENT);
	assert_false(b.usage_available);
	/* garbage: arrays of different lengths, a bad id */
	assert_int_equal(nn_dt_parse_usage("{\"/eal/lcore/usage\":{\"lcore_ids\":[1],"
					   "\"total_cycles\":[],\"busy_cycles\":[1]}}", &b), -EINVAL);
	assert_int_equal(nn_dt_parse_usage("{\"/eal/lcore/usage\":{\"lcore_ids\":[-1],"
					   "\"total_cycles\":[5],\"busy_cycles\":[1]}}", &b), -EINVAL);
	assert_int_equal(nn_dt_parse_usage("[]", &b), -EINVAL);
	nn_dt_sample_free(&a);
	nn_dt_sample_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_rates),
		cmocka_unit_test(test_xstats),
		cmocka_unit_test(test_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
