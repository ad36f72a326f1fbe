/* SPDX-License-Identifier: GPL-2.0-or-later */
/* napi_index.h - netdev genl NAPIs found by id, and each NAPI's queues
 *
 * A capture may hold hundreds of thousands of queue-get and napi-get
 * answers. Every join between them (the kernel's queue -> NAPI -> IRQ in
 * discovery, the nics printer, the plan's NAPI threads) goes through one
 * sorted index: O(n log n), never a loop inside a loop (issue 26: a 200k
 * capture took 149 s for `nics`). Pure: no I/O.
 */
#ifndef NICNUMA_DISCOVER_NAPI_INDEX_H
#define NICNUMA_DISCOVER_NAPI_INDEX_H

#include <stddef.h>

#include "nicnuma/discover/netdev_genl.h"

struct nn_napi_key {
	long long id;
	size_t idx;			/* into the NAPI array */
};

struct nn_napi_index {
	const struct nn_genl_napi *napis;
	size_t n;
	struct nn_napi_key *keys;	/* by (id, index): the kernel's order among equal ids */
	size_t steps;			/* search steps taken: the tests check they grow as n log n */
};

/* Indexes @n NAPIs (kept by pointer, not copied). -ENOMEM. */
int nn_napi_index_init(struct nn_napi_index *ix, const struct nn_genl_napi *napis, size_t n);
void nn_napi_index_free(struct nn_napi_index *ix);

/* The first NAPI (in the kernel's order) whose id is @id: its index in the
 * array, -1 when none (or @id < 0). */
long nn_napi_index_find(struct nn_napi_index *ix, long long id);

/* For each NAPI i of the index, @rx[i] and @tx[i]: the lowest rx and tx
 * queue index among the @nq queues whose NAPI has its id (-1 none). */
void nn_napi_queues(struct nn_napi_index *ix, const struct nn_genl_queue *queues, size_t nq,
		    int *rx, int *tx);

#endif
