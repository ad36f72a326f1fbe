/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostview_save.h - "nicnuma report -o FILE": the host picture written */
#ifndef NICNUMA_HOSTVIEW_SAVE_H
#define NICNUMA_HOSTVIEW_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/plan/hostview.h"

/* Renders @v (the HTML page, or with @svg a standalone SVG document) and
 * replaces @path with it atomically (nn_write_atomic_path, mode 0644).
 * *@bytes gets the size written. 0 or a negative errno. */
int nn_hostview_save(const struct nn_hostview *v, const char *title, bool svg, const char *path,
		     size_t *bytes);

#endif
