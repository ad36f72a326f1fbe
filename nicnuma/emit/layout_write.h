/* SPDX-License-Identifier: GPL-2.0-or-later */
/* layout_write.h - the unit files of `nicnuma layout --out DIR` onto disk
 *
 * The caller opens DIR (nn_layout_out_open), checks every target first
 * (nn_layout_check_target: all files or none), then writes each one
 * (nn_layout_write_unit: nn_mkdirat_p and nn_write_atomic_at, never through
 * a symlink). Nothing here goes through the fs root: DIR is the user's.
 */
#ifndef NICNUMA_EMIT_LAYOUT_WRITE_H
#define NICNUMA_EMIT_LAYOUT_WRITE_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_layout;
struct nn_unit_file;

/* The directory --out names, created when missing. The path itself is the
 * user's (a symlink in it is their choice); new components are made without
 * following any. An O_DIRECTORY fd or a negative errno (-EINVAL: '..' in a
 * new directory). */
int nn_layout_out_open(const char *out);
/* May @f be written below @outfd (@out names it in messages)? Its drop-in
 * directory, when it exists, must be a real directory, and an existing file
 * a regular file whose first line is the header layout writes for its unit,
 * unless @force. 0 or a negative errno, with the message printed. */
int nn_layout_check_target(struct nn_ctx *ctx, int outfd, const char *out,
			   const struct nn_unit_file *f, bool force);
/* @f below @outfd: its directory made or opened without following a
 * symlink, then the file replaced atomically (mode 0644). */
int nn_layout_write_unit(int outfd, const struct nn_unit_file *f);
/* Warns about drop-ins in @dir of instances not in @l (an old instance
 * would pick them up). */
void nn_layout_warn_stale(struct nn_ctx *ctx, const char *dir, const struct nn_layout *l);
/* The files of a layout: with @dry_run shown (path and content), else
 * written into @out (every target checked first: all files or none), each
 * listed on ctx->out; then stale drop-ins in @out warned about and, in text,
 * the systemctl line to run next. 0 or a negative errno, message printed. */
int nn_layout_emit(struct nn_ctx *ctx, const char *out, bool dry_run, bool force,
		   const struct nn_layout *l, const struct nn_unit_file *files, size_t nfiles);
/* numactl as systemd will find it: the first of /usr/bin, /usr/local/bin,
 * /bin, /usr/sbin holding it; else /usr/bin/numactl with a warning.
 * malloc'd, NULL on ENOMEM. */
char *nn_layout_find_numactl(struct nn_ctx *ctx);

#endif
