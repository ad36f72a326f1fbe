// SPDX-License-Identifier: GPL-2.0-or-later
/* test_print.c - the same calls give a text table or a JSON document */
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
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/print.h"

static char *render(bool json)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	struct nn_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	nn_cpuset_parse_list("0-3,8", &s);
	nn_out_init(&o, fp, json);
	nn_open_object(&o, NULL);
	nn_open_array(&o, "nics");
	nn_open_object(&o, NULL);
	nn_print_string(&o, PRINT_ANY, "name", "%-6s", "eth0");
	nn_print_opt_int(&o, PRINT_ANY, "numa_node", " node %lld", -1, "unknown");
	nn_print_opt_int(&o, PRINT_ANY, "speed_mbps", " %6lld", 25000, "?");
	nn_print_cpuset(&o, PRINT_ANY, "local_cpus", " cpus %s", &s);
	nn_print_string(&o, PRINT_ANY, "pci", " pci %s", NULL);
	nn_print_bool(&o, PRINT_ANY, "virtual", " virtual %s", false);
	nn_printf(&o, "\n");
	nn_close_object(&o);
	nn_close_array(&o);
	nn_close_object(&o);
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	nn_cpuset_free(&s);
	return buf;
}

static void test_text(void **state)
{
	char *t = render(false);

	(void)state;
	assert_string_equal(t, "eth0   node unknown  25000 cpus 0-3,8 pci - virtual no\n");
	free(t);
}

static void test_json(void **state)
{
	char *t = render(true);
	struct json_object *doc = json_tokener_parse(t), *nics, *nic, *v;

	(void)state;
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "nics", &nics));
	assert_int_equal(json_object_array_length(nics), 1);
	nic = json_object_array_get_idx(nics, 0);
	assert_true(json_object_object_get_ex(nic, "numa_node", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(nic, "speed_mbps", &v));
	assert_int_equal(json_object_get_int(v), 25000);
	assert_true(json_object_object_get_ex(nic, "local_cpus", &v));
	assert_string_equal(json_object_get_string(v), "0-3,8");
	assert_true(json_object_object_get_ex(nic, "pci", &v));
	assert_null(v);
	json_object_put(doc);
	free(t);
}

static void vtext(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vtext(FILE *fp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nn_vfprintf_text(fp, fmt, ap);
	va_end(ap);
}

/* Text output never passes a terminal control byte through; JSON keeps the
 * name exactly (json-c escapes it). */
static void test_escape(void **state)
{
	static const char name[] = "a\x1b[31m\\b\xc3\xa9\x7f";
	struct json_object *doc, *v;
	struct nn_sb sb = NN_SB_INIT;
	struct nn_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	nn_out_init(&o, fp, false);
	nn_print_string(&o, PRINT_ANY, "name", "[%s]", name);
	nn_printf(&o, "|%-4s|%s\n", "e\a", "tab\tok\\x");
	vtext(fp, "%s\n", "bell\a");
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	assert_string_equal(buf, "[a\\x1b[31m\\\\b\\xc3\\xa9\\x7f]"
			    "|e\\x07  |tab\\x09ok\\x\n"
			    "bell\\x07\n");
	free(buf);

	buf = NULL;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	nn_out_init(&o, fp, true);
	nn_open_object(&o, NULL);
	nn_print_string(&o, PRINT_ANY, "name", "%s", name);
	nn_close_object(&o);
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	doc = json_tokener_parse(buf);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "name", &v));
	assert_string_equal(json_object_get_string(v), name);
	assert_null(strchr(buf, '\x1b'));
	json_object_put(doc);
	free(buf);

	nn_escape_text(&sb, "x\r\n\x9b");
	assert_string_equal(nn_sb_str(&sb), "x\\x0d\n\\x9b");
	nn_sb_free(&sb);
}

/* Issue 22.8: a value is one line of data. A "%s" argument holding a
 * newline, CR or ESC cannot start a line of its own (a forged log line); the
 * format's own newlines and tabs stay; numbers print as printf prints them. */
static void test_value_lines(void **state)
{
	struct nn_sb sb = NN_SB_INIT;
	struct nn_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	nn_out_init(&o, fp, false);
	nn_printf(&o, "nic %s:\tup\n", "eth0\nnicnuma: FORGED\r\x1b[2K");
	vtext(fp, "[%5d|%-3s|%.2f|%zu|%lld|%*d|%x|%c|%.3s|%%]\n", 42, "a", 1.5, (size_t)7,
	      -3LL, 4, 9, 255u, 'Z', "abcdef");
	nn_print_block(&o, "line one\n\tline two\n");
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	assert_string_equal(buf, "nic eth0\\x0anicnuma: FORGED\\x0d\\x1b[2K:\tup\n"
			    "[   42|a  |1.50|7|-3|   9|ff|Z|abc|%]\n"
			    "line one\n\tline two\n");
	free(buf);
	nn_escape_line(&sb, "a\nb\tc");
	assert_string_equal(nn_sb_str(&sb), "a\\x0ab\\x09c");
	nn_sb_free(&sb);
}

/* The warnings and notes lists into another output than ctx->out (bench's
 * saved report): both keys always, [] when empty, each entry {file, message}. */
static void test_warnings_json(void **state)
{
	struct nn_ctx ctx;
	struct json_object *doc, *w, *n, *v;
	int round;

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	ctx.prog = "nicnuma";
	for (round = 0; round < 2; round++) {
		struct nn_out o;
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		assert_non_null(fp);
		if (round) {
			nn_warn(&ctx, "/sys/x", "a warning");
			nn_note(&ctx, NULL, "a note");
		}
		nn_out_init(&o, fp, true);
		nn_open_object(&o, NULL);
		nn_warnings_json(&ctx, &o);
		nn_close_object(&o);
		assert_int_equal(nn_out_flush(&o), 0);
		fclose(fp);
		nn_out_free(&o);
		doc = json_tokener_parse(buf);
		assert_non_null(doc);
		assert_true(json_object_object_get_ex(doc, "warnings", &w));
		assert_true(json_object_object_get_ex(doc, "notes", &n));
		assert_int_equal(json_object_array_length(w), (size_t)round);
		assert_int_equal(json_object_array_length(n), (size_t)round);
		if (round) {
			assert_true(json_object_object_get_ex(json_object_array_get_idx(w, 0), "file", &v));
			assert_string_equal(json_object_get_string(v), "/sys/x");
			assert_true(json_object_object_get_ex(json_object_array_get_idx(n, 0), "message", &v));
			assert_string_equal(json_object_get_string(v), "a note");
		}
		json_object_put(doc);
		free(buf);
	}
	nn_warnings_clear(&ctx);
	free(ctx.warns);
	free(ctx.notes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_value_lines),
		cmocka_unit_test(test_warnings_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
