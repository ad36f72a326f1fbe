// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev_genl.c - the pure parser of netdev queue-get / napi-get replies
 *
 * No I/O: the bytes come from the live edge (netdev_genl_io.c) or from a
 * capture's saved answers, so a capture reproduces what live discovery saw.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/discover/netdev_genl.h"

#define QUEUE_MAX NN_NETDEV_A_QUEUE_XSK
#define NAPI_MAX NN_NETDEV_A_NAPI_THREADED

/* Keeps attributes we know with the right shape; unknown ones (a newer
 * kernel's) and malformed ones are left out. */
static int queue_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type <= 0 || type > QUEUE_MAX)
		return MNL_CB_OK;
	if (type == NN_NETDEV_A_QUEUE_IO_URING || type == NN_NETDEV_A_QUEUE_XSK) {
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			return MNL_CB_OK;
	} else if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0) {
		return MNL_CB_OK;
	}
	tb[type] = attr;
	return MNL_CB_OK;
}

/* "uint" attributes are 4 or 8 bytes (nla_put_uint). */
static bool uint_ok(const struct nlattr *attr)
{
	uint16_t len = mnl_attr_get_payload_len(attr);

	return len == sizeof(uint32_t) || len == sizeof(uint64_t);
}

static unsigned long long get_uint(const struct nlattr *attr)
{
	if (mnl_attr_get_payload_len(attr) == sizeof(uint64_t))
		return mnl_attr_get_u64(attr);
	return mnl_attr_get_u32(attr);
}

static int napi_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type <= 0 || type > NAPI_MAX)
		return MNL_CB_OK;
	if (type == NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT || type == NN_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT ||
	    type == NN_NETDEV_A_NAPI_THREADED) {
		if (!uint_ok(attr))
			return MNL_CB_OK;
	} else if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0) {
		return MNL_CB_OK;
	}
	tb[type] = attr;
	return MNL_CB_OK;
}

/* A u32 that must fit an int (ifindex, IRQ, pid, queue index). */
static bool get_int(const struct nlattr *attr, int *val)
{
	uint32_t v = mnl_attr_get_u32(attr);

	if (v > INT_MAX)
		return false;
	*val = (int)v;
	return true;
}

static long long get_ull_capped(const struct nlattr *attr)
{
	unsigned long long v = get_uint(attr);

	return v > LLONG_MAX ? LLONG_MAX : (long long)v;
}

static int parse_queue(const struct nlmsghdr *nlh, struct nn_genl *g)
{
	const struct nlattr *tb[QUEUE_MAX + 1] = { NULL };
	struct nn_genl_queue q = { .napi_id = -1, .dmabuf = -1 };

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), queue_attr_cb, tb);
	if (!tb[NN_NETDEV_A_QUEUE_ID] || !tb[NN_NETDEV_A_QUEUE_IFINDEX] || !tb[NN_NETDEV_A_QUEUE_TYPE] ||
	    !get_int(tb[NN_NETDEV_A_QUEUE_ID], &q.id) || !get_int(tb[NN_NETDEV_A_QUEUE_IFINDEX], &q.ifindex) ||
	    !get_int(tb[NN_NETDEV_A_QUEUE_TYPE], &q.type)) {
		g->nbad++;
		return 0;
	}
	if (tb[NN_NETDEV_A_QUEUE_NAPI_ID])
		q.napi_id = mnl_attr_get_u32(tb[NN_NETDEV_A_QUEUE_NAPI_ID]);
	if (tb[NN_NETDEV_A_QUEUE_DMABUF])
		q.dmabuf = mnl_attr_get_u32(tb[NN_NETDEV_A_QUEUE_DMABUF]);
	q.io_uring = tb[NN_NETDEV_A_QUEUE_IO_URING] != NULL;
	q.xsk = tb[NN_NETDEV_A_QUEUE_XSK] != NULL;
	if (NN_GROW(g->queues, g->nqueues, g->qcap))
		return -ENOMEM;
	g->queues[g->nqueues++] = q;
	return 0;
}

static int parse_napi(const struct nlmsghdr *nlh, struct nn_genl *g)
{
	const struct nlattr *tb[NAPI_MAX + 1] = { NULL };
	struct nn_genl_napi n = {
		.irq = -1, .pid = -1, .threaded = -1,
		.defer_hard_irqs = -1, .gro_flush_timeout = -1, .irq_suspend_timeout = -1,
	};

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), napi_attr_cb, tb);
	if (!tb[NN_NETDEV_A_NAPI_ID] || !tb[NN_NETDEV_A_NAPI_IFINDEX] ||
	    !get_int(tb[NN_NETDEV_A_NAPI_IFINDEX], &n.ifindex)) {
		g->nbad++;
		return 0;
	}
	n.id = mnl_attr_get_u32(tb[NN_NETDEV_A_NAPI_ID]);
	if (tb[NN_NETDEV_A_NAPI_IRQ] && !get_int(tb[NN_NETDEV_A_NAPI_IRQ], &n.irq))
		n.irq = -1;
	if (tb[NN_NETDEV_A_NAPI_PID] && (!get_int(tb[NN_NETDEV_A_NAPI_PID], &n.pid) || n.pid == 0))
		n.pid = -1;
	if (tb[NN_NETDEV_A_NAPI_THREADED]) {
		unsigned long long t = get_uint(tb[NN_NETDEV_A_NAPI_THREADED]);

		n.threaded = t > INT_MAX ? INT_MAX : (int)t;
	}
	if (tb[NN_NETDEV_A_NAPI_DEFER_HARD_IRQS])
		n.defer_hard_irqs = mnl_attr_get_u32(tb[NN_NETDEV_A_NAPI_DEFER_HARD_IRQS]);
	if (tb[NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT])
		n.gro_flush_timeout = get_ull_capped(tb[NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT]);
	if (tb[NN_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT])
		n.irq_suspend_timeout = get_ull_capped(tb[NN_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT]);
	if (NN_GROW(g->napis, g->nnapis, g->ncap))
		return -ENOMEM;
	g->napis[g->nnapis++] = n;
	return 0;
}

int nn_genl_parse(const void *buf, size_t len, uint16_t family, struct nn_genl *g)
{
	size_t off = 0;

	/* Walked by hand, not with mnl_nlmsg_ok/next: they compare the length
	 * as an int, so a length above INT_MAX from a bad file passes and sends
	 * the next step far out of the buffer. */
	while (len - off >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)((const char *)buf + off);
		const struct genlmsghdr *gh;
		int err;

		if (nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > len - off)
			return -EBADMSG;
		if (nlh->nlmsg_type == NLMSG_DONE) {
			/* A dump that failed midway ends with its negative errno. */
			if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
				int e;

				memcpy(&e, mnl_nlmsg_get_payload(nlh), sizeof(e));
				if (e < 0)
					return e < -4095 ? -EBADMSG : e;
			}
			return 0;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr e;

			if (mnl_nlmsg_get_payload_len(nlh) < sizeof(e))
				return -EBADMSG;
			memcpy(&e, mnl_nlmsg_get_payload(nlh), sizeof(e));
			if (e.error < 0)
				return e.error < -4095 ? -EBADMSG : e.error;
			return 0;	/* an ACK ends the answer */
		}
		if (nlh->nlmsg_type >= NLMSG_MIN_TYPE && (!family || nlh->nlmsg_type == family) &&
		    mnl_nlmsg_get_payload_len(nlh) >= sizeof(*gh)) {
			gh = mnl_nlmsg_get_payload(nlh);
			err = 0;
			if (gh->cmd == NN_NETDEV_CMD_QUEUE_GET)
				err = parse_queue(nlh, g);
			else if (gh->cmd == NN_NETDEV_CMD_NAPI_GET)
				err = parse_napi(nlh, g);
			if (err)
				return err;
		}
		/* The last message may end unpadded. */
		if (MNL_ALIGN(nlh->nlmsg_len) >= len - off)
			return 0;
		off += MNL_ALIGN(nlh->nlmsg_len);
	}
	/* Bytes left over that are not a whole header: truncated. */
	return off < len ? -EBADMSG : 0;
}

void nn_genl_free(struct nn_genl *g)
{
	free(g->queues);
	free(g->napis);
	memset(g, 0, sizeof(*g));
}

const struct nn_genl_napi *nn_genl_napi_find(const struct nn_genl *g, long long id)
{
	size_t i;

	for (i = 0; id >= 0 && i < g->nnapis; i++)
		if (g->napis[i].id == id)
			return &g->napis[i];
	return NULL;
}

void nn_genl_raw_free(struct nn_genl_raw *raw)
{
	free(raw->queues);
	free(raw->napis);
	memset(raw, 0, sizeof(*raw));
}
