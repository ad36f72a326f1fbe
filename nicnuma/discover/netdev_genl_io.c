// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev_genl_io.c - the live edge of the netdev genl family: its socket, the one resolver, dumps
 *
 * nn_genl_read dumps queue-get / napi-get: the bytes go to the pure parser
 * (netdev_genl.c) unchanged, and are kept for a capture. obs_qstats.c dumps
 * qstats-get through the same socket, resolver and dump. Live only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/netdev_genl.h"
#include "nicnuma/discover/nic.h"

#define GENL_BUF_SIZE 32768
#define GENL_DUMP_TRIES 3

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
static int transact(struct nn_genl_sock *s, struct nlmsghdr *req, struct bytes *out, bool *intr)
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

/* A request of @cmd to family @type in s->buf, the next sequence number. */
static struct nlmsghdr *put_request(struct nn_genl_sock *s, uint16_t type, uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *req = mnl_nlmsg_put_header(s->buf);
	struct genlmsghdr *gh;

	req->nlmsg_type = type;
	req->nlmsg_flags = flags;
	req->nlmsg_seq = ++s->seq;
	gh = mnl_nlmsg_put_extra_header(req, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = 1;
	return req;
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

int nn_genl_family(struct nn_genl_sock *s, const uint8_t *cmds, size_t ncmds, uint16_t *family)
{
	return nn_genl_family_named(s, NN_NETDEV_FAMILY_NAME, cmds, ncmds, family);
}

int nn_genl_family_named(struct nn_genl_sock *s, const char *name, const uint8_t *cmds, size_t ncmds,
			 uint16_t *family)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1] = { NULL };
	struct bytes ans = { 0 };
	const struct nlmsghdr *nlh;
	struct nlmsghdr *req;
	bool intr;
	int err, left;
	size_t i;

	req = put_request(s, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, CTRL_CMD_GETFAMILY);
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, name);
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
		if (nlh->nlmsg_type != GENL_ID_CTRL ||
		    mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
			continue;
		mnl_attr_parse(nlh, sizeof(struct genlmsghdr), ctrl_attr_cb, tb);
		if (!tb[CTRL_ATTR_FAMILY_ID])
			continue;
		*family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
		/* The commands came after the family itself (queue-get 6.8, ...). */
		err = tb[CTRL_ATTR_OPS] ? 0 : -EOPNOTSUPP;
		for (i = 0; i < ncmds && !err; i++)
			if (!has_op(tb[CTRL_ATTR_OPS], cmds[i]))
				err = -EOPNOTSUPP;
		break;
	}
out:
	free(ans.p);
	return err;
}

int nn_genl_dump(struct nn_genl_sock *s, uint16_t family, uint8_t cmd, int attr, uint32_t val,
		 void **out, size_t *outlen)
{
	struct bytes b = { 0 };
	int tries, err = 0;
	bool intr = false;

	for (tries = 0; tries < GENL_DUMP_TRIES; tries++) {
		struct nlmsghdr *req = put_request(s, family, NLM_F_REQUEST | NLM_F_DUMP, cmd);

		if (attr > 0)
			mnl_attr_put_u32(req, (uint16_t)attr, val);
		b.len = 0;
		err = transact(s, req, &b, &intr);
		if (err == -EAGAIN || (!err && intr))
			continue;
		break;
	}
	if (err) {
		free(b.p);
		b.p = NULL;
		b.len = 0;
	}
	*out = b.p;
	*outlen = b.len;
	return err;
}

int nn_genl_sock_open(struct nn_genl_sock *s)
{
	int one = 1, err;

	memset(s, 0, sizeof(*s));
	/* zeroed: libmnl leaves attribute padding unwritten, and sendto would send it */
	s->buf = calloc(1, GENL_BUF_SIZE);
	if (!s->buf)
		return -ENOMEM;
	s->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!s->nl || mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		nn_genl_sock_close(s);
		return err;
	}
	mnl_socket_setsockopt(s->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	s->portid = mnl_socket_get_portid(s->nl);
	s->seq = (unsigned int)time(NULL);
	return 0;
}

void nn_genl_sock_close(struct nn_genl_sock *s)
{
	if (s->nl)
		mnl_socket_close(s->nl);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

#define POLICY_MAX 64	/* policy indices kept: netdev has a handful */

struct policy_scan {
	uint32_t op;
	int64_t do_idx;			/* -1: not seen */
	uint32_t attrs[POLICY_MAX];	/* per policy index: bit N, attribute N has a type */
};

/* One policy's attributes (CTRL_ATTR_POLICY: idx -> attr -> NL_POLICY_TYPE_ATTR_*). */
static void scan_policy(const struct nlattr *pol, struct policy_scan *ps)
{
	const struct nlattr *p, *a, *t;

	mnl_attr_for_each_nested(p, pol) {
		uint16_t idx = mnl_attr_get_type(p);

		if (idx >= POLICY_MAX)
			continue;
		mnl_attr_for_each_nested(a, p) {
			uint16_t at = mnl_attr_get_type(a);

			if (at == 0 || at >= 32)
				continue;
			mnl_attr_for_each_nested(t, a)
				if (mnl_attr_get_type(t) == NL_POLICY_TYPE_ATTR_TYPE &&
				    mnl_attr_validate(t, MNL_TYPE_U32) == 0 && mnl_attr_get_u32(t) != NL_ATTR_TYPE_INVALID)
					ps->attrs[idx] |= 1u << at;
		}
	}
}

/* The do-policy index of op ps->op (CTRL_ATTR_OP_POLICY: op -> CTRL_ATTR_POLICY_DO). */
static void scan_op_policy(const struct nlattr *opp, struct policy_scan *ps)
{
	const struct nlattr *o, *a;

	mnl_attr_for_each_nested(o, opp) {
		if (mnl_attr_get_type(o) != ps->op)
			continue;
		mnl_attr_for_each_nested(a, o)
			if (mnl_attr_get_type(a) == CTRL_ATTR_POLICY_DO && mnl_attr_validate(a, MNL_TYPE_U32) == 0)
				ps->do_idx = mnl_attr_get_u32(a);
	}
}

/* Which attributes @cmd's do request takes (CTRL_CMD_GETPOLICY of the
 * family and op, kernel 5.12+): bit N for attribute N. -EOPNOTSUPP when
 * nlctrl cannot say. */
static int op_policy(struct nn_genl_sock *s, uint16_t family, uint8_t cmd, uint32_t *attrs)
{
	struct policy_scan ps = { .op = cmd, .do_idx = -1 };
	struct bytes ans = { 0 };
	const struct nlmsghdr *nlh;
	struct nlmsghdr *req;
	bool intr;
	int err, left;

	req = put_request(s, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_DUMP, CTRL_CMD_GETPOLICY);
	mnl_attr_put_u16(req, CTRL_ATTR_FAMILY_ID, family);
	mnl_attr_put_u32(req, CTRL_ATTR_OP, cmd);
	err = transact(s, req, &ans, &intr);
	nlh = (const struct nlmsghdr *)ans.p;
	for (left = (int)ans.len; !err && mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		const struct nlattr *a;

		if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_DONE) {
			const int *e = mnl_nlmsg_get_payload(nlh);

			if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(*e) && *e < 0)
				err = -EOPNOTSUPP;
			break;
		}
		if (nlh->nlmsg_type != GENL_ID_CTRL || mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
			continue;
		mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
			if (mnl_attr_get_type(a) == CTRL_ATTR_OP_POLICY)
				scan_op_policy(a, &ps);
			else if (mnl_attr_get_type(a) == CTRL_ATTR_POLICY)
				scan_policy(a, &ps);
		}
	}
	free(ans.p);
	if (!err && (ps.do_idx < 0 || ps.do_idx >= POLICY_MAX))
		err = -EOPNOTSUPP;
	if (!err)
		*attrs = ps.attrs[ps.do_idx];
	return err;
}

/* What napi-set takes, into @g (napi_set_known, napi_set_attrs). */
static void napi_set_caps(struct nn_genl_sock *s, struct nn_genl *g)
{
	static const uint8_t set[] = { NN_NETDEV_CMD_NAPI_SET };
	uint16_t family;
	int err = nn_genl_family(s, set, sizeof(set), &family);

	g->napi_set_known = false;
	g->napi_set_attrs = 0;
	if (err == -EOPNOTSUPP) {
		g->napi_set_known = true;	/* the family lists no napi-set */
		return;
	}
	if (!err && !op_policy(s, family, NN_NETDEV_CMD_NAPI_SET, &g->napi_set_attrs))
		g->napi_set_known = true;
}

int nn_genl_read(struct nn_ctx *ctx, struct nn_genl *g, struct nn_genl_raw *raw, unsigned int flags)
{
	static const uint8_t cmds[] = { NN_NETDEV_CMD_QUEUE_GET, NN_NETDEV_CMD_NAPI_GET };
	struct nn_genl_sock s;
	void *q = NULL, *n = NULL;
	size_t qlen = 0, nlen = 0;
	uint16_t family = 0;
	int err;

	err = nn_require_live(ctx, "the netdev generic netlink read");
	if (err)
		return err;
	err = nn_genl_sock_open(&s);
	if (err)
		return err;
	err = nn_genl_family(&s, cmds, sizeof(cmds), &family);
	if (!err)
		err = nn_genl_dump(&s, family, NN_NETDEV_CMD_QUEUE_GET, 0, 0, &q, &qlen);
	if (!err)
		err = nn_genl_parse(q, qlen, family, g);
	if (!err)
		err = nn_genl_dump(&s, family, NN_NETDEV_CMD_NAPI_GET, 0, 0, &n, &nlen);
	if (!err)
		err = nn_genl_parse(n, nlen, family, g);
	if (!err && (flags & NN_GENL_NAPI_SET_CAPS))
		napi_set_caps(&s, g);
	if (!err && raw) {
		raw->queues = q;
		raw->queues_len = qlen;
		raw->napis = n;
		raw->napis_len = nlen;
		q = n = NULL;
	}
	nn_genl_sock_close(&s);
	free(q);
	free(n);
	return err;
}

/* The error of the answer's NLMSG_ERROR (0 for an ACK), with the kernel's
 * extended ack message (NLMSGERR_ATTR_MSG) into @why when it sent one. */
static int ack_error(const struct bytes *ans, char *why, size_t whylen)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)ans->p;
	int left = (int)ans->len;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
		const struct nlattr *a;
		size_t off;

		if (nlh->nlmsg_type != NLMSG_ERROR)
			continue;
		if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
			return -EBADMSG;
		if (e->error >= 0)
			return 0;
		/* The request comes back after the header unless capped. */
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len > sizeof(e->msg))
			off += MNL_ALIGN(e->msg.nlmsg_len - sizeof(e->msg));
		if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && mnl_nlmsg_get_payload_len(nlh) > off)
			mnl_attr_for_each(a, nlh, off)
				if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
				    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
					snprintf(why, whylen, "%s", mnl_attr_get_str(a));
		return e->error < -4095 ? -EBADMSG : e->error;
	}
	return -EBADMSG;
}

/* A socket with the family resolved, holding @cmd. */
static int napi_sock(struct nn_ctx *ctx, uint8_t cmd, struct nn_genl_sock *s, uint16_t *family)
{
	int err = nn_require_live(ctx, "the netdev generic netlink request");

	if (!err)
		err = nn_genl_sock_open(s);
	if (err)
		return err;
	err = nn_genl_family(s, &cmd, 1, family);
	if (err)
		nn_genl_sock_close(s);
	return err;
}

int nn_genl_napi_get(struct nn_ctx *ctx, long long napi_id, struct nn_genl_napi *out,
		     char *why, size_t whylen)
{
	struct nn_genl g = { 0 };
	struct nn_genl_sock s;
	struct bytes ans = { 0 };
	struct nlmsghdr *req;
	uint16_t family;
	bool intr;
	int err;

	why[0] = '\0';
	if (napi_id < 1 || napi_id > 0xffffffffLL)
		return -EINVAL;
	err = napi_sock(ctx, NN_NETDEV_CMD_NAPI_GET, &s, &family);
	if (err)
		return err;
	req = put_request(&s, family, NLM_F_REQUEST | NLM_F_ACK, NN_NETDEV_CMD_NAPI_GET);
	mnl_attr_put_u32(req, NN_NETDEV_A_NAPI_ID, (uint32_t)napi_id);
	err = transact(&s, req, &ans, &intr);
	if (!err)
		err = ack_error(&ans, why, whylen);
	if (!err)
		err = nn_genl_parse(ans.p, ans.len, family, &g);
	if (!err && (g.nnapis != 1 || g.napis[0].id != napi_id))
		err = -ENOENT;
	if (!err)
		*out = g.napis[0];
	else if (err == -ENOENT && !why[0])
		snprintf(why, whylen, "NAPI %lld is gone", napi_id);
	nn_genl_free(&g);
	free(ans.p);
	nn_genl_sock_close(&s);
	return err;
}

int nn_genl_napi_set(struct nn_ctx *ctx, long long napi_id, int attr, unsigned long long value,
		     char *why, size_t whylen)
{
	struct nn_genl_sock s;
	struct bytes ans = { 0 };
	struct nlmsghdr *req;
	uint16_t family;
	bool intr;
	int err;

	why[0] = '\0';
	if (napi_id < 1 || napi_id > 0xffffffffLL)
		return -EINVAL;
	err = napi_sock(ctx, NN_NETDEV_CMD_NAPI_SET, &s, &family);
	if (err == -EOPNOTSUPP)
		snprintf(why, whylen, "the kernel's netdev family has no napi-set");
	if (err)
		return err;
	nn_napi_answers_stale(ctx);	/* threaded on or off starts or stops its thread */
	req = put_request(&s, family, NLM_F_REQUEST | NLM_F_ACK, NN_NETDEV_CMD_NAPI_SET);
	mnl_attr_put_u32(req, NN_NETDEV_A_NAPI_ID, (uint32_t)napi_id);
	if (attr == NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT || attr == NN_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT)
		mnl_attr_put_u64(req, (uint16_t)attr, value);
	else
		mnl_attr_put_u32(req, (uint16_t)attr, (uint32_t)value);
	err = transact(&s, req, &ans, &intr);
	if (!err)
		err = ack_error(&ans, why, whylen);
	if (err && !why[0])
		snprintf(why, whylen, "napi-set: %s", strerror(-err));
	free(ans.p);
	nn_genl_sock_close(&s);
	return err;
}

int nn_genl_napi_set_supported(struct nn_ctx *ctx)
{
	struct nn_genl_sock s;
	uint16_t family;
	int err = napi_sock(ctx, NN_NETDEV_CMD_NAPI_SET, &s, &family);

	if (err == -EOPNOTSUPP)
		return 0;
	if (err)
		return err;
	nn_genl_sock_close(&s);
	return 1;
}

struct nlmsghdr *nn_genl_request(struct nn_genl_sock *s, uint16_t family, uint8_t cmd)
{
	return put_request(s, family, NLM_F_REQUEST | NLM_F_ACK, cmd);
}

int nn_genl_do(struct nn_genl_sock *s, struct nlmsghdr *req, void **ans, size_t *anslen,
	       char *why, size_t whylen)
{
	struct bytes b = { 0 };
	bool intr;
	int err;

	why[0] = '\0';
	err = transact(s, req, &b, &intr);
	if (!err)
		err = ack_error(&b, why, whylen);
	if (err || !ans) {
		free(b.p);
		b.p = NULL;
		b.len = 0;
	}
	if (ans) {
		*ans = b.p;
		*anslen = b.len;
	}
	return err;
}
