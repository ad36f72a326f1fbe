/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmdline.h - kernel command lines: parsed, compared per argument, diffed against a plan
 *
 * Pure. A command line is split as the kernel splits it (core/parse.h,
 * nn_cmdline_word); a parameter's name matches with '-' and '_' the same,
 * as the kernel's parameq() does. An argument nicnuma plans is found in a
 * line by its name; the 1 GB hugepage pool is the pair "hugepagesz=1G
 * hugepages=..." (hugepages= counts for the hugepagesz= before it). Values
 * compare by meaning: CPU lists as sets, isolcpus= flags as a set,
 * hugepages= per node, comma lists of options as sets.
 */
#ifndef NICNUMA_BOOT_CMDLINE_H
#define NICNUMA_BOOT_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/boot.h"

struct nn_kword {
	char *text;		/* the word as written, quotes kept */
	char *key;		/* the parameter's name, '-' read as '_' */
	char *value;		/* unquoted; NULL for a word without '=' */
};

struct nn_kline {
	struct nn_kword *w;
	size_t n;
};

/* Splits @text. @grub: a grub.cfg kernel line, whose words starting with
 * '$' are GRUB's variables, not arguments (left out). -EINVAL with @why
 * naming the word for an unbalanced quote or a control byte; -ENOMEM. */
int nn_kline_parse(const char *text, bool grub, struct nn_kline *out, char *why, size_t whylen);
void nn_kline_free(struct nn_kline *l);

/* The words of @l that set argument @name ("hugepages": the 1 GB pair),
 * joined by a space in *@out (malloc'd; NULL when absent). 0 or -ENOMEM. */
int nn_kline_get(const struct nn_kline *l, const char *name, char **out);
/* Whether @a and @b (the words of argument @name, as nn_kline_get gives
 * them) mean the same: 1 yes, 0 no, -EINVAL when one cannot be parsed
 * (@why names it). */
int nn_karg_equal(const char *name, const char *a, const char *b, char *why, size_t whylen);
/* The argument name a word belongs to, for a word nicnuma wrote: its key
 * ("hugepagesz"/"hugepages": "hugepages"). Into @buf. */
void nn_kword_arg(const struct nn_kword *w, char *buf, size_t len);
/* A planned argument as a plan file may carry it: @name one nicnuma plans,
 * @text its words only (each nn_karg_safe, each of that argument), a value
 * that parses. 0, or -EINVAL with @why. */
int nn_boot_arg_check(const char *name, const char *text, char *why, size_t whylen);

/* ---- the plan against a host's lines ---- */

/* What apply does to an argument's place in the next boot's configuration. */
enum nn_boot_change {
	NN_BCH_UNCHANGED,	/* configured as planned: nothing written */
	NN_BCH_ADDED,
	NN_BCH_CHANGED,		/* nicnuma's own earlier value replaced */
	NN_BCH_REMOVED,		/* nicnuma's, no longer planned: taken out */
	NN_BCH_CONFLICT,	/* set to another value by another owner: refused */
};
const char *nn_boot_change_name(enum nn_boot_change c);

/* Another owner's words in the configuration (GRUB_CMDLINE_LINUX as the
 * files leave it, tuned's bootcmdline). */
struct nn_boot_source {
	char *owner;		/* "GRUB_CMDLINE_LINUX (/etc/default/grub)" */
	char *text;
};

struct nn_boot_row {
	char *name;
	char *running;		/* its words in /proc/cmdline; NULL absent */
	char *configured;	/* in the next boot's configuration; NULL absent */
	char *planned;		/* NULL: removed */
	char *owner;		/* who configured it: "nicnuma", a source's owner, NULL */
	char *theirs;		/* that owner's words (another owner's, or nicnuma's own) */
	enum nn_boot_change change;
	bool in_effect;		/* running equals planned */
	bool configured_ok;	/* the next boot's configuration equals planned */
};

struct nn_boot_diff {
	struct nn_boot_row *rows;	/* the planned ones in plan order, then the removed */
	size_t n;
	char **ours;		/* nicnuma's words after the change, in order */
	size_t nours;
	size_t nchanges;	/* rows added, changed or removed */
	size_t nconflicts;
};

/* The diff of @planned against the running line (@running, /proc/cmdline;
 * NULL unknown), the next boot's (@next: what the bootloader's generated
 * configuration boots, NULL unknown: then the sources stand for it), the
 * other owners' configured words (@src) and nicnuma's own (@ours, NULL
 * none). nicnuma's words keep their order; a word of another owner is never
 * moved or removed. -EINVAL when a line holds a value of a planned argument
 * that cannot be parsed (@why: "in /proc/cmdline: isolcpus=x,1: ..."). */
int nn_boot_diff_make(const struct nn_boot_arg *planned, size_t n, const char *running,
		      const char *next, const struct nn_boot_source *src, size_t nsrc,
		      const char *ours, struct nn_boot_diff *d, char *why, size_t whylen);
void nn_boot_diff_free(struct nn_boot_diff *d);

#endif
