/* SPDX-License-Identifier: GPL-2.0-or-later */
/* applied_plan.h - the plan an apply carried out, kept beside its undo log
 *
 * apply saves its plan (plan --json's document) as STATE_DIR/LOG.plan beside
 * LOG.json: written atomically, mode 0600, read under the undo log's trust
 * rule. check compares with the plan of the newest log not rolled back that
 * has one, so after a rollback the apply before counts again; rollback
 * removes the file of the log it rolled back.
 */
#ifndef NICNUMA_STATE_APPLIED_PLAN_H
#define NICNUMA_STATE_APPLIED_PLAN_H

#include <stddef.h>

struct nn_ctx;
struct nn_undo;

#define NN_APPLIED_PLAN_SUFFIX ".plan"

/* Saves @text as the plan of log @u (its file in the state dir). 0 or -errno. */
int nn_applied_plan_save(struct nn_ctx *ctx, const struct nn_undo *u, const char *text, size_t len);
/* The newest applied plan: its text (malloc'd, NUL-terminated) and path
 * (malloc'd). -ENODATA when there is none (no state dir, no log with a
 * plan that is not rolled back); another -errno with @why set when a log or
 * plan cannot be read under the trust rule. */
int nn_applied_plan_read(struct nn_ctx *ctx, char **text, size_t *len, char **path, char *why,
			 size_t whylen);
/* Removes the plan of log @u (none: 0). 0 or -errno. */
int nn_applied_plan_drop(struct nn_ctx *ctx, const struct nn_undo *u);

#endif
