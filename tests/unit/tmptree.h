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

#endif
