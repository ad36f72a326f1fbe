// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_save.c - the bench report's files (see bench_save.h) */
#include "nicnuma/act/bench_save.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
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
