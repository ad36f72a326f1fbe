/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watch_nl.h - the watcher's three event sockets, decoded into struct nn_wev
 *
 * Live root only (the caller checks): rtnetlink RTNLGRP_LINK, the ethtool
 * generic netlink "monitor" group (family resolved with CTRL_CMD_GETFAMILY;
 * absent before Linux 5.6: then that fd is -1), kernel uevents
 * (NETLINK_KOBJECT_UEVENT group 1). All non-blocking, close-on-exec. The
 * decoders are pure over a received buffer so captured messages test them.
 */
#ifndef NICNUMA_WATCH_NL_H
#define NICNUMA_WATCH_NL_H

#include <stddef.h>
#include <sys/types.h>

#include "nicnuma/plan/watch_decide.h"

struct mnl_socket;

struct nn_watch_nl {
	struct mnl_socket *rtnl, *genl;
	int ue_fd;
	unsigned int ethtool_family;	/* 0: no ethtool netlink */
	char why_no_ethtool[128];
};

enum nn_wsrc { NN_WSRC_RTNL, NN_WSRC_ETHTOOL, NN_WSRC_UEVENT };

int nn_watch_nl_open(struct nn_watch_nl *nl);
void nn_watch_nl_close(struct nn_watch_nl *nl);
int nn_watch_nl_fd(const struct nn_watch_nl *nl, enum nn_wsrc src);

/* Receives one datagram of @src into @buf (recvmsg, non-blocking): its
 * length, -EAGAIN when none is waiting, -EPERM for one that is not the
 * kernel's (sender port id not 0; for a uevent also not to group 1 or
 * without root's SCM_CREDENTIALS), which the caller drops, or -errno. */
ssize_t nn_watch_nl_recv(const struct nn_watch_nl *nl, enum nn_wsrc src, void *buf, size_t len);

/* Decodes one datagram of @src into up to @max events; returns how many. */
size_t nn_watch_nl_decode(enum nn_wsrc src, unsigned int ethtool_family, const void *buf,
			  size_t len, struct nn_wev *evs, size_t max);

#endif
