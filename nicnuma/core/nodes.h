/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodes.h - the one lister of the host's NUMA node directories
 *
 * /sys/devices/system/node/nodeN, read through the fs root: discovery's
 * topology (discover/topo.c) and the hugepage pools (hugepages/hp_state.c)
 * both take their node ids from here.
 */
#ifndef NICNUMA_CORE_NODES_H
#define NICNUMA_CORE_NODES_H

#include <stddef.h>

struct nn_root;

#define NN_SYS_NODE "/sys/devices/system/node"

/* "node12" -> 12; -1 for any other name (no sign, digits only, at most
 * 1000000). Pure. */
int nn_node_dir_id(const char *name);
/* The ids of the nodeN directories under NN_SYS_NODE, ascending, in *@ids
 * (malloc'd, NULL when there are none) and *@n. -ENOENT when the directory
 * is missing (CONFIG_NUMA=n), another negative errno when it cannot be
 * read, -ENOMEM. */
int nn_node_dirs(const struct nn_root *root, int **ids, size_t *n);

#endif
