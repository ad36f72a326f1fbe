/* SPDX-License-Identifier: GPL-2.0-or-later */
/* claims_store.h - the claim records: root-owned state under /run/nicnuma/claims
 *
 * A claim is a set of CPUs no NIC work may use while it lasts (docs/claims.md).
 * The records of `nicnuma claim` and of the OCI hook are one JSON file each,
 * NAME.json in NN_CLAIMS_DIR inside the fs root: the directory 0700 and every
 * file 0600, owned by root (the euid when it is not root, as the undo log's
 * trust rule says), a regular file with one link, at most
 * NN_CLAIM_RECORD_MAX bytes, every field validated before use. A file that
 * breaks a rule is refused with the reason and never trusted. Written through
 * core's atomic writer (nn_write_atomic_at), so a reader sees a whole record
 * or none. Pure parse/format plus the store's file I/O; whether the owner
 * still lives is discover's question (discover/claims.h).
 */
#ifndef NICNUMA_STATE_CLAIMS_STORE_H
#define NICNUMA_STATE_CLAIMS_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"

struct nn_ctx;

#define NN_CLAIMS_DIR		"/run/nicnuma/claims"
#define NN_CLAIM_RECORD_MAX	(64 * 1024)	/* bytes of one record file */
#define NN_CLAIM_NAME_MAX	128		/* a container id (64 hex) and a prefix fit */
#define NN_CLAIM_REASON_MAX	512
#define NN_CLAIM_RECORDS_MAX	4096		/* records read from the directory */

/* One claim record. */
struct nn_claim {
	char *name;			/* [A-Za-z0-9_.:@-], 1..NN_CLAIM_NAME_MAX, not "." first */
	struct nn_cpuset cpus;		/* never empty */
	char *owner;			/* "claim" (nicnuma claim), "hook" (OCI hook), "cpuset" (a partition) */
	char *reason;			/* free text, NULL none */
	int pid;			/* the owner process; -1 none */
	unsigned long long pid_start;	/* its starttime (/proc/PID/stat field 22): a recycled pid is not it */
	char *container_id;		/* the OCI container, NULL none */
	long long created;		/* unix seconds */
	unsigned long long dev, ino;	/* the file it was read from (0: not read from one) */
};

#define NN_CLAIM_INIT { .name = NULL, .cpus = NN_CPUSET_INIT, .owner = NULL, .reason = NULL, \
			.pid = -1, .pid_start = 0, .container_id = NULL, .created = 0, .dev = 0, .ino = 0 }

void nn_claim_free(struct nn_claim *c);
/* Deep copy; 0 or -ENOMEM. */
int nn_claim_copy(struct nn_claim *dst, const struct nn_claim *src);

/* A valid claim name (also a valid record file name stem). */
bool nn_claim_name_ok(const char *name);
/* Checks every field of @c (name, owner, reason length and characters, pid,
 * CPUs not empty and below NN_CPU_MAX). 0, or -EINVAL with the reason in @why. */
int nn_claim_validate(const struct nn_claim *c, char *why, size_t whylen);

/* Pure: a record's JSON text into @c (validated). 0, or -EINVAL with the
 * reason in @why. */
int nn_claim_parse(const char *text, size_t len, struct nn_claim *c, char *why, size_t whylen);
/* Pure: @c as the record's JSON text (malloc'd, NUL-terminated), NULL on ENOMEM. */
char *nn_claim_format(const struct nn_claim *c);

/* The store. Each returns 0 or a negative errno with the message printed
 * (nn_err) unless said otherwise. */
/* Writes @c as NN_CLAIMS_DIR/NAME.json (directory made 0700 when missing). */
int nn_claim_store_write(struct nn_ctx *ctx, const struct nn_claim *c);
/* Removes NAME.json; -ENOENT (not printed) when there is none. */
int nn_claim_store_remove(struct nn_ctx *ctx, const char *name);
/* Removes the very file @c was read from (its dev and inode), and only
 * that: -ESTALE (not printed) when NAME.json is another file now (written
 * again since @c was judged), -ENOENT when it is gone. For pruning, under
 * nn_claim_store_lock(). */
int nn_claim_store_remove_read(struct nn_ctx *ctx, const struct nn_claim *c);
/* Serialises the store's writers and pruners: an exclusive flock on the
 * records' directory (checked as the trust rule says), held until the
 * returned fd is closed. A writer holds it from reading the old record to
 * writing the new one, a pruner from judging a record stale to removing
 * it, so a pruner never removes a record written after it judged. Never
 * held across a re-apply (the watcher prunes under it). The fd, -ENOENT
 * (not printed) when there is no directory and not @create, or a negative
 * errno (printed). */
int nn_claim_store_lock(struct nn_ctx *ctx, bool create);
/* The records' directory (made 0700 when missing and @create), checked as
 * the trust rule says: an O_DIRECTORY fd, or a negative errno (printed). */
int nn_claim_store_open_dir(struct nn_ctx *ctx, bool create);
/* Reads NAME.json, trust rule and validation; -ENOENT (not printed) when
 * there is none, -EPERM/-EINVAL with the reason in @why (not printed). */
int nn_claim_store_read(struct nn_ctx *ctx, const char *name, struct nn_claim *c,
			char *why, size_t whylen);

/* Every trusted record, sorted by name. A file that breaks the trust rule or
 * does not parse is a warning (nn_warn naming the file and why) and is left
 * out; a missing directory is no record. 0 or a negative errno (printed). */
struct nn_claim_records {
	struct nn_claim *v;
	size_t n, cap;
};
int nn_claim_store_list(struct nn_ctx *ctx, struct nn_claim_records *out);
void nn_claim_records_free(struct nn_claim_records *r);

#endif
