// SPDX-License-Identifier: GPL-2.0-or-later
/* test_print.c - the same calls give a text table or a JSON document */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/print.h"
#include "nicnuma/core/ctx.h"

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

/* The document is written as text while the calls come, not built as a
 * json-c tree: its layout must be json-c's own byte for byte (scripts and
 * expected files compare it), pretty and one-line, for every kind of value,
 * empty containers, escapes, deep nesting and an attached json-c tree. */
static void build_doc(struct nn_out *o, struct json_object *t)
{
	struct json_object *a, *c, *x, *att;
	static const char odd[] = "q\"b\\s/\b\f\n\r\t\x01\x1f\x7f\xc3\xa9";

	/* the same document both ways: @t by json-c, @o by the printer */
	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_JSON, "s", NULL, odd);
	json_object_object_add(t, "s", json_object_new_string(odd));
	nn_print_string(o, PRINT_JSON, odd, NULL, NULL);
	json_object_object_add(t, odd, NULL);
	nn_print_int(o, PRINT_JSON, "min", NULL, (long long)INT64_MIN);
	json_object_object_add(t, "min", json_object_new_int64(INT64_MIN));
	nn_print_uint(o, PRINT_JSON, "max", NULL, UINT64_MAX);
	json_object_object_add(t, "max", json_object_new_uint64(UINT64_MAX));
	nn_print_int(o, PRINT_JSON, "zero", NULL, 0);
	json_object_object_add(t, "zero", json_object_new_int64(0));
	nn_print_double(o, PRINT_JSON, "d", NULL, 0.1);
	json_object_object_add(t, "d", json_object_new_double(0.1));
	nn_print_double(o, PRINT_JSON, "d1", NULL, 1.0);
	json_object_object_add(t, "d1", json_object_new_double(1.0));
	nn_print_fixed(o, PRINT_JSON, "f", NULL, 0.78400001, 3);
	json_object_object_add(t, "f", json_object_new_double_s(0.784, "0.784"));
	nn_print_bool(o, PRINT_JSON, "b", NULL, true);
	json_object_object_add(t, "b", json_object_new_boolean(1));
	nn_print_opt_int(o, PRINT_JSON, "u", NULL, -1, "?");
	json_object_object_add(t, "u", NULL);
	nn_open_object(o, "eo");
	nn_close_object(o);
	json_object_object_add(t, "eo", json_object_new_object());
	nn_open_array(o, "ea");
	nn_close_array(o);
	json_object_object_add(t, "ea", json_object_new_array());
	nn_open_array(o, "a");
	a = json_object_new_array();
	json_object_object_add(t, "a", a);
	nn_print_null(o, PRINT_JSON, "ignored", NULL);
	json_object_array_add(a, NULL);
	nn_open_object(o, NULL);
	c = json_object_new_object();
	json_object_array_add(a, c);
	nn_print_string(o, PRINT_JSON, NULL, NULL, "k");
	json_object_object_add(c, "value", json_object_new_string("k"));
	nn_open_array(o, "in");
	x = json_object_new_array();
	json_object_object_add(c, "in", x);
	nn_open_array(o, NULL);
	nn_close_array(o);
	json_object_array_add(x, json_object_new_array());
	nn_print_int(o, PRINT_JSON, NULL, NULL, -5);
	json_object_array_add(x, json_object_new_int64(-5));
	nn_close_array(o);
	nn_close_object(o);
	nn_close_array(o);
	/* an attached tree lands at this depth, its own lines indented */
	att = json_object_new_object();
	json_object_object_add(att, "irqs", json_object_new_array());
	json_object_array_add(json_object_object_get(att, "irqs"), json_object_new_int(7));
	json_object_object_add(att, "e", json_object_new_object());
	nn_open_object(o, "wrap");
	x = json_object_new_object();
	json_object_object_add(t, "wrap", x);
	nn_print_json(o, "plan", json_object_get(att));
	json_object_object_add(x, "plan", att);
	nn_print_json(o, "none", NULL);
	json_object_object_add(x, "none", NULL);
	/* left open: nn_out_flush closes what is open */
}

static void test_jsonc_layout(void **state)
{
	int lines;

	(void)state;
	for (lines = 0; lines < 2; lines++) {
		struct json_object *t = json_object_new_object();
		struct nn_out o;
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);
		const char *want;

		assert_non_null(fp);
		nn_out_init(&o, fp, true);
		o.lines = lines;
		build_doc(&o, t);
		assert_int_equal(nn_out_flush(&o), 0);
		fclose(fp);
		want = json_object_to_json_string_ext(t, (lines ? JSON_C_TO_STRING_PLAIN :
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED) | JSON_C_TO_STRING_NOSLASHESCAPE);
		assert_int_equal(len, strlen(want) + 1);
		assert_memory_equal(buf, want, len - 1);
		assert_int_equal(buf[len - 1], '\n');
		free(buf);
		json_object_put(t);
	}
}

/* A value before any container makes the document an object; nesting past
 * NN_OUT_DEPTH is left out, not mis-nested; nn_out_take_tree hands the
 * document over as a tree; an empty output writes nothing. */
static void test_json_edges(void **state)
{
	struct json_object *tree, *v, *deep;
	struct json_tokener *tok;
	struct nn_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int i;

	(void)state;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	nn_out_init(&o, fp, true);
	assert_int_equal(nn_out_flush(&o), 0);
	assert_int_equal(len, 0);
	nn_print_int(&o, PRINT_JSON, "n", NULL, 3);
	for (i = 0; i < NN_OUT_DEPTH + 4; i++)
		nn_open_array(&o, "deep");
	nn_print_int(&o, PRINT_JSON, NULL, NULL, 1);
	for (i = 0; i < NN_OUT_DEPTH + 4; i++)
		nn_close_array(&o);
	nn_print_int(&o, PRINT_JSON, "after", NULL, 4);
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	tok = json_tokener_new_ex(2 * NN_OUT_DEPTH);	/* deeper than json-c's default */
	assert_non_null(tok);
	tree = json_tokener_parse_ex(tok, buf, (int)len);
	json_tokener_free(tok);
	assert_non_null(tree);
	assert_true(json_object_object_get_ex(tree, "after", &v));
	assert_int_equal(json_object_get_int(v), 4);
	/* the innermost one that fits is there, empty; the 1 went nowhere */
	assert_true(json_object_object_get_ex(tree, "deep", &deep));
	for (i = 1; i < NN_OUT_DEPTH; i++)
		deep = json_object_array_get_idx(deep, 0);
	assert_true(json_object_is_type(deep, json_type_array));
	assert_int_equal(json_object_array_length(deep), 0);
	json_object_put(tree);
	free(buf);

	nn_out_init(&o, stdout, true);
	nn_print_int(&o, PRINT_JSON, "n", NULL, 3);
	nn_open_array(&o, "a");
	nn_print_bool(&o, PRINT_JSON, NULL, NULL, false);
	tree = nn_out_take_tree(&o);
	assert_non_null(tree);
	assert_true(json_object_object_get_ex(tree, "n", &v));
	assert_int_equal(json_object_get_int(v), 3);
	assert_true(json_object_object_get_ex(tree, "a", &v));
	assert_int_equal(json_object_array_length(v), 1);
	json_object_put(tree);
	assert_null(nn_out_take_tree(&o));
}

/* nn_print_fixed writes most values by integer arithmetic: its digits must
 * be printf's "%.*f" (trailing zeros cut) for every value, ties, huge, tiny
 * and negative ones included. */
static void want_fixed(char *w, size_t n, double v, int d)
{
	char *e;

	snprintf(w, n, "%.*f", d, v);
	if (strchr(w, '.')) {
		e = w + strlen(w);
		while (e[-1] == '0')
			*--e = '\0';
		if (e[-1] == '.')
			*--e = '\0';
	}
	if (!strcmp(w, "-0"))
		strcpy(w, "0");
}

static void test_fixed_digits(void **state)
{
	static const double edge[] = { 0, -0.0, 0.5, 1.5, 2.5, 0.125, 0.375, -0.125, 1e-10, -1e-10,
				       0.0005, 0.00049999999, 0.9995, 0.99949999, 1099511627775.4,
				       1099511627776.6, 1e15, -1e15, 123456.789, 0.1, 0.7, 1.005,
				       2.675, 1.0 / 3, 2.0 / 3, 99.995, 100 };
	unsigned long long seed = 88172645463325252ULL;
	char buf[128], want[64];
	size_t i;
	int d;

	(void)state;
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]) + 200000; i++) {
		struct nn_out o;
		FILE *fp = fmemopen(buf, sizeof(buf), "w");
		double v;

		assert_non_null(fp);
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		if (i < sizeof(edge) / sizeof(edge[0]))
			v = edge[i];
		else	/* 0..1 ratios mostly, some large, some ties at a few places */
			v = (i % 3 == 0) ? (double)(seed % 100000) / 1000.0 * ((seed >> 40) % 2 ? -1 : 1)
			  : (i % 3 == 1) ? (double)(seed >> 11) * 0x1.0p-53
			  : (double)(seed >> 11) * 0x1.0p-30;
		d = (int)(seed >> 60) % 10;
		nn_out_init(&o, fp, true);
		o.lines = true;
		nn_print_fixed(&o, PRINT_JSON, "v", NULL, v, d);
		assert_int_equal(nn_out_flush(&o), 0);
		fclose(fp);
		want_fixed(want, sizeof(want), v, d);
		assert_int_equal(strncmp(buf, "{\"v\":", 5), 0);
		buf[strcspn(buf, "}")] = '\0';
		if (strcmp(buf + 5, want))
			fail_msg("%.17g at %d places: %s, printf %s", v, d, buf + 5, want);
	}
}

/* A document of ~400 KB: held whole, or streamed (nn_out_stream). */
static char *render_big(bool stream, size_t *len)
{
	struct nn_out o;
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	int i;

	assert_non_null(fp);
	nn_out_init(&o, fp, true);
	if (stream)
		nn_out_stream(&o);
	nn_open_object(&o, NULL);
	nn_open_array(&o, "irqs");
	for (i = 0; i < 4000; i++) {
		nn_open_object(&o, NULL);
		nn_print_int(&o, PRINT_ANY, "irq", "%lld", i);
		nn_print_string(&o, PRINT_ANY, "name", "%s", "mlx5_comp27@pci:0000:01:00.0");
		nn_print_string(&o, PRINT_ANY, "affinity", "%s", "0-31,256-287");
		nn_close_object(&o);
	}
	nn_close_array(&o);
	/* the document's end left open: nn_out_flush closes it either way */
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	return buf;
}

/* Streaming changes when the text is written, never the text: the same
 * bytes as the document held whole, in more than one piece, and it is not a
 * tree to take. A streamed write that fails is nn_out_flush's -EIO. */
static void test_stream(void **state)
{
	size_t hl = 0, sl = 0;
	char *held = render_big(false, &hl), *streamed = render_big(true, &sl);
	struct json_object *doc = json_tokener_parse(streamed);
	struct nn_out o;
	FILE *fp;
	int i, nul;

	(void)state;
	assert_true(hl > 4 * (64u << 10));
	assert_int_equal(sl, hl);
	assert_memory_equal(streamed, held, hl);
	assert_non_null(doc);
	assert_int_equal(json_object_array_length(json_object_object_get(doc, "irqs")), 4000);
	json_object_put(doc);
	free(held);
	free(streamed);

	nn_out_init(&o, stdout, true);
	nn_out_stream(&o);
	nn_open_object(&o, NULL);
	assert_null(nn_out_take_tree(&o));

	/* The first piece goes to /dev/full and fails; the rest to /dev/null,
	 * where it succeeds: only the failure remembered from the streamed
	 * piece makes the flush say so. */
	fp = fopen("/dev/full", "w");
	nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
	assert_non_null(fp);
	assert_true(nul >= 0);
	setvbuf(fp, NULL, _IONBF, 0);
	nn_out_init(&o, fp, true);
	nn_out_stream(&o);
	nn_open_object(&o, NULL);
	for (i = 0; i < 2000; i++)	/* 2000 x ~40 bytes: one piece */
		nn_print_string(&o, PRINT_ANY, "k", "%s", "a value that fills the chunk");
	assert_true(dup2(nul, fileno(fp)) >= 0);
	clearerr(fp);
	assert_int_equal(nn_out_flush(&o), -EIO);
	fclose(fp);
	close(nul);
}

/* nn_end_report (enable's and disable's end): the command's object closed,
 * the warnings beside it in the document; a warning turns a clean status
 * into 1, a note does not, an error stays an error. */
static void test_end_report(void **state)
{
	static const struct {
		bool warn;
		int status, want;
	} rows[] = {
		{ false, NN_EXIT_OK, NN_EXIT_OK },
		{ true, NN_EXIT_OK, NN_EXIT_WARN },
		{ true, NN_EXIT_ERROR, NN_EXIT_ERROR },
		{ false, NN_EXIT_WARN, NN_EXIT_WARN },
	};
	struct json_object *doc, *cmd, *w;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct nn_ctx ctx;
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		assert_non_null(fp);
		memset(&ctx, 0, sizeof(ctx));
		ctx.prog = "nicnuma";
		nn_out_init(&ctx.out, fp, true);
		nn_note(&ctx, NULL, "a note");
		if (rows[i].warn)
			nn_warn(&ctx, "/sys/x", "a warning");
		nn_open_object(&ctx.out, NULL);
		nn_open_object(&ctx.out, "cmd");
		nn_print_bool(&ctx.out, PRINT_ANY, "done", "done: %s\n", true);
		assert_int_equal(nn_end_report(&ctx, rows[i].status), rows[i].want);
		assert_int_equal(nn_out_flush(&ctx.out), 0);
		fclose(fp);
		nn_out_free(&ctx.out);
		doc = json_tokener_parse(buf);
		assert_non_null(doc);
		assert_true(json_object_object_get_ex(doc, "cmd", &cmd));
		assert_true(json_object_object_get_ex(cmd, "done", NULL));
		assert_false(json_object_object_get_ex(cmd, "warnings", NULL));
		assert_true(json_object_object_get_ex(doc, "warnings", &w));
		assert_int_equal(json_object_array_length(w), rows[i].warn ? 1 : 0);
		assert_true(json_object_object_get_ex(doc, "notes", NULL));
		json_object_put(doc);
		free(buf);
		nn_warnings_clear(&ctx);
		free(ctx.warns);
		free(ctx.notes);
	}
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

/* Table columns are as wide as their widest cell as printed (an escaped
 * byte counts 4), never narrower than their minimum; the last column's
 * title is not padded; JSON gets the cells under their keys. */
static void test_cols(void **state)
{
	static const char *const titles[3] = { "NIC", "CPUS", "STATUS" };
	static const char *const rows[3][3] = {
		{ "eth0", "0-3", "ok" },
		{ "enx0c42a1b2c3d4", "0,2,4,6,8,10,12", "drift" },
		{ "e\x1b", "1", "ok" },
	};
	static const int min[3] = { 4, 6, 6 };
	struct nn_cols c;
	struct nn_out o;
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *fp;

	(void)state;
	nn_cols_init(&c, 3, min);
	for (i = 0; i < 3; i++)
		for (k = 0; k < 3; k++)
			nn_cols_fit(&c, k, rows[i][k]);
	assert_int_equal(c.w[0], 15);
	assert_int_equal(c.w[1], 15);
	assert_int_equal(c.w[2], 6);
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	nn_out_init(&o, fp, false);
	nn_print_cols_header(&o, &c, titles);
	for (i = 0; i < 3; i++) {
		for (k = 0; k < 3; k++)
			nn_print_cell(&o, PRINT_ANY, titles[k], &c, k, rows[i][k]);
		nn_printf(&o, "|\n");
	}
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	assert_string_equal(buf, "NIC             CPUS            STATUS\n"
			    "eth0            0-3             ok    |\n"
			    "enx0c42a1b2c3d4 0,2,4,6,8,10,12 drift |\n"
			    "e\\x1b           1               ok    |\n");
	free(buf);

	buf = NULL;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	nn_out_init(&o, fp, true);
	nn_open_object(&o, NULL);
	nn_print_cols_header(&o, &c, titles);
	nn_print_cell(&o, PRINT_ANY, "nic", &c, 0, rows[1][0]);
	nn_print_cell(&o, PRINT_FP, "cpus", &c, 1, rows[1][1]);
	nn_print_cell(&o, PRINT_ANY, "status", &c, 2, NULL);
	nn_close_object(&o);
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "\"nic\""));
	assert_non_null(strstr(buf, "enx0c42a1b2c3d4"));
	assert_null(strstr(buf, "cpus"));
	assert_non_null(strstr(buf, "\"status\": null"));
	assert_null(strstr(buf, "NIC"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_cols),
		cmocka_unit_test(test_value_lines),
		cmocka_unit_test(test_jsonc_layout),
		cmocka_unit_test(test_json_edges),
		cmocka_unit_test(test_fixed_digits),
		cmocka_unit_test(test_warnings_json),
		cmocka_unit_test(test_end_report),
		cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
