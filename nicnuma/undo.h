/* SPDX-License-Identifier: GPL-2.0-or-later */
/* undo.h - the snapshot/undo log every writing command keeps
 *
 * Before the first write, the value about to change is recorded and the log
 * is persisted (write, fsync, rename; mode 0600) under ctx->state_dir, which
 * is resolved inside the fs root like every other path. rollback replays the
 * "before" values in reverse order. One log per apply/reserve run:
 *   {"version":1,"command":"apply","created":"<iso8601>","host":{shape},
 *    "changes":[{"kind":"file","path","before","after"},
 *               {"kind":"irqbalance","before":"running|stopped","after",..}, ...]}
 */
#ifndef NICNUMA_UNDO_H
#define NICNUMA_UNDO_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct json_object;

enum nn_change_kind {
	NN_CHANGE_FILE = 0,	/* a sysfs/procfs value: path, before, after */
	NN_CHANGE_IRQBALANCE,	/* daemon state; detail holds how it was started */
	NN_CHANGE_CHANNELS,	/* ETHTOOL_SCHANNELS combined count; path = ifname */
	NN_CHANGE_MOUNT,	/* a hugetlbfs mount we made; path = mount point */
};

struct nn_change {
	enum nn_change_kind kind;
	char *path;
	char *before;
	char *after;
	char *detail;		/* kind-specific JSON text or NULL */
};

struct nn_undo {
	char *file;		/* snapshot path inside the root */
	char *command;
	struct nn_change *changes;
	size_t nchanges;
	struct json_object *host;	/* shape, for the report; may be NULL */
};

/* Starts a log for @command ("apply", "hugepages reserve"); nothing is written
 * until the first record. */
int nn_undo_begin(struct nn_ctx *ctx, struct nn_undo *u, const char *command);
/* Appends a change and persists the whole log (write, fsync, rename) BEFORE
 * the caller performs the write, so a crash mid-apply is still undoable. */
int nn_undo_record(struct nn_ctx *ctx, struct nn_undo *u, enum nn_change_kind kind,
		   const char *path, const char *before, const char *after, const char *detail);
/* Loads @file, or the newest log in ctx->state_dir when @file is NULL. */
int nn_undo_load(struct nn_ctx *ctx, const char *file, struct nn_undo *u);
/* Restores every change in reverse order, reading each back; reports each
 * value through ctx->out. Returns 0, or the first error after trying all. */
int nn_undo_rollback(struct nn_ctx *ctx, const struct nn_undo *u);
void nn_undo_free(struct nn_undo *u);

/* Batch form for writers with many values (apply: ~1100 IRQs): add every
 * change in memory, then persist once with nn_undo_save() before the first
 * write. nn_undo_record() is add + save. */
int nn_undo_add(struct nn_undo *u, enum nn_change_kind kind, const char *path,
		const char *before, const char *after, const char *detail);
int nn_undo_save(struct nn_ctx *ctx, struct nn_undo *u);
/* Marks a log as rolled back (rewritten atomically); nn_undo_load(NULL) then
 * skips it, so repeated rollbacks walk back through older runs in order. */
int nn_undo_mark_rolled_back(struct nn_ctx *ctx, const struct nn_undo *u);

/* Exclusive lock on STATE_DIR/lock (flock), so two writers never interleave.
 * -EBUSY (with a message naming the holder's pid) when another run holds it.
 * Returns the fd to pass to nn_state_unlock(). */
int nn_state_lock(struct nn_ctx *ctx);
void nn_state_unlock(int fd);
/* Opens (creating with mode 0700 when @create) ctx->state_dir inside the root. */
int nn_state_dir_open(struct nn_ctx *ctx, int create);

/* Same value as the kernel would print it: cpulists (paths ending in "_list")
 * and masks (xps_cpus, smp_affinity) compare as sets, the rest as trimmed text. */
bool nn_value_equal(const char *path, const char *a, const char *b);

const char *nn_change_kind_name(enum nn_change_kind kind);

#endif
