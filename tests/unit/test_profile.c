// SPDX-License-Identifier: GPL-2.0-or-later
/* test_profile.c - the profiles' tables and the options they stand for
 * (plan/profile.c), and apply --verify's judgement (act/verify.c) */
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

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/act/verify.h"

static void test_names(void **state)
{
	enum nn_profile p;

	(void)state;
	assert_int_equal(nn_profile_parse("throughput", &p), 0);
	assert_int_equal(p, NN_PROFILE_THROUGHPUT);
	assert_int_equal(nn_profile_parse("latency", &p), 0);
	assert_string_equal(nn_profile_name(p), "latency");
	assert_int_equal(nn_profile_parse("none", &p), 0);
	assert_int_equal(p, NN_PROFILE_NONE);
	assert_int_equal(nn_profile_parse("dpdk", &p), 0);
	assert_int_equal(p, NN_PROFILE_DPDK);
	assert_string_equal(nn_profile_name(p), "dpdk");
	assert_int_equal(nn_profile_parse("Latency", &p), -EINVAL);
	assert_int_equal(nn_profile_parse(NULL, &p), -EINVAL);
}

/* Every row says what, to what and why; none is empty. */
static void test_tables(void **state)
{
	const enum nn_profile ps[] = { NN_PROFILE_THROUGHPUT, NN_PROFILE_LATENCY, NN_PROFILE_DPDK };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		const struct nn_profile_row *r = nn_profile_table(ps[i]);
		size_t n = 0;

		for (; r->what; r++, n++) {
			assert_non_null(r->value);
			assert_non_null(r->why);
			assert_true(r->why[0] && r->value[0]);
			assert_string_equal(nn_profile_why(ps[i], r->what), r->why);
		}
		assert_true(n >= 4);
	}
	assert_null(nn_profile_table(NN_PROFILE_NONE)->what);
	assert_string_equal(nn_profile_why(NN_PROFILE_LATENCY, "no such row"), "");
}

static void test_opts(void **state)
{
	struct nn_plan_opts o;

	(void)state;
	/* throughput: RPS auto, no NAPI settings */
	memset(&o, 0, sizeof(o));
	o.profile = NN_PROFILE_THROUGHPUT;
	nn_profile_opts(&o, false);
	assert_int_equal(o.rps, NN_RPS_AUTO);
	assert_int_equal(o.napi_set, 0);
	/* --rps off beside it wins */
	memset(&o, 0, sizeof(o));
	o.profile = NN_PROFILE_THROUGHPUT;
	o.rps = NN_RPS_OFF;
	nn_profile_opts(&o, true);
	assert_int_equal(o.rps, NN_RPS_OFF);
	/* latency: defer 0, threaded; no IRQ suspension unless --busy-poll */
	memset(&o, 0, sizeof(o));
	o.profile = NN_PROFILE_LATENCY;
	nn_profile_opts(&o, false);
	assert_int_equal(o.rps, NN_RPS_OFF);
	assert_int_equal(o.napi_set, (1u << NN_NAPI_DEFER_HARD_IRQS) | (1u << NN_NAPI_THREADED));
	assert_int_equal(o.napi_value[NN_NAPI_DEFER_HARD_IRQS], 0);
	assert_int_equal(o.napi_value[NN_NAPI_THREADED], 1);
	assert_int_equal(o.napi_profile, o.napi_set);
	/* with --busy-poll 50: suspension values; a user's --napi-threaded off wins */
	memset(&o, 0, sizeof(o));
	o.profile = NN_PROFILE_LATENCY;
	o.busy_poll_us = 50;
	o.napi_set = 1u << NN_NAPI_THREADED;
	o.napi_value[NN_NAPI_THREADED] = 0;
	nn_profile_opts(&o, false);
	assert_int_equal(o.napi_value[NN_NAPI_THREADED], 0);
	assert_false(o.napi_profile & (1u << NN_NAPI_THREADED));
	assert_int_equal(o.napi_value[NN_NAPI_DEFER_HARD_IRQS], 100);
	assert_int_equal(o.napi_value[NN_NAPI_GRO_FLUSH_TIMEOUT], 50000);
	assert_int_equal(o.napi_value[NN_NAPI_IRQ_SUSPEND_TIMEOUT], 500000);
	/* none: nothing */
	memset(&o, 0, sizeof(o));
	nn_profile_opts(&o, false);
	assert_int_equal(o.napi_set, 0);
	assert_int_equal(o.rps, NN_RPS_OFF);
}

static void test_verify_number(void **state)
{
	double d;

	(void)state;
	assert_int_equal(nn_verify_parse_number("42\n", &d), 0);
	assert_true(d == 42);
	assert_int_equal(nn_verify_parse_number("  -1.5e3 \n", &d), 0);
	assert_true(d == -1500);
	assert_int_equal(nn_verify_parse_number("", &d), -EINVAL);
	assert_int_equal(nn_verify_parse_number("12 34\n", &d), -EINVAL);
	assert_int_equal(nn_verify_parse_number("nan", &d), -EINVAL);
	assert_int_equal(nn_verify_parse_number("inf", &d), -EINVAL);
	assert_int_equal(nn_verify_parse_number("12ms", &d), -EINVAL);
	assert_int_equal(nn_verify_parse_number(NULL, &d), -EINVAL);
}

/* The decision over samples (plan/verify_judge.c), pure. */
static void test_judge_samples(void **state)
{
	/* sockperf-like p99 in us: the 17.4 -> 10.4 with a tail that swings */
	static const double p99_before[] = { 17.4, 8.7, 22.0, 16.1, 19.3 };
	static const double p99_better[] = { 10.4, 12.5, 9.8, 11.0, 10.1 };
	static const double p99_worse[] = { 31.0, 29.5, 35.2, 30.4, 33.0 };
	static const double quiet[] = { 100, 101, 99, 100, 100.5 };
	static const double quiet_worse[] = { 80, 81, 79, 80, 80.5 };
	static const double wild[] = { 10, 40, 12, 90, 15 };
	static const double wild_after[] = { 30, 11, 60, 20, 95 };
	static const double some_unknown[] = { NAN, 100, NAN };
	struct nn_judgement j;

	(void)state;
	/* lower is better: the good plan is better, kept */
	nn_judge_samples(p99_before, 5, p99_better, 5, true, 10, &j);
	assert_int_equal(j.verdict, NN_VERDICT_BETTER);
	assert_true(fabs(j.med_before - 17.4) < 1e-9 && fabs(j.med_after - 10.4) < 1e-9);
	assert_true(j.change_pct > 39 && j.change_pct < 41);
	/* the one-sample comparison that undid it: 8.7 before, 12.5 after is
	 * inside the noise of these samples, never "worse" */
	nn_judge_samples(p99_before, 5, p99_before, 5, true, 10, &j);
	assert_int_equal(j.verdict, NN_VERDICT_SAME);
	/* a plan that really hurts: worse beyond the noise */
	nn_judge_samples(p99_before, 5, p99_worse, 5, true, 10, &j);
	assert_int_equal(j.verdict, NN_VERDICT_WORSE);
	assert_true(j.change_pct < -70);
	/* a plan that makes the tail wildly spread, every sample far worse: the
	 * spread alone (noise ~10000 %) would call it too noisy, the ranks do not */
	static const double tail_before[] = { 20, 22, 21, 19, 20 };
	static const double tail_hurt[] = { 300, 5000, 900, 20000, 1500 };
	nn_judge_samples(tail_before, 5, tail_hurt, 5, true, 10, &j);
	assert_int_equal(j.verdict, NN_VERDICT_WORSE);
	assert_true(-j.change_pct < j.noise_pct && j.rank_z < -1.96);
	/* higher is better (a share of work): 100 -> 80 on a quiet NIC is worse */
	nn_judge_samples(quiet, 5, quiet_worse, 5, false, 10, &j);
	assert_int_equal(j.verdict, NN_VERDICT_WORSE);
	assert_true(j.noise_pct < 2);
	/* within the margin: same */
	nn_judge_samples(quiet, 5, quiet_worse, 5, false, 25, &j);
	assert_int_equal(j.verdict, NN_VERDICT_SAME);
	/* a median worse beyond the margin but inside wild noise: too noisy to tell */
	nn_judge_samples(wild, 5, wild_after, 5, true, 10, &j);
	assert_int_equal(j.verdict, NN_VERDICT_NOISY);
	assert_true(-j.change_pct > 10 && -j.change_pct <= j.noise_pct);
	assert_string_equal(nn_verdict_name(j.verdict), "too_noisy");
	/* unknown samples are left out; none known on a side: not judged */
	nn_judge_samples(some_unknown, 3, quiet, 5, false, 10, &j);
	assert_int_equal(j.n_before, 1);
	assert_int_equal(j.verdict, NN_VERDICT_SAME);
	nn_judge_samples(some_unknown, 1, quiet, 5, false, 10, &j);
	assert_int_equal(j.verdict, NN_VERDICT_UNKNOWN);
	assert_string_equal(nn_verdict_name(j.verdict), "not_judged");
	/* one sample a side: no spread, the margin alone decides */
	nn_judge_samples(quiet, 1, quiet_worse, 1, false, 10, &j);
	assert_int_equal(j.verdict, NN_VERDICT_WORSE);
	assert_true(j.noise_pct == 0);
}

static void verify_init(struct nn_verify *v, const double *before, const double *after, size_t n)
{
	size_t i;

	memset(v, 0, sizeof(*v));
	nn_verify_opts_init(&v->o);
	v->nnics = 1;
	snprintf(v->nics[0].name, sizeof(v->nics[0].name), "eth0");
	for (i = 0; i < n; i++) {
		v->nics[0].s.before[i] = before ? before[i] : NAN;
		v->nics[0].s.after[i] = after ? after[i] : NAN;
		v->cmd.before[i] = v->cmd.after[i] = NAN;
	}
	v->nics[0].s.nbefore = v->nics[0].s.nafter = v->cmd.nbefore = v->cmd.nafter = n;
	v->measured_after = true;
}

/* The whole judgement: every series, the verdict word, the reason, strict. */
static void test_verify_judge(void **state)
{
	static const double share[] = { 95, 96, 94, 95, 95.5 };
	static const double share_low[] = { 60, 62, 59, 61, 60 };
	static const double share_ok[] = { 93, 94, 95, 93, 94 };
	static const double cmd_b[] = { 100, 101, 99, 100, 102 };
	static const double cmd_a[] = { 80, 79, 81, 80, 80 };
	static const double wild[] = { 10, 40, 12, 90, 15 };
	static const double wild_after[] = { 30, 11, 60, 20, 95 };
	struct nn_verify v;

	(void)state;
	/* the share fell beyond margin and noise: worse, rolled back */
	verify_init(&v, share, share_low, 5);
	nn_verify_judge(&v);
	assert_true(v.worse);
	assert_string_equal(v.verdict, "worse");
	assert_non_null(strstr(v.reason, "eth0: share of work on its node 95% -> 60%"));
	assert_non_null(strstr(v.reason, "rolled back"));
	/* within the margin: kept */
	verify_init(&v, share, share_ok, 5);
	nn_verify_judge(&v);
	assert_false(v.worse);
	assert_string_equal(v.verdict, "same");
	/* unknown on a side: not judged, kept, and said */
	verify_init(&v, NULL, share, 5);
	nn_verify_judge(&v);
	assert_false(v.worse);
	assert_string_equal(v.verdict, "not_judged");
	assert_non_null(strstr(v.reason, "not judged"));
	/* the command: higher is better by default, so 100 -> 80 is worse */
	verify_init(&v, NULL, NULL, 5);
	v.o.cmd = "x";
	memcpy(v.cmd.before, cmd_b, sizeof(cmd_b));
	memcpy(v.cmd.after, cmd_a, sizeof(cmd_a));
	nn_verify_judge(&v);
	assert_true(v.worse);
	v.o.lower_better = true;
	nn_verify_judge(&v);
	assert_false(v.worse);
	assert_string_equal(v.verdict, "better");
	/* too noisy to tell: kept and said, rolled back with --verify-strict */
	memcpy(v.cmd.before, wild, sizeof(wild));
	memcpy(v.cmd.after, wild_after, sizeof(wild_after));
	nn_verify_judge(&v);
	assert_false(v.worse);
	assert_string_equal(v.verdict, "too_noisy");
	assert_non_null(strstr(v.reason, "too noisy to tell: kept"));
	v.o.strict = true;
	nn_verify_judge(&v);
	assert_true(v.worse);
	assert_non_null(strstr(v.reason, "rolled back (--verify-strict)"));
	/* nothing changed: nothing measured after, kept */
	verify_init(&v, share, NULL, 5);
	v.measured_after = false;
	nn_verify_judge(&v);
	assert_false(v.worse);
	assert_string_equal(v.verdict, "already_as_planned");
	assert_non_null(strstr(v.reason, "already as planned"));
}

/* apply's JSON report as printed (nn_apply_print) for @rep, parsed. */
static struct json_object *apply_json(struct nn_apply_report *rep)
{
	struct json_object *doc;
	struct nn_ctx ctx;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(nn_ctx_init(&ctx, NULL, true), 0);
	nn_out_init(&ctx.out, fp, true);
	nn_open_object(&ctx.out, NULL);
	nn_open_object(&ctx.out, "apply");
	nn_apply_print(&ctx, rep);
	nn_close_object(&ctx.out);
	nn_close_object(&ctx.out);
	assert_int_equal(nn_out_flush(&ctx.out), 0);
	fclose(fp);
	nn_ctx_free(&ctx);
	doc = json_tokener_parse(buf);
	free(buf);
	assert_non_null(doc);
	return doc;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ? json_object_get_string(v) : NULL;
}

/* After --verify rolls back, the report says so: rolled_back true,
 * rolled_back_by "verify", no value "changed" (each "rolled_back", its
 * after the value before), the summary counted again; an unchanged value
 * and one already failed unwritten keep their status. */
static void test_verify_rolled_back_report(void **state)
{
	struct nn_apply_report rep;
	struct nn_apply_val *v;
	struct json_object *doc, *a, *vals, *sum, *x;

	(void)state;
	memset(&rep, 0, sizeof(rep));
	rep.nvals = 3;
	rep.vals = calloc(3, sizeof(*rep.vals));
	assert_non_null(rep.vals);
	v = rep.vals;
	v[0].kind = NN_VAL_RPS;
	v[0].nic = "eth0";
	v[0].path = strdup("/sys/class/net/eth0/queues/rx-0/rps_cpus");
	v[0].before = strdup("0");
	v[0].planned = strdup("2");
	v[0].after = strdup("2");
	v[0].status = NN_VAL_CHANGED;
	v[0].written = true;
	v[1].kind = NN_VAL_RPS;
	v[1].nic = "eth0";
	v[1].path = strdup("/sys/class/net/eth0/queues/rx-0/rps_flow_cnt");
	v[1].before = strdup("32768");
	v[1].planned = strdup("32768");
	v[1].status = NN_VAL_UNCHANGED;
	v[2].kind = NN_VAL_IRQ;
	v[2].irq = 37;
	v[2].nic = "eth0";
	v[2].path = strdup("/proc/irq/37/smp_affinity_list");
	v[2].before = strdup("0-1");
	v[2].planned = strdup("1");
	v[2].status = NN_VAL_FAILED;	/* refused: nothing written */
	snprintf(rep.irqb.status, sizeof(rep.irqb.status), "nothing to do");
	rep.counts[NN_VAL_CHANGED] = 1;
	rep.counts[NN_VAL_UNCHANGED] = 1;
	rep.counts[NN_VAL_FAILED] = 1;

	/* before: a kept apply says changed and not rolled back */
	doc = apply_json(&rep);
	assert_true(json_object_object_get_ex(doc, "apply", &a));
	assert_true(json_object_object_get_ex(a, "rolled_back", &x));
	assert_false(json_object_get_boolean(x));
	assert_true(json_object_object_get_ex(a, "rolled_back_by", &x));
	assert_null(x);
	json_object_put(doc);

	nn_apply_report_rolled_back(&rep, NN_ROLLBACK_VERIFY);
	doc = apply_json(&rep);
	assert_true(json_object_object_get_ex(doc, "apply", &a));
	assert_true(json_object_object_get_ex(a, "rolled_back", &x));
	assert_true(json_object_get_boolean(x));
	assert_string_equal(jstr(a, "rolled_back_by"), "verify");
	assert_true(json_object_object_get_ex(a, "values", &vals));
	assert_int_equal(json_object_array_length(vals), 3);
	assert_string_equal(jstr(json_object_array_get_idx(vals, 0), "status"), "rolled_back");
	assert_string_equal(jstr(json_object_array_get_idx(vals, 0), "after"), "0");
	assert_string_equal(jstr(json_object_array_get_idx(vals, 1), "status"), "unchanged");
	assert_string_equal(jstr(json_object_array_get_idx(vals, 2), "status"), "failed");
	assert_true(json_object_object_get_ex(a, "summary", &sum));
	assert_true(json_object_object_get_ex(sum, "changed", &x));
	assert_int_equal(json_object_get_int(x), 0);
	assert_true(json_object_object_get_ex(sum, "rolled_back", &x));
	assert_int_equal(json_object_get_int(x), 1);
	json_object_put(doc);
	nn_apply_report_free(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_verify_number),
		cmocka_unit_test(test_judge_samples),
		cmocka_unit_test(test_verify_judge),
		cmocka_unit_test(test_verify_rolled_back_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
