/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool.h - the SIOCETHTOOL ioctl: driver, bus, channels, speed and link
 * modes, and setting the channel count (private to libnicnuma; live root
 * only). Every
 * ETHTOOL_* request nicnuma makes is in ethtool.c.
 */
#ifndef NICNUMA_ETHTOOL_H
#define NICNUMA_ETHTOOL_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;

struct nn_ethtool {
	char driver[32];	/* ETHTOOL_GDRVINFO */
	char bus_info[32];	/* "0000:00:03.0"; "" when the device has none */
	bool has_drvinfo;
	int combined, max_combined;	/* ETHTOOL_GCHANNELS; -1 unsupported */
	long speed_mbps;	/* ETHTOOL_GLINKSETTINGS, else GSET; -1 unknown */
	long max_mode_mbps;	/* fastest supported link mode (GLINKSETTINGS); -1 unknown */
};

/* A socket to issue the ioctls on (AF_INET datagram, close-on-exec). */
int nn_ethtool_open(struct nn_ctx *ctx);
/* Fills @e for @ifname. "Not supported" answers leave a field unknown; other
 * failures are warnings naming the interface. Returns 0 or a negative errno
 * when even GDRVINFO could not be asked (no such device). */
int nn_ethtool_query(struct nn_ctx *ctx, int fd, const char *ifname, struct nn_ethtool *e);

/* The speed of link mode bit @bit (ETHTOOL_LINK_MODE_*_BIT) in Mb/s; -1 for
 * a bit that is no speed (Autoneg, TP, FEC...) or newer than this build. */
long nn_link_mode_mbps(unsigned int bit);

/* ETHTOOL_GCHANNELS: current and maximum combined channels of @ifname.
 * -EPERM under a fake root, -EOPNOTSUPP when the driver has no channels. */
int nn_channels_get(struct nn_ctx *ctx, const char *ifname, int *combined, int *max);
/* ETHTOOL_SCHANNELS: sets the combined count (rx/tx/other left as they are)
 * and reads it back; @why says what failed. */
int nn_channels_set(struct nn_ctx *ctx, const char *ifname, int combined,
		    char *why, size_t whylen);

#endif
