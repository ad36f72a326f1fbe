// SPDX-License-Identifier: GPL-2.0-or-later
/* coalesce_change.c - the undo log's "coalesce" kind: one interrupt
 * coalescing value of a NIC the log's own host lists, put back through
 * ethtool netlink (discover/ethtool_nl.c); and the rule rings_change.c
 * shares: path IF/SETTING, before a decimal in the setting's range */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/names.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/discover/ethtool_nl.h"

static int value_of(const char *s, enum nn_eth_setting set, long long *v)
{
	unsigned long x;

	if (!s || nn_name_decimal(s, (unsigned long)nn_eth_setting_max(set), &x, NULL))
		return -EINVAL;
	*v = (long long)x;
	return 0;
}

/* The change's NIC, setting and before value, or -EINVAL with @why. */
static int eth_change_parse(const struct nn_change *c, bool ring, char *nic, size_t niclen,
			    enum nn_eth_setting *set, long long *before, char *why, size_t whylen)
{
	if (nn_eth_parse_key(c->path, nic, niclen, set) || nn_eth_setting_is_ring(*set) != ring) {
		snprintf(why, whylen, "path '%.40s' is not IF/%s", c->path ? c->path : "",
			 ring ? "rx|tx" : "COALESCE-SETTING");
		return -EINVAL;
	}
	if (value_of(c->before, *set, before)) {
		snprintf(why, whylen, "bad %s value '%.32s'", nn_eth_setting_name(*set), c->before ? c->before : "");
		return -EINVAL;
	}
	return 0;
}

int nn_eth_change_validate(const struct nn_undo *u, const struct nn_change *c, bool ring,
			   char *why, size_t whylen)
{
	enum nn_eth_setting set;
	long long before;
	char nic[NN_IFNAMSIZ];

	if (eth_change_parse(c, ring, nic, sizeof(nic), &set, &before, why, whylen))
		return -EINVAL;
	return nn_undo_nic_check(u, nic, why, whylen) ? -EINVAL : 0;
}

int nn_eth_change_restore(struct nn_ctx *ctx, const struct nn_change *c, bool ring, struct nn_restore *res)
{
	enum nn_eth_setting set;
	struct nn_eth_conf now;
	long long before, after;
	char nic[NN_IFNAMSIZ], buf[24];
	int err;

	err = eth_change_parse(c, ring, nic, sizeof(nic), &set, &before, res->why, sizeof(res->why));
	if (err)
		return err;
	err = nn_eth_conf_get(ctx, nic, &now);
	if (!err && now.v[set] >= 0) {
		snprintf(buf, sizeof(buf), "%lld", now.v[set]);
		res->current = strdup(buf);
		if (now.v[set] == before) {
			res->unchanged = true;
			return 0;
		}
	}
	return nn_eth_set(ctx, nic, set, before, &after, res->why, sizeof(res->why));
}

static int coalesce_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			     char *why, size_t whylen)
{
	(void)ctx;
	return nn_eth_change_validate(u, c, false, why, whylen);
}

static int coalesce_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	return nn_eth_change_restore(ctx, c, false, res);
}

const struct nn_change_ops nn_coalesce_change_ops = {
	.name = "coalesce",
	.live_only = true,
	.validate = coalesce_validate,
	.restore = coalesce_restore,
};
