/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist.h - fixed-memory log-linear histogram (HDR style) for latencies
 *
 * Values below 2^NN_HIST_SUB_BITS land in exact buckets; above, every power of
 * two is split into 2^NN_HIST_SUB_BITS equal buckets, so any recorded value is
 * known within 1/2^NN_HIST_SUB_BITS of itself (0.8 %) whatever its magnitude,
 * in ~58 KiB that never grows. Pure: no DPDK, no I/O, no allocation. Units are
 * whatever the caller records (the forwarder records TSC ticks).
 */
#ifndef NICNUMA_FWD_HIST_H
#define NICNUMA_FWD_HIST_H

#include <stddef.h>
#include <stdint.h>

#define NN_HIST_SUB_BITS 7
#define NN_HIST_SUB (1u << NN_HIST_SUB_BITS)
/* Linear part (one bucket group) + one group per power of two up to 2^63. */
#define NN_HIST_NBUCKETS ((64 - NN_HIST_SUB_BITS + 1) * NN_HIST_SUB)

struct nn_hist {
	uint64_t count;
	uint64_t min, max;	/* exact; min is UINT64_MAX while empty */
	uint64_t sum;		/* saturates instead of wrapping */
	uint64_t buckets[NN_HIST_NBUCKETS];
};

void nn_hist_init(struct nn_hist *h);
uint64_t nn_hist_bucket_low(size_t idx);
uint64_t nn_hist_bucket_high(size_t idx);

/* Bucket of @v. Inline: it runs once per packet on the generator. */
static inline size_t nn_hist_index(uint64_t v)
{
	unsigned int msb, shift;

	if (v < NN_HIST_SUB)
		return (size_t)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	shift = msb - NN_HIST_SUB_BITS;
	/* v >> shift keeps the top SUB_BITS+1 bits: in [SUB, 2*SUB). Group
	 * shift+1 follows the linear group 0 without a gap. */
	return (size_t)(shift + 1) * NN_HIST_SUB + (size_t)((v >> shift) - NN_HIST_SUB);
}

static inline void nn_hist_record(struct nn_hist *h, uint64_t v)
{
	h->buckets[nn_hist_index(v)]++;
	h->count++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->sum = h->sum + v < h->sum ? UINT64_MAX : h->sum + v;
}

static inline void nn_hist_record_n(struct nn_hist *h, uint64_t v, uint64_t n)
{
	uint64_t add;

	if (!n)
		return;
	h->buckets[nn_hist_index(v)] += n;
	h->count += n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (__builtin_mul_overflow(v, n, &add) || h->sum + add < h->sum)
		h->sum = UINT64_MAX;
	else
		h->sum += add;
}

/* Adds every count of @src into @dst. */
void nn_hist_merge(struct nn_hist *dst, const struct nn_hist *src);

/* Nearest-rank percentile (@p in [0,100]): the value of rank ceil(p/100*count)
 * in sorted order, as the midpoint of its bucket clamped to [min, max]; p=100
 * is the exact max, p=0 the exact min. 0 for an empty histogram. Monotonic in
 * @p by construction. */
uint64_t nn_hist_percentile(const struct nn_hist *h, double p);
/* Mean, 0 when empty. */
double nn_hist_mean(const struct nn_hist *h);
/* Mean of the values up to rank ceil(@p/100*count) (a mean trimmed of its
 * top 100-@p %: a few descheduled iterations do not swamp it), each bucket
 * taken at its midpoint clamped to [min, max]; 0 when empty. */
double nn_hist_mean_upto(const struct nn_hist *h, double p);
/* How many recorded values were strictly above @v (bucket granularity: counts
 * whole buckets whose low bound is above @v). */
uint64_t nn_hist_count_above(const struct nn_hist *h, uint64_t v);

#endif
