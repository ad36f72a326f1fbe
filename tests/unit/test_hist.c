// SPDX-License-Identifier: GPL-2.0-or-later
/* test_hist.c - the forwarder's log-linear histogram against a sorted reference */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hist.h"

#define NSAMPLES 200000

/* xorshift64*: reproducible, no libc rand() state shared with anything. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the value of rank ceil(p/100*n), 1-based. */
static uint64_t ref_percentile(const uint64_t *sorted, size_t n, double p)
{
	double r = p / 100.0 * (double)n;
	size_t rank = (size_t)r;

	if ((double)rank < r)
		rank++;
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static void check_against_reference(uint64_t *v, size_t n)
{
	static const double ps[] = { 0, 1, 10, 50, 90, 99, 99.9, 99.99, 100 };
	struct nn_hist *h = malloc(sizeof(*h));
	uint64_t prev = 0, got, want, tol;
	size_t i;

	assert_non_null(h);
	nn_hist_init(h);
	for (i = 0; i < n; i++)
		nn_hist_record(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h->count, n);
	assert_true(h->min == v[0]);
	assert_true(h->max == v[n - 1]);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		got = nn_hist_percentile(h, ps[i]);
		want = ref_percentile(v, n, ps[i]);
		/* The reference sits in the same bucket, whose width is at most
		 * 1/SUB of its low bound: the midpoint is within that. */
		tol = want / NN_HIST_SUB + 1;
		if (got > want + tol || got + tol < want)
			fail_msg("p%g: histogram %llu, reference %llu (tolerance %llu)", ps[i],
				 (unsigned long long)got, (unsigned long long)want,
				 (unsigned long long)tol);
		assert_true(got >= prev);	/* monotonic in p */
		prev = got;
	}
	free(h);
}

static void test_uniform_small(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v)), s = 0x1234567;
	size_t i;

	(void)state;
	for (i = 0; i < NSAMPLES; i++)
		v[i] = rnd(&s) % 300;	/* straddles the exact/linear boundary */
	check_against_reference(v, NSAMPLES);
	free(v);
}

static void test_log_uniform(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v)), s = 0xfeedbeef;
	size_t i;

	(void)state;
	for (i = 0; i < NSAMPLES; i++) {
		unsigned int bits = (unsigned int)(rnd(&s) % 62) + 1;

		v[i] = rnd(&s) >> (64 - bits);
	}
	check_against_reference(v, NSAMPLES);
	free(v);
}

static void test_latency_like(void **state)
{
	/* Mostly ~3000 ticks with a heavy tail of stalls up to ~10^7. */
	uint64_t *v = malloc(NSAMPLES * sizeof(*v)), s = 42;
	size_t i;

	(void)state;
	for (i = 0; i < NSAMPLES; i++) {
		uint64_t r = rnd(&s);

		v[i] = 2800 + r % 600;
		if (r % 1000 == 0)
			v[i] = 100000 + rnd(&s) % 10000000;
	}
	check_against_reference(v, NSAMPLES);
	free(v);
}

static void test_small_counts(void **state)
{
	uint64_t v[3] = { 5000, 7, 123456789 };

	(void)state;
	check_against_reference(v, 1);
	v[0] = 5000;
	check_against_reference(v, 3);
}

static void test_buckets_contiguous(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(nn_hist_bucket_low(0), 0);
	for (i = 1; i < NN_HIST_NBUCKETS; i++) {
		assert_true(nn_hist_bucket_low(i) == nn_hist_bucket_high(i - 1) + 1);
		assert_int_equal(nn_hist_index(nn_hist_bucket_low(i)), i);
		assert_int_equal(nn_hist_index(nn_hist_bucket_high(i)), i);
	}
	assert_true(nn_hist_bucket_high(NN_HIST_NBUCKETS - 1) == UINT64_MAX);
	assert_int_equal(nn_hist_index(UINT64_MAX), NN_HIST_NBUCKETS - 1);
}

static void test_empty_and_merge(void **state)
{
	struct nn_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *c = malloc(sizeof(*c));
	uint64_t s = 99;
	int i;

	(void)state;
	nn_hist_init(a);
	nn_hist_init(b);
	nn_hist_init(c);
	assert_int_equal(nn_hist_percentile(a, 50), 0);
	assert_int_equal(nn_hist_count_above(a, 0), 0);
	for (i = 0; i < 50000; i++) {
		uint64_t x = rnd(&s) % 1000000;

		nn_hist_record(i % 3 ? a : b, x);
		nn_hist_record(c, x);
	}
	nn_hist_merge(a, b);
	assert_int_equal(a->count, c->count);
	assert_true(a->min == c->min && a->max == c->max && a->sum == c->sum);
	assert_memory_equal(a->buckets, c->buckets, sizeof(a->buckets));
	assert_true(nn_hist_percentile(a, 99.9) == nn_hist_percentile(c, 99.9));
	nn_hist_init(b);
	nn_hist_record_n(b, 10, 4);
	nn_hist_record(b, 1000000);
	assert_int_equal(nn_hist_count_above(b, 1000), 1);
	assert_true(nn_hist_mean(b) == (40.0 + 1000000.0) / 5.0);
	free(a);
	free(b);
	free(c);
}

/* The trimmed mean leaves out the top ranks: 99 values of 100 and one
 * descheduled 1e6 give 100 at p99 where the plain mean reads ~10100; exact
 * values below NN_HIST_SUB stay exact; the last bucket counts only the ranks
 * it needs. */
static void test_mean_upto(void **state)
{
	struct nn_hist *h = malloc(sizeof(*h));
	uint64_t s = 7, i;
	double m;

	(void)state;
	nn_hist_init(h);
	assert_true(nn_hist_mean_upto(h, 99) == 0.0);
	nn_hist_record_n(h, 100, 99);
	nn_hist_record(h, 1000000);
	assert_true(nn_hist_mean_upto(h, 99) == 100.0);
	assert_true(nn_hist_mean_upto(h, 100) == nn_hist_mean(h));
	assert_true(nn_hist_mean(h) > 10000.0);
	nn_hist_init(h);
	nn_hist_record_n(h, 10, 3);
	nn_hist_record_n(h, 20, 7);
	/* rank 5 of 10: three 10s and two 20s. */
	assert_true(nn_hist_mean_upto(h, 50) == (30.0 + 40.0) / 5.0);
	assert_true(nn_hist_mean_upto(h, 0) == 10.0);
	/* Log buckets: within their 0.8 % of the exact trimmed mean. */
	nn_hist_init(h);
	for (i = 0; i < 100000; i++)
		nn_hist_record(h, 1000 + rnd(&s) % 9000);
	m = nn_hist_mean_upto(h, 90);
	assert_true(m > 5050.0 * 0.992 && m < 5050.0 * 1.008);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_small),
		cmocka_unit_test(test_log_uniform),
		cmocka_unit_test(test_latency_like),
		cmocka_unit_test(test_small_counts),
		cmocka_unit_test(test_buckets_contiguous),
		cmocka_unit_test(test_empty_and_merge),
		cmocka_unit_test(test_mean_upto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
