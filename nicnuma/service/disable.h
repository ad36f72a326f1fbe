/* SPDX-License-Identifier: GPL-2.0-or-later */
/* disable.h - the command that undoes enable (the service's end; rollback.h is the transaction's) */
#ifndef NICNUMA_SERVICE_DISABLE_H
#define NICNUMA_SERVICE_DISABLE_H

#include <stdbool.h>

struct nn_ctx;

/* `nicnuma disable`: stops and disables the watcher's unit, rolls the
 * before-enable log of STATE_DIR/enabled.json back, removes the unit file
 * enable wrote, the desired state (unless @keep_config) and the record.
 * The exit status (NN_EXIT_*). */
int nn_disable(struct nn_ctx *ctx, bool keep_config);

#endif
