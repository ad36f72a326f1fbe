/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool_nl.h - a NIC's interrupt coalescing and ring sizes: ethtool
 * netlink (coalesce-get/set, rings-get/set), the ioctl where the kernel has
 * no ethtool family, a capture's saved answer under a fake root
 *
 * One value is one setting of one NIC, named as ethtool -C / -G spell it
 * ("rx-usecs", "adaptive-rx", "rx" ring...). The netlink set sends only the
 * attribute changed; the ioctl (ETHTOOL_SCOALESCE / SRINGPARAM) writes back
 * the whole structure read just before. A driver that refuses a value says
 * why in its extended ack, which @why carries.
 *
 * Constants beyond Debian 12's linux-libc-dev (6.1) are the kernel's
 * include/uapi/linux/ethtool_netlink.h and are not needed: coalesce and
 * rings came in 5.6, and only their first attributes are used.
 */
#ifndef NICNUMA_ETHTOOL_NL_H
#define NICNUMA_ETHTOOL_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nn_ctx;

enum nn_eth_setting {
	NN_ETH_RX_USECS = 0,	/* coalesce: rx-usecs */
	NN_ETH_RX_FRAMES,	/* rx-frames */
	NN_ETH_TX_USECS,	/* tx-usecs */
	NN_ETH_TX_FRAMES,	/* tx-frames */
	NN_ETH_ADAPTIVE_RX,	/* adaptive-rx: 0/1 */
	NN_ETH_ADAPTIVE_TX,	/* adaptive-tx: 0/1 */
	NN_ETH_RING_RX,		/* rings: rx */
	NN_ETH_RING_TX,		/* rings: tx */
	NN_ETH_NSET,
};

/* ethtool's names; parse: 0 or -EINVAL. */
const char *nn_eth_setting_name(enum nn_eth_setting s);
int nn_eth_setting_parse(const char *name, enum nn_eth_setting *s);
/* A ring size (rings-get/set), else a coalescing value. */
bool nn_eth_setting_is_ring(enum nn_eth_setting s);
/* The largest value the setting takes (1 for the adaptive flags, u32 otherwise). */
long long nn_eth_setting_max(enum nn_eth_setting s);

/* A NIC's values: -1 where the driver reports nothing (coalesce: a driver
 * that does not support the parameter still answers 0, so "supported"
 * comes from the set's refusal, not from here). */
struct nn_eth_conf {
	long long v[NN_ETH_NSET];
	long long rx_max, tx_max;	/* ring maxima; -1 unknown */
	int coalesce_err, rings_err;	/* 0, or why that half is unknown (-EOPNOTSUPP: the driver has none) */
};

/* Parses a capture's saved answer (scripts/capture-host:
 * nicnuma-capture/ethtool/IF): lines "NAME VALUE" with the names above plus
 * "rx-max" and "tx-max"; "coalesce unsupported" / "rings unsupported" for a
 * driver without the operation. Pure: 0, or -EINVAL naming nothing (the
 * caller names the file). Unknown names are skipped (a newer capture). */
int nn_eth_conf_parse(const char *text, size_t len, struct nn_eth_conf *c);

/* Parses an ethtool netlink answer (coalesce-get's, or with @rings
 * rings-get's: the messages of genl family id @family) into @c's fields
 * of that half; attributes of another type or size are skipped. Pure, for
 * the fuzzer too: 0, or -EBADMSG when no message of @family was in it. */
int nn_eth_nl_parse(const void *buf, size_t len, uint16_t family, bool rings, struct nn_eth_conf *c);

/* Reads @ifname's values: live through netlink, else the ioctl; under a
 * fake root the capture's answer (-ENOENT: none saved). 0 when at least one
 * half was read (the other's error in its field), else a negative errno. */
int nn_eth_conf_get(struct nn_ctx *ctx, const char *ifname, struct nn_eth_conf *c);

/* Sets one value and reads it back into *@after (-1 when unread): 0, or a
 * negative errno with @why set: the driver's own message where it gave one
 * (-EOPNOTSUPP a parameter it does not have, -EINVAL a value out of its
 * range), -EIO read back another value. Live only. */
int nn_eth_set(struct nn_ctx *ctx, const char *ifname, enum nn_eth_setting s, long long value,
	       long long *after, char *why, size_t whylen);

/* The key a change of one value is logged and shown as, "IF/SETTING"
 * ("eth0/rx-usecs"; @len >= 48), and its strict parser (pure: 0, or -EINVAL
 * for a name that is no interface name or a setting not listed above; @nic
 * gets at least 16 bytes). */
void nn_eth_key(char *buf, size_t len, const char *nic, enum nn_eth_setting s);
int nn_eth_parse_key(const char *key, char *nic, size_t niclen, enum nn_eth_setting *s);

#endif
