/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strbuf.h - one growable string builder with a sticky error
 *
 * Every piece of text nicnuma builds (scripts, drop-ins, messages, reports)
 * goes through this instead of "len += snprintf(s + len, cap - len, ...)"
 * into an estimated buffer: the first failed append (ENOMEM, EOVERFLOW)
 * sticks, later appends do nothing, and the caller checks once at the end.
 */
#ifndef NICNUMA_BASIC_STRBUF_H
#define NICNUMA_BASIC_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct nn_sb {
	char *buf;	/* NUL-terminated once anything was appended; may be NULL */
	size_t len;
	size_t cap;
	int err;	/* 0, or the first negative errno */
};

#define NN_SB_INIT { NULL, 0, 0, 0 }

void nn_sb_init(struct nn_sb *sb);
void nn_sb_free(struct nn_sb *sb);
/* Empties the text, keeps the allocation; clears the error. */
void nn_sb_reset(struct nn_sb *sb);

/* Growing (or the sticky error): the out-of-line half of nn_sb_putn. */
void nn_sb_putn_grow(struct nn_sb *sb, const char *s, size_t n);

/* Inline while the room is there: the JSON printer appends a few bytes at a
 * time, hundreds of thousands of times per document on a large host, and
 * the call cost more than the copy. */
static inline void nn_sb_putn(struct nn_sb *sb, const char *s, size_t n)
{
	if (n < sb->cap - sb->len && sb->buf && !sb->err) {
		memcpy(sb->buf + sb->len, s, n);
		sb->len += n;
		sb->buf[sb->len] = '\0';
		return;
	}
	nn_sb_putn_grow(sb, s, n);
}

/* Room for @n more bytes at the end, grown when needed (NULL: the sticky
 * error): the caller writes them there and says so with nn_sb_added(). For a
 * writer that puts many small pieces at once (the JSON printer's separator,
 * indent and key) with one check instead of one per piece. */
char *nn_sb_room_grow(struct nn_sb *sb, size_t n);
static inline char *nn_sb_room(struct nn_sb *sb, size_t n)
{
	if (n < sb->cap - sb->len && sb->buf && !sb->err)
		return sb->buf + sb->len;
	return nn_sb_room_grow(sb, n);
}

/* @n bytes written at nn_sb_room(sb, n) are now part of the text. */
static inline void nn_sb_added(struct nn_sb *sb, size_t n)
{
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static inline void nn_sb_puts(struct nn_sb *sb, const char *s)
{
	nn_sb_putn(sb, s, strlen(s));
}

static inline void nn_sb_putc(struct nn_sb *sb, char c)
{
	nn_sb_putn(sb, &c, 1);
}
void nn_sb_printf(struct nn_sb *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void nn_sb_vprintf(struct nn_sb *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* @s as one POSIX sh word in single quotes ('it'\''s'). */
void nn_sb_shquote(struct nn_sb *sb, const char *s);
/* @s with every byte that is not printable ASCII (control bytes, DEL, bytes
 * >= 0x80) as \xNN and a backslash as \\, so names from the kernel or a
 * process never reach a terminal raw. */
void nn_sb_escape(struct nn_sb *sb, const char *s);

/* The text (never NULL: "" when empty), or NULL when an append failed. */
const char *nn_sb_str(const struct nn_sb *sb);
/* 0 or the sticky error. */
static inline int nn_sb_error(const struct nn_sb *sb) { return sb->err; }
/* Hands the malloc'd text to the caller and empties @sb. Returns 0 and sets
 * *@out, or the sticky error (text freed, *@out = NULL). */
int nn_sb_steal(struct nn_sb *sb, char **out);

/* Convenience: a malloc'd sh-quoted copy of @s, NULL on ENOMEM. */
char *nn_shquote(const char *s);

#endif
