// SPDX-License-Identifier: GPL-2.0-or-later
/* hist.c - fixed-memory log-linear histogram (see hist.h) */
#include <string.h>

#include "hist.h"

void nn_hist_init(struct nn_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint64_t nn_hist_bucket_low(size_t idx)
{
	size_t group = idx / NN_HIST_SUB;

	if (group == 0)
		return idx;
	return (uint64_t)(idx % NN_HIST_SUB + NN_HIST_SUB) << (group - 1);
}

uint64_t nn_hist_bucket_high(size_t idx)
{
	size_t group = idx / NN_HIST_SUB;
	uint64_t low = nn_hist_bucket_low(idx);

	if (group == 0)
		return low;
	return low + ((uint64_t)1 << (group - 1)) - 1;
}

void nn_hist_merge(struct nn_hist *dst, const struct nn_hist *src)
{
	size_t i;

	if (!src->count)
		return;
	for (i = 0; i < NN_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	if (dst->sum + src->sum < dst->sum)
		dst->sum = UINT64_MAX;
	else
		dst->sum += src->sum;
}

/* The nearest-rank position of percentile p (0 < p < 100) among h's
 * samples: ceil(p% of count), at least 1. */
static uint64_t rank_of(const struct nn_hist *h, double p)
{
	double r = p / 100.0 * (double)h->count;
	uint64_t rank = (uint64_t)r;

	if ((double)rank < r)
		rank++;
	return rank < 1 ? 1 : rank;
}

uint64_t nn_hist_percentile(const struct nn_hist *h, double p)
{
	uint64_t rank, cum = 0, low, high, mid;
	size_t i;

	if (!h->count)
		return 0;
	if (p <= 0.0)
		return h->min;
	if (p >= 100.0)
		return h->max;
	rank = rank_of(h, p);
	for (i = 0; i < NN_HIST_NBUCKETS; i++) {
		cum += h->buckets[i];
		if (cum >= rank)
			break;
	}
	if (i == NN_HIST_NBUCKETS)
		return h->max;
	low = nn_hist_bucket_low(i);
	high = nn_hist_bucket_high(i);
	mid = low + (high - low) / 2;
	if (mid < h->min)
		mid = h->min;
	if (mid > h->max)
		mid = h->max;
	return mid;
}

double nn_hist_mean(const struct nn_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double nn_hist_mean_upto(const struct nn_hist *h, double p)
{
	uint64_t rank, left, take, low, high, mid;
	double sum = 0;
	size_t i;

	if (!h->count)
		return 0.0;
	if (p >= 100.0)
		return nn_hist_mean(h);
	if (p <= 0.0)
		return (double)h->min;
	rank = rank_of(h, p);
	left = rank;
	for (i = 0; i < NN_HIST_NBUCKETS && left; i++) {
		if (!h->buckets[i])
			continue;
		take = h->buckets[i] < left ? h->buckets[i] : left;
		low = nn_hist_bucket_low(i);
		high = nn_hist_bucket_high(i);
		mid = low + (high - low) / 2;
		mid = mid < h->min ? h->min : mid > h->max ? h->max : mid;
		sum += (double)mid * (double)take;
		left -= take;
	}
	return sum / (double)(rank - left);
}

uint64_t nn_hist_count_above(const struct nn_hist *h, uint64_t v)
{
	uint64_t n = 0;
	size_t i;

	for (i = nn_hist_index(v) + 1; i < NN_HIST_NBUCKETS; i++)
		n += h->buckets[i];
	return n;
}
