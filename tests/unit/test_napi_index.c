// SPDX-License-Identifier: GPL-2.0-or-later
/* test_napi_index.c - the sorted join of netdev genl queues and NAPIs
 *
 * Issue 26: a capture with 200k NAPIs and queues took 149 s for `nics`, as
 * every join was a loop inside a loop. The index counts its search steps;
 * the big case holds them to n log n, so a quadratic join fails here by its
 * operation count, whatever the machine's speed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/discover/napi_index.h"

static struct nn_genl_queue queue(int type, int id, long long napi)
{
	struct nn_genl_queue q = { .ifindex = 2, .id = id, .type = type, .napi_id = napi, .dmabuf = -1 };

	return q;
}

/* Lookups and each NAPI's lowest rx/tx queue, a duplicate id included. */
static void small(void **state)
{
	struct nn_genl_napi napis[4] = { { .id = 5 }, { .id = 3 }, { .id = 5 }, { .id = 9 } };
	struct nn_genl_queue qs[] = {
		queue(NN_GENL_QUEUE_RX, 2, 5), queue(NN_GENL_QUEUE_RX, 1, 5), queue(NN_GENL_QUEUE_RX, 0, 3),
		queue(NN_GENL_QUEUE_TX, 0, 3), queue(NN_GENL_QUEUE_TX, 1, 9), queue(NN_GENL_QUEUE_RX, 3, -1),
		queue(NN_GENL_QUEUE_RX, 4, 77), queue(7, 0, 9),
	};
	struct nn_napi_index ix;
	int rx[4], tx[4];

	(void)state;
	assert_int_equal(nn_napi_index_init(&ix, napis, 4), 0);
	assert_int_equal(nn_napi_index_find(&ix, 5), 0);	/* the first of the two, in the kernel's order */
	assert_int_equal(nn_napi_index_find(&ix, 3), 1);
	assert_int_equal(nn_napi_index_find(&ix, 9), 3);
	assert_int_equal(nn_napi_index_find(&ix, 4), -1);
	assert_int_equal(nn_napi_index_find(&ix, 77), -1);
	assert_int_equal(nn_napi_index_find(&ix, -1), -1);
	nn_napi_queues(&ix, qs, sizeof(qs) / sizeof(qs[0]), rx, tx);
	assert_int_equal(rx[0], 1);
	assert_int_equal(tx[0], -1);
	assert_int_equal(rx[1], 0);
	assert_int_equal(tx[1], 0);
	assert_int_equal(rx[2], 1);	/* a NAPI sharing the id shares the answer */
	assert_int_equal(tx[2], -1);
	assert_int_equal(rx[3], -1);	/* the type-7 queue is neither */
	assert_int_equal(tx[3], 1);
	nn_napi_index_free(&ix);

	assert_int_equal(nn_napi_index_init(&ix, NULL, 0), 0);
	assert_int_equal(nn_napi_index_find(&ix, 5), -1);
	nn_napi_queues(&ix, qs, 2, rx, tx);
	nn_napi_index_free(&ix);
}

#define BIG 200000

static size_t log2_ceil(size_t n)
{
	size_t k = 0;

	while (((size_t)1 << k) < n)
		k++;
	return k;
}

/* 200k NAPIs in a scrambled order, 100k rx and 100k tx queues: every answer
 * right, and the search steps within n log n (a scan per queue would take
 * some 10^10). */
static void big(void **state)
{
	struct nn_genl_napi *napis = calloc(BIG, sizeof(*napis));
	struct nn_genl_queue *qs = calloc(BIG, sizeof(*qs));
	int *rx = calloc(BIG, sizeof(*rx)), *tx = calloc(BIG, sizeof(*tx));
	struct nn_napi_index ix;
	size_t i, bound;

	(void)state;
	assert_non_null(napis);
	assert_non_null(qs);
	assert_non_null(rx);
	assert_non_null(tx);
	/* 7919 is prime to 200000: i -> i * 7919 % BIG is a permutation */
	for (i = 0; i < BIG; i++)
		napis[i].id = 8192 + (long long)(i * 7919 % BIG);
	for (i = 0; i < BIG / 2; i++) {
		qs[i] = queue(NN_GENL_QUEUE_RX, (int)i, 8192 + (long long)i);
		qs[BIG / 2 + i] = queue(NN_GENL_QUEUE_TX, (int)i, 8192 + BIG / 2 + (long long)i);
	}
	assert_int_equal(nn_napi_index_init(&ix, napis, BIG), 0);
	nn_napi_queues(&ix, qs, BIG, rx, tx);
	for (i = 0; i < BIG; i++) {
		long long q = napis[i].id - 8192;

		if (q < BIG / 2 ? rx[i] != q || tx[i] != -1 : rx[i] != -1 || tx[i] != q - BIG / 2)
			fail_msg("NAPI %lld: rx %d tx %d", napis[i].id, rx[i], tx[i]);
	}
	for (i = 0; i < BIG; i += 997)
		assert_int_equal(napis[nn_napi_index_find(&ix, napis[i].id)].id, napis[i].id);
	bound = 2 * BIG * (log2_ceil(BIG) + 1);
	if (ix.steps > bound)
		fail_msg("%zu search steps for %d NAPIs and %d queues: more than n log n (%zu)", ix.steps, BIG,
			 BIG, bound);
	nn_napi_index_free(&ix);
	free(napis);
	free(qs);
	free(rx);
	free(tx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small),
		cmocka_unit_test(big),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
