/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rollback.h - the command that reads an undo log back: rollback (and its --dry-run, --list)
 *
 * Each owns its transaction (nicnuma/state/tx.h) from the lock to the end:
 * the command only parses its options, calls one of these and takes the
 * exit status. Each prints through ctx->out and leaves the document closed.
 */
#ifndef NICNUMA_ACT_ROLLBACK_H
#define NICNUMA_ACT_ROLLBACK_H

struct nn_ctx;

/* `nicnuma rollback [SNAPSHOT]`: loads @file (NULL: the newest log not
 * rolled back) under the state lock, validates every change against the
 * host, restores them in reverse order and prunes. The exit status
 * (NN_EXIT_*): 2 when the log cannot be used or a value not restored. */
int nn_rollback(struct nn_ctx *ctx, const char *file);
/* `rollback --dry-run [SNAPSHOT]`: the log rollback would use, validated,
 * and each value it would put back, newest change first; nothing written. */
int nn_rollback_preview(struct nn_ctx *ctx, const char *file);
/* `rollback --list`: every log in the state directory, newest first: its
 * command, how many changes, rolled back or not (or why it cannot be used). */
int nn_rollback_list(struct nn_ctx *ctx);

#endif
