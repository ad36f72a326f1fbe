/* SPDX-License-Identifier: GPL-2.0-or-later */
/* change_kinds.h - every kind of change an undo log may hold, and the table
 * rollback reads logs with
 *
 * Each kind's ops live beside what it changes: file values in
 * nicnuma/state/value_restore.c, channels in channels_change.c and the RSS
 * table in rss_change.c and a NAPI kthread's CPUs in napi_change.c
 * (nicnuma/act/: they ask discovery), irqbalance in irq/irqb_change.c,
 * coalescing and ring sizes in coalesce_change.c and rings_change.c,
 * RPS/RFS values in irq/rps.c, NAPI settings in irq/napi_conf.c (the genl
 * kind's io in napi_conf_change.c, the device-wide files' kind in
 * napi_dev_change.c), a
 * hugetlbfs mount in hugepages/hp_mount.c, kernel arguments in the bootloader's
 * configuration in boot/boot_write.c. The table is here, in act/, because
 * it names every kind, and act is the lowest layer that sees them all; the
 * undo log (nicnuma/state/undo_log.c, undo_load.c) knows no kind and is handed the table.
 */
#ifndef NICNUMA_ACT_CHANGE_KINDS_H
#define NICNUMA_ACT_CHANGE_KINDS_H

#include "nicnuma/state/undo.h"
#include "nicnuma/state/value_restore.h"
#include "irq/irqbalance.h"
#include "irq/napi_thread.h"
#include "irq/napi_conf.h"
#include "irq/rps.h"
#include "irq/busy_poll.h"
#include "hugepages/hp_set.h"
#include "boot/boot_write.h"
#include "ports/port_bind.h"

/* ETHTOOL_SCHANNELS combined count; path = ifname of a NIC in the log's host. */
extern const struct nn_change_ops nn_channels_change_ops;
/* ETHTOOL_SRXFHINDIR table (context 0); path = ifname of a NIC in the log's
 * host, before/after = nn_rss_format() text, detail = {"rings":N}: the rx
 * ring count when it was read; every entry of before is below it. */
extern const struct nn_change_ops nn_rss_change_ops;
/* The one routine that puts an RSS table back (rollback and apply's failure
 * rollback): @before in nn_rss_format() text. Refuses when the driver's table
 * size or ring count no longer fits it; a before equal to the kernel default
 * (i % rings) is put back as the default (the "configured" flag cleared).
 * 1 when already as before (nothing written), 0 restored, or a negative errno
 * with @why set; *@current (malloc'd, may be NULL) is what was found. */
int nn_rss_put_back(struct nn_ctx *ctx, const char *ifname, const char *before, char **current,
		    char *why, size_t whylen);
/* The detail text an rss change is recorded with ({"rings":N}); @buf >= 32. */
void nn_rss_detail(char *buf, size_t len, unsigned int rings);

/* A device-wide NAPI file (/sys/class/net/IF/threaded, ...; irq/napi_conf.h
 * nn_napi_dev_path): a restore that writes marks the run's napi-get
 * answers stale (threaded starts or stops the threads). */
extern const struct nn_change_ops nn_napi_dev_change_ops;

/* A threaded NAPI's kthread's CPUs; path = its pid, detail =
 * {"nic":"IF","napi_id":N} (nn_napi_detail), before/after = CPU lists. */
extern const struct nn_change_ops nn_napi_change_ops;
struct nn_nic;
/* The whole trust rule of irq/napi_thread.h: the kernel's napi-get names
 * @pid for @nic's NAPI @napi_id (@nics: a discovery of this run, or NULL to
 * ask afresh; a fake root without saved answers skips this half), and
 * /proc/@pid is that kernel thread. 0; -ESRCH gone or no longer threaded;
 * -EPERM another task (@why says which). */
int nn_napi_identify(struct nn_ctx *ctx, const struct nn_nic *nics, size_t nnics, int pid,
		     const char *nic, long long napi_id, char *why, size_t whylen);


/* A NAPI's settings through netdev netlink napi-set (irq/napi_conf.h: the
 * rule and restore there, discover's family socket handed down as this io). */
extern const struct nn_change_ops nn_napi_conf_change_ops;
extern const struct nn_napi_io nn_napi_genl_io;

/* One coalescing value or ring size of a NIC in the log's host (ethtool
 * netlink, discover/ethtool_nl.h): path IF/SETTING ("eth0/rx-usecs",
 * "eth0/rx"), before/after decimals; coalesce_change.c holds the rule both
 * kinds share, rings_change.c the second kind. */
extern const struct nn_change_ops nn_coalesce_change_ops;
extern const struct nn_change_ops nn_rings_change_ops;
int nn_eth_change_validate(const struct nn_undo *u, const struct nn_change *c, bool ring,
			   char *why, size_t whylen);
int nn_eth_change_restore(struct nn_ctx *ctx, const struct nn_change *c, bool ring, struct nn_restore *res);

/* NULL-terminated: what nn_undo_load()/nn_undo_parse() accept. */
extern const struct nn_change_ops *const nn_change_kinds[];

#endif
