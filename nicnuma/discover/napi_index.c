// SPDX-License-Identifier: GPL-2.0-or-later
/* napi_index.c - netdev genl NAPIs by id: one sort, then binary searches */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/discover/napi_index.h"

static int cmp_key(const void *a, const void *b)
{
	const struct nn_napi_key *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->idx > y->idx) - (x->idx < y->idx);
}

int nn_napi_index_init(struct nn_napi_index *ix, const struct nn_genl_napi *napis, size_t n)
{
	size_t i;

	memset(ix, 0, sizeof(*ix));
	ix->napis = napis;
	ix->n = n;
	if (!n)
		return 0;
	ix->keys = malloc(n * sizeof(*ix->keys));
	if (!ix->keys)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ix->keys[i].id = napis[i].id;
		ix->keys[i].idx = i;
	}
	qsort(ix->keys, n, sizeof(*ix->keys), cmp_key);
	return 0;
}

void nn_napi_index_free(struct nn_napi_index *ix)
{
	free(ix->keys);
	memset(ix, 0, sizeof(*ix));
}

/* Position in keys of the first key with id >= @id. */
static size_t lower_bound(struct nn_napi_index *ix, long long id)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		ix->steps++;
		if (ix->keys[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

long nn_napi_index_find(struct nn_napi_index *ix, long long id)
{
	size_t pos;

	if (id < 0 || !ix->n)
		return -1;
	pos = lower_bound(ix, id);
	return pos < ix->n && ix->keys[pos].id == id ? (long)ix->keys[pos].idx : -1;
}

static void lower(int *v, int q)
{
	if (*v < 0 || q < *v)
		*v = q;
}

void nn_napi_queues(struct nn_napi_index *ix, const struct nn_genl_queue *queues, size_t nq,
		    int *rx, int *tx)
{
	size_t i, lead = 0;

	for (i = 0; i < ix->n; i++)
		rx[i] = tx[i] = -1;
	/* Each queue marks the first NAPI of its id ... */
	for (i = 0; i < nq; i++) {
		const struct nn_genl_queue *q = &queues[i];
		long k = q->napi_id >= 0 ? nn_napi_index_find(ix, q->napi_id) : -1;

		if (k < 0)
			continue;
		if (q->type == NN_GENL_QUEUE_RX)
			lower(&rx[k], q->id);
		else if (q->type == NN_GENL_QUEUE_TX)
			lower(&tx[k], q->id);
	}
	/* ... and the NAPIs that share that id (a crafted capture) take its answer. */
	for (i = 0; i < ix->n; i++) {
		size_t k = ix->keys[i].idx;

		if (i && ix->keys[i].id == ix->keys[i - 1].id) {
			rx[k] = rx[ix->keys[lead].idx];
			tx[k] = tx[ix->keys[lead].idx];
		} else {
			lead = i;
		}
	}
}
