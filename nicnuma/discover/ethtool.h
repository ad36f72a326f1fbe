/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool.h - the SIOCETHTOOL ioctl: driver, bus, channels, speed and link
 * modes, and setting the channel count (private to libnicnuma; live root
 * only), and the RSS indirection table. Every
 * ETHTOOL_* request nicnuma makes is in ethtool.c.
 */
#ifndef NICNUMA_ETHTOOL_H
#define NICNUMA_ETHTOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/discover/ethtool_nl.h"

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

/* ETHTOOL_GSSET_INFO + GSTRINGS + GSTATS: the driver's statistics (ethtool
 * -S) as names and values, into buffers kept between calls. On @fd from
 * nn_ethtool_open (live root only). -E2BIG beyond NN_ETHTOOL_STATS_MAX. */
#define NN_ETHTOOL_STATS_MAX 65536u
#define NN_ETHTOOL_STAT_NAME 33		/* ETH_GSTRING_LEN + 1 */
struct nn_ethtool_stats {
	char (*names)[NN_ETHTOOL_STAT_NAME];
	unsigned long long *values;
	size_t n, cap;
};
int nn_ethtool_stats_get(int fd, const char *ifname, struct nn_ethtool_stats *st);
void nn_ethtool_stats_free(struct nn_ethtool_stats *st);

/* RSS (issue 12): the RX flow hash indirection table of context 0 (RSS
 * contexts are not read or written). Live root only. */
#define NN_RSS_MAX_TABLE 65536u	/* entries: more than any driver's table */
#define NN_RSS_MAX_QUEUE 65535u	/* a queue index (ethtool's u32; no NIC has 64k) */

enum nn_rss_state {
	NN_RSS_NOT_READ = 0,	/* fake root: no ioctl */
	NN_RSS_UNSUPPORTED,	/* the driver has no indirection table */
	NN_RSS_ERROR,		/* the ioctl failed otherwise (a warning says why) */
	NN_RSS_OK,
};

struct nn_rss {
	enum nn_rss_state state;
	unsigned int rings;	/* ETHTOOL_GRXRINGS; 0 unknown */
	unsigned int size;	/* table entries (ETHTOOL_GRSSH) */
	unsigned int *table;	/* @size queue indices (malloc'd) */
};

/* ETHTOOL_GRXRINGS, ETHTOOL_GRSSH (the size), ETHTOOL_GRXFHINDIR (the
 * table) of @ifname on socket @fd (-1: one of its own). @r->state says what
 * was found; 0, or a negative errno for an error other than "unsupported"
 * (@r->state NN_RSS_ERROR). -EPERM under a fake root (NN_RSS_NOT_READ). */
int nn_rss_get(struct nn_ctx *ctx, int fd, const char *ifname, struct nn_rss *r);
void nn_rss_free(struct nn_rss *r);
/* ETHTOOL_SRXFHINDIR: writes @table (@n entries, the driver's table size),
 * or with @n 0 the driver's default table (the "configured" flag cleared),
 * and reads it back; @why says what failed. */
int nn_rss_set(struct nn_ctx *ctx, const char *ifname, const unsigned int *table, unsigned int n,
	       char *why, size_t whylen);
/* The kernel's default table: entry i is i % @rings. */
bool nn_rss_is_default(const unsigned int *table, unsigned int n, unsigned int rings);
/* The table's text form (the undo log, apply's and check's rows): "SIZE:LIST"
 * where the table is LIST repeated to SIZE entries (its shortest period) and
 * LIST is comma-separated queue indices, a run of k equal ones written Q*k:
 * "128:0,1,2,3", "128:0*32,1*32,2*32,3*32". Malloc'd, NULL on ENOMEM. */
char *nn_rss_format(const unsigned int *table, unsigned int n);
/* Parses that form strictly: SIZE 1..NN_RSS_MAX_TABLE, LIST at most SIZE
 * entries once expanded, each index <= NN_RSS_MAX_QUEUE, no empty item,
 * no sign, nothing after. 0 with the table in *@table (malloc'd), or -EINVAL. */
int nn_rss_parse(const char *s, unsigned int **table, unsigned int *n);

/* ETHTOOL_GCOALESCE + GRINGPARAM into @c (each half's error in its field;
 * the first's returned when both failed), and ETHTOOL_SCOALESCE /
 * SRINGPARAM of one setting over the structure read just before: the
 * fallback of ethtool_nl.c where the kernel has no ethtool family. Live
 * only (callers check). */
int nn_eth_ioctl_get(const char *ifname, struct nn_eth_conf *c);
int nn_eth_ioctl_set(const char *ifname, enum nn_eth_setting s, long long value);

#endif
