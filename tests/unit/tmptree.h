/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tmptree.h - one way for the unit tests to make and remove a scratch tree */
#ifndef NN_TEST_TMPTREE_H
#define NN_TEST_TMPTREE_H

#include <stddef.h>

/* Makes ${TMPDIR:-/tmp}/nicnuma-TAG-XXXXXX (mkdtemp) and writes its path to
 * @buf. Returns 0, or -1 with errno set (the path did not fit, mkdtemp failed). */
int tmptree_make(char *buf, size_t size, const char *tag);

/* Removes @dir and everything under it; symlinks are removed, never followed.
 * Returns 0, or -1 if anything was left behind. */
int tmptree_remove(const char *dir);

/* Writes @len bytes of @content to @dir/@rel, making the directories on the
 * way (mkdir -p). Returns 0, or -1 with errno set. */
int tmptree_putn(const char *dir, const char *rel, const char *content, size_t len);
/* tmptree_putn() of a string. */
int tmptree_put(const char *dir, const char *rel, const char *content);
/* mkdir -p @dir/@rel (0755). Returns 0, or -1 with errno set. */
int tmptree_mkdir(const char *dir, const char *rel);
/* The whole of @dir/@rel as a malloc'd string (the caller frees), or NULL
 * with errno set. */
char *tmptree_get(const char *dir, const char *rel);

/* cmocka assertion that @hay contains @needle; on failure it prints both
 * (a bare assert_non_null(strstr()) says only "0x0"). */
#define assert_contains(hay, needle) \
	tmptree_assert_contains((hay), (needle), #hay, __FILE__, __LINE__)
#define assert_not_contains(hay, needle) \
	tmptree_assert_not_contains((hay), (needle), #hay, __FILE__, __LINE__)
void tmptree_assert_contains(const char *hay, const char *needle, const char *expr,
			     const char *file, int line);
void tmptree_assert_not_contains(const char *hay, const char *needle, const char *expr,
				 const char *file, int line);

#endif
