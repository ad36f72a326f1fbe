/* SPDX-License-Identifier: GPL-2.0-or-later */
/* undo_internal.h - what the state layer's files share (state_dir.c, undo_log.c, undo_load.c, undo_replay.c)
 *
 * The log lives in ctx->state_dir resolved inside the fs root, so a fixture
 * run keeps its snapshots in its own tree and never touches /var/lib. Every
 * save goes through nn_write_atomic_at(): after a crash the log is either the
 * previous or the new version, never a torn one. Replaying a log is acting
 * as root on what a file says, so reading one is strict (see undo.h).
 */
#ifndef NICNUMA_STATE_UNDO_INTERNAL_H
#define NICNUMA_STATE_UNDO_INTERNAL_H

#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "nicnuma/state/undo.h"

#define NN_UNDO_SUFFIX ".json"
#define NN_MIB(x) ((unsigned int)((x) >> 20))

/* Owned by root, or by the euid when that is not root, and not group- or
 * world-writable: 0, or -EPERM with the reason in @why. */
int nn_state_trusted(const struct stat *st, char *why, size_t whylen);
/* Opens directory @dir inside the root (created 0700 when @create) and
 * refuses an untrusted one. An O_DIRECTORY fd or a negative errno. */
int nn_state_open_dir(struct nn_ctx *ctx, const char *dir, int create);
/* Splits a log path "DIR/NAME" into its directory (malloc'd) and name. */
int nn_undo_split_path(const char *path, char **dir, const char **name);
/* The log names in @dfd, newest first (free with nn_undo_names_free). */
int nn_undo_list_at(int dfd, char ***out, size_t *nout);
/* Whether log @name says it was rolled back (1, 0); -errno when it cannot tell. */
int nn_undo_is_rolled_back(int dfd, const char *name);
/* Runs every change's validate(); @ctx NULL for the document-only checks. */
int nn_undo_validate_all(struct nn_ctx *ctx, const struct nn_undo *u, char *why, size_t whylen);

static inline char *nn_undo_dupz(const char *s)
{
	return s ? strdup(s) : NULL;
}

#endif
