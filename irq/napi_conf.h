/* SPDX-License-Identifier: GPL-2.0-or-later */
/* napi_conf.h - the kernel's NAPI settings: per NAPI through netdev netlink
 * napi-set, or device-wide through sysfs; the undo kinds "napi_conf" and
 * "napi_dev"
 *
 * Per NAPI (Documentation/networking/napi.rst, netdev.yaml napi-set): since
 * 6.13 defer-hard-irqs, gro-flush-timeout and irq-suspend-timeout, since
 * 6.17 threaded. The kernel keeps them in the NAPI's config slot, so they
 * survive a link flap or a queue reset on drivers that use one. Whether the
 * kernel has napi-set is asked of the family (its op list), whether it has
 * an attribute of napi-get's answer (an attribute napi-get reports, napi-set
 * takes: they came in the same commits); never of a version number. A
 * change is logged as
 *   {"kind":"napi_conf","path":"eth0/257/defer-hard-irqs","before":"0","after":"2",
 *    "detail":"{\"ifindex\":2}"}
 * (the path IF/NAPI_ID/SETTING: one key per value, as the log keys values).
 * NAPI ids come from one host-wide counter that every namespace advances, so
 * before a read or a write the NAPI must still belong to that ifindex, and
 * the ifindex still be that interface (nn_napi_conf_owner).
 *
 * Where the kernel has no per-NAPI settings, the device-wide files
 * /sys/class/net/IF/{napi_defer_hard_irqs,gro_flush_timeout,threaded}
 * (which also write every NAPI's config on kernels that have them) are the
 * fallback, logged as the kind "napi_dev" with the file as its path.
 *
 * irq/ is below discover/, where the netdev family's socket is: the genl
 * requests come down as struct nn_napi_io (act/napi_conf_change.c hands
 * discover's in), as channels hand down ethtool.
 */
#ifndef NICNUMA_IRQ_NAPI_CONF_H
#define NICNUMA_IRQ_NAPI_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/state/undo.h"

struct nn_ctx;

enum nn_napi_attr {
	NN_NAPI_DEFER_HARD_IRQS = 0,	/* count of polls before IRQs are re-enabled */
	NN_NAPI_GRO_FLUSH_TIMEOUT,	/* ns */
	NN_NAPI_IRQ_SUSPEND_TIMEOUT,	/* ns (no device-wide file) */
	NN_NAPI_THREADED,		/* 0 off, 1 on */
	NN_NAPI_NATTR,
};

/* netdev.yaml's names ("defer-hard-irqs", ...); parse -EINVAL on others. */
const char *nn_napi_attr_name(enum nn_napi_attr a);
int nn_napi_attr_parse(const char *s, enum nn_napi_attr *a);
/* The device-wide sysfs file of @a ("napi_defer_hard_irqs", ...), NULL when none. */
const char *nn_napi_attr_sysfs(enum nn_napi_attr a);
/* The largest value the kernel takes for @a (defer-hard-irqs S32_MAX,
 * threaded 1, the timeouts what fits a long long). */
long long nn_napi_attr_max(enum nn_napi_attr a);

/* "/sys/class/net/NIC/FILE" of @a's device-wide file: 0, -EINVAL, -ENAMETOOLONG. */
int nn_napi_dev_path(char *buf, size_t size, const char *nic, enum nn_napi_attr a);
/* Whether @path is one of those files, and @value a decimal the kernel prints there. */
bool nn_napi_dev_path_valid(const char *path);
bool nn_napi_dev_value_valid(const char *path, const char *value);

/* One NAPI's settings as napi-get reports them; -1 unknown (an older kernel). */
struct nn_napi_vals {
	int ifindex;
	long long v[NN_NAPI_NATTR];
};

/* The genl requests handed down (discover's netdev family socket). Each
 * returns 0 or a negative errno with @why set; get answers -ENOENT for a
 * NAPI id the kernel does not know (any more). set_supported: whether the
 * family has napi-set at all. */
struct nn_napi_io {
	int (*get)(struct nn_ctx *ctx, long long napi_id, struct nn_napi_vals *v, char *why, size_t whylen);
	int (*set)(struct nn_ctx *ctx, long long napi_id, enum nn_napi_attr a, long long value,
		   char *why, size_t whylen);
};

/* The trust rule: NAPI @napi_id is still @ifindex's and @ifindex is still
 * @nic (/sys/class/net/NIC/ifindex through the fs root). 0 with its values
 * in @v; -ENOENT (gone: the NAPI, or the device) or -EPERM (another device
 * owns it now) with @why set. */
int nn_napi_conf_owner(struct nn_ctx *ctx, const struct nn_napi_io *io, const char *nic, int ifindex,
		       long long napi_id, struct nn_napi_vals *v, char *why, size_t whylen);
/* Checks the owner, sets @a to @value, reads it back into *@after: 0, or a
 * negative errno with @why set (-EIO: read back another value). */
int nn_napi_conf_set(struct nn_ctx *ctx, const struct nn_napi_io *io, const char *nic, int ifindex,
		     long long napi_id, enum nn_napi_attr a, long long value, long long *after,
		     char *why, size_t whylen);

/* The path a "napi_conf" change is logged with, "IF/NAPI_ID/SETTING"
 * (@len >= 64), and its parser (pure: 0, or -EINVAL for anything else;
 * @nic gets at least 16 bytes). */
void nn_napi_conf_key(char *buf, size_t len, const char *nic, long long napi_id, enum nn_napi_attr a);
int nn_napi_conf_parse_key(const char *key, char *nic, size_t niclen, long long *napi_id,
			   enum nn_napi_attr *a);
/* The detail it is logged with, {"ifindex":N}; @len >= 32. */
void nn_napi_conf_detail(char *buf, size_t len, int ifindex);
/* The "napi_conf" kind's validate (pure with @ctx NULL) and its restore
 * through @io; act/napi_conf_change.c defines the kind with discover's io. */
int nn_napi_conf_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			  char *why, size_t whylen);
int nn_napi_conf_restore(struct nn_ctx *ctx, const struct nn_napi_io *io, const struct nn_change *c,
			 struct nn_restore *res);

/* The "napi_dev" kind's validate (the device-wide files; pure): a path
 * nicnuma writes, a before of that file's form, a NIC the log's host
 * names. act/napi_dev_change.c defines the kind. */
int nn_napi_dev_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			 char *why, size_t whylen);

#endif
