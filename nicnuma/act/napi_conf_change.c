// SPDX-License-Identifier: GPL-2.0-or-later
/* napi_conf_change.c - the undo log's "napi_conf" kind (irq/napi_conf.c's
 * rule and restore) with discover's netdev family handed down as the io */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicnuma/act/change_kinds.h"
#include "nicnuma/discover/netdev_genl.h"

static const int genl_attr[NN_NAPI_NATTR] = {
	[NN_NAPI_DEFER_HARD_IRQS] = NN_NETDEV_A_NAPI_DEFER_HARD_IRQS,
	[NN_NAPI_GRO_FLUSH_TIMEOUT] = NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT,
	[NN_NAPI_IRQ_SUSPEND_TIMEOUT] = NN_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT,
	[NN_NAPI_THREADED] = NN_NETDEV_A_NAPI_THREADED,
};

static int io_get(struct nn_ctx *ctx, long long napi_id, struct nn_napi_vals *v, char *why, size_t whylen)
{
	struct nn_genl_napi g;
	int err = nn_genl_napi_get(ctx, napi_id, &g, why, whylen);

	if (err) {
		if (!why[0])
			snprintf(why, whylen, "napi-get %lld: %s", napi_id, strerror(-err));
		return err;
	}
	v->ifindex = g.ifindex;
	v->v[NN_NAPI_DEFER_HARD_IRQS] = g.defer_hard_irqs;
	v->v[NN_NAPI_GRO_FLUSH_TIMEOUT] = g.gro_flush_timeout;
	v->v[NN_NAPI_IRQ_SUSPEND_TIMEOUT] = g.irq_suspend_timeout;
	v->v[NN_NAPI_THREADED] = g.threaded;
	return 0;
}

static int io_set(struct nn_ctx *ctx, long long napi_id, enum nn_napi_attr a, long long value,
		  char *why, size_t whylen)
{
	if ((unsigned int)a >= NN_NAPI_NATTR || value < 0)
		return -EINVAL;
	return nn_genl_napi_set(ctx, napi_id, genl_attr[a], (unsigned long long)value, why, whylen);
}

const struct nn_napi_io nn_napi_genl_io = {
	.get = io_get,
	.set = io_set,
};

static int conf_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	return nn_napi_conf_restore(ctx, &nn_napi_genl_io, c, res);
}

const struct nn_change_ops nn_napi_conf_change_ops = {
	.name = "napi_conf",
	.live_only = true,
	.validate = nn_napi_conf_validate,
	.restore = conf_restore,
};
