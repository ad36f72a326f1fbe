// SPDX-License-Identifier: GPL-2.0-or-later
/* hp_mount.c - a hugetlbfs mount of one page size, recorded for rollback */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hugepages/hp_print.h"
#include "hugepages/hp_set.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/print.h"
#include "nicnuma/state/undo.h"

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

int nn_hp_mount_check(struct nn_ctx *ctx, const struct nn_hp_state *st, const char *dir,
		      unsigned long size_kb, bool dry_run, const struct nn_hp_mount **existing)
{
	char real[PATH_MAX];
	struct stat sb;

	*existing = nn_hp_state_mount(st, size_kb);
	if (*existing)
		return 0;
	if (!nn_root_is_live(&ctx->root)) {
		if (dry_run)
			return 0;
		return nn_require_live(ctx, "--mount (hugetlbfs)");
	}
	if (stat(dir, &sb) < 0) {
		int err = -errno;

		nn_err(ctx, "--mount '%s': %s", dir, strerror(-err));
		return err;
	}
	if (!S_ISDIR(sb.st_mode)) {
		nn_err(ctx, "--mount '%s': not a directory", dir);
		return -ENOTDIR;
	}
	/* Stacking a second hugetlbfs on one holding another size would hide
	 * its files from whoever uses them. */
	if (realpath(dir, real)) {
		size_t i;

		for (i = 0; i < st->nmounts; i++) {
			char other[32];

			if (strcmp(st->mounts[i].path, real))
				continue;
			if (nn_hp_format_size(st->mounts[i].size_kb, other, sizeof(other)))
				snprintf(other, sizeof(other), "?");
			nn_err(ctx, "--mount '%s': already holds hugetlbfs pagesize=%s", dir, other);
			return -EBUSY;
		}
	}
	return 0;
}

bool nn_hp_mount_is(const struct nn_hp_mount *m, const char *dir)
{
	char real[PATH_MAX];

	return realpath(dir, real) && !strcmp(real, m->path);
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
	err = nn_undo_record(ctx, undo, &nn_mount_change_ops, real, NULL, "hugetlbfs", detail);
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

/* A mount point as the kernel names it: absolute, no "." or ".." component,
 * no double or trailing slash, not "/". */
static bool canonical_dir(const char *p)
{
	const char *s;

	if (!p || p[0] != '/' || !p[1] || strstr(p, "//") || p[strlen(p) - 1] == '/')
		return false;
	for (s = p; (s = strchr(s, '/')); s++)
		if (!strncmp(s, "/./", 3) || !strcmp(s, "/.") || !strncmp(s, "/../", 4) ||
		    !strcmp(s, "/.."))
			return false;
	return true;
}

/* The filesystem type mounted on top at @path per /proc/self/mountinfo (read
 * through the fs root): 1 hugetlbfs, 0 nothing mounted there, -EPERM
 * another type, or -errno when it cannot be read. Lines are in mount order:
 * the last one for @path is what umount would take down. */
static int top_mount(struct nn_ctx *ctx, const char *path)
{
	char *text = NULL, *line, *save = NULL;
	int err, found = 0;

	err = nn_read_file(&ctx->root, "/proc/self/mountinfo", &text, NULL);
	if (err)
		return err;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *sep, *fstype, *sp = NULL, *tok;
		int i;

		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		fstype = strtok_r(sep + 3, " ", &sp);
		for (i = 0, tok = strtok_r(line, " ", &sp); tok && i < 5;
		     tok = strtok_r(NULL, " ", &sp))
			f[i++] = tok;
		if (i < 5 || !fstype)
			continue;
		nn_hp_mount_unescape(f[4]);
		if (!strcmp(f[4], path))
			found = !strcmp(fstype, "hugetlbfs") ? 1 : -EPERM;
	}
	free(text);
	return found;
}

static int mount_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			  char *why, size_t whylen)
{
	int top;

	(void)u;
	if (!canonical_dir(c->path)) {
		snprintf(why, whylen, "not a canonical absolute mount point");
		return -EINVAL;
	}
	if (!c->after || strcmp(c->after, "hugetlbfs")) {
		snprintf(why, whylen, "not a hugetlbfs mount");
		return -EINVAL;
	}
	if (!ctx)
		return 0;
	top = top_mount(ctx, c->path);
	if (top == -EPERM) {
		snprintf(why, whylen, "what is mounted there now is not hugetlbfs");
		return -EINVAL;
	}
	/* A fake tree need not have a mountinfo: its mounts are never touched. */
	if (top < 0 && nn_root_is_live(&ctx->root)) {
		snprintf(why, whylen, "cannot read /proc/self/mountinfo: %s", strerror(-top));
		return top;
	}
	return 0;
}

static int mount_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	int top = top_mount(ctx, c->path);

	res->current = strdup(top == 1 ? "mounted" : top == 0 ? "not mounted" : "?");
	if (top == 0) {
		res->unchanged = true;
		return 0;
	}
	if (top < 0) {
		snprintf(res->why, sizeof(res->why), "%s", top == -EPERM ?
			 "not a hugetlbfs mount now: left alone" : strerror(-top));
		return top;
	}
	/* We mounted it: unmounting gives the previous state back. */
	if (umount2(c->path, UMOUNT_NOFOLLOW) < 0) {
		int err = -errno;

		snprintf(res->why, sizeof(res->why), "%s", strerror(-err));
		return err;
	}
	return 0;
}

const struct nn_change_ops nn_mount_change_ops = {
	.name = "mount",
	.live_only = true,
	.validate = mount_validate,
	.restore = mount_restore,
};

int nn_hp_mount_step(struct nn_ctx *ctx, struct nn_undo *undo, const char *dir,
		     const struct nn_hp_mount *existing, unsigned long size_kb, bool dry_run, bool failed)
{
	struct nn_out *o = &ctx->out;
	char sz[32];
	int err = 0;

	nn_hp_size_name(size_kb, sz, sizeof(sz));
	nn_open_object(o, "mount");
	nn_print_string(o, PRINT_JSON, "path", NULL, existing ? existing->path : dir);
	nn_print_uint(o, PRINT_JSON, "size_kb", NULL, size_kb);
	if (existing) {
		nn_print_string(o, PRINT_JSON, "action", NULL, "exists");
		if (nn_hp_mount_is(existing, dir))
			nn_printf(o, "hugetlbfs pagesize=%s is already mounted on %s\n", sz,
				  existing->path);
		else
			nn_printf(o, "hugetlbfs pagesize=%s already mounted at %s; not mounting %s\n",
				  sz, existing->path, dir);
	} else if (dry_run) {
		nn_print_string(o, PRINT_JSON, "action", NULL, "would_mount");
		nn_printf(o, "would mount hugetlbfs pagesize=%s on %s\n", sz, dir);
	} else if (failed) {
		nn_print_string(o, PRINT_JSON, "action", NULL, "skipped");
		nn_printf(o, "not mounting %s: the reservation failed\n", dir);
	} else {
		int merr = nn_hp_mount(ctx, undo, dir, size_kb);

		if (merr) {
			nn_err(ctx, "--mount '%s': hugetlbfs pagesize=%s: %s", dir, sz,
			       strerror(-merr));
			nn_print_string(o, PRINT_JSON, "action", NULL, "failed");
			err = merr;
		} else {
			nn_print_string(o, PRINT_JSON, "action", NULL, "mounted");
			nn_printf(o, "mounted hugetlbfs pagesize=%s on %s\n", sz, dir);
		}
	}
	nn_close_object(o);
	return err;
}
