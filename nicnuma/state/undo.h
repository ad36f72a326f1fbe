/* SPDX-License-Identifier: GPL-2.0-or-later */
/* undo.h - the snapshot/undo log every writing command keeps
 *
 * Before the first write, the value about to change is recorded and the log
 * is persisted (nn_write_atomic_at: temp file, fsync, rename; mode 0600) under
 * ctx->state_dir, which is resolved inside the fs root one component at a time
 * like every other path. rollback replays the "before" values in reverse order.
 * One log per apply/reserve run:
 *   {"version":1,"command":"apply","created":"<iso8601>",
 *    "host":{"ncpus","nnodes","pci":[..],"nics":[names]},
 *    "changes":[{"kind":"file","path","before","after"},
 *               {"kind":"irqbalance","before":"running|stopped","after",..}, ...]}
 *
 * The log knows no change kind. Each kind (file values, channels, irqbalance,
 * a hugetlbfs mount) is a struct nn_change_ops defined beside its owner; a
 * writer records with its kind's ops, a reader is given a table of them.
 *
 * A log is data from disk that rollback acts on as root, so it is trusted
 * only when (rule of nn_undo_load):
 *  - its directory and the file are owned by root (or by the euid running
 *    nicnuma when that is not root: it can only hurt itself) and are not
 *    group- or world-writable; the file is a regular file with one link,
 *    opened O_NOFOLLOW|O_NONBLOCK, at most NN_DOC_MAX_BYTES;
 *  - every change passes its kind's validate() BEFORE any change is
 *    replayed: a file change names only a value nicnuma itself writes, a
 *    channels change only a NIC listed in the log's host, a mount only a
 *    hugetlbfs mounted there now, irqbalance no program, argv, environment
 *    or path to delete.
 * A log that fails any of these stops rollback naming the file and the
 * reason; the newest log is never skipped for an older one.
 *
 * Pruning (nn_undo_prune, under the state lock): the newest NN_UNDO_KEEP
 * rolled-back logs are kept, older rolled-back ones removed; a log not
 * rolled back is never removed. Temp files (".NAME.XXXXXX") older than the
 * lock holder are left-overs of a killed run and are removed.
 */
#ifndef NICNUMA_UNDO_H
#define NICNUMA_UNDO_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct json_object;
struct nn_undo;
struct nn_change;

/* Rolled-back logs kept by nn_undo_prune(). */
#define NN_UNDO_KEEP 20

/* What restoring one change found and did. */
struct nn_restore {
	char *current;		/* value found before restoring (malloc'd) or NULL */
	bool unchanged;		/* already as before: nothing written */
	char why[256];		/* why it failed */
};

/* One kind of change. */
struct nn_change_ops {
	const char *name;	/* the "kind" in the log: "file", "channels", ... */
	bool live_only;		/* acts on the running kernel: skipped under a fake root */
	/* Checks a change of a log before anything is replayed: 0, or -EINVAL
	 * with the reason in @why. @ctx NULL: the document alone (pure, what the
	 * fuzzer sees); with @ctx also the state it would act on (a mount). */
	int (*validate)(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			char *why, size_t whylen);
	/* Puts c->before back: 0 or a negative errno with res->why set. */
	int (*restore)(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res);
};

struct nn_change {
	const struct nn_change_ops *ops;
	char *path;
	char *before;
	char *after;
	char *detail;		/* kind-specific JSON text or NULL */
	/* The device an interface's value belonged to when logged (JSON text,
	 * "device" in the log; act/dev_ident.h writes and checks it) or NULL. */
	char *device;
	/* Set by the caller before a replay: not restored, reported "skipped"
	 * with this reason (malloc'd; a device that is no longer the one logged). */
	char *skip;
};

struct nn_undo {
	char *file;		/* snapshot path inside the root */
	char *command;
	struct nn_change *changes;
	size_t nchanges, cap;
	struct json_object *host;	/* shape and NIC names; may be NULL */
	bool rolled_back;	/* loaded: it says it was replayed already */
};

/* Starts a log for @command ("apply", "hugepages reserve"); nothing is written
 * until the first record. */
int nn_undo_begin(struct nn_ctx *ctx, struct nn_undo *u, const char *command);
/* Appends a change and persists the whole log BEFORE the caller performs the
 * write, so a crash mid-apply is still undoable. */
int nn_undo_record(struct nn_ctx *ctx, struct nn_undo *u, const struct nn_change_ops *ops,
		   const char *path, const char *before, const char *after, const char *detail);
/* Parses and validates (ctx-free checks) one log from memory: the pure core
 * of nn_undo_load. @kinds is a NULL-terminated table of the kinds accepted.
 * 0, or -EINVAL/-EFBIG/-ENOMEM with the reason in @why. */
int nn_undo_parse(const char *text, size_t len, const struct nn_change_ops *const *kinds,
		  struct nn_undo *u, char *why, size_t whylen);
/* The log names in ctx->state_dir, newest first (free with
 * nn_undo_names_free): 0 or the negative errno of the directory. */
int nn_undo_list(struct nn_ctx *ctx, char ***names, size_t *n);
void nn_undo_names_free(char **names, size_t n);
/* Loads @file (a name in the state dir, or a path inside the root), or the
 * newest log in ctx->state_dir not rolled back when @file is NULL: read under
 * the trust rule above, parsed, every change validated against the host.
 * -ENODATA, with nothing printed, when @file is NULL and every log was
 * rolled back (or there is none); any other failure names the file and why. */
int nn_undo_load(struct nn_ctx *ctx, const char *file, const struct nn_change_ops *const *kinds,
		 struct nn_undo *u);
/* Every change's validate() with @ctx (also against the host: a mount);
 * prints which change of which file fails and why. */
int nn_undo_validate(struct nn_ctx *ctx, const struct nn_undo *u);
/* Validates the whole log (nothing restored when that fails), then restores
 * every change in reverse order, reading each back; reports each
 * value through ctx->out. Returns 0, or the first error after trying all. */
int nn_undo_rollback(struct nn_ctx *ctx, const struct nn_undo *u);
void nn_undo_free(struct nn_undo *u);
/* Sets change @i's device identity (JSON object text, copied). 0, -EINVAL or -ENOMEM. */
int nn_undo_set_device(struct nn_undo *u, size_t i, const char *device);
/* Whether the log's host ("host":{"nics":[..]}) names @ifname (channels,
 * rss, napi: a change may act only on a NIC the log was written for). */
bool nn_undo_host_has_nic(const struct nn_undo *u, const char *ifname);
/* The one check of a change's interface (channels, rss, napi): a valid
 * name (nn_ifname_valid) of a NIC the log's host names. 0, or -EINVAL with
 * the reason in @why. */
int nn_undo_nic_check(const struct nn_undo *u, const char *ifname, char *why, size_t whylen);

/* Batch form for writers with many values (apply: ~1100 IRQs): add every
 * change in memory, then persist once with nn_undo_save() before the first
 * write. nn_undo_record() is add + save. */
int nn_undo_add(struct nn_undo *u, const struct nn_change_ops *ops, const char *path,
		const char *before, const char *after, const char *detail);
/* -EFBIG (with a message giving the size) when the log would be larger than
 * rollback reads (NN_DOC_MAX_BYTES): nothing is written then. */
int nn_undo_save(struct nn_ctx *ctx, struct nn_undo *u);
/* Marks the log u->file (the one replayed, wherever it is) as rolled back,
 * rewritten atomically; nn_undo_load(NULL) then passes over it, so repeated
 * rollbacks walk back through older runs in order. */
int nn_undo_mark_rolled_back(struct nn_ctx *ctx, const struct nn_undo *u);
/* The pruning policy above; call with the state lock held. */
int nn_undo_prune(struct nn_ctx *ctx);

/* Exclusive lock on STATE_DIR/lock (flock), so two writers never interleave.
 * The lock file must be a regular file with one link owned by the euid.
 * -EBUSY (with a message naming the holder's pid) when another run holds it.
 * Returns the fd to pass to nn_state_unlock(). */
int nn_state_lock(struct nn_ctx *ctx);
void nn_state_unlock(int fd);
/* Reads @name in state directory @dfd under the trust rule of the logs: no
 * symlink, no FIFO (O_NONBLOCK: an open never waits for a writer), a
 * regular file with one link, owned by root (the euid when not root),
 * writable by nobody else, at most @max bytes. *@text malloc'd and
 * NUL-terminated; 0, or a negative errno with the reason in @why. */
int nn_state_read_trusted(int dfd, const char *name, size_t max, char **text, size_t *len, char *why,
			  size_t whylen);
/* Opens (creating with mode 0700 when @create) ctx->state_dir inside the
 * root, and refuses one that is not trusted (owner, group/world-writable). */
int nn_state_dir_open(struct nn_ctx *ctx, int create);

#endif
