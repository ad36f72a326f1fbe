/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print.h - one printing layer for text tables and JSON
 *
 * Every value a command reports goes through nn_print_*(out, PRINT_ANY, key,
 * fmt, val): in text mode @fmt is printed with @val, in JSON mode @val is added
 * under @key to the current object (or array, where @key is ignored). PRINT_FP
 * is text only (headers, separators), PRINT_JSON is JSON only. The JSON
 * document is built with json-c and written once by nn_out_flush().
 */
#ifndef NICNUMA_PRINT_H
#define NICNUMA_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <stdarg.h>

#include "nicnuma/core/strbuf.h"

struct json_object;
struct nn_cpuset;
struct nn_sb;

enum nn_print_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

#define NN_OUT_DEPTH 32

struct nn_out {
	bool json;
	FILE *fp;
	struct nn_sb doc;	/* the JSON text so far */
	bool array[NN_OUT_DEPTH];	/* the open container at this depth is an array */
	bool had[NN_OUT_DEPTH];	/* ... and holds a value already */
	int depth;		/* -1 before the document is opened */
	int over;		/* containers opened past NN_OUT_DEPTH (left out) */
	bool lines;		/* each document on one line (JSON lines), not pretty */
	bool stream;		/* written to fp as it grows (nn_out_stream) */
	int werr;		/* -EIO once a streamed write failed */
};

void nn_out_init(struct nn_out *o, FILE *fp, bool json);
/* Writes the JSON document (if any) and frees it. Returns -EIO on a write
 * error, -ENOMEM when the document could not be built. */
int nn_out_flush(struct nn_out *o);
/* The JSON document goes to fp in pieces as it is built, not held whole
 * until nn_out_flush: a 512-CPU host's nics report is 400 KB, each page of
 * it a fault. Not for a document taken with nn_out_take_tree. */
void nn_out_stream(struct nn_out *o);
void nn_out_free(struct nn_out *o);
/* The document so far as a json-c tree (its open containers closed), for a
 * caller that stores it rather than printing it; NULL when there is none or
 * on ENOMEM. @o is left empty. */
struct json_object *nn_out_take_tree(struct nn_out *o);

/* Open/close a JSON object or array under @key (NULL inside an array, or for
 * the document root). Text mode ignores them. */
void nn_open_object(struct nn_out *o, const char *key);
void nn_close_object(struct nn_out *o);
void nn_open_array(struct nn_out *o, const char *key);
void nn_close_array(struct nn_out *o);

/* Text mode never writes a control byte, DEL or a byte >= 0x80 it was given
 * (issue 22.8: one escaping rule for every line from kernel, config or peer
 * data). nn_print_string() escapes its value with nn_sb_escape() ("\x1b",
 * "\\"). nn_printf(), nn_err(), nn_fprintf_text() and the watcher's lines
 * format with nn_vformat_text(): the format's own text keeps its newlines
 * and tabs, every "%s"/"%c" argument is data and goes through
 * nn_escape_line(), so a name holding "\n" or ESC prints as "\x0a"/"\x1b"
 * and cannot forge a line. Warnings are one line each (nn_escape_line of the
 * whole message). A multi-line block nicnuma composed itself is printed with
 * nn_print_block(). Bytes >= 0x80 are escaped too rather than passed as
 * UTF-8: a terminal also acts on C1 controls and bidi overrides hidden in
 * valid UTF-8, and JSON output keeps every name exactly. */

/* @s with control bytes other than newline and tab, DEL and bytes >= 0x80 as
 * \xNN; backslashes stay (the text's own layout, unit file contents). */
void nn_escape_text(struct nn_sb *sb, const char *s);
/* @s as one line of data: every control byte (newline, CR, tab, ESC), DEL and
 * bytes >= 0x80 as \xNN; backslashes stay. */
void nn_escape_line(struct nn_sb *sb, const char *s);
/* printf of @fmt into @sb by the rule above (%n and unknown conversions are
 * not printed: the rest of the format goes out escaped). */
void nn_vformat_text(struct nn_sb *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void nn_vfprintf_text(FILE *fp, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void nn_fprintf_text(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* @fmt may be NULL for JSON-only use. NULL strings become JSON null and "-" in text. */
void nn_print_string(struct nn_out *o, int type, const char *key, const char *fmt, const char *val);
void nn_print_int(struct nn_out *o, int type, const char *key, const char *fmt, long long val);
void nn_print_uint(struct nn_out *o, int type, const char *key, const char *fmt, unsigned long long val);
void nn_print_double(struct nn_out *o, int type, const char *key, const char *fmt, double val);
/* A double rounded to @decimals (0-9) places, written in JSON as that short
 * decimal ("0.784", "255"), not as the nearest binary double's 17 digits. */
void nn_print_fixed(struct nn_out *o, int type, const char *key, const char *fmt, double val,
		    int decimals);
void nn_print_bool(struct nn_out *o, int type, const char *key, const char *fmt, bool val);
void nn_print_null(struct nn_out *o, int type, const char *key, const char *fmt);
/* -1 (unknown node, unknown speed...) prints as JSON null and "@unknown" in text. */
void nn_print_opt_int(struct nn_out *o, int type, const char *key, const char *fmt,
		      long long val, const char *unknown);
/* A cpuset rendered as a kernel cpulist string ("0-3,8"). */
void nn_print_cpuset(struct nn_out *o, int type, const char *key, const char *fmt,
		     const struct nn_cpuset *set);
/* Text mode only: a block of lines nicnuma composed (a config, a unit),
 * through nn_escape_text (its newlines and tabs stay). */
void nn_print_block(struct nn_out *o, const char *text);
/* Attach an existing json object (takes ownership); JSON mode only. */
void nn_print_json(struct nn_out *o, const char *key, struct json_object *obj);
#ifndef NN_PRINT_IMPL
/* The compiler checks each nn_print_*() @fmt against the value as fprintf gets
 * it (long long for int, "%s" for bool/null/cpuset): a string literal is
 * checked by nn_fmt_check's format attribute (never called, only in sizeof);
 * NULL and formats built at run time (pass them as const char *) are not. */
void nn_fmt_check(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void nn_fmt_skip(const char *fmt, ...);
#define NN_FMT_CHECK(fmt, val) \
	((void)sizeof(_Generic((fmt), char *: nn_fmt_check, default: nn_fmt_skip)((fmt), val), 0))
#define nn_print_string(o, t, k, fmt, v) (NN_FMT_CHECK(fmt, (const char *)(v)), (nn_print_string)(o, t, k, fmt, v))
#define nn_print_int(o, t, k, fmt, v) (NN_FMT_CHECK(fmt, (long long)(v)), (nn_print_int)(o, t, k, fmt, v))
#define nn_print_uint(o, t, k, fmt, v) (NN_FMT_CHECK(fmt, (unsigned long long)(v)), (nn_print_uint)(o, t, k, fmt, v))
#define nn_print_double(o, t, k, fmt, v) (NN_FMT_CHECK(fmt, (double)(v)), (nn_print_double)(o, t, k, fmt, v))
#define nn_print_fixed(o, t, k, fmt, v, d) (NN_FMT_CHECK(fmt, (double)(v)), (nn_print_fixed)(o, t, k, fmt, v, d))
#define nn_print_bool(o, t, k, fmt, v) (NN_FMT_CHECK(fmt, "yes"), (nn_print_bool)(o, t, k, fmt, v))
#define nn_print_null(o, t, k, fmt) (NN_FMT_CHECK(fmt, "-"), (nn_print_null)(o, t, k, fmt))
#define nn_print_opt_int(o, t, k, fmt, v, u) (NN_FMT_CHECK(fmt, (long long)(v)), (nn_print_opt_int)(o, t, k, fmt, v, u))
#define nn_print_cpuset(o, t, k, fmt, v) (NN_FMT_CHECK(fmt, "0-3"), (nn_print_cpuset)(o, t, k, fmt, v))
#endif

/* A text table's columns sized to its rows: each column as wide as its
 * widest cell as printed (escaped), never narrower than its minimum (the
 * header's width, or the width the table always had). A table measures its
 * rows with nn_cols_fit, then prints its header (nn_print_cols_header) and
 * its cells (nn_print_cell); the last column's title is not padded. */
#define NN_COLS_MAX 12

struct nn_cols {
	size_t n;
	int w[NN_COLS_MAX];
};

void nn_cols_init(struct nn_cols *c, size_t n, const int *min);
void nn_cols_fit(struct nn_cols *c, size_t col, const char *cell);
/* Text only: the titles, one per column, and a newline. */
void nn_print_cols_header(struct nn_out *o, const struct nn_cols *c, const char *const *titles);
/* @val (NULL: "-" in text, null in JSON) padded to column @col's width, and
 * a space after it unless it is the last; JSON: under @key where @type has
 * PRINT_JSON. */
void nn_print_cell(struct nn_out *o, int type, const char *key, const struct nn_cols *c, size_t col,
		   const char *val);

/* Text-only formatted output. */
void nn_printf(struct nn_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
