// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool.c - every SIOCETHTOOL ioctl: driver/bus info, channels, link speed
 *
 * Implementation of what "ethtool -i", "ethtool -l" and the speed and
 * supported link modes lines of "ethtool IF" tell, for the cross-check
 * against sysfs and the PCIe verdict (pcie.c), and of "ethtool -L
 * IF combined N" for apply and rollback. Live root only.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/ethtool.h"

int nn_ethtool_open(struct nn_ctx *ctx)
{
	int fd, err = nn_require_live(ctx, "the ethtool ioctl");

	if (err)
		return err;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return fd < 0 ? -errno : fd;
}

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* ETHTOOL_GCHANNELS: the one place the channel counts are asked. */
static int get_channels(int fd, const char *ifname, struct ethtool_channels *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->cmd = ETHTOOL_GCHANNELS;
	return ethtool_ioctl(fd, ifname, ch);
}

/* Drivers without the operation answer EOPNOTSUPP (or EINVAL on old kernels). */
static bool unsupported(int err)
{
	return err == -EOPNOTSUPP || err == -EINVAL || err == -ENOTTY;
}

static void copy_str(char *dst, size_t size, const char *src, size_t srcsize)
{
	size_t len = strnlen(src, srcsize);

	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static long speed_or_unknown(uint32_t speed)
{
	/* SPEED_UNKNOWN is (u32)-1; 0 is what some drivers say with no link. */
	return (speed == (uint32_t)SPEED_UNKNOWN || speed == 0 || speed > INT_MAX) ? -1 : (long)speed;
}

/* Link mode bits by speed. The bit numbers are kernel ABI; modes newer than
 * the build's linux/ethtool.h are not counted (the current speed still is). */
#define M(name, mbps) { ETHTOOL_LINK_MODE_##name##_BIT, mbps }
static const struct { unsigned int bit; long mbps; } link_modes[] = {
	M(10baseT_Half, 10), M(10baseT_Full, 10), M(100baseT_Half, 100), M(100baseT_Full, 100),
	M(1000baseT_Half, 1000), M(1000baseT_Full, 1000), M(10000baseT_Full, 10000),
	M(2500baseX_Full, 2500), M(1000baseKX_Full, 1000), M(10000baseKX4_Full, 10000),
	M(10000baseKR_Full, 10000), M(10000baseR_FEC, 10000), M(20000baseMLD2_Full, 20000),
	M(20000baseKR2_Full, 20000), M(40000baseKR4_Full, 40000), M(40000baseCR4_Full, 40000),
	M(40000baseSR4_Full, 40000), M(40000baseLR4_Full, 40000), M(56000baseKR4_Full, 56000),
	M(56000baseCR4_Full, 56000), M(56000baseSR4_Full, 56000), M(56000baseLR4_Full, 56000),
	M(25000baseCR_Full, 25000), M(25000baseKR_Full, 25000), M(25000baseSR_Full, 25000),
	M(50000baseCR2_Full, 50000), M(50000baseKR2_Full, 50000), M(100000baseKR4_Full, 100000),
	M(100000baseSR4_Full, 100000), M(100000baseCR4_Full, 100000),
	M(100000baseLR4_ER4_Full, 100000), M(50000baseSR2_Full, 50000), M(1000baseX_Full, 1000),
	M(10000baseCR_Full, 10000), M(10000baseSR_Full, 10000), M(10000baseLR_Full, 10000),
	M(10000baseLRM_Full, 10000), M(10000baseER_Full, 10000), M(2500baseT_Full, 2500),
	M(5000baseT_Full, 5000), M(50000baseKR_Full, 50000), M(50000baseSR_Full, 50000),
	M(50000baseCR_Full, 50000), M(50000baseLR_ER_FR_Full, 50000), M(50000baseDR_Full, 50000),
	M(100000baseKR2_Full, 100000), M(100000baseSR2_Full, 100000), M(100000baseCR2_Full, 100000),
	M(100000baseLR2_ER2_FR2_Full, 100000), M(100000baseDR2_Full, 100000),
	M(200000baseKR4_Full, 200000), M(200000baseSR4_Full, 200000),
	M(200000baseLR4_ER4_FR4_Full, 200000), M(200000baseDR4_Full, 200000),
	M(200000baseCR4_Full, 200000), M(100baseT1_Full, 100), M(1000baseT1_Full, 1000),
	M(400000baseKR8_Full, 400000), M(400000baseSR8_Full, 400000),
	M(400000baseLR8_ER8_FR8_Full, 400000), M(400000baseDR8_Full, 400000),
	M(400000baseCR8_Full, 400000), M(100000baseKR_Full, 100000), M(100000baseSR_Full, 100000),
	M(100000baseLR_ER_FR_Full, 100000), M(100000baseCR_Full, 100000),
	M(100000baseDR_Full, 100000), M(200000baseKR2_Full, 200000), M(200000baseSR2_Full, 200000),
	M(200000baseLR2_ER2_FR2_Full, 200000), M(200000baseDR2_Full, 200000),
	M(200000baseCR2_Full, 200000), M(400000baseKR4_Full, 400000), M(400000baseSR4_Full, 400000),
	M(400000baseLR4_ER4_FR4_Full, 400000), M(400000baseDR4_Full, 400000),
	M(400000baseCR4_Full, 400000), M(100baseFX_Half, 100), M(100baseFX_Full, 100),
	M(10baseT1L_Full, 10),
};
#undef M

long nn_link_mode_mbps(unsigned int bit)
{
	size_t i;

	for (i = 0; i < sizeof(link_modes) / sizeof(link_modes[0]); i++)
		if (link_modes[i].bit == bit)
			return link_modes[i].mbps;
	return -1;
}

/* The fastest mode set in the supported mask (@nwords 32-bit words). */
static long fastest_mode(const uint32_t *mask, int nwords)
{
	long best = -1, m;
	unsigned int bit;

	for (bit = 0; bit < (unsigned int)nwords * 32; bit++)
		if ((mask[bit / 32] >> (bit % 32) & 1) && (m = nn_link_mode_mbps(bit)) > best)
			best = m;
	return best;
}

/* ETHTOOL_GLINKSETTINGS: the first call with nwords 0 makes the kernel tell
 * how many mask words it wants (as a negative number); the second reads the
 * speed and the masks (supported, advertising, peer's: nwords each). */
static int link_settings(int fd, const char *ifname, long *speed, long *max_mode)
{
	/* A union, not a struct with the masks after s: s ends in a flexible
	 * array, and clang rejects a field after one (-Wgnu-variable-sized-type-not-at-end). */
	union {
		struct ethtool_link_settings s;
		uint8_t buf[sizeof(struct ethtool_link_settings) + 3 * 127 * sizeof(uint32_t)];
	} req;
	uint32_t supported[127];
	int8_t nwords;
	int err;

	memset(&req, 0, sizeof(req));
	req.s.cmd = ETHTOOL_GLINKSETTINGS;
	err = ethtool_ioctl(fd, ifname, &req);
	if (err)
		return err;
	nwords = req.s.link_mode_masks_nwords;
	if (nwords >= 0 || nwords < -127)
		return -EPROTO;
	memset(&req, 0, sizeof(req));
	req.s.cmd = ETHTOOL_GLINKSETTINGS;
	req.s.link_mode_masks_nwords = (int8_t)-nwords;
	err = ethtool_ioctl(fd, ifname, &req);
	if (err)
		return err;
	nwords = req.s.link_mode_masks_nwords;
	if (nwords <= 0)
		return -EPROTO;
	*speed = speed_or_unknown(req.s.speed);
	memcpy(supported, req.buf + sizeof(struct ethtool_link_settings),
	       (size_t)nwords * sizeof(uint32_t));
	*max_mode = fastest_mode(supported, nwords);
	return 0;
}

static int legacy_speed(int fd, const char *ifname, long *speed)
{
	struct ethtool_cmd ecmd;
	int err;

	memset(&ecmd, 0, sizeof(ecmd));
	ecmd.cmd = ETHTOOL_GSET;
	err = ethtool_ioctl(fd, ifname, &ecmd);
	if (err)
		return err;
	*speed = speed_or_unknown(ethtool_cmd_speed(&ecmd));
	return 0;
}

int nn_ethtool_query(struct nn_ctx *ctx, int fd, const char *ifname, struct nn_ethtool *e)
{
	struct ethtool_drvinfo drv;
	struct ethtool_channels ch;
	int err;

	memset(e, 0, sizeof(*e));
	e->combined = e->max_combined = -1;
	e->speed_mbps = e->max_mode_mbps = -1;

	memset(&drv, 0, sizeof(drv));
	drv.cmd = ETHTOOL_GDRVINFO;
	err = ethtool_ioctl(fd, ifname, &drv);
	if (err == -ENODEV || err == -ENAMETOOLONG)
		return err;
	if (!err) {
		copy_str(e->driver, sizeof(e->driver), drv.driver, sizeof(drv.driver));
		copy_str(e->bus_info, sizeof(e->bus_info), drv.bus_info, sizeof(drv.bus_info));
		e->has_drvinfo = true;
	} else if (!unsupported(err)) {
		nn_warn(ctx, ifname, "ETHTOOL_GDRVINFO failed: %s", strerror(-err));
	}

	err = get_channels(fd, ifname, &ch);
	if (!err) {
		e->combined = ch.combined_count > INT_MAX ? -1 : (int)ch.combined_count;
		e->max_combined = ch.max_combined > INT_MAX ? -1 : (int)ch.max_combined;
	} else if (!unsupported(err)) {
		nn_warn(ctx, ifname, "ETHTOOL_GCHANNELS failed: %s", strerror(-err));
	}

	err = link_settings(fd, ifname, &e->speed_mbps, &e->max_mode_mbps);
	if (err && unsupported(err))
		err = legacy_speed(fd, ifname, &e->speed_mbps);
	if (err && !unsupported(err))
		nn_warn(ctx, ifname, "ethtool link settings failed: %s", strerror(-err));
	return 0;
}

/* A socket for one request: apply and rollback change one NIC at a time. */
static int open_fd(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	return fd < 0 ? -errno : fd;
}

int nn_channels_get(struct nn_ctx *ctx, const char *ifname, int *combined, int *max)
{
	struct ethtool_channels ch;
	int fd, err;

	if (!nn_root_is_live(&ctx->root))
		return -EPERM;
	fd = open_fd();
	if (fd < 0)
		return fd;
	err = get_channels(fd, ifname, &ch);
	close(fd);
	if (err)
		return err;
	*combined = (int)ch.combined_count;
	*max = (int)ch.max_combined;
	return 0;
}

static int set_channels(int fd, const char *ifname, int combined, char *why, size_t whylen)
{
	struct ethtool_channels ch;
	int err;

	err = get_channels(fd, ifname, &ch);
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
	err = ethtool_ioctl(fd, ifname, &ch);
	if (err) {
		snprintf(why, whylen, "%s: ETHTOOL_SCHANNELS %d: %s", ifname, combined, strerror(-err));
		return err;
	}
	err = get_channels(fd, ifname, &ch);
	if (!err && ch.combined_count != (unsigned int)combined) {
		snprintf(why, whylen, "%s: read back %u combined channels, wanted %d", ifname,
			 ch.combined_count, combined);
		return -EIO;
	}
	if (err)
		snprintf(why, whylen, "%s: reading back channels: %s", ifname, strerror(-err));
	return err;
}

int nn_channels_set(struct nn_ctx *ctx, const char *ifname, int combined, char *why, size_t whylen)
{
	int fd, err;

	err = nn_require_live(ctx, "setting channels");
	if (err) {
		snprintf(why, whylen, "not touched (fake root)");
		return err;
	}
	fd = open_fd();
	if (fd < 0) {
		snprintf(why, whylen, "%s: socket: %s", ifname, strerror(-fd));
		return fd;
	}
	err = set_channels(fd, ifname, combined, why, whylen);
	close(fd);
	return err;
}
