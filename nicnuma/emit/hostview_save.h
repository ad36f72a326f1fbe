/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostview_save.h - "nicnuma report -o FILE": the host picture written */
#ifndef NICNUMA_HOSTVIEW_SAVE_H
#define NICNUMA_HOSTVIEW_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/plan/hostview.h"

struct nn_ctx;

/* Renders @v (the HTML page, or with @svg a standalone SVG document) and
 * replaces @path with it atomically (nn_write_atomic_path, mode 0644); @path
 * "-" is standard output, as for `script`. *@bytes gets the size written. 0
 * or a negative errno. */
int nn_hostview_save(const struct nn_hostview *v, const char *title, bool svg, const char *path,
		     size_t *bytes);

/* One observation of @sec seconds over @h (as check and metrics take it: a
 * fake root's samples 0 and 1, without waiting), as per-CPU rates for the
 * picture (free with nn_hv_traffic_free). 0 or a negative errno. */
int nn_hv_traffic_observe(struct nn_ctx *ctx, const struct nn_host *h, double sec, struct nn_hv_traffic *tr);

#endif
