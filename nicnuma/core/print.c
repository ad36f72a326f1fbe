// SPDX-License-Identifier: GPL-2.0-or-later
/* print.c - text or JSON through the same calls (iproute2's json_print idea) */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/cpuset.h"
#define NN_PRINT_IMPL
#include "nicnuma/core/print.h"

/* @s to @sb with every byte outside printable ASCII as \xNN, except those
 * in @keep ("\n\t" for text nicnuma laid out itself, "" for a value). */
static void escape(struct nn_sb *sb, const char *s, const char *keep)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *run = p;

	for (; *p; p++) {
		if ((*p >= 0x20 && *p < 0x7f) || (*p < 0x20 && strchr(keep, *p)))
			continue;
		nn_sb_putn(sb, (const char *)run, (size_t)(p - run));
		nn_sb_printf(sb, "\\x%02x", *p);
		run = p + 1;
	}
	nn_sb_putn(sb, (const char *)run, (size_t)(p - run));
}

void nn_escape_text(struct nn_sb *sb, const char *s)
{
	escape(sb, s, "\n\t");
}

void nn_escape_line(struct nn_sb *sb, const char *s)
{
	escape(sb, s, "");
}

/* One conversion of @fmt (from '%' to its conversion letter, at most 31
 * bytes) with its argument(s) from @ap appended to @sb: a string ("%s") is
 * data and goes through nn_escape_line(), numbers as printf makes them.
 * Returns the length of the conversion in @fmt, or 0 for one this layer does
 * not print (the compiler's format check allows none of those). */
/* @spec is one conversion cut from a format the compiler checked against
 * its arguments (the printf attribute on every caller). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static size_t one_conv(struct nn_sb *sb, const char *fmt, va_list *ap)
{
	char spec[32], *tmp = NULL;
	size_t n = 1;
	int star[2], nstar = 0, len = 0;	/* 0 int, 1 h/hh, 2 l, 3 ll, 4 z, 5 j, 6 t, 7 L */
	int r = -1;

	while (fmt[n] && strchr("-+ #0'", fmt[n]))
		n++;
	for (int part = 0; part < 2; part++) {
		if (part == 1) {
			if (fmt[n] != '.')
				break;
			n++;
		}
		if (fmt[n] == '*') {
			star[nstar++] = va_arg(*ap, int);
			n++;
		}
		while (fmt[n] >= '0' && fmt[n] <= '9')
			n++;
	}
	if (fmt[n] == 'h') {
		len = 1;
		n += fmt[n + 1] == 'h' ? 2 : 1;
	} else if (fmt[n] == 'l') {
		len = fmt[n + 1] == 'l' ? 3 : 2;
		n += len == 3 ? 2 : 1;
	} else if (fmt[n] && strchr("zjtL", fmt[n])) {
		len = fmt[n] == 'z' ? 4 : fmt[n] == 'j' ? 5 : fmt[n] == 't' ? 6 : 7;
		n++;
	}
	if (!fmt[n] || n + 2 > sizeof(spec))
		return 0;
	memcpy(spec, fmt, n + 1);
	spec[n + 1] = '\0';
#define CONV(val) (nstar == 2 ? asprintf(&tmp, spec, star[0], star[1], val) \
		   : nstar == 1 ? asprintf(&tmp, spec, star[0], val) : asprintf(&tmp, spec, val))
	switch (fmt[n]) {
	case 's':
		r = CONV(va_arg(*ap, const char *));
		if (r >= 0)
			nn_escape_line(sb, tmp);
		free(tmp);
		return r >= 0 ? n + 1 : 0;
	case 'c':
		r = CONV(va_arg(*ap, int));
		if (r >= 0)
			nn_escape_line(sb, tmp);
		free(tmp);
		return r >= 0 ? n + 1 : 0;
	case 'd': case 'i':
		r = len == 2 ? CONV(va_arg(*ap, long)) : len == 3 ? CONV(va_arg(*ap, long long))
			: len == 4 ? CONV(va_arg(*ap, ssize_t)) : len == 5 ? CONV(va_arg(*ap, intmax_t))
			: len == 6 ? CONV(va_arg(*ap, ptrdiff_t)) : CONV(va_arg(*ap, int));
		break;
	case 'u': case 'o': case 'x': case 'X':
		r = len == 2 ? CONV(va_arg(*ap, unsigned long))
			: len == 3 ? CONV(va_arg(*ap, unsigned long long))
			: len == 4 ? CONV(va_arg(*ap, size_t)) : len == 5 ? CONV(va_arg(*ap, uintmax_t))
			: len == 6 ? CONV(va_arg(*ap, ptrdiff_t)) : CONV(va_arg(*ap, unsigned int));
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		r = len == 7 ? CONV(va_arg(*ap, long double)) : CONV(va_arg(*ap, double));
		break;
	case 'p':
		r = CONV(va_arg(*ap, void *));
		break;
	default:
		return 0;
	}
#undef CONV
	if (r >= 0)
		nn_sb_puts(sb, tmp);
	free(tmp);
	return r >= 0 ? n + 1 : 0;
}
#pragma GCC diagnostic pop

void nn_vformat_text(struct nn_sb *sb, const char *fmt, va_list ap)
{
	va_list cp;
	const char *p = fmt;

	va_copy(cp, ap);
	while (*p) {
		const char *pct = strchr(p, '%');
		char lit[256];
		size_t n, used;

		n = pct ? (size_t)(pct - p) : strlen(p);
		while (n) {	/* the format's own text: its newlines and tabs stay */
			size_t k = n < sizeof(lit) - 1 ? n : sizeof(lit) - 1;

			memcpy(lit, p, k);
			lit[k] = '\0';
			nn_escape_text(sb, lit);
			p += k;
			n -= k;
		}
		if (!pct)
			break;
		if (pct[1] == '%') {
			nn_sb_putc(sb, '%');
			p = pct + 2;
			continue;
		}
		used = one_conv(sb, pct, &cp);
		if (!used) {	/* not a conversion we print: the rest verbatim, escaped */
			nn_escape_line(sb, pct);
			break;
		}
		p = pct + used;
	}
	va_end(cp);
}

void nn_vfprintf_text(FILE *fp, const char *fmt, va_list ap)
{
	struct nn_sb sb = NN_SB_INIT;

	nn_vformat_text(&sb, fmt, ap);
	if (nn_sb_str(&sb))
		fputs(nn_sb_str(&sb), fp);
	nn_sb_free(&sb);
}

void nn_fprintf_text(FILE *fp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nn_vfprintf_text(fp, fmt, ap);
	va_end(ap);
}

void nn_print_block(struct nn_out *o, const char *text)
{
	struct nn_sb sb = NN_SB_INIT;

	if (o->json || !text)
		return;
	nn_escape_text(&sb, text);
	if (nn_sb_str(&sb))
		fputs(nn_sb_str(&sb), o->fp);
	nn_sb_free(&sb);
}

void nn_out_init(struct nn_out *o, FILE *fp, bool json)
{
	o->json = json;
	o->fp = fp;
	nn_sb_init(&o->doc);
	o->depth = -1;
	o->over = 0;
	o->lines = false;
	o->stream = false;
	o->werr = 0;
}

void nn_out_stream(struct nn_out *o)
{
	o->stream = true;
}

/* A streamed document's text so far goes out once it passes this, between
 * two values: the buffer is reused, so the whole document touches 64 KB. */
#define NN_OUT_CHUNK (64u << 10)

static void spill(struct nn_out *o)
{
	if (o->doc.err || o->werr)
		return;	/* nn_out_flush reports it */
	if (fwrite(o->doc.buf, 1, o->doc.len, o->fp) != o->doc.len)
		o->werr = -EIO;
	o->doc.len = 0;
	o->doc.buf[0] = '\0';
}

void nn_out_free(struct nn_out *o)
{
	nn_sb_free(&o->doc);
	o->depth = -1;
	o->over = 0;
	o->werr = 0;
}

/* The JSON document is written as the values come, in json-c's layout
 * (JSON_C_TO_STRING_PRETTY | SPACED | NOSLASHESCAPE, or PLAIN for lines):
 * "{" and "[" end their line, each value is on a line of its own indented
 * two spaces a level, a container's closing bracket is on its own line at
 * the container's indent, even when it is empty. tests/unit/test_print.c
 * compares the text with json-c's for the same document. */
static const char indent_spaces[] = "                                ";

static void put_indent(struct nn_out *o, int level)
{
	const size_t most = sizeof(indent_spaces) - 1;

	if (o->lines)
		return;
	for (level *= 2; level > 0; level -= (int)most)
		nn_sb_putn(&o->doc, indent_spaces, (size_t)level < most ? (size_t)level : most);
}

/* The bytes a JSON string cannot hold as they are, and the NUL that ends
 * it: one table load per byte, not three compares (keys and names are most
 * of a large document's bytes). */
static const unsigned char json_stop[256] = {
	[0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1,
};

/* @s as a JSON string body, escaped as json-c escapes it: the two-letter
 * escapes, other control bytes as \u00xx, everything else (UTF-8, DEL, "/")
 * as it is. */
static void put_json_str(struct nn_sb *sb, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *run = p;
	char esc[7];

	for (;; p++) {
		const char *e;

		if (!json_stop[*p])
			continue;
		if (!*p)
			break;
		nn_sb_putn(sb, (const char *)run, (size_t)(p - run));
		run = p + 1;
		switch (*p) {
		case '"': e = "\\\""; break;
		case '\\': e = "\\\\"; break;
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		default:
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[*p >> 4];
			esc[5] = hex[*p & 0xf];
			esc[6] = '\0';
			e = esc;
		}
		nn_sb_puts(sb, e);
	}
	nn_sb_putn(sb, (const char *)run, (size_t)(p - run));
}

/* Opens the document as an object (a value before any container). */
static void open_root(struct nn_out *o, bool array)
{
	nn_sb_putc(&o->doc, array ? '[' : '{');
	if (!o->lines)
		nn_sb_putc(&o->doc, '\n');
	o->depth = 0;
	o->array[0] = array;
	o->had[0] = false;
}

/* Everything before a value in the current container: the separator, the
 * indent and, in an object, the key (NULL in an object is "value"). False
 * when the value is to be left out (nested past NN_OUT_DEPTH). */
static bool begin_value(struct nn_out *o, const char *key)
{
	const unsigned char *k = NULL;
	size_t klen = 0, ind, n;
	char *w;
	int d;

	if (o->over)
		return false;
	if (o->depth < 0)
		open_root(o, false);
	else if (o->stream && o->doc.len >= NN_OUT_CHUNK)
		spill(o);
	d = o->depth;
	/* The common case in one piece: a key that needs no escape (every key
	 * nicnuma prints) and an indent within the spaces at hand. */
	if (!o->array[d]) {
		k = (const unsigned char *)(key ? key : "value");
		while (!json_stop[k[klen]])
			klen++;
		if (k[klen])
			goto piecewise;
	}
	ind = o->lines ? 0 : 2 * (size_t)(d + 1);
	if (ind > sizeof(indent_spaces) - 1)
		goto piecewise;
	n = (o->had[d] ? 2 : 0) + ind + (o->array[d] ? 0 : klen + 4);
	w = nn_sb_room(&o->doc, n);
	if (!w)
		return true;	/* the sticky error: the document is lost anyway */
	n = 0;
	if (o->had[d]) {
		w[n++] = ',';
		if (!o->lines)
			w[n++] = '\n';
	}
	o->had[d] = true;
	memcpy(w + n, indent_spaces, ind);
	n += ind;
	if (!o->array[d]) {
		w[n++] = '"';
		memcpy(w + n, k, klen);
		n += klen;
		w[n++] = '"';
		w[n++] = ':';
		if (!o->lines)
			w[n++] = ' ';
	}
	nn_sb_added(&o->doc, n);
	return true;
piecewise:
	if (o->had[d])
		nn_sb_putn(&o->doc, o->lines ? "," : ",\n", o->lines ? 1 : 2);
	o->had[d] = true;
	put_indent(o, d + 1);
	if (!o->array[d]) {
		nn_sb_putc(&o->doc, '"');
		put_json_str(&o->doc, key ? key : "value");
		nn_sb_putn(&o->doc, o->lines ? "\":" : "\": ", o->lines ? 2 : 3);
	}
	return true;
}

static void put_value(struct nn_out *o, const char *key, const char *text, size_t len)
{
	if (begin_value(o, key))
		nn_sb_putn(&o->doc, text, len);
}

static void close_top(struct nn_out *o)
{
	int d = o->depth;

	if (!o->lines && o->had[d])
		nn_sb_putc(&o->doc, '\n');
	put_indent(o, d);
	nn_sb_putc(&o->doc, o->array[d] ? ']' : '}');
	o->depth--;
}

/* Closes every open container: the document is complete. */
static void close_all(struct nn_out *o)
{
	o->over = 0;
	while (o->depth >= 0)
		close_top(o);
}

int nn_out_flush(struct nn_out *o)
{
	int err = 0;

	if (o->json && o->depth >= 0) {
		close_all(o);
		nn_sb_putc(&o->doc, '\n');
		if (!nn_sb_str(&o->doc))
			err = nn_sb_error(&o->doc);
		else if (o->werr || fwrite(o->doc.buf, 1, o->doc.len, o->fp) != o->doc.len)
			err = -EIO;
	}
	if (fflush(o->fp) != 0)
		err = -EIO;
	nn_out_free(o);
	return err;
}

struct json_object *nn_out_take_tree(struct nn_out *o)
{
	struct json_object *tree = NULL;

	/* a streamed document is partly written already: never a tree */
	if (o->json && o->depth >= 0 && !o->stream) {
		close_all(o);
		if (nn_sb_str(&o->doc))
			tree = json_tokener_parse(o->doc.buf);
	}
	nn_out_free(o);
	return tree;
}

static void open_container(struct nn_out *o, const char *key, bool array)
{
	if (o->depth < 0 && !key) {
		open_root(o, array);
		return;
	}
	if (!begin_value(o, key)) {
		o->over++;
		return;
	}
	nn_sb_putc(&o->doc, array ? '[' : '{');
	if (o->depth + 1 >= NN_OUT_DEPTH) {
		/* Too deep to track: written empty, its contents left out. */
		nn_sb_putc(&o->doc, array ? ']' : '}');
		o->over++;
		return;
	}
	if (!o->lines)
		nn_sb_putc(&o->doc, '\n');
	o->depth++;
	o->array[o->depth] = array;
	o->had[o->depth] = false;
}

void nn_open_object(struct nn_out *o, const char *key)
{
	if (o->json)
		open_container(o, key, false);
}

void nn_open_array(struct nn_out *o, const char *key)
{
	if (o->json)
		open_container(o, key, true);
}

void nn_close_object(struct nn_out *o)
{
	if (!o->json)
		return;
	if (o->over)
		o->over--;
	else if (o->depth > 0)
		close_top(o);
}

void nn_close_array(struct nn_out *o)
{
	nn_close_object(o);
}

/* Decimal digits of @v into the end of @buf; returns where they start. */
static char *fmt_ull(char *end, unsigned long long v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void put_ll(struct nn_out *o, const char *key, long long val)
{
	char buf[24], *end = buf + sizeof(buf), *p;

	p = fmt_ull(end, val < 0 ? 0ULL - (unsigned long long)val : (unsigned long long)val);
	if (val < 0)
		*--p = '-';
	put_value(o, key, p, (size_t)(end - p));
}

/* A json-c value as json-c writes it at this depth (doubles, attached
 * trees): its own pretty lines indented to where it sits. */
static void put_jsonc(struct nn_out *o, const char *key, struct json_object *obj)
{
	const char *s, *nl;
	int level;

	if (!begin_value(o, key)) {
		json_object_put(obj);
		return;
	}
	s = obj ? json_object_to_json_string_ext(obj, (o->lines ? JSON_C_TO_STRING_PLAIN :
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED) | JSON_C_TO_STRING_NOSLASHESCAPE)
		: "null";
	level = o->depth + 1;
	/* JSON text has no raw newline inside a string: each one starts a line. */
	while (s && (nl = strchr(s, '\n'))) {
		nn_sb_putn(&o->doc, s, (size_t)(nl - s) + 1);
		put_indent(o, level);
		s = nl + 1;
	}
	if (s)
		nn_sb_puts(&o->doc, s);
	else
		o->doc.err = o->doc.err ? o->doc.err : -ENOMEM;
	json_object_put(obj);
}

static bool text(struct nn_out *o, int type, const char *fmt)
{
	return !o->json && (type & PRINT_FP) && fmt;
}

static bool jsn(struct nn_out *o, int type)
{
	return o->json && (type & PRINT_JSON);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void nn_print_string(struct nn_out *o, int type, const char *key, const char *fmt, const char *val)
{
	struct nn_sb sb = NN_SB_INIT;

	if (jsn(o, type)) {
		if (!val)
			put_value(o, key, "null", 4);
		else if (begin_value(o, key)) {
			nn_sb_putc(&o->doc, '"');
			put_json_str(&o->doc, val);
			nn_sb_putc(&o->doc, '"');
		}
	} else if (text(o, type, fmt)) {
		/* Names from the kernel, a process or a file: never raw to a terminal. */
		nn_sb_escape(&sb, val ? val : "-");
		fprintf(o->fp, fmt, nn_sb_str(&sb) ? nn_sb_str(&sb) : "?");
		nn_sb_free(&sb);
	}
}

void nn_print_int(struct nn_out *o, int type, const char *key, const char *fmt, long long val)
{
	if (jsn(o, type))
		put_ll(o, key, val);
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, val);
}

void nn_print_uint(struct nn_out *o, int type, const char *key, const char *fmt, unsigned long long val)
{
	if (jsn(o, type)) {
		char buf[24], *p = fmt_ull(buf + sizeof(buf), val);

		put_value(o, key, p, (size_t)(buf + sizeof(buf) - p));
	}
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, val);
}

void nn_print_double(struct nn_out *o, int type, const char *key, const char *fmt, double val)
{
	if (jsn(o, type))
		put_jsonc(o, key, json_object_new_double(val));
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, val);
}

/* "%.*f" of @val into @num (64 bytes): by integer arithmetic when that is
 * sure to give printf's digits, else by snprintf. observe prints a dozen
 * ratios per queue per sample, and printf's exact decimal expansion of a
 * double was a tenth of its CPU. printf rounds the exact binary value half
 * to even; val * 10^d carries at most a few ulps of error, so the integer
 * way is taken only when that scaled value is well away from a tie
 * (fraction not within 1e-3 of .5) and small enough (< 2^40) for the ulps
 * to stay far below 1e-3; the rest, and NaN and infinities, go to snprintf. */
static void format_fixed(char *num, size_t size, double val, int decimals)
{
	static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	double x = fabs(val) * pow10[decimals], ip, frac;
	unsigned long long q, scale = 1;
	char *p = num + size, *e;
	int i;

	frac = modf(x, &ip);
	if (!(x < 1099511627776.0) || fabs(frac - 0.5) < 1e-3) {
		snprintf(num, size, "%.*f", decimals, val);
		return;
	}
	q = (unsigned long long)ip + (frac > 0.5);
	for (i = 0; i < decimals; i++)
		scale *= 10;
	*--p = '\0';
	if (decimals) {
		unsigned long long f = q % scale;

		for (i = 0; i < decimals; i++, f /= 10)
			*--p = (char)('0' + f % 10);
		*--p = '.';
	}
	q /= scale;
	do {
		*--p = (char)('0' + q % 10);
		q /= 10;
	} while (q);
	if (signbit(val))
		*--p = '-';
	e = num;
	while ((*e++ = *p++))
		;
}

void nn_print_fixed(struct nn_out *o, int type, const char *key, const char *fmt, double val,
		    int decimals)
{
	char num[64];
	char *e;

	if (jsn(o, type)) {
		if (decimals < 0 || decimals > 9)
			decimals = 9;
		/* "%.3f" without trailing zeros: 0.784, not 0.78400000000000003 */
		format_fixed(num, sizeof(num), val, decimals);
		if (strchr(num, '.')) {
			e = num + strlen(num);
			while (e[-1] == '0')
				*--e = '\0';
			if (e[-1] == '.')
				*--e = '\0';
		}
		if (!strcmp(num, "-0"))
			strcpy(num, "0");
		put_value(o, key, num, strlen(num));
	} else if (text(o, type, fmt)) {
		fprintf(o->fp, fmt, val);
	}
}

void nn_print_bool(struct nn_out *o, int type, const char *key, const char *fmt, bool val)
{
	if (jsn(o, type))
		put_value(o, key, val ? "true" : "false", val ? 4 : 5);
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, val ? "yes" : "no");
}

void nn_print_null(struct nn_out *o, int type, const char *key, const char *fmt)
{
	if (jsn(o, type))
		put_value(o, key, "null", 4);
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, "-");
}

void nn_print_opt_int(struct nn_out *o, int type, const char *key, const char *fmt,
		      long long val, const char *unknown)
{
	if (val >= 0) {
		nn_print_int(o, type, key, fmt, val);
		return;
	}
	if (jsn(o, type)) {
		put_value(o, key, "null", 4);
	} else if (text(o, type, fmt)) {
		/* Same layout, the integer conversion turned into %s for the word. */
		char sfmt[128];
		const char *p = fmt;
		size_t n = 0;

		while (*p && n + 2 < sizeof(sfmt)) {
			if (*p == '%' && p[1] == '%') {
				sfmt[n++] = *p++;
				sfmt[n++] = *p++;
				continue;
			}
			if (*p != '%') {
				sfmt[n++] = *p++;
				continue;
			}
			sfmt[n++] = *p++;
			while (*p && strchr("-+ #0123456789", *p) && n + 2 < sizeof(sfmt))
				sfmt[n++] = *p++;
			while (*p && strchr("hlqjzt", *p))
				p++;
			if (*p)
				p++;
			sfmt[n++] = 's';
		}
		sfmt[n] = '\0';
		fprintf(o->fp, sfmt, unknown);
	}
}
#pragma GCC diagnostic pop

void nn_print_cpuset(struct nn_out *o, int type, const char *key, const char *fmt,
		     const struct nn_cpuset *set)
{
	char *s = set ? nn_cpuset_format_list(set) : NULL;

	nn_print_string(o, type, key, fmt, s);
	free(s);
}

void nn_print_json(struct nn_out *o, const char *key, struct json_object *obj)
{
	if (o->json)
		put_jsonc(o, key, obj);
	else
		json_object_put(obj);
}

void nn_printf(struct nn_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		return;
	va_start(ap, fmt);
	nn_vfprintf_text(o->fp, fmt, ap);
	va_end(ap);
}
