/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ctx.h - the one context threaded through every library call
 *
 * It carries the fs root, the output, and the warnings a command collects on
 * its way (file + reason), so a bad file never stops a report: the CLI prints
 * the warnings at the end and picks the exit status.
 */
#ifndef NICNUMA_CTX_H
#define NICNUMA_CTX_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/print.h"

/* Exit statuses shared by every command. */
enum {
	NN_EXIT_OK = 0,		/* clean */
	NN_EXIT_WARN = 1,	/* completed with warnings, or drift found */
	NN_EXIT_ERROR = 2,	/* error: bad input, failed action */
};

struct nn_warning {
	char *file;	/* the file or object it is about, may be NULL */
	char *msg;
};

struct nn_ctx {
	struct nn_root root;
	struct nn_out out;
	struct nn_warning *warns;
	size_t nwarns, warns_cap;
	/* Notes: facts worth saying that are no problem (a down link whose
	 * driver has not requested its IRQs yet); never raise the exit status. */
	struct nn_warning *notes;
	size_t nnotes, notes_cap;
	int verbose;
	const char *prog;		/* for messages: "nicnuma" */
	const char *state_dir;		/* snapshots and lock: /var/lib/nicnuma */
	/* The kernel's napi-get answers of the run under way (one dump for
	 * every threaded NAPI it checks), or NULL: each question asks afresh.
	 * Touched only by discover/napi_pid.c's functions (discover/nic.h
	 * nn_napi_answers_begin, _end, _stale; tests/arch/napi_answers.sh). */
	struct nn_napi_answers *napi_answers;
	/* The run's deadline (CLOCK_MONOTONIC ms; 0 none): the OCI hook's,
	 * which the runtime waits for. Long walks (the claims' cgroup tree)
	 * stop there with a warning. */
	long long deadline_ms;
};

/* Opens the root (NULL: $NICNUMA_ROOT or "/") and sets defaults. */
int nn_ctx_init(struct nn_ctx *ctx, const char *root, bool json);
void nn_ctx_free(struct nn_ctx *ctx);

/* Records a warning; keeps errno. @file may be NULL. */
void nn_warn(struct nn_ctx *ctx, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Records a note: printed like a warning ("note:", JSON "notes") but it
 * leaves the exit status alone; keeps errno. @file may be NULL. */
void nn_note(struct nn_ctx *ctx, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Error message to stderr, prefixed with the program name; keeps errno. */
void nn_err(struct nn_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints collected warnings: to stderr in text mode, and as "warnings":[{file,
 * message}] into the current JSON object in JSON mode; then the notes, the
 * same way ("notes":[{file, message}], [] when there are none). */
void nn_print_warnings(struct nn_ctx *ctx);
/* The end of a command whose report is one object inside the document
 * (enable, disable): closes it, prints the warnings into the document and
 * closes that; returns @status, NN_EXIT_WARN for NN_EXIT_OK where warnings
 * were recorded. */
int nn_end_report(struct nn_ctx *ctx, int status);
/* Its two halves, for a command whose output is not ctx->out (a saved
 * report, a daemon's log): the "warnings" and "notes" arrays into @o's
 * current object; the lines on stderr ("PROG: warning: FILE: MSG", then
 * "PROG: note: ..."). */
void nn_warnings_json(const struct nn_ctx *ctx, struct nn_out *o);
void nn_warnings_stderr(const struct nn_ctx *ctx);
/* Forgets the collected warnings and notes (kept allocation): for a command that
 * prints a report per sample, each with its own warnings. */
void nn_warnings_clear(struct nn_ctx *ctx);
/* Forgets those recorded after the first @nwarns warnings and @nnotes notes:
 * for a lookup whose complaints are not the command's (rollback asking which
 * device a name is now, not what its locality is). */
void nn_warnings_keep(struct nn_ctx *ctx, size_t nwarns, size_t nnotes);

/* Refuses live-only actions (netlink, ioctl, signals, service control) under a
 * fake root with a clear message naming @what; returns -EPERM then. */
int nn_require_live(struct nn_ctx *ctx, const char *what);

#endif
