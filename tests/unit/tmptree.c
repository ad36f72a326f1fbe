// SPDX-License-Identifier: GPL-2.0-or-later
/* tmptree.c - scratch trees under ${TMPDIR:-/tmp} for the unit tests */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

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

static int join(char *buf, size_t size, const char *dir, const char *rel)
{
	int n;

	while (*rel == '/')
		rel++;
	n = snprintf(buf, size, "%s/%s", dir, rel);
	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* mkdir -p of @path itself (every component, existing ones kept). */
static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int tmptree_mkdir(const char *dir, const char *rel)
{
	char path[8192];

	if (join(path, sizeof(path), dir, rel))
		return -1;
	return mkdir_p(path);
}

int tmptree_putn(const char *dir, const char *rel, const char *content, size_t len)
{
	char path[8192], *slash;
	int fd;
	ssize_t w;

	if (join(path, sizeof(path), dir, rel))
		return -1;
	slash = strrchr(path, '/');
	*slash = '\0';
	if (mkdir_p(path))
		return -1;
	*slash = '/';
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	w = write(fd, content, len);
	if (close(fd) != 0 || w < 0 || (size_t)w != len)
		return -1;
	return 0;
}

int tmptree_put(const char *dir, const char *rel, const char *content)
{
	return tmptree_putn(dir, rel, content, strlen(content));
}

char *tmptree_get(const char *dir, const char *rel)
{
	char path[8192], *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f;

	if (join(path, sizeof(path), dir, rel))
		return NULL;
	f = fopen(path, "re");
	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb)
				break;
			buf = nb;
			cap += 65536;
		}
		size_t n = fread(buf + len, 1, cap - len - 1, f);

		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

void tmptree_assert_contains(const char *hay, const char *needle, const char *expr,
			     const char *file, int line)
{
	if (hay && needle && strstr(hay, needle))
		return;
	print_error("%s:%d: %s does not contain \"%s\"; it is:\n%s\n", file, line, expr,
		    needle ? needle : "(null)", hay ? hay : "(null)");
	_fail(file, line);
}

void tmptree_assert_not_contains(const char *hay, const char *needle, const char *expr,
				 const char *file, int line)
{
	if (hay && needle && !strstr(hay, needle))
		return;
	print_error("%s:%d: %s contains \"%s\" (it must not); it is:\n%s\n", file, line, expr,
		    needle ? needle : "(null)", hay ? hay : "(null)");
	_fail(file, line);
}
