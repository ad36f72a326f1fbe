// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_save.c - the bench report's files (see bench_save.h) */
#include "nicnuma/emit/bench_save.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/print.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/bench.h"
#include "nicnuma/plan/bench_html.h"

/* The directory fd of @dir, its last component made (0755 less the umask),
 * its parents there already; no link followed at any level. */
static int open_report_dir(const char *dir)
{
	int base = open(dir[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (base < 0)
		return -errno;
	fd = nn_mkdirat_walk(base, dir, 0755, NN_MKDIR_DOTDOT | NN_MKDIR_UMASK);
	close(base);
	return fd;
}

int nn_bench_report_save(const char *dir, struct json_object *doc, const char **what)
{
	struct nn_sb html = NN_SB_INIT;
	const char *json;
	int dfd, err;

	*what = dir;
	dfd = open_report_dir(dir);
	if (dfd < 0)
		return dfd;
	json = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	*what = "report.json";
	err = json ? nn_write_atomic_at(dfd, "report.json", json, strlen(json), 0644) : -ENOMEM;
	if (err)
		goto out;
	*what = "report.html";
	err = nn_bench_html(doc, &html);
	if (!err)
		err = nn_write_atomic_at(dfd, "report.html", nn_sb_str(&html), html.len, 0644);
out:
	nn_sb_free(&html);
	close(dfd);
	return err;
}

int nn_bench_report_write(struct nn_ctx *ctx, const struct nn_bench_result *b, char *const *argv,
			  int argc, const char *dir)
{
	struct nn_out rep;
	struct json_object *tree;
	const char *what = NULL;
	char created[64];
	time_t now = time(NULL);
	struct tm tm;
	int k, err;

	nn_out_init(&rep, stdout, true);
	nn_open_object(&rep, NULL);
	nn_open_object(&rep, "report");
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%S%z", localtime_r(&now, &tm));
	nn_print_string(&rep, PRINT_JSON, "created", NULL, created);
	nn_open_array(&rep, "command");
	nn_print_string(&rep, PRINT_JSON, NULL, NULL, ctx->prog ? ctx->prog : "nicnuma");
	if (ctx->out.json)
		nn_print_string(&rep, PRINT_JSON, NULL, NULL, "--json");
	for (k = 0; k < argc; k++)
		nn_print_string(&rep, PRINT_JSON, NULL, NULL, argv[k]);
	nn_close_array(&rep);
	nn_close_object(&rep);
	nn_bench_print(&rep, b);
	nn_warnings_json(ctx, &rep);
	nn_close_object(&rep);
	tree = nn_out_take_tree(&rep);
	err = tree ? nn_bench_report_save(dir, tree, &what) : -ENOMEM;
	json_object_put(tree);
	if (err) {
		nn_err(ctx, "bench: cannot write the report in %s (%s): %s", dir, what ? what : "?",
		       strerror(-err));
		return -1;
	}
	nn_print_string(&ctx->out, PRINT_ANY, "report_dir", "report: %s/report.html (and report.json)\n",
			dir);
	return 0;
}
