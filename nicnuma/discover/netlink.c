// SPDX-License-Identifier: GPL-2.0-or-later
/* netlink.c - rtnetlink link dump (RTM_GETLINK) with libmnl
 *
 * Implementation of the live link list that discovery cross-checks against
 * /sys/class/net: ifindex, name and IFLA_LINKINFO/IFLA_INFO_KIND of every link
 * in the current network namespace. Live root only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nicnuma/core/cleanup.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/netlink.h"

/* Large enough for a dump batch of links with all their attributes. */
#define NL_BUF_SIZE 32768
#define NL_DUMP_TRIES 3

struct dump {
	struct nn_link *links;
	size_t n, cap;
	int err;		/* -ENOMEM from a callback */
	bool intr;		/* NLM_F_DUMP_INTR seen: links changed while dumping */
	char extack[256];	/* kernel's extended ACK message, if any */
};

/* Attribute tables are sized from the enum so new kernels' attributes we do
 * not know (yet) are skipped, not rejected. */
static int link_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, IFLA_MAX) < 0)
		return MNL_CB_OK;
	switch (type) {
	case IFLA_IFNAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			return MNL_CB_OK;	/* malformed: treat as absent */
		break;
	case IFLA_LINKINFO:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			return MNL_CB_OK;
		break;
	default:
		break;
	}
	tb[type] = attr;
	return MNL_CB_OK;
}

static int linkinfo_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, IFLA_INFO_MAX) < 0)
		return MNL_CB_OK;
	if (type == IFLA_INFO_KIND && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
		return MNL_CB_OK;
	tb[type] = attr;
	return MNL_CB_OK;
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[IFLA_MAX + 1] = { NULL };
	const struct nlattr *info[IFLA_INFO_MAX + 1] = { NULL };
	struct dump *d = data;
	struct ifinfomsg *ifm;
	struct nn_link *l;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		d->intr = true;
	if (nlh->nlmsg_type != RTM_NEWLINK ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifm))
		return MNL_CB_OK;	/* a dump survives one odd message */
	ifm = mnl_nlmsg_get_payload(nlh);
	if (mnl_attr_parse(nlh, sizeof(*ifm), link_attr_cb, tb) < 0 || !tb[IFLA_IFNAME])
		return MNL_CB_OK;
	if (tb[IFLA_LINKINFO])
		mnl_attr_parse_nested(tb[IFLA_LINKINFO], linkinfo_attr_cb, info);

	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct nn_link *nl = realloc(d->links, cap * sizeof(*nl));

		if (!nl)
			goto nomem;
		d->links = nl;
		d->cap = cap;
	}
	l = &d->links[d->n];
	l->ifindex = ifm->ifi_index;
	l->name = strdup(mnl_attr_get_str(tb[IFLA_IFNAME]));
	l->kind = info[IFLA_INFO_KIND] ? strdup(mnl_attr_get_str(info[IFLA_INFO_KIND])) : NULL;
	if (!l->name || (info[IFLA_INFO_KIND] && !l->kind)) {
		free(l->name);
		free(l->kind);
		goto nomem;
	}
	d->n++;
	return MNL_CB_OK;
nomem:
	d->err = -ENOMEM;
	errno = ENOMEM;
	return MNL_CB_ERROR;
}

/* Keeps the kernel's extended ACK text (NLMSGERR_ATTR_MSG) for the message. */
static void extack_msg(const struct nlmsghdr *nlh, size_t off, struct dump *d)
{
	const struct nlattr *attr;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len < off)
		return;
	mnl_attr_for_each(attr, nlh, off) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0) {
			size_t len = strlen(mnl_attr_get_str(attr));

			if (len >= sizeof(d->extack))
				len = sizeof(d->extack) - 1;
			memcpy(d->extack, mnl_attr_get_str(attr), len);
			d->extack[len] = '\0';
		}
	}
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct dump *d = data;
	size_t off;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!e->error)
		return MNL_CB_STOP;	/* plain ACK */
	/* The TLVs follow the echoed request, or only its header when capped. */
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	extack_msg(nlh, off, d);
	errno = -e->error;
	return MNL_CB_ERROR;
}

static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump *d = data;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		d->intr = true;
	/* A dump that failed midway ends with a negative error in NLMSG_DONE. */
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		int err = *(const int *)mnl_nlmsg_get_payload(nlh);

		if (err < 0) {
			extack_msg(nlh, sizeof(int), d);
			errno = -err;
			return MNL_CB_ERROR;
		}
	}
	return MNL_CB_STOP;
}

static void dump_reset(struct dump *d)
{
	nn_nl_links_free(d->links, d->n);
	d->links = NULL;
	d->n = d->cap = 0;
	d->err = 0;
	d->intr = false;
	d->extack[0] = '\0';
}

static int dump_once(struct mnl_socket *nl, char *buf, unsigned int seq, struct dump *d)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = { NULL };
	unsigned int portid = mnl_socket_get_portid(nl);
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	ssize_t ret;
	int r;

	ctl[NLMSG_ERROR] = error_cb;
	ctl[NLMSG_DONE] = done_cb;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ret = mnl_socket_recvfrom(nl, buf, NL_BUF_SIZE);
		if (ret < 0)
			return errno == ENOBUFS ? -EAGAIN : -errno;
		r = mnl_cb_run2(buf, (size_t)ret, seq, portid, link_cb, d, ctl, NLMSG_MIN_TYPE);
		if (r == MNL_CB_STOP)
			return 0;
		if (r == MNL_CB_ERROR)
			return d->err ? d->err : -errno;
	}
}

static int cmp_link(const void *a, const void *b)
{
	const struct nn_link *x = a, *y = b;

	return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
}

/* For NN_CLEANUP: the socket, if one was opened. */
static void socket_closep(struct mnl_socket **nl)
{
	if (*nl)
		mnl_socket_close(*nl);
}

int nn_nl_links(struct nn_ctx *ctx, struct nn_link **links, size_t *n)
{
	NN_CLEANUP(dump_reset) struct dump d = { 0 };
	NN_CLEANUP(socket_closep) struct mnl_socket *nl = NULL;
	NN_CLEANUP(nn_freep) char *buf = NULL;
	unsigned int seq;
	int one = 1, err, tries;

	*links = NULL;
	*n = 0;
	err = nn_require_live(ctx, "the rtnetlink link dump");
	if (err)
		return err;
	buf = malloc(NL_BUF_SIZE);
	if (!buf)
		return -ENOMEM;
	nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	/* Best effort: older kernels just don't add the message text. */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	seq = (unsigned int)time(NULL);
	/* A link added or removed during the dump sets NLM_F_DUMP_INTR: the list
	 * may be inconsistent, so ask again. */
	for (tries = 0; tries < NL_DUMP_TRIES; tries++) {
		dump_reset(&d);
		err = dump_once(nl, buf, seq + (unsigned int)tries, &d);
		if (err == -EAGAIN || (!err && d.intr))
			continue;
		break;
	}
	if (!err && d.intr)
		nn_warn(ctx, "rtnetlink", "links kept changing during %d dumps: the list may be inconsistent",
			NL_DUMP_TRIES);
	if (err) {
		if (d.extack[0])
			nn_warn(ctx, "rtnetlink", "RTM_GETLINK dump failed: %s (%s)", strerror(-err), d.extack);
		else
			nn_warn(ctx, "rtnetlink", "RTM_GETLINK dump failed: %s", strerror(-err));
		return err;
	}
	if (d.n > 1)
		qsort(d.links, d.n, sizeof(*d.links), cmp_link);
	*links = d.links;
	*n = d.n;
	d.links = NULL;
	d.n = 0;
	return 0;
}

void nn_nl_links_free(struct nn_link *links, size_t n)
{
	size_t i;

	for (i = 0; links && i < n; i++) {
		free(links[i].name);
		free(links[i].kind);
	}
	free(links);
}
