// SPDX-License-Identifier: GPL-2.0-or-later
/* nodes.c - the host's NUMA node ids, from the nodeN directories of /sys/devices/system/node */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/nodes.h"

int nn_node_dir_id(const char *name)
{
	const char *p = name + 4;
	long v = 0;

	if (strncmp(name, "node", 4) || !*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v > 1000000)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v > 1000000 ? -1 : (int)v;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int nn_node_dirs(const struct nn_root *root, int **ids, size_t *n)
{
	struct dirent *de;
	size_t cap = 0;
	int *v = NULL;
	DIR *d;
	int err;

	*ids = NULL;
	*n = 0;
	err = nn_root_opendir(root, NN_SYS_NODE, &d);
	if (err)
		return err;
	while ((de = readdir(d))) {
		int id = nn_node_dir_id(de->d_name);

		if (id < 0)
			continue;
		if (NN_GROW(v, *n, cap)) {
			closedir(d);
			free(v);
			*n = 0;
			return -ENOMEM;
		}
		v[(*n)++] = id;
	}
	closedir(d);
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_int);
	*ids = v;
	return 0;
}
