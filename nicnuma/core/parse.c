// SPDX-License-Identifier: GPL-2.0-or-later
/* parse.c - pure parsers of kernel text: /proc/interrupts, IRQ names,
 * node distance rows, node meminfo, bracketed sysfs choices
 *
 * No I/O here: every function takes the text and returns a struct, so the
 * unit tests and fuzzers can feed them anything.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/strbuf.h"

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* skip_ws for the count columns: "%10u " pads each count with spaces, so
 * eight at a time (a 512-CPU line is ~5 KB, mostly spaces); the first byte
 * that is not a space is found in the word itself, then skip_ws takes over
 * for tabs and CRs. */
static const char *skip_pad(const char *p, const char *end)
{
	static const uint64_t spaces = 0x2020202020202020ull;

	while (end - p >= 8) {
		uint64_t w;

		memcpy(&w, p, sizeof(w));
		w ^= spaces;
		if (w) {
			/* lowest differing byte: the first in memory on little endian */
			if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
				p += __builtin_ctzll(w) >> 3;
			break;
		}
		p += 8;
	}
	return skip_ws(p, end);
}

static const char *token_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
		p++;
	return p;
}

/* The next token of [*p, end): false at the end; else *p is its start and
 * *e its end (the caller goes on from *e). */
static bool next_token(const char **p, const char *end, const char **e)
{
	*p = skip_ws(*p, end);
	if (*p >= end)
		return false;
	*e = token_end(*p, end);
	return true;
}

static bool all_digits(const char *p, const char *e)
{
	if (p == e)
		return false;
	for (; p < e; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/* The header line names the CPU columns: "CPU0 CPU1 ... CPUn". */
static size_t count_cpu_columns(const char *p, const char *end)
{
	size_t n = 0;
	const char *e;

	for (; next_token(&p, end, &e); p = e)
		if (e - p > 3 && !strncmp(p, "CPU", 3) && all_digits(p + 3, e))
			n++;
	return n;
}

static char *dup_range(const char *p, const char *e)
{
	char *s = malloc((size_t)(e - p) + 1);

	if (s) {
		memcpy(s, p, (size_t)(e - p));
		s[e - p] = '\0';
	}
	return s;
}

/* Joins the tokens of [p, end) with single spaces ("a,  b" stays readable). */
static char *join_tokens(const char *p, const char *end)
{
	char *s = malloc((size_t)(end - p) + 1), *o = s;
	const char *e;

	if (!s)
		return NULL;
	for (; next_token(&p, end, &e); p = e) {
		if (o != s)
			*o++ = ' ';
		memcpy(o, p, (size_t)(e - p));
		o += e - p;
	}
	*o = '\0';
	return s;
}

static bool is_trigger_word(const char *p, const char *e)
{
	size_t n = (size_t)(e - p);

	return (n == 5 && (!strncmp(p, "Level", 5) || !strncmp(p, "level", 5))) ||
	       (n == 4 && (!strncmp(p, "Edge", 4) || !strncmp(p, "edge", 4)));
}

/* NN_INTR_ZERO_RUN of the kernel's columns for a count of 0 (" %10u"); any
 * shorter run is a prefix of it. */
#define Z11 "          0"
#define Z88 Z11 Z11 Z11 Z11 Z11 Z11 Z11 Z11
static const char zero_run[] = Z88 Z88 Z88 Z88 Z88 Z88 Z88 Z88;
#undef Z88
#undef Z11
_Static_assert(sizeof(zero_run) - 1 == 11 * NN_INTR_ZERO_RUN, "zero_run is NN_INTR_ZERO_RUN columns");
_Static_assert(NN_INTR_ZERO_STEP <= NN_INTR_ZERO_RUN, "a step is a prefix of the run");

bool nn_intr_zero_cols(const char *p, const char *end, size_t ncols)
{
	size_t n = 11 * ncols;

	return ncols <= NN_INTR_ZERO_RUN && (size_t)(end - p) > n && !memcmp(p, zero_run, n) &&
	       p[n] == ' ';
}

/* One numbered line: "  38:   0   496  PCI-MSIX-0000:00:03.0  1-edge  virtio2-input.0".
 * After the counts come the chip, the hwirq (x86: "1-edge"; ARM: "27" then
 * "Level"), an optional "-name" handler, then the action names. Returns 1 for
 * a good line, 0 for a line that is not a numbered IRQ, -EINVAL for garbage,
 * -ENOMEM. */
static int parse_line(const char *p, const char *end, size_t ncpus, struct nn_interrupt *out)
{
	const char *e, *colon;
	unsigned long long total = 0;
	struct nn_intr_zeros zeros = { 0, 0 };
	size_t col = 0, zn;
	long irq;
	char *endp;
	char num[16];

	memset(out, 0, sizeof(*out));
	p = skip_ws(p, end);
	if (p >= end)
		return 0;
	colon = memchr(p, ':', (size_t)(end - p));
	e = token_end(p, end);
	if (!colon || colon > e)
		return isdigit((unsigned char)*p) ? -EINVAL : 0;
	if (!isdigit((unsigned char)*p))
		return 0;	/* NMI:, LOC:, ERR: ... per-CPU counters, not IRQs */
	if (!all_digits(p, colon) || colon - p >= (long)sizeof(num))
		return -EINVAL;
	memcpy(num, p, (size_t)(colon - p));
	num[colon - p] = '\0';
	errno = 0;
	irq = strtol(num, &endp, 10);
	if (errno || *endp || irq < 0 || irq > INT_MAX)
		return -EINVAL;
	out->irq = (int)irq;
	p = colon + 1;

	/* Counts: exactly @ncpus when the header said so, else every leading
	 * number. One pass per token, no strtoull: a 512-CPU host has half a
	 * million of them. */
	for (;;) {
		unsigned long long v = 0;
		const char *t;

		if (ncpus && col == ncpus)
			break;
		/* Runs of zero columns (parse.h): a 512-CPU host's file is mostly these. */
		if (ncpus && (zn = nn_intr_zeros_at(&zeros, p, end, col, ncpus))) {
			col += zn;
			p += 11 * zn;
			continue;
		}
		/* The kernel's own column is 11 bytes (" %10u"), and most counts on
		 * a big host are 0: take those whole, no per-byte walk. The byte
		 * after must be a space, so the 0 is a token of its own. */
		if (end - p > 11 && !memcmp(p, "          0", 11) && p[11] == ' ') {
			col++;
			p += 11;
			continue;
		}
		p = skip_pad(p, end);
		for (t = p; t < end && (unsigned char)(*t - '0') < 10; t++)
			;
		if (t == p || (t < end && *t != ' ' && *t != '\t' && *t != '\r'))
			break;	/* not a count: the chip name starts here */
		/* 19 digits always fit; only longer counts need the overflow check */
		for (const char *q = p; q < t; q++) {
			unsigned int d = (unsigned int)(*q - '0');

			if (t - p > 19 && v > (ULLONG_MAX - d) / 10)
				return -EINVAL;
			v = v * 10 + d;
		}
		total = (total > ULLONG_MAX - v) ? ULLONG_MAX : total + v;
		col++;
		p = t;
	}
	if (col == 0)
		return -EINVAL;
	out->total = total;

	/* chip */
	p = skip_ws(p, end);
	if (p >= end)
		return 1;	/* counts only: no chip, no name */
	e = token_end(p, end);
	out->chip = dup_range(p, e);
	if (!out->chip)
		return -ENOMEM;
	p = skip_ws(e, end);

	/* hwirq: a token that starts with a digit ("5-edge", "524288-edge", "27") */
	e = token_end(p, end);
	if (p < end && isdigit((unsigned char)*p)) {
		out->hwirq = dup_range(p, e);
		if (!out->hwirq)
			goto nomem;
		p = skip_ws(e, end);
		e = token_end(p, end);
	}
	/* GENERIC_IRQ_SHOW_LEVEL's "Level"/"Edge", and "-edge"-style handler names */
	while (p < end && (is_trigger_word(p, e) || *p == '-')) {
		p = skip_ws(e, end);
		e = token_end(p, end);
	}
	if (p < end) {
		out->name = join_tokens(p, end);
		if (!out->name)
			goto nomem;
	}
	return 1;
nomem:
	free(out->chip);
	free(out->hwirq);
	memset(out, 0, sizeof(*out));
	return -ENOMEM;
}

void nn_interrupts_free(struct nn_interrupt *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].chip);
		free(v[i].hwirq);
		free(v[i].name);
	}
	free(v);
}

static int cmp_interrupt(const void *a, const void *b)
{
	const struct nn_interrupt *x = a, *y = b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

void nn_intr_parse_init(struct nn_intr_parse *st)
{
	memset(st, 0, sizeof(*st));
}

int nn_intr_parse_line(struct nn_intr_parse *st, const char *p, const char *le)
{
	struct nn_interrupt it;
	int r;

	if (!st->header) {
		const char *q = skip_ws(p, le);

		if (q < le) {
			st->header = true;
			st->ncpus = count_cpu_columns(q, le);
			if (st->ncpus)
				return 0;
			/* No header: counts are every leading number. */
		}
	}
	r = parse_line(p, le, st->ncpus, &it);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		st->nbad++;
		return 0;
	}
	if (r == 0)
		return 0;
	if (NN_GROW(st->v, st->nv, st->cap)) {
		free(it.chip);
		free(it.hwirq);
		free(it.name);
		return -ENOMEM;
	}
	st->v[st->nv++] = it;
	return 0;
}

void nn_intr_parse_finish(struct nn_intr_parse *st, struct nn_interrupt **out, size_t *n, size_t *bad)
{
	if (st->nv > 1)
		qsort(st->v, st->nv, sizeof(*st->v), cmp_interrupt);
	*out = st->v;
	*n = st->nv;
	if (bad)
		*bad = st->nbad;
	st->v = NULL;
	st->nv = st->cap = 0;
}

void nn_intr_parse_abort(struct nn_intr_parse *st)
{
	nn_interrupts_free(st->v, st->nv);
	st->v = NULL;
	st->nv = st->cap = 0;
}

int nn_parse_interrupts(const char *text, struct nn_interrupt **out, size_t *n, size_t *bad)
{
	struct nn_intr_parse st;
	const char *p = text, *end;
	int err;

	*out = NULL;
	*n = 0;
	if (!text)
		return -EINVAL;
	nn_intr_parse_init(&st);
	end = text + strlen(text);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		err = nn_intr_parse_line(&st, p, le);
		if (err) {
			nn_intr_parse_abort(&st);
			return err;
		}
		p = nl ? nl + 1 : end;
	}
	nn_intr_parse_finish(&st, out, n, bad);
	return 0;
}

const struct nn_interrupt *nn_interrupts_find(const struct nn_interrupt *v, size_t n, int irq)
{
	size_t lo = 0, hi = n;

	/* Sorted by nn_parse_interrupts; a duplicate number (never seen from a
	 * kernel) finds one of them. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].irq == irq)
			return &v[mid];
		if (v[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int nn_parse_distances(const char *text, int **out, size_t *n)
{
	const char *p = text;
	size_t cnt = 0, cap = 0;
	int *v = NULL;

	*out = NULL;
	*n = 0;
	if (!text)
		return -EINVAL;
	for (;;) {
		long d;
		char *e;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		if (!isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		d = strtol(p, &e, 10);
		if (errno || d > INT_MAX) {
			free(v);
			return -ERANGE;
		}
		if (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r')
			goto bad;
		if (NN_GROW(v, cnt, cap)) {
			free(v);
			return -ENOMEM;
		}
		v[cnt++] = (int)d;
		p = e;
	}
	if (!cnt)
		goto bad;
	*out = v;
	*n = cnt;
	return 0;
bad:
	free(v);
	return -EINVAL;
}

/* "Node 0 MemTotal:        4810528 kB" -> 4810528 */
int nn_parse_meminfo_kb(const char *text, const char *key, long *kb)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *p = line, *nl = strchr(line, '\n');

		/* nodeN/meminfo prefixes each line with "Node N ". */
		if (!strncmp(p, "Node ", 5)) {
			p += 5;
			while (*p >= '0' && *p <= '9')
				p++;
			while (*p == ' ' || *p == '\t')
				p++;
		}
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			unsigned long long v = 0;

			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			for (; *p >= '0' && *p <= '9'; p++) {
				unsigned int d = (unsigned int)(*p - '0');

				if (v > ((unsigned long long)LONG_MAX - d) / 10)
					return -ERANGE;
				v = v * 10 + d;
			}
			while (*p == ' ' || *p == '\t')
				p++;
			/* "kB" or nothing (HugePages_Total has no unit). */
			if (*p && *p != '\n' && strncmp(p, "kB", 2))
				return -EINVAL;
			*kb = (long)v;
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

int nn_parse_node_meminfo(const char *text, long *total_kb, long *free_kb)
{
	int et, ef;

	*total_kb = -1;
	*free_kb = -1;
	if (!text)
		return -EINVAL;
	et = nn_parse_meminfo_kb(text, "MemTotal", total_kb);
	ef = nn_parse_meminfo_kb(text, "MemFree", free_kb);
	if (et)
		*total_kb = -1;
	if (ef)
		*free_kb = -1;
	/* a missing field is as bad as a malformed one */
	et = et == -ENOENT ? -EINVAL : et;
	ef = ef == -ENOENT ? -EINVAL : ef;
	return et ? et : ef;
}

int nn_parse_bracketed(const char *text, char *buf, size_t size)
{
	const char *open, *close, *p, *e;
	size_t len;

	if (!text || !size)
		return -EINVAL;
	open = strchr(text, '[');
	if (open) {
		const char *again = strchr(open + 1, '[');

		close = strchr(open + 1, ']');
		if (!close || (again && again < close))
			return -EINVAL;
		p = open + 1;
		e = close;
	} else {
		/* A file that offers one value prints it bare ("never"). */
		p = text;
		while (*p == ' ' || *p == '\t')
			p++;
		e = p;
		while (*e && *e != ' ' && *e != '\t' && *e != '\n')
			e++;
		{
			const char *rest = e;

			while (*rest == ' ' || *rest == '\t' || *rest == '\n' || *rest == '\r')
				rest++;
			if (*rest)
				return -EINVAL;
		}
	}
	len = (size_t)(e - p);
	if (len == 0)
		return -EINVAL;
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return 0;
}

/* One flag word of isolcpus= before @end: its NN_ISOL_* bit, 0 unknown. */
static unsigned int isol_flag(const char *p, const char *end)
{
	static const struct { const char *name; unsigned int bit; } f[] = {
		{ "nohz", NN_ISOL_NOHZ },
		{ "domain", NN_ISOL_DOMAIN },
		{ "managed_irq", NN_ISOL_MANAGED_IRQ },
	};
	size_t i, n = (size_t)(end - p);

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (strlen(f[i].name) == n && !memcmp(p, f[i].name, n))
			return f[i].bit;
	return 0;
}

/* One isolcpus= value [v, e): flags while a word starts with a letter
 * (kernel/sched/isolation.c reads them so), then the cpulist. */
static int isol_value(const char *v, const char *e, struct nn_cpuset *cpus, unsigned int *flags)
{
	struct nn_cpuset one = NN_CPUSET_INIT;
	unsigned int got = 0;
	char *list;
	int err;

	if (e - v >= 2 && v[0] == '"' && e[-1] == '"') {
		v++;
		e--;
	}
	while (v < e && isalpha((unsigned char)*v)) {
		const char *comma = memchr(v, ',', (size_t)(e - v));
		unsigned int bit;

		if (!comma)
			return -EINVAL;	/* a flag must be followed by ",<cpulist>" */
		bit = isol_flag(v, comma);
		if (!bit)
			return -EINVAL;
		got |= bit;
		v = comma + 1;
	}
	if (v == e)
		return -EINVAL;
	list = strndup(v, (size_t)(e - v));
	if (!list)
		return -ENOMEM;
	err = nn_cpuset_parse_list(list, &one);
	free(list);
	if (!err)
		err = nn_cpuset_or(cpus, &one);
	nn_cpuset_free(&one);
	if (!err)
		*flags |= got ? got : NN_ISOL_DOMAIN;
	return err == -ERANGE ? -EINVAL : err;
}

bool nn_cmdline_word(const char **p, const char **w, const char **e)
{
	const char *s = *p, *t;
	bool quoted = false;

	while (*s && isspace((unsigned char)*s))
		s++;
	/* A word ends at unquoted white space; a quote anywhere in it toggles
	 * (lib/cmdline.c, next_arg). */
	for (t = s; *t && (quoted || !isspace((unsigned char)*t)); t++)
		if (*t == '"')
			quoted = !quoted;
	*p = t;
	*w = s;
	*e = t;
	/* "--": the rest is init's arguments, not the kernel's */
	return t > s && !(t - s == 2 && s[0] == '-' && s[1] == '-');
}

int nn_parse_isolcpus(const char *cmdline, struct nn_cpuset *cpus, unsigned int *flags,
		      const char **bad, int *badlen)
{
	static const char key[] = "isolcpus=";
	const char *p = cmdline, *w, *e;
	bool found = false;
	int err;

	nn_cpuset_zero(cpus);
	*flags = 0;
	if (bad)
		*bad = NULL;
	if (badlen)
		*badlen = 0;
	while (p && nn_cmdline_word(&p, &w, &e)) {
		if ((size_t)(e - w) < sizeof(key) - 1 || memcmp(w, key, sizeof(key) - 1))
			continue;
		found = true;
		err = isol_value(w + sizeof(key) - 1, e, cpus, flags);
		if (err) {
			nn_cpuset_zero(cpus);
			*flags = 0;
			if (err == -EINVAL && bad) {
				*bad = w;
				if (badlen)
					*badlen = (int)(e - w > 200 ? 200 : e - w);
			}
			return err;
		}
	}
	return found ? 0 : -ENOENT;
}

void nn_isol_flags_format(unsigned int flags, char *buf, size_t size)
{
	static const struct { unsigned int flag; const char *name; } names[] = {
		{ NN_ISOL_NOHZ, "nohz" }, { NN_ISOL_DOMAIN, "domain" }, { NN_ISOL_MANAGED_IRQ, "managed_irq" },
	};
	struct nn_sb sb = NN_SB_INIT;
	size_t i;

	if (!size)
		return;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & names[i].flag)
			nn_sb_printf(&sb, "%s%s", sb.len ? "," : "", names[i].name);
	snprintf(buf, size, "%s", nn_sb_str(&sb) ? nn_sb_str(&sb) : "");
	nn_sb_free(&sb);
}

int nn_parse_sys_cpulist(const char *text, struct nn_cpuset *out)
{
	const char *p = text;

	if (!text)
		return -EINVAL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "(null)", 6)) {
		for (p += 6; *p == ' ' || *p == '\t' || *p == '\n'; p++)
			;
		if (*p)
			return -EINVAL;
		nn_cpuset_zero(out);
		return 0;
	}
	return nn_cpuset_parse_list(text, out);
}

bool nn_karg_safe(const char *w, size_t len)
{
	size_t i;

	if (!len || len > NN_KARG_MAX)
		return false;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)w[i];

		if (c <= 0x20 || c >= 0x7f || strchr("\"'\\$`;&|<>()#*?[]~!{}", c))
			return false;
	}
	return true;
}
