/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_file.h - a saved plan read from a file or standard input */
#ifndef NICNUMA_ACT_PLAN_FILE_H
#define NICNUMA_ACT_PLAN_FILE_H

#include <stddef.h>

#include "nicnuma/plan/plan.h"

/* Reads and parses the plan JSON in @path ("-": standard input), at most
 * NN_DOC_MAX_BYTES. Returns 0 or a negative errno with the reason in @why. */
int nn_plan_read_file(const char *path, struct nn_plan *plan, char *why, size_t whylen);

struct nn_ctx;

/* The plan of the newest apply not rolled back (state/applied_plan.h),
 * parsed; its path in @path (malloc'd). -ENODATA when there is none; another
 * negative errno with the reason in @why. */
int nn_plan_read_applied(struct nn_ctx *ctx, struct nn_plan *plan, char **path, char *why, size_t whylen);

#endif
