// SPDX-License-Identifier: GPL-2.0-or-later
/* test_metrics.c - label escaping and the watcher's state file as metrics read it */
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
#include "nicnuma/service/metrics.h"
#include "nicnuma/service/persist.h"

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

static int parse(const char *text, struct nn_watch_state *st)
{
	return nn_watch_state_parse(text, strlen(text), st);
}

/* What the watcher writes (watch.c state_json), through the one reader
 * status uses too (persist.c), into the metrics view. */
static void test_watch(void **state)
{
	struct nn_watch_state st;
	struct nn_metrics_watch w;
	static const char written[] =
		"{\n  \"pid\":42,\n  \"started\":\"2024-05-01T11:00:00Z\",\n"
		"  \"config\":\"/etc/nicnuma/nicnuma.conf\",\n  \"ethtool_monitor\":true,\n"
		"  \"last_action\":{\n    \"time\":\"2024-05-01T12:00:00Z\",\n"
		"    \"trigger\":\"link up on eth1 (0000:65:00.0)\",\n    \"result\":\"applied\",\n"
		"    \"changed\":3,\n    \"elapsed_ms\":12.5\n  },\n"
		"  \"counters\":{\"events\":7,\"relevant\":4,\"applies\":2,\"values_written\":9}\n}\n";

	(void)state;
	assert_int_equal(nn_watch_state_parse(written, strlen(written), &st), 0);
	assert_int_equal(st.pid, 42);
	assert_string_equal(st.started, "2024-05-01T11:00:00Z");
	assert_string_equal(st.config, "/etc/nicnuma/nicnuma.conf");
	assert_int_equal(st.ethtool_monitor, 1);
	assert_true(st.has_action);
	assert_string_equal(st.trigger, "link up on eth1 (0000:65:00.0)");
	assert_int_equal(st.changed, 3);
	assert_true(st.elapsed_ms == 12.5);
	assert_int_equal(st.relevant, 4);
	nn_metrics_watch_from_state(&st, &w);
	assert_true(w.has_time);
	assert_true(w.last_time == 1714564800.0);
	assert_true(w.has_result && w.last_ok);
	assert_int_equal(w.events, 7);
	assert_int_equal(w.applies, 2);
	assert_int_equal(w.values_written, 9);
	assert_false(w.running);
	nn_watch_state_free(&st);

	/* unchanged is success, skipped (no desired NIC present: nothing to do) too; failed is not */
	assert_true(nn_watch_result_ok("unchanged"));
	assert_true(nn_watch_result_ok("skipped"));
	assert_false(nn_watch_result_ok("failed"));
	assert_false(nn_watch_result_ok("ok"));
	assert_false(nn_watch_result_ok(NULL));

	/* a watcher that has not acted yet: last_action null, no counters */
	assert_int_equal(parse("{\"pid\":1,\"last_action\":null}", &st), 0);
	assert_false(st.has_action);
	nn_metrics_watch_from_state(&st, &w);
	assert_false(w.has_time);
	assert_false(w.has_result);
	assert_int_equal(w.events, -1);
	nn_watch_state_free(&st);

	/* offsets and fractions in the time */
	assert_int_equal(parse("{\"last_action\":{\"time\":\"2024-05-01T14:00:00.5+02:00\","
					      "\"result\":\"failed\"}}", &st), 0);
	nn_metrics_watch_from_state(&st, &w);
	assert_true(w.last_time == 1714564800.5);
	assert_true(w.has_result && !w.last_ok);
	assert_int_equal(st.pid, 0);
	nn_watch_state_free(&st);

	/* what is not there or not the right type stays absent */
	assert_int_equal(parse("{\"pid\":\"42\",\"last_action\":{\"time\":\"yesterday\","
		"\"result\":3},\"counters\":{\"events\":-5}}", &st), 0);
	assert_int_equal(st.pid, 0);
	nn_metrics_watch_from_state(&st, &w);
	assert_false(w.has_time);
	assert_false(w.has_result);
	assert_int_equal(w.events, -1);
	nn_watch_state_free(&st);
	assert_int_equal(parse("[1,2]", &st), -EINVAL);
	assert_int_equal(parse("{\"pid\":", &st), -EINVAL);
	assert_int_equal(parse("{} {}", &st), -EINVAL);
	assert_int_equal(parse("", &st), -EINVAL);
}

/* systemctl show -p ActiveState -p MainPID: KEY=VALUE lines in systemctl's
 * own order (MainPID first: the Service interface before the Unit one). */
static void test_service_show(void **state)
{
	char active[32];
	int pid = -1;

	(void)state;
	assert_int_equal(nn_watch_service_parse("MainPID=254\nActiveState=active\n", active,
						sizeof(active), &pid), 0);
	assert_string_equal(active, "active");
	assert_int_equal(pid, 254);
	assert_int_equal(nn_watch_service_parse("ActiveState=activating\nMainPID=7", active,
						sizeof(active), &pid), 0);
	assert_string_equal(active, "activating");
	assert_int_equal(pid, 7);
	assert_int_equal(nn_watch_service_parse("MainPID=0\nActiveState=inactive\n", active,
						sizeof(active), &pid), 0);
	assert_string_equal(active, "inactive");
	assert_int_equal(pid, 0);
	/* what the old --value reading took for the state */
	assert_int_equal(nn_watch_service_parse("254\nactive\n", active, sizeof(active), &pid),
			 -EINVAL);
	assert_string_equal(active, "");
	assert_int_equal(pid, 0);
	assert_int_equal(nn_watch_service_parse("MainPID=x\nActiveState=failed\n", active,
						sizeof(active), &pid), 0);
	assert_int_equal(pid, 0);
	assert_int_equal(nn_watch_service_parse("", active, sizeof(active), &pid), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_watch),
		cmocka_unit_test(test_service_show),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
