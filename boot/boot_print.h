/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot_print.h - the kernel arguments as plan, apply, check, status and metrics report them
 *
 * Three columns per argument: running (/proc/cmdline), configured for the
 * next boot (what the bootloader's generated configuration boots), planned;
 * the change apply makes (added, changed, removed, conflict, unchanged);
 * after an apply, its state: in effect, pending a reboot, or drift.
 */
#ifndef NICNUMA_BOOT_BOOT_PRINT_H
#define NICNUMA_BOOT_BOOT_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/boot_read.h"

struct nn_out;

enum nn_boot_state {
	NN_BST_IN_EFFECT,	/* the running kernel has it as planned */
	NN_BST_PENDING,		/* configured for the next boot, written during this one: reboot */
	NN_BST_IGNORED,		/* configured, yet not in /proc/cmdline after a reboot: drift */
	NN_BST_NOT_CONFIGURED,	/* planned, not in the next boot's configuration: drift */
	NN_BST_EXTRA,		/* nicnuma's, no longer planned, still configured: drift */
	NN_BST_REMOVED_PENDING,	/* taken out during this boot, still running: reboot */
	NN_BST_REMOVED_RUNNING,	/* taken out, still running after a reboot: drift */
};
/* "in_effect", "pending_reboot", "drift", "not_configured", "not_planned",
 * "removed_pending_reboot", "removed_still_running" */
const char *nn_boot_state_name(enum nn_boot_state s);
bool nn_boot_state_drift(enum nn_boot_state s);
/* The bootloader is one nicnuma writes (GRUB, kernel-install, grubby). */
bool nn_boot_writable(const struct nn_boot_host *b);
/* nicnuma wrote the configuration during the running boot (the record's boot id). */
bool nn_boot_written_this_boot(const struct nn_boot_host *b);

/* nicnuma's recorded words as arguments (the status and metrics "plan":
 * what it configured), grouped by argument. 0 or -ENOMEM. */
int nn_boot_args_from_record(const struct nn_boot_record *r, struct nn_boot_arg **out, size_t *n);

/* One argument's state, for metrics (the labels of nicnuma_boot_arg_status). */
struct nn_boot_assessed {
	char name[32];
	enum nn_boot_state state;
};

/* Every argument of @args against @b, and the record's removed words still
 * running: *@out malloc'd (*@n of them), *@reboot_pending. 0, -ENOMEM, or
 * -EINVAL when a line cannot be parsed (@why). */
int nn_boot_assess(const struct nn_boot_host *b, const struct nn_boot_arg *args, size_t n,
		   struct nn_boot_assessed **out, size_t *nout, bool *reboot_pending, char *why, size_t whylen);

enum {
	NN_BOOTP_STATE = 1u << 0,	/* each argument's state (check, status) */
};

struct nn_boot_report {
	size_t ndrift;
	size_t npending;
	bool reboot_pending;	/* an argument waits for a reboot (in or out) */
	bool write;		/* apply would change the configuration */
	bool reboot_required;	/* after that change the running kernel differs from the plan */
	int refused;		/* what nn_boot_prepare said (0 fine) */
	char refusal[400];	/* and why */
	char error[400];	/* a line nicnuma cannot parse (the -EINVAL return) */
};

/* The "boot" object of @mode ("auto", "none", names) with @args and
 * @skips against @b: bootloader, kernel, one row per argument, the left-out
 * ones with their reasons, whether apply writes and asks for a reboot, and
 * why it would refuse. 0, -ENOMEM, or -EINVAL when a line holds a value of
 * a planned argument nicnuma cannot parse (printed as "error"). */
int nn_boot_print(struct nn_out *o, const struct nn_boot_host *b, const char *mode,
		  const struct nn_boot_arg *args, size_t n, const struct nn_boot_skip *skips, size_t nskips,
		  unsigned int flags, struct nn_boot_report *rep);

#endif
