// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool_nl.c - coalescing and ring sizes through ethtool netlink
 * (Documentation/networking/ethtool-netlink.rst: COALESCE_GET/SET,
 * RINGS_GET/SET), the ioctl in ethtool.c where the family is missing, a
 * capture's saved answer under a fake root */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <net/if.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/names.h"
#include "nicnuma/discover/ethtool.h"
#include "nicnuma/discover/ethtool_nl.h"
#include "nicnuma/discover/netdev_genl.h"
#include "nicnuma/discover/nic.h"

#define CAPTURE_DIR "/nicnuma-capture/ethtool"

static const char *const names[NN_ETH_NSET] = {
	[NN_ETH_RX_USECS] = "rx-usecs",
	[NN_ETH_RX_FRAMES] = "rx-frames",
	[NN_ETH_TX_USECS] = "tx-usecs",
	[NN_ETH_TX_FRAMES] = "tx-frames",
	[NN_ETH_ADAPTIVE_RX] = "adaptive-rx",
	[NN_ETH_ADAPTIVE_TX] = "adaptive-tx",
	[NN_ETH_RING_RX] = "rx",
	[NN_ETH_RING_TX] = "tx",
};

/* The netlink attribute of each setting (coalesce or rings attribute set). */
static const int nl_attr[NN_ETH_NSET] = {
	[NN_ETH_RX_USECS] = ETHTOOL_A_COALESCE_RX_USECS,
	[NN_ETH_RX_FRAMES] = ETHTOOL_A_COALESCE_RX_MAX_FRAMES,
	[NN_ETH_TX_USECS] = ETHTOOL_A_COALESCE_TX_USECS,
	[NN_ETH_TX_FRAMES] = ETHTOOL_A_COALESCE_TX_MAX_FRAMES,
	[NN_ETH_ADAPTIVE_RX] = ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX,
	[NN_ETH_ADAPTIVE_TX] = ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX,
	[NN_ETH_RING_RX] = ETHTOOL_A_RINGS_RX,
	[NN_ETH_RING_TX] = ETHTOOL_A_RINGS_TX,
};

const char *nn_eth_setting_name(enum nn_eth_setting s)
{
	return (unsigned int)s < NN_ETH_NSET ? names[s] : "?";
}

int nn_eth_setting_parse(const char *name, enum nn_eth_setting *s)
{
	unsigned int i;

	for (i = 0; name && i < NN_ETH_NSET; i++)
		if (!strcmp(name, names[i])) {
			*s = (enum nn_eth_setting)i;
			return 0;
		}
	return -EINVAL;
}

bool nn_eth_setting_is_ring(enum nn_eth_setting s)
{
	return s == NN_ETH_RING_RX || s == NN_ETH_RING_TX;
}

long long nn_eth_setting_max(enum nn_eth_setting s)
{
	return s == NN_ETH_ADAPTIVE_RX || s == NN_ETH_ADAPTIVE_TX ? 1 : (long long)UINT32_MAX;
}

void nn_eth_key(char *buf, size_t len, const char *nic, enum nn_eth_setting s)
{
	snprintf(buf, len, "%s/%s", nic, nn_eth_setting_name(s));
}

int nn_eth_parse_key(const char *key, char *nic, size_t niclen, enum nn_eth_setting *s)
{
	const char *slash = key ? strchr(key, '/') : NULL;
	size_t n = slash ? (size_t)(slash - key) : 0;

	if (!n || n >= NN_IFNAMSIZ || n >= niclen)
		return -EINVAL;
	memcpy(nic, key, n);
	nic[n] = '\0';
	if (nn_name_ifname(nic, NULL) || nn_eth_setting_parse(slash + 1, s))
		return -EINVAL;
	return 0;
}

static void conf_unknown(struct nn_eth_conf *c)
{
	unsigned int i;

	for (i = 0; i < NN_ETH_NSET; i++)
		c->v[i] = -1;
	c->rx_max = c->tx_max = -1;
	c->coalesce_err = c->rings_err = -ENODATA;
}

/* A decimal 0..UINT32_MAX, nothing else. */
static int parse_u32(const char *p, const char *end, long long *v)
{
	unsigned long long x = 0;

	if (p == end)
		return -EINVAL;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		x = x * 10 + (unsigned long long)(*p - '0');
		if (x > UINT32_MAX)
			return -EINVAL;
	}
	*v = (long long)x;
	return 0;
}

int nn_eth_conf_parse(const char *text, size_t len, struct nn_eth_conf *c)
{
	const char *p = text, *end = text + len;

	conf_unknown(c);
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *sp;
		char name[32];
		enum nn_eth_setting s;
		long long v;
		size_t n;

		if (!eol)
			eol = end;
		if (p == eol) {
			p = eol + 1;	/* an empty line */
			continue;
		}
		sp = memchr(p, ' ', (size_t)(eol - p));
		if (!sp || (n = (size_t)(sp - p)) >= sizeof(name) || !n)
			return -EINVAL;
		memcpy(name, p, n);
		name[n] = '\0';
		if (eol - sp == 12 && !memcmp(sp + 1, "unsupported", 11)) {
			if (!strcmp(name, "coalesce"))
				c->coalesce_err = -EOPNOTSUPP;
			else if (!strcmp(name, "rings"))
				c->rings_err = -EOPNOTSUPP;
			else
				return -EINVAL;
		} else if (parse_u32(sp + 1, eol, &v)) {
			return -EINVAL;
		} else if (!strcmp(name, "rx-max")) {
			c->rx_max = v;
		} else if (!strcmp(name, "tx-max")) {
			c->tx_max = v;
		} else if (!nn_eth_setting_parse(name, &s)) {
			if (v > nn_eth_setting_max(s))
				return -EINVAL;
			c->v[s] = v;
			if (nn_eth_setting_is_ring(s))
				c->rings_err = 0;
			else
				c->coalesce_err = 0;
		}
		p = eol + 1;
	}
	return 0;
}

/* --- netlink --- */

struct nl_req {
	struct nn_genl_sock s;
	uint16_t family;
};

/* A socket with the ethtool family resolved, holding @cmd. -EOPNOTSUPP
 * without the family (kernel before 5.6 or built without it). */
static int nl_open(struct nl_req *r, uint8_t cmd)
{
	int err = nn_genl_sock_open(&r->s);

	if (err)
		return err;
	err = nn_genl_family_named(&r->s, ETHTOOL_GENL_NAME, &cmd, 1, &r->family);
	if (err)
		nn_genl_sock_close(&r->s);
	return err;
}

/* The request header nest (ETHTOOL_A_*_HEADER is 1 in every set) naming @ifname. */
static struct nlmsghdr *nl_request(struct nl_req *r, uint8_t cmd, const char *ifname)
{
	struct nlmsghdr *req = nn_genl_request(&r->s, r->family, cmd);
	struct nlattr *nest = mnl_attr_nest_start(req, 1);

	mnl_attr_put_strz(req, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_nest_end(req, nest);
	return req;
}

struct parse_arg {
	struct nn_eth_conf *c;
	bool rings;
};

static int attr_cb(const struct nlattr *a, void *data)
{
	struct parse_arg *pa = data;
	uint16_t t = mnl_attr_get_type(a);
	unsigned int i;

	if (pa->rings && (t == ETHTOOL_A_RINGS_RX_MAX || t == ETHTOOL_A_RINGS_TX_MAX)) {
		if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			*(t == ETHTOOL_A_RINGS_RX_MAX ? &pa->c->rx_max : &pa->c->tx_max) = mnl_attr_get_u32(a);
		return MNL_CB_OK;
	}
	for (i = 0; i < NN_ETH_NSET; i++) {
		if (nn_eth_setting_is_ring((enum nn_eth_setting)i) != pa->rings || nl_attr[i] != t)
			continue;
		/* A flag the kernel sends as a u8 other than 0 or 1 stays
		 * unknown: nothing compares or puts back a value it cannot set. */
		if (i == NN_ETH_ADAPTIVE_RX || i == NN_ETH_ADAPTIVE_TX) {
			if (mnl_attr_validate(a, MNL_TYPE_U8) == 0 && mnl_attr_get_u8(a) <= 1)
				pa->c->v[i] = mnl_attr_get_u8(a);
		} else if (mnl_attr_validate(a, MNL_TYPE_U32) == 0) {
			pa->c->v[i] = mnl_attr_get_u32(a);
		}
	}
	return MNL_CB_OK;
}

int nn_eth_nl_parse(const void *buf, size_t len, uint16_t family, bool rings, struct nn_eth_conf *c)
{
	struct parse_arg pa = { .c = c, .rings = rings };
	bool seen = false;
	size_t off = 0;

	/* Walked by hand as nn_genl_parse does: mnl_nlmsg_ok/next take the
	 * length as an int, and a length of 0xffffffff aligns to 0 and never
	 * moves on (the fuzzer's first find). */
	while (len - off >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)((const char *)buf + off);

		if (nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > len - off)
			break;
		if (nlh->nlmsg_type == family && mnl_nlmsg_get_payload_len(nlh) >= sizeof(struct genlmsghdr)) {
			mnl_attr_parse(nlh, sizeof(struct genlmsghdr), attr_cb, &pa);
			seen = true;
		}
		if (MNL_ALIGN(nlh->nlmsg_len) >= len - off)
			break;
		off += MNL_ALIGN(nlh->nlmsg_len);
	}
	return seen ? 0 : -EBADMSG;
}

/* One get (coalesce or rings) into @c: 0 or a negative errno. */
static int nl_get(struct nl_req *r, const char *ifname, bool rings, struct nn_eth_conf *c)
{
	uint8_t cmd = rings ? ETHTOOL_MSG_RINGS_GET : ETHTOOL_MSG_COALESCE_GET;
	char why[128];
	void *ans = NULL;
	size_t len = 0;
	int err;

	err = nn_genl_do(&r->s, nl_request(r, cmd, ifname), &ans, &len, why, sizeof(why));
	if (!err)
		err = nn_eth_nl_parse(ans, len, r->family, rings, c);
	free(ans);
	return err;
}

/* Both gets on the open socket @r; @open_err: nl_open's result, -EOPNOTSUPP
 * (no ethtool family) falls back to the ioctl. */
static int live_get_on(struct nl_req *r, int open_err, const char *ifname, struct nn_eth_conf *c)
{
	if (open_err == -EOPNOTSUPP)
		return nn_eth_ioctl_get(ifname, c);
	if (open_err)
		return open_err;
	c->coalesce_err = nl_get(r, ifname, false, c);
	c->rings_err = nl_get(r, ifname, true, c);
	return c->coalesce_err && c->rings_err ? c->coalesce_err : 0;
}

static int live_get(const char *ifname, struct nn_eth_conf *c)
{
	struct nl_req r;
	int err = nl_open(&r, ETHTOOL_MSG_COALESCE_GET);

	err = live_get_on(&r, err, ifname, c);
	if (r.s.nl)
		nn_genl_sock_close(&r.s);
	return err;
}

static int capture_get(struct nn_ctx *ctx, const char *ifname, struct nn_eth_conf *c)
{
	char path[64 + IF_NAMESIZE], *buf = NULL;
	size_t len = 0;
	int err;

	if (nn_name_ifname(ifname, NULL))
		return -EINVAL;
	snprintf(path, sizeof(path), CAPTURE_DIR "/%s", ifname);
	err = nn_read_file(&ctx->root, path, &buf, &len);
	if (err)
		return err;
	err = nn_eth_conf_parse(buf, len, c);
	free(buf);
	if (err)
		nn_warn(ctx, path, "not a saved ethtool answer: coalescing and rings unknown");
	return err;
}

int nn_eth_conf_get(struct nn_ctx *ctx, const char *ifname, struct nn_eth_conf *c)
{
	conf_unknown(c);
	if (strlen(ifname) >= IF_NAMESIZE)
		return -ENAMETOOLONG;
	if (!nn_root_is_live(&ctx->root))
		return capture_get(ctx, ifname, c);
	return live_get(ifname, c);
}

void nn_eth_conf_get_each(struct nn_ctx *ctx, size_t n, const char *(*name)(void *arg, size_t i),
			  struct nn_eth_conf *(*conf)(void *arg, size_t i), void *arg)
{
	struct nl_req r = { .family = 0 };
	int open_err = 1;	/* not opened yet: opened at the first live NIC */
	size_t i;

	for (i = 0; i < n; i++) {
		const char *ifname = name(arg, i);
		struct nn_eth_conf *c = conf(arg, i);

		if (!nn_root_is_live(&ctx->root) || strlen(ifname) >= IF_NAMESIZE) {
			(void)nn_eth_conf_get(ctx, ifname, c);
			continue;
		}
		conf_unknown(c);
		if (open_err == 1)
			open_err = nl_open(&r, ETHTOOL_MSG_COALESCE_GET);
		(void)live_get_on(&r, open_err, ifname, c);
	}
	if (!open_err)
		nn_genl_sock_close(&r.s);
}

static int read_back(struct nn_ctx *ctx, const char *ifname, enum nn_eth_setting s, long long value,
		     long long *after, char *why, size_t whylen)
{
	struct nn_eth_conf now;
	int err = nn_eth_conf_get(ctx, ifname, &now);

	if (!err)
		err = nn_eth_setting_is_ring(s) ? now.rings_err : now.coalesce_err;
	if (err) {
		snprintf(why, whylen, "%s: reading %s back: %s", ifname, names[s], strerror(-err));
		return err;
	}
	*after = now.v[s];
	if (now.v[s] != value) {
		snprintf(why, whylen, "%s: %s read back %lld, wanted %lld", ifname, names[s], now.v[s], value);
		return -EIO;
	}
	return 0;
}

int nn_eth_set(struct nn_ctx *ctx, const char *ifname, enum nn_eth_setting s, long long value,
	       long long *after, char *why, size_t whylen)
{
	bool ring = nn_eth_setting_is_ring(s);
	uint8_t cmd = ring ? ETHTOOL_MSG_RINGS_SET : ETHTOOL_MSG_COALESCE_SET;
	char msg[160] = "";
	struct nl_req r;
	int err;

	*after = -1;
	if ((unsigned int)s >= NN_ETH_NSET || value < 0 || value > nn_eth_setting_max(s)) {
		snprintf(why, whylen, "%s: %s %lld out of range", ifname, nn_eth_setting_name(s), value);
		return -ERANGE;
	}
	err = nn_require_live(ctx, ring ? "setting ring sizes" : "setting interrupt coalescing");
	if (err) {
		snprintf(why, whylen, "not touched (fake root)");
		return err;
	}
	if (strlen(ifname) >= IF_NAMESIZE)
		return -ENAMETOOLONG;
	/* a driver may rebuild its queues, and their NAPIs, for either */
	nn_napi_answers_stale(ctx);
	err = nl_open(&r, cmd);
	if (err == -EOPNOTSUPP) {
		err = nn_eth_ioctl_set(ifname, s, value);
		if (err) {
			snprintf(why, whylen, "%s: %s %lld: %s (ioctl)", ifname, names[s], value, strerror(-err));
			return err;
		}
	} else if (err) {
		snprintf(why, whylen, "%s: ethtool netlink: %s", ifname, strerror(-err));
		return err;
	} else {
		struct nlmsghdr *req = nl_request(&r, cmd, ifname);

		if (s == NN_ETH_ADAPTIVE_RX || s == NN_ETH_ADAPTIVE_TX)
			mnl_attr_put_u8(req, (uint16_t)nl_attr[s], (uint8_t)value);
		else
			mnl_attr_put_u32(req, (uint16_t)nl_attr[s], (uint32_t)value);
		err = nn_genl_do(&r.s, req, NULL, NULL, msg, sizeof(msg));
		nn_genl_sock_close(&r.s);
		if (err) {
			/* the driver's own words where it gave them */
			snprintf(why, whylen, "%s: %s %lld refused: %s", ifname, names[s], value,
				 msg[0] ? msg : strerror(-err));
			return err;
		}
	}
	return read_back(ctx, ifname, s, value, after, why, whylen);
}
