// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_save.c - the bench report's files (see bench_save.h) */
#include "nicnuma/act/bench_save.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/print.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/bench.h"
#include "nicnuma/plan/bench_html.h"

/* The directory fd of @dir, its last component made; no link followed. */
static int open_report_dir(const char *dir)
{
	char comp[NAME_MAX + 1];
	const char *p = dir, *e;
	int fd, next;

	fd = open(dir[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		size_t n;
		bool last;

		while (*p == '/')
			p++;
		if (!*p)
			return fd;
		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (n >= sizeof(comp)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p = e;
		last = !p[strspn(p, "/")];
		if (!strcmp(comp, "."))
			continue;
		if (last && strcmp(comp, "..") && mkdirat(fd, comp, 0755) < 0 && errno != EEXIST) {
			int err = -errno;

			close(fd);
			return err;
		}
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			struct stat st;
			int err = -errno;

			/* O_DIRECTORY may answer ENOTDIR for a link: say ELOOP. */
			if (err == -ENOTDIR && fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				err = -ELOOP;
			close(fd);
			return err;
		}
		close(fd);
		fd = next;
	}
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
	const char *what = NULL;
	char created[64];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
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
	nn_open_array(&rep, "warnings");
	for (i = 0; i < ctx->nwarns; i++) {
		nn_open_object(&rep, NULL);
		nn_print_string(&rep, PRINT_JSON, "file", NULL, ctx->warns[i].file);
		nn_print_string(&rep, PRINT_JSON, "message", NULL, ctx->warns[i].msg);
		nn_close_object(&rep);
	}
	nn_close_array(&rep);
	nn_close_object(&rep);
	err = rep.root ? nn_bench_report_save(dir, rep.root, &what) : -ENOMEM;
	nn_out_free(&rep);
	if (err) {
		nn_err(ctx, "bench: cannot write the report in %s (%s): %s", dir, what ? what : "?",
		       strerror(-err));
		return -1;
	}
	nn_print_string(&ctx->out, PRINT_ANY, "report_dir", "report: %s/report.html (and report.json)\n",
			dir);
	return 0;
}
