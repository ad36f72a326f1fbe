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

#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/ethtool.h"
#include "nicnuma/discover/nic.h"

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

/* A live ethtool socket for a write, or the reason there is none in @why
 * ("not touched (fake root)", the socket's error). */
static int open_for_write(struct nn_ctx *ctx, const char *what, const char *ifname,
			  char *why, size_t whylen)
{
	int fd, err = nn_require_live(ctx, what);

	if (err) {
		snprintf(why, whylen, "not touched (fake root)");
		return err;
	}
	fd = open_fd();
	if (fd < 0)
		snprintf(why, whylen, "%s: socket: %s", ifname, strerror(-fd));
	return fd;
}

int nn_channels_set(struct nn_ctx *ctx, const char *ifname, int combined, char *why, size_t whylen)
{
	int fd, err;

	fd = open_for_write(ctx, "setting channels", ifname, why, whylen);
	if (fd < 0)
		return fd;
	/* new channels are new NAPIs, even where the driver stops part way */
	nn_napi_answers_stale(ctx);
	err = set_channels(fd, ifname, combined, why, whylen);
	close(fd);
	return err;
}

/* --- RSS: the RX flow hash indirection table (context 0) --- */

void nn_rss_free(struct nn_rss *r)
{
	free(r->table);
	r->table = NULL;
	r->size = 0;
}

static int get_rings(int fd, const char *ifname, unsigned int *rings)
{
	struct ethtool_rxnfc nfc;
	int err;

	memset(&nfc, 0, sizeof(nfc));
	nfc.cmd = ETHTOOL_GRXRINGS;
	err = ethtool_ioctl(fd, ifname, &nfc);
	if (!err)
		*rings = nfc.data > NN_RSS_MAX_QUEUE + 1 ? 0 : (unsigned int)nfc.data;
	return err;
}

/* The table size: ETHTOOL_GRSSH, else (older drivers) GRXFHINDIR with size 0. */
static int get_indir_size(int fd, const char *ifname, unsigned int *size)
{
	struct ethtool_rxfh rxfh;
	struct ethtool_rxfh_indir ind;
	int err;

	memset(&rxfh, 0, sizeof(rxfh));
	rxfh.cmd = ETHTOOL_GRSSH;
	err = ethtool_ioctl(fd, ifname, &rxfh);
	if (!err && rxfh.indir_size) {
		*size = rxfh.indir_size;
		return 0;
	}
	memset(&ind, 0, sizeof(ind));
	ind.cmd = ETHTOOL_GRXFHINDIR;
	err = ethtool_ioctl(fd, ifname, &ind);
	if (err)
		return err;
	if (!ind.size)
		return -EOPNOTSUPP;
	*size = ind.size;
	return 0;
}

/* GRXFHINDIR with @size entries into a malloc'd table. */
static int get_indir(int fd, const char *ifname, unsigned int size, unsigned int **out)
{
	struct ethtool_rxfh_indir *ind;
	unsigned int *t;
	int err;

	ind = calloc(1, sizeof(*ind) + (size_t)size * sizeof(ind->ring_index[0]));
	t = malloc((size_t)size * sizeof(*t));
	if (!ind || !t) {
		free(ind);
		free(t);
		return -ENOMEM;
	}
	ind->cmd = ETHTOOL_GRXFHINDIR;
	ind->size = size;
	err = ethtool_ioctl(fd, ifname, ind);
	if (!err && ind->size != size)
		err = -EPROTO;	/* the size changed between the two calls */
	if (!err)
		memcpy(t, ind->ring_index, (size_t)size * sizeof(*t));
	free(ind);
	if (err) {
		free(t);
		return err;
	}
	*out = t;
	return 0;
}

int nn_rss_get(struct nn_ctx *ctx, int fd, const char *ifname, struct nn_rss *r)
{
	int own = -1, err;

	memset(r, 0, sizeof(*r));
	if (!nn_root_is_live(&ctx->root)) {
		r->state = NN_RSS_NOT_READ;
		return -EPERM;
	}
	if (fd < 0) {
		fd = own = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			r->state = NN_RSS_ERROR;
			return -errno;
		}
	}
	err = get_rings(fd, ifname, &r->rings);
	if (err && unsupported(err))
		r->rings = 0;	/* the table alone still says something */
	else if (err)
		goto out;
	err = get_indir_size(fd, ifname, &r->size);
	if (!err && (r->size > NN_RSS_MAX_TABLE))
		err = -E2BIG;
	if (!err)
		err = get_indir(fd, ifname, r->size, &r->table);
out:
	if (own >= 0)
		close(own);
	if (!err) {
		r->state = NN_RSS_OK;
		return 0;
	}
	r->size = 0;
	r->state = unsupported(err) ? NN_RSS_UNSUPPORTED : NN_RSS_ERROR;
	return r->state == NN_RSS_UNSUPPORTED ? 0 : err;
}

bool nn_rss_is_default(const unsigned int *table, unsigned int n, unsigned int rings)
{
	unsigned int i;

	if (!rings || !n)
		return false;
	for (i = 0; i < n; i++)
		if (table[i] != i % rings)
			return false;
	return true;
}

static int set_indir(int fd, const char *ifname, const unsigned int *table, unsigned int n)
{
	struct ethtool_rxfh_indir *ind;
	int err;

	ind = calloc(1, sizeof(*ind) + (size_t)n * sizeof(ind->ring_index[0]));
	if (!ind)
		return -ENOMEM;
	ind->cmd = ETHTOOL_SRXFHINDIR;
	ind->size = n;
	if (n)
		memcpy(ind->ring_index, table, (size_t)n * sizeof(*table));
	err = ethtool_ioctl(fd, ifname, ind);
	free(ind);
	return err;
}

int nn_rss_set(struct nn_ctx *ctx, const char *ifname, const unsigned int *table, unsigned int n,
	       char *why, size_t whylen)
{
	struct nn_rss now;
	int fd, err;

	fd = open_for_write(ctx, "setting the RSS table", ifname, why, whylen);
	if (fd < 0)
		return fd;
	err = nn_rss_get(ctx, fd, ifname, &now);
	if (!err && now.state != NN_RSS_OK)
		err = -EOPNOTSUPP;
	if (err) {
		snprintf(why, whylen, "%s: reading the RSS table: %s", ifname, strerror(-err));
		goto out;
	}
	if (n && n != now.size) {
		snprintf(why, whylen, "%s: a table of %u entries, the driver's has %u", ifname, n, now.size);
		err = -ERANGE;
		goto out;
	}
	err = set_indir(fd, ifname, table, n);
	if (err) {
		snprintf(why, whylen, "%s: ETHTOOL_SRXFHINDIR: %s", ifname, strerror(-err));
		goto out;
	}
	nn_rss_free(&now);
	err = nn_rss_get(ctx, fd, ifname, &now);
	if (err || now.state != NN_RSS_OK) {
		snprintf(why, whylen, "%s: reading the RSS table back: %s", ifname,
			 strerror(err ? -err : EOPNOTSUPP));
		err = err ? err : -EIO;
	} else if (n ? memcmp(now.table, table, (size_t)n * sizeof(*table))
		     : !nn_rss_is_default(now.table, now.size, now.rings)) {
		snprintf(why, whylen, "%s: the RSS table read back differs from the one written", ifname);
		err = -EIO;
	}
out:
	nn_rss_free(&now);
	close(fd);
	return err;
}

/* The shortest period p of @t: t[i] == t[i - p] for every i >= p (KMP). */
static unsigned int shortest_period(const unsigned int *t, unsigned int n)
{
	unsigned int *fail = malloc((size_t)n * sizeof(*fail)), i, k = 0, p;

	if (!fail)
		return n;
	fail[0] = 0;
	for (i = 1; i < n; i++) {
		while (k && t[i] != t[k])
			k = fail[k - 1];
		if (t[i] == t[k])
			k++;
		fail[i] = k;
	}
	p = n - fail[n - 1];
	free(fail);
	return p;
}

char *nn_rss_format(const unsigned int *t, unsigned int n)
{
	unsigned int p = n ? shortest_period(t, n) : 0, i, run;
	struct nn_sb sb = NN_SB_INIT;
	char *s = NULL;

	nn_sb_printf(&sb, "%u:", n);
	for (i = 0; i < p; i += run) {
		for (run = 1; i + run < p && t[i + run] == t[i]; run++)
			;
		if (run > 1)
			nn_sb_printf(&sb, "%s%u*%u", i ? "," : "", t[i], run);
		else
			nn_sb_printf(&sb, "%s%u", i ? "," : "", t[i]);
	}
	nn_sb_steal(&sb, &s);
	return s;
}

/* A decimal without sign or leading junk, at most @max. */
static int parse_uint(const char **pp, unsigned long max, unsigned long *v)
{
	const char *p = *pp;
	unsigned long x = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		x = x * 10 + (unsigned long)(*p - '0');
		if (x > max)
			return -EINVAL;
	}
	*pp = p;
	*v = x;
	return 0;
}

int nn_rss_parse(const char *s, unsigned int **table, unsigned int *n)
{
	unsigned long size, q, k;
	unsigned int *t = NULL, len = 0, i;
	const char *p = s;

	if (!s || parse_uint(&p, NN_RSS_MAX_TABLE, &size) || !size || *p++ != ':')
		return -EINVAL;
	t = malloc(size * sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (;;) {
		if (parse_uint(&p, NN_RSS_MAX_QUEUE, &q))
			goto bad;
		k = 1;
		if (*p == '*' && (++p, parse_uint(&p, NN_RSS_MAX_TABLE, &k) || !k))
			goto bad;
		if (k > size - len)
			goto bad;
		for (i = 0; i < k; i++)
			t[len++] = (unsigned int)q;
		if (!*p)
			break;
		if (*p++ != ',')
			goto bad;
	}
	for (i = len; i < size; i++)
		t[i] = t[i - len];
	*table = t;
	*n = (unsigned int)size;
	return 0;
bad:
	free(t);
	return -EINVAL;
}

/* ETHTOOL_GSSET_INFO for ETH_SS_STATS: how many statistics the driver has. */
static int stats_count(int fd, const char *ifname, unsigned int *n)
{
	/* the header and room for the one count asked (a flexible array) */
	__u64 buf[(sizeof(struct ethtool_sset_info) + sizeof(__u32) + 7) / 8];
	struct ethtool_sset_info *si = (struct ethtool_sset_info *)buf;
	int err;

	memset(buf, 0, sizeof(buf));
	si->cmd = ETHTOOL_GSSET_INFO;
	si->sset_mask = 1ULL << ETH_SS_STATS;
	err = ethtool_ioctl(fd, ifname, si);
	if (err)
		return err;
	*n = (si->sset_mask & (1ULL << ETH_SS_STATS)) ? si->data[0] : 0;
	return 0;
}

int nn_ethtool_stats_get(int fd, const char *ifname, struct nn_ethtool_stats *st)
{
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *sv = NULL;
	unsigned int n = 0;
	int err;

	st->n = 0;
	err = stats_count(fd, ifname, &n);
	if (err)
		return err;
	if (!n)
		return 0;
	if (n > NN_ETHTOOL_STATS_MAX)
		return -E2BIG;
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	sv = calloc(1, sizeof(*sv) + (size_t)n * sizeof(__u64));
	if (!gs || !sv) {
		err = -ENOMEM;
		goto out;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	err = ethtool_ioctl(fd, ifname, gs);
	if (err)
		goto out;
	sv->cmd = ETHTOOL_GSTATS;
	sv->n_stats = n;
	err = ethtool_ioctl(fd, ifname, sv);
	if (err)
		goto out;
	/* the driver may have fewer now than it said: the smaller count */
	if (gs->len < n)
		n = gs->len;
	if (sv->n_stats < n)
		n = sv->n_stats;
	if (n > st->cap) {
		char (*names)[NN_ETHTOOL_STAT_NAME] = realloc(st->names, n * sizeof(*names));
		unsigned long long *values;

		if (!names) {
			err = -ENOMEM;
			goto out;
		}
		st->names = names;
		values = realloc(st->values, n * sizeof(*values));
		if (!values) {
			err = -ENOMEM;
			goto out;
		}
		st->values = values;
		st->cap = n;
	}
	for (unsigned int i = 0; i < n; i++) {
		memcpy(st->names[i], gs->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		st->names[i][ETH_GSTRING_LEN] = '\0';
		st->values[i] = sv->data[i];
	}
	st->n = n;
out:
	free(gs);
	free(sv);
	return err;
}

void nn_ethtool_stats_free(struct nn_ethtool_stats *st)
{
	free(st->names);
	free(st->values);
	memset(st, 0, sizeof(*st));
}

/* --- coalescing and ring sizes: the fallback where ethtool netlink is missing --- */

static int get_coalesce(int fd, const char *ifname, struct ethtool_coalesce *ec)
{
	memset(ec, 0, sizeof(*ec));
	ec->cmd = ETHTOOL_GCOALESCE;
	return ethtool_ioctl(fd, ifname, ec);
}

static int get_ringparam(int fd, const char *ifname, struct ethtool_ringparam *rp)
{
	memset(rp, 0, sizeof(*rp));
	rp->cmd = ETHTOOL_GRINGPARAM;
	return ethtool_ioctl(fd, ifname, rp);
}

int nn_eth_ioctl_get(const char *ifname, struct nn_eth_conf *c)
{
	struct ethtool_coalesce ec;
	struct ethtool_ringparam rp;
	int fd = open_fd(), err;

	if (fd < 0)
		return fd;
	err = get_coalesce(fd, ifname, &ec);
	c->coalesce_err = err;
	if (!err) {
		c->v[NN_ETH_RX_USECS] = ec.rx_coalesce_usecs;
		c->v[NN_ETH_RX_FRAMES] = ec.rx_max_coalesced_frames;
		c->v[NN_ETH_TX_USECS] = ec.tx_coalesce_usecs;
		c->v[NN_ETH_TX_FRAMES] = ec.tx_max_coalesced_frames;
		c->v[NN_ETH_ADAPTIVE_RX] = !!ec.use_adaptive_rx_coalesce;
		c->v[NN_ETH_ADAPTIVE_TX] = !!ec.use_adaptive_tx_coalesce;
	}
	err = get_ringparam(fd, ifname, &rp);
	c->rings_err = err;
	if (!err) {
		c->v[NN_ETH_RING_RX] = rp.rx_pending;
		c->v[NN_ETH_RING_TX] = rp.tx_pending;
		c->rx_max = rp.rx_max_pending;
		c->tx_max = rp.tx_max_pending;
	}
	close(fd);
	return c->coalesce_err && c->rings_err ? c->coalesce_err : 0;
}

int nn_eth_ioctl_set(const char *ifname, enum nn_eth_setting s, long long value)
{
	struct ethtool_coalesce ec;
	struct ethtool_ringparam rp;
	__u32 v = (__u32)value;
	int fd = open_fd(), err;

	if (fd < 0)
		return fd;
	if (nn_eth_setting_is_ring(s)) {
		err = get_ringparam(fd, ifname, &rp);
		if (!err) {
			*(s == NN_ETH_RING_RX ? &rp.rx_pending : &rp.tx_pending) = v;
			rp.cmd = ETHTOOL_SRINGPARAM;
			err = ethtool_ioctl(fd, ifname, &rp);
		}
	} else {
		err = get_coalesce(fd, ifname, &ec);
		if (!err) {
			switch (s) {
			case NN_ETH_RX_USECS: ec.rx_coalesce_usecs = v; break;
			case NN_ETH_RX_FRAMES: ec.rx_max_coalesced_frames = v; break;
			case NN_ETH_TX_USECS: ec.tx_coalesce_usecs = v; break;
			case NN_ETH_TX_FRAMES: ec.tx_max_coalesced_frames = v; break;
			case NN_ETH_ADAPTIVE_RX: ec.use_adaptive_rx_coalesce = v; break;
			default: ec.use_adaptive_tx_coalesce = v; break;
			}
			ec.cmd = ETHTOOL_SCOALESCE;
			err = ethtool_ioctl(fd, ifname, &ec);
		}
	}
	close(fd);
	return err;
}
