/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pathf.h - bounded path formatting for discovery (private to libnicnuma) */
#ifndef NICNUMA_PATHF_H
#define NICNUMA_PATHF_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* snprintf that reports truncation: a cut path would name the wrong file. */
static inline __attribute__((format(printf, 3, 4)))
int nn_pathf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

#endif
