/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool.h - driver, bus, channels and speed from the SIOCETHTOOL ioctl
 * (private to libnicnuma; live root only)
 */
#ifndef NICNUMA_ETHTOOL_H
#define NICNUMA_ETHTOOL_H

#include <stdbool.h>

struct nn_ctx;

struct nn_ethtool {
	char driver[32];	/* ETHTOOL_GDRVINFO */
	char bus_info[32];	/* "0000:00:03.0"; "" when the device has none */
	bool has_drvinfo;
	int combined, max_combined;	/* ETHTOOL_GCHANNELS; -1 unsupported */
	long speed_mbps;	/* ETHTOOL_GLINKSETTINGS, else GSET; -1 unknown */
};

/* A socket to issue the ioctls on (AF_INET datagram, close-on-exec). */
int nn_ethtool_open(struct nn_ctx *ctx);
/* Fills @e for @ifname. "Not supported" answers leave a field unknown; other
 * failures are warnings naming the interface. Returns 0 or a negative errno
 * when even GDRVINFO could not be asked (no such device). */
int nn_ethtool_query(struct nn_ctx *ctx, int fd, const char *ifname, struct nn_ethtool *e);

#endif
