/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netlink.h - the live host's link list from rtnetlink (private to libnicnuma)
 *
 * Live root only: callers check nn_root_is_live() first; the functions refuse
 * (-EPERM, through nn_require_live) under a fake root.
 */
#ifndef NICNUMA_NETLINK_H
#define NICNUMA_NETLINK_H

#include <stddef.h>

struct nn_ctx;

struct nn_link {
	int ifindex;
	char *name;
	char *kind;		/* IFLA_INFO_KIND ("veth", "tun"...); NULL when none */
};

/* RTM_GETLINK dump of the current network namespace, sorted by ifindex. */
int nn_nl_links(struct nn_ctx *ctx, struct nn_link **links, size_t *n);
void nn_nl_links_free(struct nn_link *links, size_t n);

#endif
