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

static void verify_init(struct nn_verify *v, double before, double after)
{
	memset(v, 0, sizeof(*v));
	v->nnics = 1;
	snprintf(v->nics[0].name, sizeof(v->nics[0].name), "eth0");
	v->nics[0].before = before;
	v->nics[0].after = after;
	v->cmd_before = v->cmd_after = NAN;
	v->measured_after = true;
}

static void test_verify_judge(void **state)
{
	struct nn_verify v;

	(void)state;
	/* the share fell by more than the slack: worse */
	verify_init(&v, 95, 60);
	nn_verify_judge(&v);
	assert_true(v.worse);
	assert_non_null(strstr(v.verdict, "fell from 95.0% to 60.0%"));
	/* within the slack: kept */
	verify_init(&v, 95, 92);
	nn_verify_judge(&v);
	assert_false(v.worse);
	/* unknown on a side: not judged, kept, and said */
	verify_init(&v, -1, 20);
	nn_verify_judge(&v);
	assert_false(v.worse);
	assert_non_null(strstr(v.verdict, "not judged"));
	/* the command: higher is better by default */
	verify_init(&v, -1, -1);
	v.o.cmd = "x";
	v.cmd_before = 100;
	v.cmd_after = 90;
	nn_verify_judge(&v);
	assert_true(v.worse);
	v.o.lower_better = true;
	nn_verify_judge(&v);
	assert_false(v.worse);
	/* a command that printed nothing after: not judged */
	v.cmd_after = NAN;
	nn_verify_judge(&v);
	assert_false(v.worse);
	/* nothing changed: nothing measured after, kept */
	verify_init(&v, 95, -1);
	v.measured_after = false;
	nn_verify_judge(&v);
	assert_false(v.worse);
	assert_non_null(strstr(v.verdict, "already as planned"));
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

	nn_apply_report_rolled_back(&rep, "verify");
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
		cmocka_unit_test(test_verify_judge),
		cmocka_unit_test(test_verify_rolled_back_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
