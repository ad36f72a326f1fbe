/* SPDX-License-Identifier: GPL-2.0-or-later */
/* irqbalance.h - keeping irqbalance from undoing a plan, and putting it back
 *
 * Modes (enum nn_irqbalance_action, below; the plan carries one):
 *   stop  systemd: `systemctl disable --now irqbalance`; otherwise SIGTERM the
 *         daemon and remember exactly how it was started (exe, argv, the
 *         IRQBALANCE_* environment) so rollback restarts it the same way;
 *   ban   keep it, but restart it with --policyscript=FILE, a script printing
 *         ban=true for the planned IRQs (chaining to any policy script it had);
 *   none  leave it alone.
 * Everything here is live only (signals, service control); under a fake root
 * it reports "not touched (fake root)" and changes nothing. Which process is
 * the daemon, and struct nn_irqb_proc, are the inspector's
 * (irq/irqbalance_id.h); the undo log's detail format, written and
 * validated here, is this file's.
 */
#ifndef NICNUMA_IRQ_IRQBALANCE_H
#define NICNUMA_IRQ_IRQBALANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "irq/irqbalance_id.h"

struct nn_ctx;

enum nn_irqbalance_action {
	NN_IRQB_STOP = 0,	/* default: stop (and disable under systemd) */
	NN_IRQB_BAN,		/* keep it, fence the planned IRQs */
	NN_IRQB_NONE,		/* leave it alone (not running, or --irqbalance=ignore) */
};

const char *nn_irqbalance_action_name(enum nn_irqbalance_action a);	/* stop|ban|none */
int nn_irqbalance_action_parse(const char *s, enum nn_irqbalance_action *a); /* + "ignore" */

/* Pure helpers (unit-tested). The ban script: prints ban=true when irqbalance
 * asks about one of @irqs ($2), otherwise execs @chain (the daemon's own
 * policy script, single-quoted) or prints nothing. Malloc'd. */
char *nn_irqb_ban_script(const int *irqs, size_t n, const char *chain);
/* @p's argv without any policy script option (--policyscript=X, --policyscript
 * X, -l X, -lX) plus "--policyscript=@script" (the only malloc'd element);
 * NULL-terminated. */
char **nn_irqb_ban_argv(const struct nn_irqb_proc *p, const char *script);
/* The ban drop-in for a systemd host: ExecStart= @p's checked exe with its
 * options and --policyscript=@script, every word quoted for systemd
 * (nn_sd_quote, nicnuma/core/unitfile.h: the one systemd quoter). Malloc'd; NULL on ENOMEM or when @p has no exe. */
char *nn_irqb_dropin_text(const struct nn_irqb_proc *p, const char *script);

/* One irqbalance action of an apply: prepared first (no side effects) so the
 * undo log holds its before/after/detail before anything happens. */
struct nn_irqb_op {
	enum nn_irqbalance_action action;
	struct nn_irqb_proc proc;
	char before[16];	/* "running" | "stopped" */
	char after[16];
	char *detail;		/* JSON text for the undo log */
	char *script;		/* ban: policy script path (host path) */
	char *script_text;
	const int *irqs;	/* ban: planned IRQs (borrowed) */
	size_t nirqs;
	bool noop;		/* nothing to do: not running, ignore, or fake root */
	char status[160];	/* for the report */
};

int nn_irqb_prepare(struct nn_ctx *ctx, enum nn_irqbalance_action action,
		    const int *irqs, size_t nirqs, struct nn_irqb_op *op);
/* --irqbalance=ignore with what this run's discovery found (@pid, -1 when
 * not running; @systemd): nothing is done to irqbalance, so the report's
 * before/after need no second walk of /proc (a read of every process's
 * comm, a third of apply's syscalls). Any other action inspects afresh. */
void nn_irqb_prepare_ignore(struct nn_ctx *ctx, int pid, bool systemd, const int *irqs, size_t nirqs,
			    struct nn_irqb_op *op);
int nn_irqb_act(struct nn_ctx *ctx, struct nn_irqb_op *op, char *why, size_t whylen);
void nn_irqb_op_free(struct nn_irqb_op *op);

/* Pure check of an undo log's irqbalance change before anything acts on it:
 * @before "running"|"stopped"; @detail an object of known keys, mode stop|ban,
 * booleans where booleans go, exe NULL or "<system dir>/irqbalance", argv
 * irqbalance's own options (normalized), env IRQBALANCE_* with printable
 * values. 0, or -EINVAL with @why naming the bad field. */
int nn_irqb_validate(const char *before, const char *detail, char *why, size_t whylen);

/* Undo: brings irqbalance back to @before as @detail (from the log) says,
 * after nn_irqb_validate(): the binary is found again by the identity rule
 * (never taken from @detail), arguments and environment filtered again, and
 * only nicnuma's own ban script and drop-in (fixed paths) are removed. */
int nn_irqb_restore(struct nn_ctx *ctx, const char *before, const char *detail,
		    char *why, size_t whylen);

/* The undo log's "irqbalance" kind (irqb_change.c): daemon state; detail says
 * how (mode, systemd unit), never what to run. */
extern const struct nn_change_ops nn_irqb_change_ops;

#endif
