// SPDX-License-Identifier: GPL-2.0-or-later
/* napi_dev_change.c - the undo log's "napi_dev" kind: a device-wide NAPI
 * file (irq/napi_conf.c's rule) put back as a file; writing one may start or
 * stop NAPI threads, so the run's napi-get answers are asked again after */
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/discover/nic.h"

static int dev_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	int err = nn_value_restore_change(ctx, c, false, res);

	if (!res->unchanged)
		nn_napi_answers_stale(ctx);
	return err;
}

const struct nn_change_ops nn_napi_dev_change_ops = {
	.name = "napi_dev",
	.live_only = false,
	.validate = nn_napi_dev_validate,
	.restore = dev_restore,
};
