// SPDX-License-Identifier: GPL-2.0-or-later
/* rss_change.c - the undo log's "rss" kind: a NIC's RSS indirection table
 * (context 0), put back only on a NIC the log's own host lists, only a
 * table of bounded size whose every entry is below the ring count recorded
 * with it */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/discover/ethtool.h"

void nn_rss_detail(char *buf, size_t len, unsigned int rings)
{
	snprintf(buf, len, "{\"rings\":%u}", rings);
}

/* The detail {"rings":N} and nothing else, N 1..65536. */
static int detail_rings(const char *detail, unsigned int *rings)
{
	struct json_object *d, *v;
	int64_t n;
	int err = -EINVAL;

	if (!detail || strlen(detail) > 64)
		return -EINVAL;
	d = json_tokener_parse(detail);
	if (d && json_object_is_type(d, json_type_object) && json_object_object_length(d) == 1 &&
	    json_object_object_get_ex(d, "rings", &v) && json_object_is_type(v, json_type_int)) {
		n = json_object_get_int64(v);
		if (n >= 1 && n <= (int64_t)NN_RSS_MAX_QUEUE + 1) {
			*rings = (unsigned int)n;
			err = 0;
		}
	}
	json_object_put(d);
	return err;
}

static int rss_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			char *why, size_t whylen)
{
	unsigned int *t = NULL, n, rings, i;

	(void)ctx;
	if (nn_undo_nic_check(u, c->path, why, whylen))
		return -EINVAL;
	if (detail_rings(c->detail, &rings)) {
		snprintf(why, whylen, "detail is not {\"rings\":N} with N 1-%u", NN_RSS_MAX_QUEUE + 1);
		return -EINVAL;
	}
	if (!c->before || strlen(c->before) > 16 * NN_RSS_MAX_TABLE ||
	    nn_rss_parse(c->before, &t, &n)) {
		snprintf(why, whylen, "bad RSS table '%.32s' (SIZE:LIST, at most %u entries)",
			 c->before ? c->before : "", NN_RSS_MAX_TABLE);
		return -EINVAL;
	}
	for (i = 0; i < n && t[i] < rings; i++)
		;
	if (i < n)
		snprintf(why, whylen, "RSS table entry %u is queue %u, the NIC had %u rx rings", i, t[i], rings);
	free(t);
	return i < n ? -EINVAL : 0;
}

int nn_rss_put_back(struct nn_ctx *ctx, const char *ifname, const char *before, char **current,
		    char *why, size_t whylen)
{
	unsigned int *t = NULL, n, i;
	struct nn_rss now;
	int err;

	*current = NULL;
	err = nn_rss_parse(before, &t, &n);
	if (err) {
		snprintf(why, whylen, "bad RSS table");
		return err;
	}
	err = nn_rss_get(ctx, -1, ifname, &now);
	if (!err && now.state != NN_RSS_OK)
		err = -EOPNOTSUPP;
	if (err) {
		snprintf(why, whylen, "%s: reading the RSS table: %s", ifname, strerror(-err));
		goto out;
	}
	*current = nn_rss_format(now.table, now.size);
	if (now.size == n && !memcmp(now.table, t, (size_t)n * sizeof(*t))) {
		err = 1;
		goto out;
	}
	if (now.size != n) {
		snprintf(why, whylen, "%s: the driver's table has %u entries now, the snapshot's %u",
			 ifname, now.size, n);
		err = -ERANGE;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (now.rings && t[i] >= now.rings) {
			snprintf(why, whylen, "%s: the snapshot's table names queue %u, the NIC has %u "
				 "rx rings now", ifname, t[i], now.rings);
			err = -ERANGE;
			goto out;
		}
	err = nn_rss_is_default(t, n, now.rings) ? nn_rss_set(ctx, ifname, NULL, 0, why, whylen)
						  : nn_rss_set(ctx, ifname, t, n, why, whylen);
out:
	nn_rss_free(&now);
	free(t);
	return err;
}

static int rss_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	int err = nn_rss_put_back(ctx, c->path, c->before, &res->current, res->why, sizeof(res->why));

	if (err == 1) {
		res->unchanged = true;
		return 0;
	}
	return err;
}

const struct nn_change_ops nn_rss_change_ops = {
	.name = "rss",
	.live_only = true,
	.validate = rss_validate,
	.restore = rss_restore,
};
