/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_save.h - "bench mismatch --report DIR" on disk: report.json and the
 * page plan/bench_html.c renders, written into a directory nobody else could
 * have pointed elsewhere */
#ifndef NICNUMA_EMIT_BENCH_SAVE_H
#define NICNUMA_EMIT_BENCH_SAVE_H

struct json_object;
struct nn_bench_result;
struct nn_ctx;

/* Opens @dir, walking from "/" (absolute) or the working directory with
 * O_NOFOLLOW at every component, and creates its last component (mode 0755,
 * an existing directory is fine; the ones above must exist). A symlink
 * anywhere on the way is refused (-ELOOP): a user who can write a directory
 * on the path could have planted it. report.json and report.html are then
 * replaced in it, each by nn_write_atomic_at() relative to that directory's
 * fd (a planted report.json link is replaced, never written through).
 * Returns 0 or a negative errno; @what receives the path or the file that
 * failed. */
int nn_bench_report_save(const char *dir, struct json_object *doc, const char **what);

/* --report DIR: nn_bench_print's document as JSON with when it was made,
 * the command (@argv, @argc: the bench's arguments) and ctx's warnings, saved
 * with its HTML page by nn_bench_report_save; "report_dir" then goes to
 * ctx->out. Returns 0 or -1 (message printed). */
int nn_bench_report_write(struct nn_ctx *ctx, const struct nn_bench_result *b, char *const *argv,
			  int argc, const char *dir);

#endif
