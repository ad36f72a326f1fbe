// SPDX-License-Identifier: GPL-2.0-or-later
/* strbuf.c - growable string builder with a sticky error (see strbuf.h) */
#include "nicnuma/core/strbuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nn_sb_init(struct nn_sb *sb)
{
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	sb->err = 0;
}

void nn_sb_free(struct nn_sb *sb)
{
	free(sb->buf);
	nn_sb_init(sb);
}

void nn_sb_reset(struct nn_sb *sb)
{
	sb->len = 0;
	sb->err = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

/* Room for @more bytes plus the NUL; doubling, so n appends cost O(n). */
static int reserve(struct nn_sb *sb, size_t more)
{
	size_t need, cap;
	char *p;

	if (sb->err)
		return sb->err;
	if (more > SIZE_MAX - sb->len - 1)
		return sb->err = -EOVERFLOW;
	need = sb->len + more + 1;
	if (need <= sb->cap)
		return 0;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(sb->buf, cap);
	if (!p)
		return sb->err = -ENOMEM;
	sb->buf = p;
	sb->cap = cap;
	sb->buf[sb->len] = '\0';
	return 0;
}

void nn_sb_putn_grow(struct nn_sb *sb, const char *s, size_t n)
{
	if (reserve(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

char *nn_sb_room_grow(struct nn_sb *sb, size_t n)
{
	return reserve(sb, n) ? NULL : sb->buf + sb->len;
}

void nn_sb_vprintf(struct nn_sb *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	if (sb->err)
		return;
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		sb->err = -EINVAL;
		return;
	}
	if (reserve(sb, (size_t)n))
		return;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void nn_sb_printf(struct nn_sb *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nn_sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void nn_sb_shquote(struct nn_sb *sb, const char *s)
{
	const char *q;

	nn_sb_putc(sb, '\'');
	while ((q = strchr(s, '\''))) {
		nn_sb_putn(sb, s, (size_t)(q - s));
		nn_sb_puts(sb, "'\\''");
		s = q + 1;
	}
	nn_sb_puts(sb, s);
	nn_sb_putc(sb, '\'');
}

void nn_sb_escape(struct nn_sb *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *run = p;

	for (; *p; p++) {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			continue;
		nn_sb_putn(sb, (const char *)run, (size_t)(p - run));
		if (*p == '\\')
			nn_sb_puts(sb, "\\\\");
		else
			nn_sb_printf(sb, "\\x%02x", *p);
		run = p + 1;
	}
	nn_sb_putn(sb, (const char *)run, (size_t)(p - run));
}

const char *nn_sb_str(const struct nn_sb *sb)
{
	if (sb->err)
		return NULL;
	return sb->buf ? sb->buf : "";
}

int nn_sb_steal(struct nn_sb *sb, char **out)
{
	int err = sb->err;

	*out = NULL;
	if (!err && !sb->buf)
		err = reserve(sb, 0);	/* an empty text is "" , not NULL */
	if (err) {
		nn_sb_free(sb);
		return err;
	}
	*out = sb->buf;
	nn_sb_init(sb);
	return 0;
}

char *nn_shquote(const char *s)
{
	struct nn_sb sb = NN_SB_INIT;
	char *out;

	nn_sb_shquote(&sb, s);
	return nn_sb_steal(&sb, &out) ? NULL : out;
}
