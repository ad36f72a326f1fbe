// SPDX-License-Identifier: GPL-2.0-or-later
/* tmptree.c - scratch trees under ${TMPDIR:-/tmp} for the unit tests */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tmptree.h"

int tmptree_make(char *buf, size_t size, const char *tag)
{
	const char *base = getenv("TMPDIR");
	int n;

	if (!base || !*base)
		base = "/tmp";
	n = snprintf(buf, size, "%s/nicnuma-%s-XXXXXX", base, tag);
	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkdtemp(buf) ? 0 : -1;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0)
		perror(path);
	return 0;	/* go on: remove as much as can be removed */
}

int tmptree_remove(const char *dir)
{
	struct stat st;

	/* FTW_DEPTH: children before their directory; FTW_PHYS: no symlinks followed. */
	if (nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return -1;
	return lstat(dir, &st) == 0 ? -1 : 0;
}
