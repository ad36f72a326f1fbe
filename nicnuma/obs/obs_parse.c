// SPDX-License-Identifier: GPL-2.0-or-later
/* obs_parse.c - pure parsers of the counters nicnuma observe samples
 *
 * /proc/interrupts on a 512-CPU host with 1,100 IRQs is megabytes, read every
 * second: the parser keeps only the watched IRQs' rows, skips every other line
 * after its number, and reuses its rows from sample to sample.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/parse.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/obs/obs.h"

void nn_obs_counts_free(struct nn_obs_counts *c)
{
	free(c->cpu);
	free(c->v);
	free(c->seen);
	memset(c, 0, sizeof(*c));
}

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

static bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* A decimal number that fits 64 bits, followed by a blank or the end.
 * Returns the byte after it, or NULL when it is not one. */
static const char *number(const char *p, const char *end, unsigned long long *v)
{
	const char *s = p;
	unsigned long long x = 0;

	while (p < end && is_digit(*p)) {
		unsigned int d = (unsigned int)(*p - '0');

		/* 19 digits always fit; only longer ones need the check */
		if (p - s >= 19 && x > (ULLONG_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
		p++;
	}
	if (p == s || (p < end && *p != ' ' && *p != '\t' && *p != '\r'))
		return NULL;
	*v = x;
	return p;
}

/* The header "CPU0 CPU1 ... CPU511": the CPU id of each column. Ids must
 * ascend (the kernel prints them so) and stay below NN_CPU_MAX. */
static int parse_header(struct nn_obs_counts *c, const char *p, const char *end)
{
	c->ncols = 0;
	for (;;) {
		unsigned long long id;

		p = skip_blank(p, end);
		if (p >= end)
			break;
		if (end - p < 4 || memcmp(p, "CPU", 3))
			return -EINVAL;
		p = number(p + 3, end, &id);
		if (!p || id >= NN_CPU_MAX || (c->ncols && (int)id <= c->cpu[c->ncols - 1]))
			return -EINVAL;
		if (NN_GROW(c->cpu, c->ncols, c->cols_cap))
			return -ENOMEM;
		c->cpu[c->ncols++] = (int)id;
	}
	return c->ncols ? 0 : -EINVAL;
}

/* Rows sized to the header, every row unseen. Their counts are left as they
 * are: a row that is seen is written whole by parse_counts(), and the end of
 * the parse zeroes the rest (nn_obs_intr_end): zeroing all 4 MB of a 512-CPU
 * host's rows first, only to overwrite them, was a sixth of a sample. */
static int size_rows(struct nn_obs_counts *c, size_t nrows)
{
	size_t need = nrows * c->ncols;

	if (c->ncols && need / c->ncols != nrows)
		return -ENOMEM;
	if (need > c->v_cap || !c->v) {
		unsigned long long *v = realloc(c->v, (need ? need : 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->v = v;
		c->v_cap = need;
	}
	if (nrows) {
		bool *seen = realloc(c->seen, nrows * sizeof(*seen));

		if (!seen)
			return -ENOMEM;
		c->seen = seen;
		memset(seen, 0, nrows * sizeof(*seen));
	}
	c->nrows = nrows;
	return 0;
}

/* The counts of one row: exactly ncols numbers. -EINVAL otherwise. */
static int parse_counts(const struct nn_obs_counts *c, size_t row, const char *p, const char *end)
{
	unsigned long long *out = nn_obs_row(c, row);
	struct nn_intr_zeros zeros = { 0, 0 };
	size_t col, zn;

	for (col = 0; col < c->ncols; col++) {
		zn = nn_intr_zeros_at(&zeros, p, end, col, c->ncols);
		if (zn) {
			memset(out + col, 0, zn * sizeof(*out));
			p += 11 * zn;
			col += zn - 1;
			continue;
		}
		/* the kernel's "%10u " column is mostly a bare 0 on a big host */
		if (end - p > 11 && !memcmp(p, "          0", 11) && p[11] == ' ') {
			out[col] = 0;
			p += 11;
			continue;
		}
		p = skip_blank(p, end);
		p = number(p, end, &out[col]);
		if (!p)
			return -EINVAL;
	}
	return 0;
}

int nn_obs_intr_begin(struct nn_obs_intr_parse *st, struct nn_obs_counts *c,
		      const int *want, size_t nwant)
{
	st->c = c;
	st->want = want;
	st->nwant = nwant;
	st->header = false;
	c->ncols = 0;
	c->nrows = 0;
	c->nbad = 0;
	return 0;
}

/* Index of @irq in the ascending @want, or -1. */
static long find_want(const int *want, size_t n, long irq)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (want[mid] == irq)
			return (long)mid;
		if (want[mid] < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int nn_obs_intr_line(struct nn_obs_intr_parse *st, const char *p, const char *end)
{
	struct nn_obs_counts *c = st->c;
	unsigned long long irq;
	const char *q;
	long row;
	int err;

	if (!st->header) {
		q = skip_blank(p, end);
		if (q >= end)
			return 0;
		st->header = true;
		err = parse_header(c, q, end);
		if (!err)
			err = size_rows(c, st->nwant);
		if (err == -ENOMEM)
			return err;
		if (err) {
			c->ncols = 0;
			c->nbad++;
		}
		return 0;
	}
	if (!c->ncols)
		return 0;	/* no usable header: nothing can be read */
	q = skip_blank(p, end);
	if (q >= end || !is_digit(*q))
		return 0;	/* NMI:, LOC:, ERR: ... not numbered IRQs */
	irq = 0;
	for (p = q; p < end && is_digit(*p); p++) {
		if (p - q == 9)
			break;
		irq = irq * 10 + (unsigned long long)(*p - '0');
	}
	if (p >= end || *p != ':') {
		c->nbad++;
		return 0;
	}
	row = find_want(st->want, st->nwant, (long)irq);
	if (row < 0)
		return 0;
	if (c->seen[row])
		return 0;	/* a duplicate number: the first one counts */
	if (parse_counts(c, (size_t)row, p + 1, end)) {
		memset(nn_obs_row(c, (size_t)row), 0, c->ncols * sizeof(*c->v));
		c->nbad++;
		return 0;
	}
	c->seen[row] = true;
	return 0;
}

void nn_obs_intr_end(struct nn_obs_intr_parse *st)
{
	struct nn_obs_counts *c = st->c;

	for (size_t row = 0; row < c->nrows; row++)
		if (!c->seen[row])
			memset(nn_obs_row(c, row), 0, c->ncols * sizeof(*c->v));
}

int nn_obs_parse_interrupts(const char *text, struct nn_obs_counts *c,
			    const int *want, size_t nwant)
{
	struct nn_obs_intr_parse st;
	const char *p = text, *end;
	int err;

	if (!text)
		return -EINVAL;
	nn_obs_intr_begin(&st, c, want, nwant);
	end = text + strlen(text);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		err = nn_obs_intr_line(&st, p, le);
		if (err)
			return err;
		p = nl ? nl + 1 : end;
	}
	nn_obs_intr_end(&st);
	return c->ncols ? 0 : -EINVAL;
}

void nn_obs_soft_begin(struct nn_obs_soft_parse *st, struct nn_obs_counts *c)
{
	st->c = c;
	st->header = false;
	c->ncols = 0;
	c->nrows = 0;
	c->nbad = 0;
}

int nn_obs_soft_line(struct nn_obs_soft_parse *st, const char *p, const char *le)
{
	static const char *const rows[NN_OBS_NSOFT] = { "NET_TX:", "NET_RX:" };
	struct nn_obs_counts *c = st->c;
	const char *q = skip_blank(p, le);
	int err;

	if (q >= le)
		return 0;
	if (!st->header) {
		st->header = true;
		err = parse_header(c, q, le);
		if (!err)
			err = size_rows(c, NN_OBS_NSOFT);
		if (!err)	/* two rows: zeroed now, no end step */
			memset(c->v, 0, NN_OBS_NSOFT * c->ncols * sizeof(*c->v));
		if (err) {
			c->ncols = 0;
			c->nbad++;
		}
		return err == -ENOMEM ? err : 0;
	}
	if (!c->ncols)
		return 0;
	for (size_t r = 0; r < NN_OBS_NSOFT; r++) {
		size_t n = strlen(rows[r]);

		if ((size_t)(le - q) < n || memcmp(q, rows[r], n) || c->seen[r])
			continue;
		if (parse_counts(c, r, q + n, le)) {
			memset(nn_obs_row(c, r), 0, c->ncols * sizeof(*c->v));
			c->nbad++;
		} else {
			c->seen[r] = true;
		}
	}
	return 0;
}

int nn_obs_parse_softirqs(const char *text, struct nn_obs_counts *c)
{
	struct nn_obs_soft_parse st;
	const char *p = text, *end;
	int err;

	if (!text)
		return -EINVAL;
	nn_obs_soft_begin(&st, c);
	end = text + strlen(text);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		err = nn_obs_soft_line(&st, p, nl ? nl : end);
		if (err)
			return err;
		p = nl ? nl + 1 : end;
	}
	return c->ncols ? 0 : -EINVAL;
}

static bool packets_suffix(const char *p)
{
	return !strcmp(p, "_packets") || !strcmp(p, ".packets");
}

int nn_obs_ethtool_queue_stat(const char *name, int *queue, bool *rx)
{
	const char *p;
	long q = 0;

	if (!name)
		return 0;
	if (!strncmp(name, "rx", 2))
		*rx = true;
	else if (!strncmp(name, "tx", 2))
		*rx = false;
	else
		return 0;
	p = name + 2;
	/* rx_queue_N_ (virtio_net, ice, ixgbe), rx-N. (i40e), rxN_ (mlx5) */
	if (!strncmp(p, "_queue_", 7))
		p += 7;
	else if (*p == '-' || *p == '_')
		p++;
	if (!is_digit(*p))
		return 0;
	for (; is_digit(*p); p++) {
		q = q * 10 + (*p - '0');
		if (q > 65535)
			return 0;
	}
	if (!packets_suffix(p))
		return 0;
	*queue = (int)q;
	return 1;
}
