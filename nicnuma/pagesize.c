// SPDX-License-Identifier: GPL-2.0-or-later
/* pagesize.c - hugepage size words, moved out of the command folder so the
 * desired-state parser (a library, fuzzed) reads them the same way. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fsroot.h"
#include "pagesize.h"

int nn_parse_page_size(const char *s, unsigned long *kb)
{
	char *end;
	unsigned long long v;
	unsigned long long mult;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || !v)
		return -EINVAL;
	if (!strcasecmp(end, "k") || !strcasecmp(end, "kb") || !strcasecmp(end, "kib"))
		mult = 1;
	else if (!strcasecmp(end, "m") || !strcasecmp(end, "mb") || !strcasecmp(end, "mib"))
		mult = 1024;
	else if (!strcasecmp(end, "g") || !strcasecmp(end, "gb") || !strcasecmp(end, "gib"))
		mult = 1024 * 1024;
	else
		return -EINVAL;
	/* Page sizes are powers of two of at least 4 kB; 16 GB is the largest any arch has. */
	if (v > (16ULL << 20) / mult)
		return -ERANGE;
	v *= mult;
	if (v < 4 || (v & (v - 1)))
		return -EINVAL;
	*kb = (unsigned long)v;
	return 0;
}

int nn_parse_hugepages_opt(const char *arg, unsigned long *kb, long *count)
{
	const char *colon = strchr(arg, ':');
	char size[32];
	long c;
	int ret;

	if (!colon || (size_t)(colon - arg) >= sizeof(size))
		return -EINVAL;
	memcpy(size, arg, (size_t)(colon - arg));
	size[colon - arg] = '\0';
	ret = nn_parse_page_size(size, kb);
	if (ret)
		return ret;
	ret = nn_parse_long(colon + 1, &c);
	if (ret)
		return ret;
	if (c < 1)
		return -EINVAL;
	/* The reservation in kB must fit a long (and any sane machine). */
	if ((unsigned long)c > (unsigned long)(__LONG_MAX__ / 2) / *kb)
		return -ERANGE;
	*count = c;
	return 0;
}

