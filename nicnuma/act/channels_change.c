// SPDX-License-Identifier: GPL-2.0-or-later
/* channels_change.c - the undo log's "channels" kind: a NIC's combined
 * channel count, put back only on a NIC the log's own host lists */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/discover/ethtool.h"

static int channels_count(const char *s, long *n)
{
	/* ethtool's combined count is a u32; no NIC has 64k queues. */
	if (!s || nn_parse_long(s, n) || *n < 1 || *n > 65535)
		return -EINVAL;
	return 0;
}

static int channels_validate(struct nn_ctx *ctx, const struct nn_undo *u,
			     const struct nn_change *c, char *why, size_t whylen)
{
	long n;

	(void)ctx;
	if (nn_undo_nic_check(u, c->path, why, whylen))
		return -EINVAL;
	if (channels_count(c->before, &n)) {
		snprintf(why, whylen, "bad channel count '%.32s'", c->before ? c->before : "");
		return -EINVAL;
	}
	return 0;
}

static int channels_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	long n;
	int err = channels_count(c->before, &n);

	res->current = c->after ? strdup(c->after) : NULL;
	if (err) {
		snprintf(res->why, sizeof(res->why), "bad channel count");
		return err;
	}
	return nn_channels_set(ctx, c->path, (int)n, res->why, sizeof(res->why));
}

const struct nn_change_ops nn_channels_change_ops = {
	.name = "channels",
	.live_only = true,
	.validate = channels_validate,
	.restore = channels_restore,
};
