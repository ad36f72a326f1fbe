// SPDX-License-Identifier: GPL-2.0-or-later
/* print.c - text or JSON through the same calls (iproute2's json_print idea) */
#include <errno.h>
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
	o->depth = -1;
	o->root = NULL;
	o->lines = false;
}

void nn_out_free(struct nn_out *o)
{
	json_object_put(o->root);
	o->root = NULL;
	o->depth = -1;
}

int nn_out_flush(struct nn_out *o)
{
	int err = 0;

	if (o->json && o->root) {
		const char *s = json_object_to_json_string_ext(o->root,
				(o->lines ? JSON_C_TO_STRING_PLAIN :
				 JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED) |
				JSON_C_TO_STRING_NOSLASHESCAPE);
		if (fprintf(o->fp, "%s\n", s) < 0)
			err = -EIO;
	}
	if (fflush(o->fp) != 0)
		err = -EIO;
	nn_out_free(o);
	return err;
}

/* Adds @val to the current container; takes ownership. */
static void add(struct nn_out *o, const char *key, struct json_object *val)
{
	struct json_object *top;

	if (o->depth < 0) {
		/* A value before any container: make the document an object. */
		o->root = json_object_new_object();
		o->stack[0] = o->root;
		o->depth = 0;
	}
	top = o->stack[o->depth];
	if (json_object_is_type(top, json_type_array))
		json_object_array_add(top, val);
	else
		json_object_object_add(top, key ? key : "value", val);
}

static void open_container(struct nn_out *o, const char *key, struct json_object *c)
{
	if (!o->json) {
		json_object_put(c);
		return;
	}
	if (o->depth < 0 && !key) {
		o->root = c;
		o->stack[0] = c;
		o->depth = 0;
		return;
	}
	add(o, key, c);
	if (o->depth + 1 < NN_OUT_DEPTH)
		o->stack[++o->depth] = c;
}

void nn_open_object(struct nn_out *o, const char *key)
{
	if (o->json)
		open_container(o, key, json_object_new_object());
}

void nn_open_array(struct nn_out *o, const char *key)
{
	if (o->json)
		open_container(o, key, json_object_new_array());
}

void nn_close_object(struct nn_out *o)
{
	if (o->json && o->depth > 0)
		o->depth--;
}

void nn_close_array(struct nn_out *o)
{
	nn_close_object(o);
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
		add(o, key, val ? json_object_new_string(val) : NULL);
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
		add(o, key, json_object_new_int64(val));
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, val);
}

void nn_print_uint(struct nn_out *o, int type, const char *key, const char *fmt, unsigned long long val)
{
	if (jsn(o, type))
		add(o, key, json_object_new_uint64(val));
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, val);
}

void nn_print_double(struct nn_out *o, int type, const char *key, const char *fmt, double val)
{
	if (jsn(o, type))
		add(o, key, json_object_new_double(val));
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, val);
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
		snprintf(num, sizeof(num), "%.*f", decimals, val);
		if (strchr(num, '.')) {
			e = num + strlen(num);
			while (e[-1] == '0')
				*--e = '\0';
			if (e[-1] == '.')
				*--e = '\0';
		}
		if (!strcmp(num, "-0"))
			strcpy(num, "0");
		add(o, key, json_object_new_double_s(strtod(num, NULL), num));
	} else if (text(o, type, fmt)) {
		fprintf(o->fp, fmt, val);
	}
}

void nn_print_bool(struct nn_out *o, int type, const char *key, const char *fmt, bool val)
{
	if (jsn(o, type))
		add(o, key, json_object_new_boolean(val));
	else if (text(o, type, fmt))
		fprintf(o->fp, fmt, val ? "yes" : "no");
}

void nn_print_null(struct nn_out *o, int type, const char *key, const char *fmt)
{
	if (jsn(o, type))
		add(o, key, NULL);
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
		add(o, key, NULL);
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
		add(o, key, obj);
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
