/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hugepages_change.h - `hugepages reserve` and `hugepages release`: the pools
 * changed in one transaction (state lock, undo log), printed, and --mount
 *
 * The command parses its options into struct nn_hp_change and calls
 * nn_hugepages_change(); everything from reading the pools to the undo
 * log's name on the output happens here.
 */
#ifndef NICNUMA_ACT_HUGEPAGES_CHANGE_H
#define NICNUMA_ACT_HUGEPAGES_CHANGE_H

#include <stdbool.h>

struct nn_ctx;

/* The options of reserve/release, as given (the command checks which of
 * them go together). */
struct nn_hp_change {
	bool release;
	const char *nodes;	/* --nodes NODES */
	const char *size;	/* --size SIZE; NULL: the kernel's default */
	const char *count;	/* --count N */
	const char *mem;	/* --mem AMOUNT (reserve) */
	const char *mount_dir;	/* --mount DIR (reserve) */
	bool all;		/* --all (release) */
	bool partial;		/* --partial (reserve) */
	bool dry_run;
};

/* The exit status (NN_EXIT_*): 0 every pool reached its target, 1 short but
 * kept (--partial) or warnings, 2 an error (nothing changed, or put back). */
int nn_hugepages_change(struct nn_ctx *ctx, const struct nn_hp_change *c);

#endif
