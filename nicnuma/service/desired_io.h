/* SPDX-License-Identifier: GPL-2.0-or-later */
/* desired_io.h - the desired-state file on disk (plan/desired.h parses it) */
#ifndef NICNUMA_SERVICE_DESIRED_IO_H
#define NICNUMA_SERVICE_DESIRED_IO_H

#include "nicnuma/core/ctx.h"
#include "nicnuma/plan/desired.h"

/* File I/O through ctx->root: @path NULL is NN_DESIRED_PATH. Read: -ENOENT
 * quietly when there is none, any other error printed naming the file.
 * Write: atomic, mode 0644, parent directories made 0755. */
int nn_desired_read(struct nn_ctx *ctx, const char *path, struct nn_desired *d);
int nn_desired_write(struct nn_ctx *ctx, const char *path, const struct nn_desired *d);
int nn_desired_remove(struct nn_ctx *ctx, const char *path);
/* The NN_CLAIMS_* flags the desired state reads claims with
 * (claim_root_partitions: NN_CLAIMS_ROOT_PARTITIONS): the one answer the
 * watcher, status, metrics and 'claim' use. */
unsigned int nn_desired_claim_flags(const struct nn_desired *d);
/* The claims as the desired state asks them read (claim_root_partitions:
 * root partitions claim too) into @host->claims, before its plan is made,
 * so status, metrics and the watcher plan the same claims. 0 or -ENOMEM. */
int nn_desired_claims(struct nn_ctx *ctx, const struct nn_desired *d, struct nn_host *host);
/* Whether a running watcher keeps every value of @plan (nn_desired_keeps):
 * the desired state it reads, planned for @host as the watcher plans it.
 * False when no watcher holds the lock, and when the desired state cannot be
 * read or parsed (nn_desired_read says why). What 'check' asks
 * before it calls the watcher another owner of IRQ placement. */
bool nn_desired_watcher_keeps(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan);

#endif
