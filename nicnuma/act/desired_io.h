/* SPDX-License-Identifier: GPL-2.0-or-later */
/* desired_io.h - the desired-state file on disk (plan/desired.h parses it) */
#ifndef NICNUMA_ACT_DESIRED_IO_H
#define NICNUMA_ACT_DESIRED_IO_H

#include "nicnuma/core/ctx.h"
#include "nicnuma/plan/desired.h"

/* File I/O through ctx->root: @path NULL is NN_DESIRED_PATH. Read: -ENOENT
 * quietly when there is none, any other error printed naming the file.
 * Write: atomic, mode 0644, parent directories made 0755. */
int nn_desired_read(struct nn_ctx *ctx, const char *path, struct nn_desired *d);
int nn_desired_write(struct nn_ctx *ctx, const char *path, const struct nn_desired *d);
int nn_desired_remove(struct nn_ctx *ctx, const char *path);

#endif
