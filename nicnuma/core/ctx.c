// SPDX-License-Identifier: GPL-2.0-or-later
/* ctx.c - context, warnings and errors */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/ctx.h"

int nn_ctx_init(struct nn_ctx *ctx, const char *root, bool json)
{
	const char *sd = getenv("NICNUMA_STATE_DIR");

	memset(ctx, 0, sizeof(*ctx));
	ctx->prog = "nicnuma";
	ctx->state_dir = sd && *sd ? sd : "/var/lib/nicnuma";
	nn_out_init(&ctx->out, stdout, json);
	nn_out_stream(&ctx->out);
	return nn_root_open(&ctx->root, root);
}

/* Forgets the messages of @v from the @keep-th on. */
static void clear_list(struct nn_warning *v, size_t *n, size_t keep)
{
	size_t i;

	for (i = keep; i < *n; i++) {
		free(v[i].file);
		free(v[i].msg);
	}
	if (keep < *n)
		*n = keep;
}

void nn_warnings_clear(struct nn_ctx *ctx)
{
	clear_list(ctx->warns, &ctx->nwarns, 0);
	clear_list(ctx->notes, &ctx->nnotes, 0);
}

void nn_warnings_keep(struct nn_ctx *ctx, size_t nwarns, size_t nnotes)
{
	clear_list(ctx->warns, &ctx->nwarns, nwarns);
	clear_list(ctx->notes, &ctx->nnotes, nnotes);
}

void nn_ctx_free(struct nn_ctx *ctx)
{
	nn_warnings_clear(ctx);
	free(ctx->warns);
	ctx->warns = NULL;
	ctx->warns_cap = 0;
	free(ctx->notes);
	ctx->notes = NULL;
	ctx->notes_cap = 0;
	nn_out_free(&ctx->out);
	nn_root_close(&ctx->root);
}

static void add_msg(struct nn_warning **v, size_t *n, size_t *cap, const char *file,
		    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

static void add_msg(struct nn_warning **v, size_t *n, size_t *cap, const char *file,
		    const char *fmt, va_list ap)
{
	struct nn_warning *w;
	char *msg;

	if (vasprintf(&msg, fmt, ap) < 0)
		return;
	if (NN_GROW(*v, *n, *cap)) {
		free(msg);
		return;
	}
	w = &(*v)[(*n)++];
	w->file = file ? strdup(file) : NULL;
	w->msg = msg;
}

void nn_warn(struct nn_ctx *ctx, const char *file, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	add_msg(&ctx->warns, &ctx->nwarns, &ctx->warns_cap, file, fmt, ap);
	va_end(ap);
	errno = saved;
}

void nn_note(struct nn_ctx *ctx, const char *file, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	add_msg(&ctx->notes, &ctx->nnotes, &ctx->notes_cap, file, fmt, ap);
	va_end(ap);
	errno = saved;
}

void nn_err(struct nn_ctx *ctx, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fprintf(stderr, "%s: ", ctx && ctx->prog ? ctx->prog : "nicnuma");
	va_start(ap, fmt);
	/* Messages quote file names and values from trees and plans. */
	nn_vfprintf_text(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	errno = saved;
}

static void json_list(struct nn_out *o, const char *key, const struct nn_warning *v, size_t n)
{
	size_t i;

	nn_open_array(o, key);
	for (i = 0; i < n; i++) {
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_JSON, "file", NULL, v[i].file);
		nn_print_string(o, PRINT_JSON, "message", NULL, v[i].msg);
		nn_close_object(o);
	}
	nn_close_array(o);
}

static void stderr_list(const struct nn_ctx *ctx, const char *kind, const struct nn_warning *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct nn_sb sb = NN_SB_INIT;

		if (v[i].file) {
			nn_sb_escape(&sb, v[i].file);
			nn_sb_puts(&sb, ": ");
		}
		nn_escape_line(&sb, v[i].msg);	/* one line each */
		fprintf(stderr, "%s: %s: %s\n", ctx->prog, kind, nn_sb_str(&sb) ? nn_sb_str(&sb) : "?");
		nn_sb_free(&sb);
	}
}

void nn_warnings_json(const struct nn_ctx *ctx, struct nn_out *o)
{
	json_list(o, "warnings", ctx->warns, ctx->nwarns);
	/* both keys always, [] when empty: stable keys for a JSON consumer */
	json_list(o, "notes", ctx->notes, ctx->nnotes);
}

void nn_warnings_stderr(const struct nn_ctx *ctx)
{
	stderr_list(ctx, "warning", ctx->warns, ctx->nwarns);
	stderr_list(ctx, "note", ctx->notes, ctx->nnotes);
}

void nn_print_warnings(struct nn_ctx *ctx)
{
	if (ctx->out.json)
		nn_warnings_json(ctx, &ctx->out);
	/* Always on stderr too, so a JSON consumer's operator sees them. */
	nn_warnings_stderr(ctx);
}

int nn_end_report(struct nn_ctx *ctx, int status)
{
	nn_close_object(&ctx->out);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	return status == NN_EXIT_OK && ctx->nwarns ? NN_EXIT_WARN : status;
}

int nn_require_live(struct nn_ctx *ctx, const char *what)
{
	if (nn_root_is_live(&ctx->root))
		return 0;
	nn_err(ctx, "%s needs the live machine; refused under --root %s", what, ctx->root.path);
	return -EPERM;
}
