// SPDX-License-Identifier: GPL-2.0-or-later
/* channels.c - ETHTOOL_[GS]CHANNELS: the one ioctl apply issues */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nicnuma/ctx.h"
#include "channels.h"

static int ethtool(const char *ifname, struct ethtool_channels *ch)
{
	struct ifreq ifr;
	int fd, err = 0;

	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, ifname);
	ifr.ifr_data = (void *)ch;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		err = -errno;
	close(fd);
	return err;
}

int nn_channels_get(struct nn_ctx *ctx, const char *ifname, int *combined, int *max)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int err;

	if (!nn_root_is_live(&ctx->root))
		return -EPERM;
	err = ethtool(ifname, &ch);
	if (err)
		return err;
	*combined = (int)ch.combined_count;
	*max = (int)ch.max_combined;
	return 0;
}

int nn_channels_set(struct nn_ctx *ctx, const char *ifname, int combined, char *why, size_t whylen)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int err;

	err = nn_require_live(ctx, "setting channels");
	if (err) {
		snprintf(why, whylen, "not touched (fake root)");
		return err;
	}
	err = ethtool(ifname, &ch);
	if (err) {
		snprintf(why, whylen, "%s: ETHTOOL_GCHANNELS: %s", ifname, strerror(-err));
		return err;
	}
	if (combined < 1 || (unsigned int)combined > ch.max_combined) {
		snprintf(why, whylen, "%s: %d combined channels asked, the driver allows 1-%u",
			 ifname, combined, ch.max_combined);
		return -ERANGE;
	}
	if (ch.combined_count == (unsigned int)combined)
		return 0;
	ch.cmd = ETHTOOL_SCHANNELS;
	ch.combined_count = (unsigned int)combined;
	err = ethtool(ifname, &ch);
	if (err) {
		snprintf(why, whylen, "%s: ETHTOOL_SCHANNELS %d: %s", ifname, combined, strerror(-err));
		return err;
	}
	memset(&ch, 0, sizeof(ch));
	ch.cmd = ETHTOOL_GCHANNELS;
	err = ethtool(ifname, &ch);
	if (!err && ch.combined_count != (unsigned int)combined) {
		snprintf(why, whylen, "%s: read back %u combined channels, wanted %d", ifname,
			 ch.combined_count, combined);
		return -EIO;
	}
	if (err)
		snprintf(why, whylen, "%s: reading back channels: %s", ifname, strerror(-err));
	return err;
}
