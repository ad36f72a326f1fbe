// SPDX-License-Identifier: GPL-2.0-or-later
/* irqb_change.c - the undo log's "irqbalance" kind: the daemon's state put
 * back by irqbalance.c, from a detail that names nothing to run */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/state/undo.h"
#include "irq/irqbalance.h"

static int irqb_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			 char *why, size_t whylen)
{
	(void)ctx;
	(void)u;
	/* irqbalance.c's own rules: state, mode, a system exe, documented
	 * options only, IRQBALANCE_* environment; nothing to delete. */
	return nn_irqb_validate(c->before, c->detail, why, whylen);
}

static int irqb_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	res->current = c->after ? strdup(c->after) : NULL;
	return nn_irqb_restore(ctx, c->before, c->detail, res->why, sizeof(res->why));
}

const struct nn_change_ops nn_irqb_change_ops = {
	.name = "irqbalance",
	.live_only = true,
	.validate = irqb_validate,
	.restore = irqb_restore,
};
