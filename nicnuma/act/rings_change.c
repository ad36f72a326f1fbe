// SPDX-License-Identifier: GPL-2.0-or-later
/* rings_change.c - the undo log's "rings" kind: a NIC's rx or tx ring size,
 * with coalesce_change.c's rule (path IF/rx or IF/tx, a NIC the log's host
 * lists, before a u32) */
#include "nicnuma/act/change_kinds.h"

static int rings_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			  char *why, size_t whylen)
{
	(void)ctx;
	return nn_eth_change_validate(u, c, true, why, whylen);
}

static int rings_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	return nn_eth_change_restore(ctx, c, true, res);
}

const struct nn_change_ops nn_rings_change_ops = {
	.name = "rings",
	.live_only = true,
	.validate = rings_validate,
	.restore = rings_restore,
};
