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
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/discover/observe.h"

/* include/uapi/linux/netdev.h, Linux 6.10 */
#define NN_NETDEV_FAMILY_NAME "netdev"
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

#define QS_BUF 32768

struct qs_dump {
	struct nn_obs_sample *s;
	int family;
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

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qs_dump *d = data;
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_get_payload_len(a) >= 2)
			d->family = mnl_attr_get_u16(a);
	return MNL_CB_OK;
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

static int run(struct mnl_socket *nl, char *buf, struct nlmsghdr *req, mnl_cb_t cb, struct qs_dump *d)
{
	unsigned int portid = mnl_socket_get_portid(nl), seq = req->nlmsg_seq;
	ssize_t ret;
	int r;

	if (mnl_socket_sendto(nl, req, req->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ret = mnl_socket_recvfrom(nl, buf, QS_BUF);
		if (ret < 0)
			return -errno;
		r = mnl_cb_run(buf, (size_t)ret, seq, portid, cb, d);
		if (r == MNL_CB_STOP)
			return 0;
		if (r == MNL_CB_ERROR)
			return d->err ? d->err : -errno;
	}
}

int nn_obs_qstats_read(struct nn_ctx *ctx, struct nn_obs_sample *s)
{
	struct qs_dump d = { .s = s, .family = -1 };
	struct mnl_socket *nl = NULL;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	unsigned int seq = (unsigned int)time(NULL);
	char *buf;
	int err;

	s->nqstats = 0;
	err = nn_require_live(ctx, "netdev netlink queue statistics");
	if (err)
		return err;
	buf = calloc(1, QS_BUF);	/* attribute padding is sent: zeroed */
	if (!buf)
		return -ENOMEM;
	nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, NN_NETDEV_FAMILY_NAME);
	err = run(nl, buf, nlh, family_cb, &d);
	if (err || d.family < 0) {
		err = -EOPNOTSUPP;	/* no netdev family: kernel before 6.5 */
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (unsigned short)d.family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = NN_NETDEV_CMD_QSTATS_GET;
	g->version = 1;
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QSTATS_SCOPE, NN_NETDEV_QSTATS_SCOPE_QUEUE);
	err = run(nl, buf, nlh, qstats_cb, &d);
	if (err == -EOPNOTSUPP || err == -EINVAL)
		err = -EOPNOTSUPP;	/* no qstats-get: kernel before 6.10 */
out:
	if (nl)
		mnl_socket_close(nl);
	free(buf);
	if (err && err != -ENOMEM)
		s->nqstats = 0;
	return err;
}
