// SPDX-License-Identifier: GPL-2.0-or-later
/* placement.c - where a mempool's pages really are
 *
 * Asking DPDK for socket N is a request; the kernel decides. After each pool
 * is created, walk its memory chunks and ask move_pages(2) with nodes=NULL
 * (query only, nothing moves) for the node of every page. A run is called
 * matched or mismatched only from this answer.
 */
#include <errno.h>
#include <numaif.h>
#include <string.h>
#include <unistd.h>

#include <rte_memory.h>

#include "app.h"

#define BATCH 512

struct walk {
	struct fwd_placement *pl;
	uintptr_t last_page;		/* chunks may share a page: count it once */
	int err;
};

static void count_batch(struct walk *w, void **pages, int *status, unsigned long n)
{
	unsigned long i;
	long ret;

	ret = move_pages(0, n, pages, NULL, status, 0);
	if (ret < 0) {
		w->err = -errno;
		return;
	}
	for (i = 0; i < n; i++) {
		w->pl->npages++;
		if (status[i] < 0)
			w->pl->not_present++;
		else if (status[i] < FWD_MAX_NODES)
			w->pl->on_node[status[i]]++;
		else
			w->pl->other++;
	}
}

static void chunk_cb(struct rte_mempool *mp, void *opaque, struct rte_mempool_memhdr *memhdr,
		     unsigned int mem_idx)
{
	struct walk *w = opaque;
	const struct rte_memseg_list *msl;
	void *pages[BATCH];
	int status[BATCH];
	unsigned long n = 0, psz;
	uintptr_t a, end;

	(void)mp;
	(void)mem_idx;
	if (w->err || !memhdr->len)
		return;
	msl = rte_mem_virt2memseg_list(memhdr->addr);
	psz = msl ? msl->page_sz : (unsigned long)sysconf(_SC_PAGESIZE);
	if (!w->pl->page_size)
		w->pl->page_size = psz;
	a = (uintptr_t)memhdr->addr & ~(uintptr_t)(psz - 1);
	end = (uintptr_t)memhdr->addr + memhdr->len;
	for (; a < end; a += psz) {
		if (a == w->last_page)
			continue;
		w->last_page = a;
		pages[n++] = (void *)a;
		if (n == BATCH) {
			count_batch(w, pages, status, n);
			n = 0;
		}
	}
	if (n)
		count_batch(w, pages, status, n);
}

int placement_check(struct rte_mempool *mp, int node, struct fwd_placement *pl)
{
	struct walk w = { .pl = pl, .last_page = 0, .err = 0 };

	memset(pl, 0, sizeof(*pl));
	pl->intended = node;
	rte_mempool_mem_iter(mp, chunk_cb, &w);
	pl->err = w.err;
	pl->verified = !w.err && pl->npages > 0 && node >= 0 && node < FWD_MAX_NODES &&
		       pl->on_node[node] == pl->npages;
	return w.err;
}
