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
	return nn_root_open(&ctx->root, root);
}

void nn_warnings_clear(struct nn_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nwarns; i++) {
		free(ctx->warns[i].file);
		free(ctx->warns[i].msg);
	}
	ctx->nwarns = 0;
}

void nn_ctx_free(struct nn_ctx *ctx)
{
	nn_warnings_clear(ctx);
	free(ctx->warns);
	ctx->warns = NULL;
	ctx->warns_cap = 0;
	nn_out_free(&ctx->out);
	nn_root_close(&ctx->root);
}

void nn_warn(struct nn_ctx *ctx, const char *file, const char *fmt, ...)
{
	int saved = errno;
	struct nn_warning *w;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		goto out;
	if (NN_GROW(ctx->warns, ctx->nwarns, ctx->warns_cap)) {
		free(msg);
		goto out;
	}
	w = &ctx->warns[ctx->nwarns++];
	w->file = file ? strdup(file) : NULL;
	w->msg = msg;
out:
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

void nn_print_warnings(struct nn_ctx *ctx)
{
	size_t i;

	if (ctx->out.json) {
		nn_open_array(&ctx->out, "warnings");
		for (i = 0; i < ctx->nwarns; i++) {
			nn_open_object(&ctx->out, NULL);
			nn_print_string(&ctx->out, PRINT_JSON, "file", NULL, ctx->warns[i].file);
			nn_print_string(&ctx->out, PRINT_JSON, "message", NULL, ctx->warns[i].msg);
			nn_close_object(&ctx->out);
		}
		nn_close_array(&ctx->out);
	}
	/* Always on stderr too, so a JSON consumer's operator sees them. */
	for (i = 0; i < ctx->nwarns; i++) {
		struct nn_sb sb = NN_SB_INIT;

		if (ctx->warns[i].file) {
			nn_sb_escape(&sb, ctx->warns[i].file);
			nn_sb_puts(&sb, ": ");
		}
		nn_escape_line(&sb, ctx->warns[i].msg);	/* one line each */
		fprintf(stderr, "%s: warning: %s\n", ctx->prog, nn_sb_str(&sb) ? nn_sb_str(&sb) : "?");
		nn_sb_free(&sb);
	}
}

int nn_require_live(struct nn_ctx *ctx, const char *what)
{
	if (nn_root_is_live(&ctx->root))
		return 0;
	nn_err(ctx, "%s needs the live machine; refused under --root %s", what, ctx->root.path);
	return -EPERM;
}
