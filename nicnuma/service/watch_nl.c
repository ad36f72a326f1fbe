// SPDX-License-Identifier: GPL-2.0-or-later
/* watch_nl.c - open the watcher's netlink sockets and decode what they say */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nicnuma/discover/uevent.h"
#include "nicnuma/service/watch_nl.h"

struct family {
	unsigned int id, monitor;
};

static int mcgrp_cb(const struct nlattr *grp, struct family *f)
{
	const struct nlattr *a;
	const char *name = NULL;
	unsigned int id = 0;

	mnl_attr_for_each_nested(a, grp) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
		    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
			name = mnl_attr_get_str(a);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID && !mnl_attr_validate(a, MNL_TYPE_U32))
			id = mnl_attr_get_u32(a);
	}
	if (name && !strcmp(name, ETHTOOL_MCGRP_MONITOR_NAME))
		f->monitor = id;
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct family *f = data;
	const struct nlattr *a, *g;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID && !mnl_attr_validate(a, MNL_TYPE_U16))
			f->id = mnl_attr_get_u16(a);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			mnl_attr_for_each_nested(g, a)
				mcgrp_cb(g, f);
	}
	return MNL_CB_OK;
}

/* CTRL_CMD_GETFAMILY "ethtool": its id and "monitor" group; -ENOENT when the
 * kernel has no ethtool netlink. */
static int resolve_ethtool(struct mnl_socket *s, struct family *f)
{
	char buf[8192];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	unsigned int seq = (unsigned int)time(NULL), portid = mnl_socket_get_portid(s);
	ssize_t n;
	int ret;

	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "ethtool");
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(s, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(buf, (size_t)n, seq, portid, family_cb, f);
	} while (ret > 0);
	if (ret < 0)
		return errno == ENOENT ? -ENOENT : -errno;
	return f->id && f->monitor ? 0 : -ENOENT;
}

int nn_watch_nl_open(struct nn_watch_nl *nl)
{
	struct family fam = { 0, 0 };
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int err, grp;

	memset(nl, 0, sizeof(*nl));
	nl->ue_fd = -1;
	nl->rtnl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!nl->rtnl || mnl_socket_bind(nl->rtnl, RTMGRP_LINK, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	nl->ue_fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			   NETLINK_KOBJECT_UEVENT);
	if (nl->ue_fd < 0 || bind(nl->ue_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail;
	/* The sender's credentials with every uevent (nn_watch_nl_recv). */
	if (setsockopt(nl->ue_fd, SOL_SOCKET, SO_PASSCRED, &(int){ 1 }, sizeof(int)) < 0)
		goto fail;
	/* blocking for the one request/answer, then non-blocking */
	nl->genl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl->genl || mnl_socket_bind(nl->genl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	err = resolve_ethtool(nl->genl, &fam);
	grp = (int)fam.monitor;
	if (!err && mnl_socket_setsockopt(nl->genl, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) < 0)
		err = -errno;
	if (err) {
		snprintf(nl->why_no_ethtool, sizeof(nl->why_no_ethtool),
			 "no ethtool netlink monitor group (%s; Linux >= 5.6 has it): channel "
			 "changes are seen through queue uevents only", strerror(-err));
		mnl_socket_close(nl->genl);
		nl->genl = NULL;
		return 0;
	}
	nl->ethtool_family = fam.id;
	if (fcntl(mnl_socket_get_fd(nl->genl), F_SETFL, O_NONBLOCK) < 0)
		goto fail;
	return 0;
fail:
	err = -errno;
	nn_watch_nl_close(nl);
	return err ? err : -EIO;
}

void nn_watch_nl_close(struct nn_watch_nl *nl)
{
	if (nl->rtnl)
		mnl_socket_close(nl->rtnl);
	if (nl->genl)
		mnl_socket_close(nl->genl);
	if (nl->ue_fd >= 0)
		close(nl->ue_fd);
	nl->rtnl = nl->genl = NULL;
	nl->ue_fd = -1;
}

int nn_watch_nl_fd(const struct nn_watch_nl *nl, enum nn_wsrc src)
{
	switch (src) {
	case NN_WSRC_RTNL:
		return nl->rtnl ? mnl_socket_get_fd(nl->rtnl) : -1;
	case NN_WSRC_ETHTOOL:
		return nl->genl ? mnl_socket_get_fd(nl->genl) : -1;
	case NN_WSRC_UEVENT:
		return nl->ue_fd;
	}
	return -1;
}

ssize_t nn_watch_nl_recv(const struct nn_watch_nl *nl, enum nn_wsrc src, void *buf, size_t len)
{
	union {
		char b[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	struct sockaddr_nl from;
	struct iovec iov = { buf, len };
	struct msghdr mh = {
		.msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.b, .msg_controllen = sizeof(ctl.b),
	};
	const struct ucred *cred = NULL;
	struct cmsghdr *c;
	ssize_t n;

	memset(&from, 0, sizeof(from));
	n = recvmsg(nn_watch_nl_fd(nl, src), &mh, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	/* Every event is the kernel's: port id 0. A process in a network
	 * namespace it owns can send to these groups too (systemd's device
	 * monitor drops such messages the same way). */
	if (mh.msg_namelen < sizeof(from) || from.nl_family != AF_NETLINK || from.nl_pid != 0)
		return -EPERM;
	if (src != NN_WSRC_UEVENT)
		return n;
	/* A uevent: sent to the kernel's group 1, with credentials (SO_PASSCRED)
	 * of root (uid 0 in this namespace), as the kernel's broadcast has. */
	if (!(from.nl_groups & 1))
		return -EPERM;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(struct ucred)))
			cred = (const struct ucred *)CMSG_DATA(c);
	if (!cred || cred->uid != 0)
		return -EPERM;
	return n;
}

struct decode {
	enum nn_wsrc src;
	unsigned int family;
	struct nn_wev *evs;
	size_t n, max;
};

static void put_name(struct nn_wev *ev, const struct nlattr *a)
{
	if (!mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
		snprintf(ev->ifname, sizeof(ev->ifname), "%s", mnl_attr_get_str(a));
}

static int link_msg(const struct nlmsghdr *nlh, struct nn_wev *ev)
{
	const struct ifinfomsg *ifm;
	const struct nlattr *a;

	if (nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK)
		return 0;
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*ifm)))
		return 0;
	ifm = mnl_nlmsg_get_payload(nlh);
	ev->type = nlh->nlmsg_type == RTM_DELLINK ? NN_WEV_LINK_DEL : NN_WEV_LINK;
	ev->ifindex = ifm->ifi_index;
	ev->flags = ifm->ifi_flags;
	mnl_attr_for_each(a, nlh, sizeof(*ifm))
		if (mnl_attr_get_type(a) == IFLA_IFNAME)
			put_name(ev, a);
	return 1;
}

static int channels_msg(const struct nlmsghdr *nlh, unsigned int family, struct nn_wev *ev)
{
	const struct genlmsghdr *g;
	const struct nlattr *a, *h;

	if (!family || nlh->nlmsg_type != family ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*g)))
		return 0;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != ETHTOOL_MSG_CHANNELS_NTF)
		return 0;
	ev->type = NN_WEV_CHANNELS;
	mnl_attr_for_each(a, nlh, sizeof(*g)) {
		if (mnl_attr_get_type(a) != ETHTOOL_A_CHANNELS_HEADER ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED))
			continue;
		mnl_attr_for_each_nested(h, a) {
			if (mnl_attr_get_type(h) == ETHTOOL_A_HEADER_DEV_NAME)
				put_name(ev, h);
			if (mnl_attr_get_type(h) == ETHTOOL_A_HEADER_DEV_INDEX &&
			    !mnl_attr_validate(h, MNL_TYPE_U32))
				ev->ifindex = (int)mnl_attr_get_u32(h);
		}
	}
	return 1;
}

static int msg_cb(const struct nlmsghdr *nlh, void *data)
{
	struct decode *d = data;
	struct nn_wev *ev;

	if (d->n >= d->max)
		return MNL_CB_STOP;
	ev = &d->evs[d->n];
	memset(ev, 0, sizeof(*ev));
	if (d->src == NN_WSRC_RTNL ? link_msg(nlh, ev) : channels_msg(nlh, d->family, ev))
		d->n++;
	return MNL_CB_OK;
}

size_t nn_watch_nl_decode(enum nn_wsrc src, unsigned int ethtool_family, const void *buf,
			  size_t len, struct nn_wev *evs, size_t max)
{
	struct decode d = { src, ethtool_family, evs, 0, max };

	if (!max)
		return 0;
	if (src == NN_WSRC_UEVENT) {
		struct nn_uevent ue;

		if (nn_uevent_parse(buf, len, &ue))
			return 0;
		memset(evs, 0, sizeof(*evs));
		evs->type = NN_WEV_UEVENT;
		snprintf(evs->action, sizeof(evs->action), "%s", ue.action);
		snprintf(evs->subsystem, sizeof(evs->subsystem), "%s", ue.subsystem ? ue.subsystem : "");
		snprintf(evs->ifname, sizeof(evs->ifname), "%s", ue.ifname);
		snprintf(evs->pci, sizeof(evs->pci), "%s", ue.pci);
		return 1;
	}
	/* multicast: no sequence or port to check (0, 0) */
	mnl_cb_run(buf, len, 0, 0, msg_cb, &d);
	return d.n;
}
