// SPDX-License-Identifier: GPL-2.0-or-later
/* obs_qstats.c - per-queue packet counts from the netdev generic netlink
 * family's qstats-get (Linux 6.10), live root only.
 *
 * Debian 12's linux-libc-dev (6.1) has no netdev qstats: the constants are
 * defined here with the kernel version that added them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/discover/netdev_genl.h"
#include "nicnuma/obs/obs.h"

/* include/uapi/linux/netdev.h, Linux 6.10 */
#define NN_NETDEV_CMD_QSTATS_GET 12
#define NN_NETDEV_A_QSTATS_IFINDEX 1
#define NN_NETDEV_A_QSTATS_QUEUE_TYPE 2
#define NN_NETDEV_A_QSTATS_QUEUE_ID 3
#define NN_NETDEV_A_QSTATS_SCOPE 4
#define NN_NETDEV_A_QSTATS_RX_PACKETS 8
#define NN_NETDEV_A_QSTATS_RX_BYTES 9
#define NN_NETDEV_A_QSTATS_TX_PACKETS 10
#define NN_NETDEV_A_QSTATS_TX_BYTES 11
#define NN_NETDEV_QSTATS_SCOPE_QUEUE 1
#define NN_NETDEV_QUEUE_TYPE_RX 0
#define NN_NETDEV_QUEUE_TYPE_TX 1

struct qs_dump {
	struct nn_obs_sample *s;
	int err;
};

/* A "uint" attribute: 4 or 8 bytes. */
static bool get_uint(const struct nlattr *a, unsigned long long *v)
{
	if (mnl_attr_get_payload_len(a) == 4)
		*v = mnl_attr_get_u32(a);
	else if (mnl_attr_get_payload_len(a) == 8)
		*v = mnl_attr_get_u64(a);
	else
		return false;
	return true;
}

static int qstats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qs_dump *d = data;
	struct nn_obs_qstat q = { .ifindex = -1, .queue = -1 };
	unsigned long long rxp = 0, rxb = 0, txp = 0, txb = 0, v;
	bool has_type = false, has_rx = false, has_tx = false;
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (!get_uint(a, &v))
			continue;
		switch (mnl_attr_get_type(a)) {
		case NN_NETDEV_A_QSTATS_IFINDEX: q.ifindex = (int)v; break;
		case NN_NETDEV_A_QSTATS_QUEUE_ID: q.queue = (int)v; break;
		case NN_NETDEV_A_QSTATS_QUEUE_TYPE:
			has_type = true;
			q.rx = v == NN_NETDEV_QUEUE_TYPE_RX;
			break;
		case NN_NETDEV_A_QSTATS_RX_PACKETS: rxp = v; has_rx = true; break;
		case NN_NETDEV_A_QSTATS_RX_BYTES: rxb = v; break;
		case NN_NETDEV_A_QSTATS_TX_PACKETS: txp = v; has_tx = true; break;
		case NN_NETDEV_A_QSTATS_TX_BYTES: txb = v; break;
		default: break;
		}
	}
	if (q.ifindex < 0 || q.queue < 0 || !has_type || !(q.rx ? has_rx : has_tx))
		return MNL_CB_OK;
	q.packets = q.rx ? rxp : txp;
	q.bytes = q.rx ? rxb : txb;
	if (NN_GROW(d->s->qstats, d->s->nqstats, d->s->qstats_cap)) {
		d->err = -ENOMEM;
		return MNL_CB_ERROR;
	}
	d->s->qstats[d->s->nqstats++] = q;
	return MNL_CB_OK;
}

int nn_obs_qstats_read(struct nn_ctx *ctx, struct nn_obs_sample *s)
{
	static const uint8_t cmds[] = { NN_NETDEV_CMD_QSTATS_GET };
	struct qs_dump d = { .s = s };
	struct nn_genl_sock gs;
	uint16_t family = 0;
	void *buf = NULL;
	size_t len = 0;
	int err;

	s->nqstats = 0;
	err = nn_require_live(ctx, "netdev netlink queue statistics");
	if (err)
		return err;
	err = nn_genl_sock_open(&gs);
	if (err)
		return err;
	/* -EOPNOTSUPP: no netdev family (before 6.3) or no qstats-get (before 6.10) */
	err = nn_genl_family(&gs, cmds, sizeof(cmds), &family);
	if (!err)
		err = nn_genl_dump(&gs, family, NN_NETDEV_CMD_QSTATS_GET, NN_NETDEV_A_QSTATS_SCOPE,
				   NN_NETDEV_QSTATS_SCOPE_QUEUE, &buf, &len);
	if (!err && mnl_cb_run(buf, len, 0, 0, qstats_cb, &d) == MNL_CB_ERROR)
		err = d.err ? d.err : -errno;
	if (err == -EINVAL)
		err = -EOPNOTSUPP;	/* a kernel that knows the command but not the scope */
	nn_genl_sock_close(&gs);
	free(buf);
	if (err && err != -ENOMEM)
		s->nqstats = 0;
	return err;
}
