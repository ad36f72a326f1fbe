// SPDX-License-Identifier: GPL-2.0-or-later
/* hp_mount.c - a hugetlbfs mount of one page size, recorded for rollback */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "hugepages/hugepages.h"
#include "nicnuma/ctx.h"
#include "nicnuma/undo.h"

/* Whether /proc/mounts now shows hugetlbfs of @size_kb on @path. */
static bool mounted(struct nn_ctx *ctx, const char *path, unsigned long size_kb)
{
	struct nn_hp_mount *m = NULL;
	size_t n = 0, i;
	bool found = false;
	char *text;

	if (nn_read_file(&ctx->root, "/proc/mounts", &text, NULL))
		return false;
	if (!nn_hp_parse_mounts(text, 0, &m, &n, NULL)) {
		for (i = 0; i < n; i++)
			if (!strcmp(m[i].path, path) && m[i].size_kb == size_kb)
				found = true;
		nn_hp_mounts_free(m, n);
	}
	free(text);
	return found;
}

int nn_hp_mount(struct nn_ctx *ctx, struct nn_undo *undo, const char *dir, unsigned long size_kb)
{
	char real[PATH_MAX], sz[32], opts[64], detail[128];
	struct stat st;
	int err;

	err = nn_require_live(ctx, "mounting hugetlbfs");
	if (err)
		return err;
	/* Rollback unmounts by path: record the canonical one. */
	if (!realpath(dir, real))
		return -errno;
	if (stat(real, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	err = nn_hp_format_size(size_kb, sz, sizeof(sz));
	if (err)
		return err;
	snprintf(opts, sizeof(opts), "pagesize=%s", sz);
	snprintf(detail, sizeof(detail), "{\"fstype\":\"hugetlbfs\",\"options\":\"%s\",\"size_kb\":%lu}",
		 opts, size_kb);
	err = nn_undo_record(ctx, undo, NN_CHANGE_MOUNT, real, NULL, "hugetlbfs", detail);
	if (err)
		return err;
	if (mount("hugetlbfs", real, "hugetlbfs", MS_NOSUID | MS_NODEV, opts) < 0)
		return -errno;
	if (!mounted(ctx, real, size_kb)) {
		/* Not what we asked for: take it down rather than leave a stray mount. */
		umount2(real, MNT_DETACH);
		return -EIO;
	}
	return 0;
}
