// SPDX-License-Identifier: GPL-2.0-or-later
/* test_metrics.c - label escaping and the watcher's state file */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/act/metrics.h"

static void check_escape(const char *in, const char *want)
{
	struct nn_sb sb = NN_SB_INIT;

	nn_metrics_escape_label(&sb, in);
	assert_int_equal(nn_sb_error(&sb), 0);
	assert_string_equal(nn_sb_str(&sb), want);
	nn_sb_free(&sb);
}

static void test_escape(void **state)
{
	(void)state;
	check_escape("eth0", "eth0");
	check_escape("", "");
	check_escape("a\"b", "a\\\"b");
	check_escape("a\\b", "a\\\\b");
	check_escape("a\nb", "a\\nb");
	/* other controls and high bytes: the text \xNN, its backslash escaped */
	check_escape("a\x1b[31m", "a\\\\x1b[31m");
	check_escape("\xc3\xa9th0", "\\\\xc3\\\\xa9th0");
	check_escape("x\x7f", "x\\\\x7f");
}

static void test_watch(void **state)
{
	struct nn_metrics_watch w;
	int pid;

	(void)state;
	assert_int_equal(nn_metrics_parse_watch("{\"pid\":42,\"started\":1,\"last_action\":"
		"{\"time\":1714564800.25,\"trigger\":\"link up\",\"result\":\"ok\",\"changed\":3},"
		"\"counters\":{\"events\":7,\"applies\":2,\"values_written\":9}}", &w, &pid), 0);
	assert_int_equal(pid, 42);
	assert_true(w.has_time);
	assert_true(w.last_time > 1714564800.2 && w.last_time < 1714564800.3);
	assert_true(w.has_result && w.last_ok);
	assert_int_equal(w.events, 7);
	assert_int_equal(w.applies, 2);
	assert_int_equal(w.values_written, 9);
	assert_false(w.running);

	/* RFC 3339 times, a failed result, no counters */
	assert_int_equal(nn_metrics_parse_watch("{\"pid\":1,\"last_action\":{\"time\":"
		"\"2024-05-01T14:00:00+02:00\",\"result\":\"failed\"}}", &w, &pid), 0);
	assert_true(w.has_time);
	assert_true(w.last_time == 1714564800.0);
	assert_true(w.has_result && !w.last_ok);
	assert_int_equal(w.events, -1);
	assert_int_equal(nn_metrics_parse_watch("{\"last_action\":{\"time\":\"2024-05-01T12:00:00.5Z\"}}",
						&w, &pid), 0);
	assert_true(w.last_time == 1714564800.5);
	assert_false(w.has_result);
	assert_int_equal(pid, -1);

	/* what is not there or not the right type stays absent */
	assert_int_equal(nn_metrics_parse_watch("{\"pid\":\"42\",\"last_action\":{\"time\":\"yesterday\","
		"\"result\":3},\"counters\":{\"events\":-5}}", &w, &pid), 0);
	assert_int_equal(pid, -1);
	assert_false(w.has_time);
	assert_false(w.has_result);
	assert_int_equal(w.events, -1);
	assert_int_equal(nn_metrics_parse_watch("[1,2]", &w, &pid), -EINVAL);
	assert_int_equal(nn_metrics_parse_watch("{\"pid\":", &w, &pid), -EINVAL);
	assert_int_equal(nn_metrics_parse_watch("", &w, &pid), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
