/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot_write.h - the planned kernel arguments into the bootloader's configuration, through the undo log
 *
 * Two steps, so that apply checks everything before its first write of any
 * kind: nn_boot_prepare (pure over what nn_boot_host_read found: the
 * bootloader is one nicnuma writes and nothing is in the way, the diff, no
 * conflict, the new text; for GRUB every grub.d file evaluated again with
 * the new drop-in in its place, so a later file that replaces the variable
 * is a conflict named by file before anything is written), then
 * nn_boot_write (the undo log first, the file, the boot record, the
 * bootloader's tool on the live root only, and the generated configuration
 * read back: the next boot's kernel line must hold every planned argument;
 * on any failure what it wrote is put back).
 *
 * The undo kind "boot": path is the file nicnuma writes (the drop-in,
 * /etc/kernel/cmdline) or "grubby"; before and after are nicnuma's own
 * words (before null: the file was not there). Rollback puts nicnuma's
 * words back as they were - another owner's words in a shared file are
 * never touched - rewrites the boot record and regenerates (live root).
 */
#ifndef NICNUMA_BOOT_BOOT_WRITE_H
#define NICNUMA_BOOT_BOOT_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/boot_read.h"
#include "nicnuma/state/undo.h"

struct nn_boot_prep {
	struct nn_boot_diff diff;
	char *before;		/* nicnuma's words now; NULL: the file is absent */
	char *after;		/* nicnuma's words after ("" none) */
	bool write;		/* the configuration changes */
	bool reboot;		/* the running kernel lacks a planned argument, or has a removed one */
};

/* The change @args (@n of them) makes to @b's bootloader. 0 (prep filled);
 * -ENODEV no bootloader, -EOPNOTSUPP one nicnuma does not write or several,
 * -EBUSY something in the way (a conflict, a later drop-in, read-only
 * /boot, tuned), -EINVAL a line nicnuma cannot parse: @why says which,
 * naming the file or argument. -ENOMEM. */
int nn_boot_prepare(const struct nn_boot_host *b, const struct nn_boot_arg *args, size_t n,
		    struct nn_boot_prep *prep, char *why, size_t whylen);
void nn_boot_prep_free(struct nn_boot_prep *prep);

/* What the write did. */
struct nn_boot_result {
	bool written;		/* the configuration file (or grubby) was changed */
	bool regenerated;	/* the tool ran (live root) */
	bool verified;		/* the generated configuration read back holds the plan */
	char note[320];		/* "not regenerated under --root: ..." / the tool's failure */
};

/* Writes @prep through @u (recorded before the write). 0; a negative errno
 * with res->note saying why, everything written put back. */
int nn_boot_write(struct nn_ctx *ctx, struct nn_undo *u, const struct nn_boot_host *b,
		  const struct nn_boot_prep *prep, struct nn_boot_result *res);

extern const struct nn_change_ops nn_boot_change_ops;

#endif
