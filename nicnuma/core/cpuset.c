// SPDX-License-Identifier: GPL-2.0-or-later
/* cpuset.c - growable CPU bitmaps, kernel cpulist and hex-mask forms */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/cpuset.h"

#define WORD_BITS (sizeof(unsigned long) * CHAR_BIT)

void nn_cpuset_free(struct nn_cpuset *s)
{
	free(s->bits);
	s->bits = NULL;
	s->nwords = 0;
}

void nn_cpuset_zero(struct nn_cpuset *s)
{
	if (s->bits)
		memset(s->bits, 0, s->nwords * sizeof(*s->bits));
}

static int grow(struct nn_cpuset *s, unsigned int nwords)
{
	unsigned long *nb;

	if (nwords <= s->nwords)
		return 0;
	nb = realloc(s->bits, nwords * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	memset(nb + s->nwords, 0, (nwords - s->nwords) * sizeof(*nb));
	s->bits = nb;
	s->nwords = nwords;
	return 0;
}

int nn_cpuset_set(struct nn_cpuset *s, unsigned int cpu)
{
	int err;

	if (cpu >= NN_CPU_MAX)
		return -ERANGE;
	err = grow(s, cpu / WORD_BITS + 1);
	if (err)
		return err;
	s->bits[cpu / WORD_BITS] |= 1UL << (cpu % WORD_BITS);
	return 0;
}

/* CPUs @a..@b, a word at a time: a 512-CPU list is one range per node. */
static int set_range(struct nn_cpuset *s, unsigned int a, unsigned int b)
{
	unsigned int wa = a / WORD_BITS, wb = b / WORD_BITS, i;
	unsigned long first = ~0UL << (a % WORD_BITS);
	unsigned long last = ~0UL >> (WORD_BITS - 1 - b % WORD_BITS);
	int err;

	if (b >= NN_CPU_MAX)
		return -ERANGE;
	err = grow(s, wb + 1);
	if (err)
		return err;
	if (wa == wb) {
		s->bits[wa] |= first & last;
		return 0;
	}
	s->bits[wa] |= first;
	for (i = wa + 1; i < wb; i++)
		s->bits[i] = ~0UL;
	s->bits[wb] |= last;
	return 0;
}

bool nn_cpuset_test(const struct nn_cpuset *s, unsigned int cpu)
{
	if (cpu / WORD_BITS >= s->nwords)
		return false;
	return s->bits[cpu / WORD_BITS] & (1UL << (cpu % WORD_BITS));
}

unsigned int nn_cpuset_count(const struct nn_cpuset *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nwords; i++)
		n += __builtin_popcountl(s->bits[i]);
	return n;
}

bool nn_cpuset_empty(const struct nn_cpuset *s)
{
	unsigned int i;

	for (i = 0; i < s->nwords; i++)
		if (s->bits[i])
			return false;
	return true;
}

static unsigned long word(const struct nn_cpuset *s, unsigned int i)
{
	return i < s->nwords ? s->bits[i] : 0;
}

bool nn_cpuset_equal(const struct nn_cpuset *a, const struct nn_cpuset *b)
{
	unsigned int i, n = a->nwords > b->nwords ? a->nwords : b->nwords;

	for (i = 0; i < n; i++)
		if (word(a, i) != word(b, i))
			return false;
	return true;
}

bool nn_cpuset_subset(const struct nn_cpuset *a, const struct nn_cpuset *b)
{
	unsigned int i;

	for (i = 0; i < a->nwords; i++)
		if (a->bits[i] & ~word(b, i))
			return false;
	return true;
}

bool nn_cpuset_intersects(const struct nn_cpuset *a, const struct nn_cpuset *b)
{
	unsigned int i;

	for (i = 0; i < a->nwords; i++)
		if (a->bits[i] & word(b, i))
			return true;
	return false;
}

int nn_cpuset_next(const struct nn_cpuset *s, int prev)
{
	unsigned int cpu = prev < 0 ? 0 : (unsigned int)prev + 1;
	unsigned int i = cpu / WORD_BITS;
	unsigned long w;

	if (i >= s->nwords)
		return -1;
	w = s->bits[i] & (~0UL << (cpu % WORD_BITS));
	for (;;) {
		if (w)
			return (int)(i * WORD_BITS + __builtin_ctzl(w));
		if (++i >= s->nwords)
			return -1;
		w = s->bits[i];
	}
}

int nn_cpuset_first(const struct nn_cpuset *s)
{
	return nn_cpuset_next(s, -1);
}

int nn_cpuset_last(const struct nn_cpuset *s)
{
	unsigned int i = s->nwords;

	while (i-- > 0)
		if (s->bits[i])
			return (int)(i * WORD_BITS + WORD_BITS - 1 - __builtin_clzl(s->bits[i]));
	return -1;
}

int nn_cpuset_copy(struct nn_cpuset *dst, const struct nn_cpuset *src)
{
	int err;

	if (dst == src)
		return 0;
	err = grow(dst, src->nwords);
	if (err)
		return err;
	nn_cpuset_zero(dst);
	if (src->nwords)
		memcpy(dst->bits, src->bits, src->nwords * sizeof(*src->bits));
	return 0;
}

int nn_cpuset_or(struct nn_cpuset *dst, const struct nn_cpuset *src)
{
	unsigned int i;
	int err = grow(dst, src->nwords);

	if (err)
		return err;
	for (i = 0; i < src->nwords; i++)
		dst->bits[i] |= src->bits[i];
	return 0;
}

void nn_cpuset_and(struct nn_cpuset *dst, const struct nn_cpuset *src)
{
	unsigned int i;

	for (i = 0; i < dst->nwords; i++)
		dst->bits[i] &= word(src, i);
}

void nn_cpuset_andnot(struct nn_cpuset *dst, const struct nn_cpuset *src)
{
	unsigned int i;

	for (i = 0; i < dst->nwords; i++)
		dst->bits[i] &= ~word(src, i);
}

/* Strict unsigned decimal; advances *p. */
static int parse_uint(const char **p, unsigned int *val)
{
	unsigned long v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v >= NN_CPU_MAX)
			return -ERANGE;
		s++;
	}
	*p = s;
	*val = (unsigned int)v;
	return 0;
}

static bool at_end(const char *s)
{
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	return *s == '\0';
}

int nn_cpuset_parse_list(const char *str, struct nn_cpuset *out)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	const char *p = str;
	int err = 0;

	if (!str)
		return -EINVAL;
	while (*p == ' ' || *p == '\t')
		p++;
	while (!at_end(p)) {
		unsigned int a, b, used, group, cpu;

		err = parse_uint(&p, &a);
		if (err)
			goto fail;
		b = a;
		used = group = 1;
		if (*p == '-') {
			p++;
			err = parse_uint(&p, &b);
			if (err)
				goto fail;
			if (b < a) {
				err = -EINVAL;
				goto fail;
			}
			/* Kernel's "0-31:2/8": the first 2 of every 8 CPUs. */
			if (*p == ':') {
				p++;
				err = parse_uint(&p, &used);
				if (err)
					goto fail;
				if (*p++ != '/') {
					err = -EINVAL;
					goto fail;
				}
				err = parse_uint(&p, &group);
				if (err)
					goto fail;
				if (used == 0 || group == 0 || used > group) {
					err = -EINVAL;
					goto fail;
				}
			}
		}
		if (used == group) {
			err = set_range(&s, a, b);
			if (err)
				goto fail;
		}
		for (cpu = a; used != group && cpu <= b; cpu++) {
			if ((cpu - a) % group >= used)
				continue;
			err = nn_cpuset_set(&s, cpu);
			if (err)
				goto fail;
		}
		if (*p == ',')
			p++;
		else if (!at_end(p)) {
			err = -EINVAL;
			goto fail;
		}
	}
	nn_cpuset_free(out);
	*out = s;
	return 0;
fail:
	nn_cpuset_free(&s);
	return err;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int nn_cpuset_parse_mask(const char *str, struct nn_cpuset *out)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	size_t len, i, ndigits = 0;
	unsigned int bit = 0;
	int err = 0;

	if (!str)
		return -EINVAL;
	len = strlen(str);
	while (len && (str[len - 1] == '\n' || str[len - 1] == ' ' || str[len - 1] == '\t'))
		len--;
	while (len && (*str == ' ' || *str == '\t')) {
		str++;
		len--;
	}
	if (len == 0)
		return -EINVAL;
	/* Walk from the least significant digit; groups are 8 digits wide. */
	for (i = len; i-- > 0;) {
		int v;

		if (str[i] == ',') {
			if (ndigits % 8 != 0 || i == 0 || i == len - 1) {
				err = -EINVAL;
				goto fail;
			}
			continue;
		}
		v = hexval(str[i]);
		if (v < 0) {
			err = -EINVAL;
			goto fail;
		}
		/* A nibble never straddles a word: WORD_BITS is a multiple of 4. */
		if (v) {
			err = bit >= NN_CPU_MAX ? -ERANGE : grow(&s, bit / WORD_BITS + 1);
			if (err)
				goto fail;
			s.bits[bit / WORD_BITS] |= (unsigned long)v << (bit % WORD_BITS);
		}
		bit += 4;
		ndigits++;
	}
	nn_cpuset_free(out);
	*out = s;
	return 0;
fail:
	nn_cpuset_free(&s);
	return err;
}

/* Last CPU of the run of set bits that starts at @cpu (which is set). */
static int run_end(const struct nn_cpuset *s, int cpu)
{
	unsigned int i = (unsigned int)cpu / WORD_BITS;
	unsigned long w = ~s->bits[i] & (~0UL << ((unsigned int)cpu % WORD_BITS));

	while (!w) {
		if (++i >= s->nwords)
			return (int)(s->nwords * WORD_BITS) - 1;
		w = ~s->bits[i];
	}
	return (int)(i * WORD_BITS + __builtin_ctzl(w)) - 1;
}

/* @v's decimal digits, written backwards to end at @end; returns the start. */
static char *put_dec(char *end, unsigned int v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

char *nn_cpuset_format_list(const struct nn_cpuset *s)
{
	size_t cap = 64, len = 0;
	char *buf = malloc(cap);
	int cpu = nn_cpuset_first(s);

	if (!buf)
		return NULL;
	buf[0] = '\0';
	while (cpu >= 0) {
		int end = cpu, next;
		char tmp[32], *t = tmp + sizeof(tmp);
		size_t n;

		/* "a-b" or "a" with its comma, digits by hand: every IRQ's affinity
		 * is printed through here (snprintf cost more than the walk). */
		end = run_end(s, cpu);
		next = nn_cpuset_next(s, end);
		if (end != cpu) {
			t = put_dec(t, (unsigned int)end);
			*--t = '-';
		}
		t = put_dec(t, (unsigned int)cpu);
		if (len)
			*--t = ',';
		n = (size_t)(tmp + sizeof(tmp) - t);
		if (len + n + 1 > cap) {
			char *nb;

			cap = (len + n + 1) * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		memcpy(buf + len, t, n);
		len += n;
		buf[len] = '\0';
		cpu = next;
	}
	return buf;
}

char *nn_cpuset_format_mask(const struct nn_cpuset *s, unsigned int nbits)
{
	int last = nn_cpuset_last(s);
	unsigned int bits = last >= 0 ? (unsigned int)last + 1 : 1;
	unsigned int ngroups, g;
	char *buf, *p;

	if (nbits > bits)
		bits = nbits;
	ngroups = (bits + 31) / 32;
	buf = malloc(ngroups * 9 + 1);
	if (!buf)
		return NULL;
	p = buf;
	/* A 32-bit group is a shift of one word, and hex digits need no
	 * sprintf: an XPS mask of a 512-CPU host is formatted per queue. */
	for (g = ngroups; g-- > 0;) {
		unsigned int bit = g * 32, w = (unsigned int)(bit / WORD_BITS);
		unsigned int v = w < s->nwords ? (unsigned int)(s->bits[w] >> (bit % WORD_BITS)) : 0;

		if (g + 1 != ngroups)
			*p++ = ',';
		for (int d = 7; d >= 0; d--)
			*p++ = "0123456789abcdef"[(v >> (d * 4)) & 0xf];
	}
	*p = '\0';
	return buf;
}
