/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script.h - a plan rendered as a standalone POSIX sh script
 *
 * The script performs the plan on a host without nicnuma: it refuses another
 * host shape (CPU count, node count, NIC PCI addresses and nodes, IRQ
 * ownership), writes a restore script with the previous values before its
 * first change (atomically, 0600), applies and reads back every value, treats
 * an IRQ that refuses even its current value as kernel-managed, handles
 * irqbalance as planned, is idempotent and exits non-zero on any failure.
 */
#ifndef NICNUMA_EMIT_SCRIPT_H
#define NICNUMA_EMIT_SCRIPT_H

#include <stdio.h>

#include "nicnuma/plan/plan.h"

struct nn_script_opts {
	const char *restore_dir;	/* on the target; NULL: /var/lib/nicnuma */
	const char *version;		/* for the header; may be NULL */
	const char *source;		/* "plan file p.json"...; may be NULL */
};

/* Writes the script for @plan to @out. 0, -EIO on a write error, -ENOMEM. */
int nn_script_render(FILE *out, const struct nn_plan *plan, const struct nn_script_opts *opts);
/* Writes the script to the file @path (the user's, not inside the fs root),
 * mode 0755 whatever the umask, through nn_write_atomic_path: a new temp file
 * beside it (O_EXCL, never through a link), fsync'd and renamed over @path,
 * so a reader never sees half a script. 0 or a negative errno; on error
 * nothing is left behind. */
int nn_script_write(const char *path, const struct nn_plan *plan, const struct nn_script_opts *opts);

#endif
