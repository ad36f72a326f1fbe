// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_genl.c - nn_genl_parse: the input is the bytes of a netdev genl dump
 * (a capture's saved answer). Whatever it says, the parser returns 0 or a
 * negative errno, and every entry it keeps has its required fields in range. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/discover/netdev_genl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Netlink messages are read in place: give them the alignment a
	 * recvfrom buffer or a file read has. */
	void *buf = malloc(size ? size : 1);
	struct nn_genl g = { 0 };
	size_t i;
	int r;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	r = nn_genl_parse(buf, size, 0, &g);
	FUZZ_ASSERT(r <= 0 && r >= -4095);
	for (i = 0; i < g.nqueues; i++) {
		FUZZ_ASSERT(g.queues[i].ifindex >= 0 && g.queues[i].id >= 0 && g.queues[i].type >= 0);
		FUZZ_ASSERT(g.queues[i].napi_id >= -1 && g.queues[i].dmabuf >= -1);
	}
	for (i = 0; i < g.nnapis; i++) {
		FUZZ_ASSERT(g.napis[i].ifindex >= 0 && g.napis[i].id >= 0);
		FUZZ_ASSERT(g.napis[i].irq >= -1 && g.napis[i].pid >= -1 && g.napis[i].pid != 0);
		FUZZ_ASSERT(g.napis[i].threaded >= -1 && g.napis[i].gro_flush_timeout >= -1);
		FUZZ_ASSERT(nn_genl_napi_find(&g, g.napis[i].id) != NULL);
	}
	FUZZ_ASSERT(g.nqueues <= g.qcap && g.nnapis <= g.ncap);
	nn_genl_free(&g);
	free(buf);
	return 0;
}
