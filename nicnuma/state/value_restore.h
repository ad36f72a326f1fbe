/* SPDX-License-Identifier: GPL-2.0-or-later */
/* value_restore.h - the one routine that puts a sysfs/procfs value back, and
 * the "file" change kind of the undo log built on it
 *
 * apply's failure rollback and `nicnuma rollback` both restore a value the
 * same way: read it (already as it was: left alone), one write(2), retried
 * once on EBUSY/EAGAIN, read back and compared as the kernel prints it.
 */
#ifndef NICNUMA_STATE_VALUE_RESTORE_H
#define NICNUMA_STATE_VALUE_RESTORE_H

#include <stdbool.h>

#include "nicnuma/state/undo.h"

struct nn_ctx;

/* Puts @before back into @path. Returns 1 when it held @before already
 * (nothing written), 0 when restored, or a negative errno (-EIO: the read
 * back differs). *@cur gets the value found, *@now the value read back after
 * a write (each malloc'd or NULL; the caller frees both). */
int nn_value_restore(struct nn_ctx *ctx, const char *path, const char *before,
		     char **cur, char **now);

/* A change kind's restore() over nn_value_restore() for a value file
 * (c->path, c->before), the one report of its result every such kind
 * gives: already as before is res->unchanged; a read back that differs is
 * "read back 'VALUE'"; any other failure "cannot read: ERR" (the value could
 * not be read, nothing written) or "cannot restore: ERR" (the write or its
 * read back failed). @gone_ok: a file that is not there (-ENOENT: the queue
 * or device went) is a warning "gone: not restored" and nothing to do. */
int nn_value_restore_change(struct nn_ctx *ctx, const struct nn_change *c, bool gone_ok,
			    struct nn_restore *res);

/* Same value as the kernel would print it: cpulists (paths ending in "_list")
 * and masks (xps_cpus, smp_affinity) compare as sets, the rest as trimmed text. */
bool nn_value_equal(const char *path, const char *a, const char *b);

/* A network interface name the kernel would accept (dev_valid_name): 1-15
 * bytes, not "." or "..", no '/', ':' or whitespace. */
bool nn_ifname_valid(const char *name);

/* Whether @path is a value nicnuma writes and records, in canonical form:
 *   /proc/irq/N/smp_affinity_list
 *   /sys/class/net/IF/queues/tx-N/xps_cpus
 *   /sys/devices/system/node/nodeN/hugepages/hugepages-SIZEkB/nr_hugepages
 *   /sys/kernel/mm/hugepages/hugepages-SIZEkB/nr_hugepages
 * and @value has the form the kernel prints there (a cpulist, a hex mask, a
 * count). Nothing else: no "..", no relative path, no double slash. */
bool nn_value_path_valid(const char *path);
bool nn_value_text_valid(const char *path, const char *value);

/* The undo log's "file" kind: one of the values above. */
extern const struct nn_change_ops nn_file_change_ops;

#endif
