// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev_genl_io.c - the live edge of the netdev genl reader: resolves the
 * family over nlctrl and dumps queue-get / napi-get. The bytes go to the pure
 * parser (netdev_genl.c) unchanged, and are kept for a capture. Live only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/netdev_genl.h"

#define GENL_BUF_SIZE 32768
#define GENL_DUMP_TRIES 3

struct sock {
	struct mnl_socket *nl;
	unsigned int portid, seq;
	char *buf;
};

/* Growable byte buffer of one dump's replies. */
struct bytes {
	char *p;
	size_t len, cap;
};

static int bytes_add(struct bytes *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : GENL_BUF_SIZE;
		char *np;

		while (cap < b->len + len)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np)
			return -ENOMEM;
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

/* Sends the request in s->buf and collects every reply message of this
 * sequence until NLMSG_DONE or an NLMSG_ERROR into @out. *@intr is set when a
 * dump was interrupted (NLM_F_DUMP_INTR: the set changed while dumping). */
static int transact(struct sock *s, struct nlmsghdr *req, struct bytes *out, bool *intr)
{
	*intr = false;
	if (mnl_socket_sendto(s->nl, req, req->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t ret = mnl_socket_recvfrom(s->nl, s->buf, GENL_BUF_SIZE);
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)s->buf;
		int left;

		if (ret < 0)
			return errno == ENOBUFS ? -EAGAIN : -errno;
		left = (int)ret;
		for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_seq != req->nlmsg_seq || nlh->nlmsg_pid != s->portid)
				continue;	/* not ours (a stale answer) */
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				*intr = true;
			if (bytes_add(out, nlh, nlh->nlmsg_len))
				return -ENOMEM;
			if (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR)
				return 0;
		}
	}
}

static int ctrl_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type == CTRL_ATTR_FAMILY_ID && mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
		tb[type] = attr;
	else if (type == CTRL_ATTR_OPS && mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

/* Whether the family's op list (CTRL_ATTR_OPS: nests of CTRL_ATTR_OP_ID)
 * holds @cmd. */
static bool has_op(const struct nlattr *ops, unsigned int cmd)
{
	const struct nlattr *op, *a;

	mnl_attr_for_each_nested(op, ops)
		mnl_attr_for_each_nested(a, op)
			if (mnl_attr_get_type(a) == CTRL_ATTR_OP_ID && mnl_attr_validate(a, MNL_TYPE_U32) == 0 &&
			    mnl_attr_get_u32(a) == cmd)
				return true;
	return false;
}

static int resolve_family(struct sock *s, uint16_t *family)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1] = { NULL };
	struct bytes ans = { 0 };
	const struct nlmsghdr *nlh;
	struct nlmsghdr *req;
	struct genlmsghdr *gh;
	bool intr;
	int err, left;

	req = mnl_nlmsg_put_header(s->buf);
	req->nlmsg_type = GENL_ID_CTRL;
	req->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req->nlmsg_seq = ++s->seq;
	gh = mnl_nlmsg_put_extra_header(req, sizeof(*gh));
	gh->cmd = CTRL_CMD_GETFAMILY;
	gh->version = 1;
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, NN_NETDEV_FAMILY_NAME);
	err = transact(s, req, &ans, &intr);
	if (err)
		goto out;
	err = -EOPNOTSUPP;
	nlh = (const struct nlmsghdr *)ans.p;
	for (left = (int)ans.len; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			/* ENOENT: no such family (kernel before 6.3). */
			if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(*e) && e->error < 0 && e->error != -ENOENT)
				err = e->error;
			break;
		}
		if (nlh->nlmsg_type != GENL_ID_CTRL || mnl_nlmsg_get_payload_len(nlh) < sizeof(*gh))
			continue;
		mnl_attr_parse(nlh, sizeof(*gh), ctrl_attr_cb, tb);
		if (!tb[CTRL_ATTR_FAMILY_ID])
			continue;
		*family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
		/* queue-get and napi-get came in 6.8, after the family itself. */
		err = tb[CTRL_ATTR_OPS] && has_op(tb[CTRL_ATTR_OPS], NN_NETDEV_CMD_QUEUE_GET) &&
			has_op(tb[CTRL_ATTR_OPS], NN_NETDEV_CMD_NAPI_GET) ? 0 : -EOPNOTSUPP;
		break;
	}
out:
	free(ans.p);
	return err;
}

/* One dump of @cmd over every device of the namespace, asked again while the
 * kernel flags it interrupted. */
static int dump(struct sock *s, uint16_t family, uint8_t cmd, struct bytes *out)
{
	int tries, err = 0;
	bool intr = false;

	for (tries = 0; tries < GENL_DUMP_TRIES; tries++) {
		struct nlmsghdr *req = mnl_nlmsg_put_header(s->buf);
		struct genlmsghdr *gh;

		req->nlmsg_type = family;
		req->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		req->nlmsg_seq = ++s->seq;
		gh = mnl_nlmsg_put_extra_header(req, sizeof(*gh));
		gh->cmd = cmd;
		gh->version = 1;
		out->len = 0;
		err = transact(s, req, out, &intr);
		if (err == -EAGAIN || (!err && intr))
			continue;
		break;
	}
	return err;
}

int nn_genl_read(struct nn_ctx *ctx, struct nn_genl *g, struct nn_genl_raw *raw)
{
	struct bytes q = { 0 }, n = { 0 };
	struct sock s = { 0 };
	uint16_t family = 0;
	int err, one = 1;

	err = nn_require_live(ctx, "the netdev generic netlink read");
	if (err)
		return err;
	/* zeroed: libmnl leaves attribute padding unwritten, and sendto would send it */
	s.buf = calloc(1, GENL_BUF_SIZE);
	if (!s.buf)
		return -ENOMEM;
	s.nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!s.nl) {
		err = -errno;
		goto out;
	}
	if (mnl_socket_bind(s.nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	mnl_socket_setsockopt(s.nl, NETLINK_EXT_ACK, &one, sizeof(one));
	s.portid = mnl_socket_get_portid(s.nl);
	s.seq = (unsigned int)time(NULL);
	err = resolve_family(&s, &family);
	if (!err)
		err = dump(&s, family, NN_NETDEV_CMD_QUEUE_GET, &q);
	if (!err)
		err = nn_genl_parse(q.p, q.len, family, g);
	if (!err)
		err = dump(&s, family, NN_NETDEV_CMD_NAPI_GET, &n);
	if (!err)
		err = nn_genl_parse(n.p, n.len, family, g);
	if (!err && raw) {
		raw->queues = q.p;
		raw->queues_len = q.len;
		raw->napis = n.p;
		raw->napis_len = n.len;
		q.p = n.p = NULL;
	}
out:
	if (s.nl)
		mnl_socket_close(s.nl);
	free(s.buf);
	free(q.p);
	free(n.p);
	return err;
}
