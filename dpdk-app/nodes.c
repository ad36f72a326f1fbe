// SPDX-License-Identifier: GPL-2.0-or-later
/* nodes.c - what "local" and "remote" mean on this host
 *
 * local is the port's node; remote the farthest node from it by the kernel's
 * distance table (/sys/devices/system/node/nodeN/distance), among nodes that
 * have what the role needs (CPUs for lcores, memory for mbufs). All reads go
 * through the fs root like the rest of nicnuma.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/cpuset.h"
#include "app.h"

int nodes_exists(struct fwd_app *app, int node)
{
	char path[96];

	if (node < 0)
		return 0;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", node);
	if (nn_root_access(&app->root, path, F_OK) == 0)
		return 1;
	/* CONFIG_NUMA=n: no node directory, everything is node 0. */
	if (node == 0 && nn_root_access(&app->root, "/sys/devices/system/node", F_OK) < 0)
		return 1;
	return 0;
}

static int node_has(struct fwd_app *app, int node, bool cpus)
{
	struct nn_cpuset set = NN_CPUSET_INIT;
	char path[96];
	int ret;

	if (cpus)
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	else
		snprintf(path, sizeof(path), "/sys/devices/system/node/has_memory");
	if (nn_read_cpulist(&app->root, path, &set) < 0)
		return -1;
	ret = cpus ? nn_cpuset_count(&set) > 0 : nn_cpuset_test(&set, node);
	nn_cpuset_free(&set);
	return ret;
}

long nodes_free_hugepages(struct fwd_app *app, int node)
{
	static const unsigned long sizes_kb[] = { 2048, 1048576 };
	long total = -1, v;
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(sizes_kb) / sizeof(sizes_kb[0]); i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/hugepages/hugepages-%lukB/free_hugepages",
			 node, sizes_kb[i]);
		if (nn_read_long(&app->root, path, &v) < 0)
			continue;
		total = (total < 0 ? 0 : total) + v * (long)(sizes_kb[i] / 1024);
	}
	return total;	/* MiB of free hugepages on @node, -1 unknown */
}

void nodes_hint_hugepages(struct fwd_app *app, int node)
{
	long mib = nodes_free_hugepages(app, node);

	if (mib >= 0)
		fprintf(stderr, "nicnuma-fwd: node %d has %ld MiB of free hugepages\n", node, mib);
	fprintf(stderr,
		"nicnuma-fwd: reserve hugepages on node %d: nicnuma hugepages reserve --node %d --size 2M --count 512\n"
		"             (or: echo 512 > /sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages)\n",
		node, node, node);
}

static int read_distances(struct fwd_app *app, int from, int *ids, int *dist, int max)
{
	struct nn_cpuset online = NN_CPUSET_INIT;
	char path[96], *buf = NULL, *p, *end;
	int n = 0, id, ret;
	size_t len;

	ret = nn_read_cpulist(&app->root, "/sys/devices/system/node/online", &online);
	if (ret < 0)
		return ret;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/distance", from);
	ret = nn_read_file(&app->root, path, &buf, &len);
	if (ret < 0)
		goto out;
	/* One distance per online node, in ascending node id order. */
	p = buf;
	for (id = 0; id < FWD_MAX_NODES * 16 && n < max; id++) {
		long d;

		if (!nn_cpuset_test(&online, id))
			continue;
		errno = 0;
		d = strtol(p, &end, 10);
		if (end == p || errno) {
			ret = -EINVAL;
			goto out;
		}
		p = end;
		ids[n] = id;
		dist[n] = (int)d;
		n++;
	}
	ret = n;
out:
	free(buf);
	nn_cpuset_free(&online);
	return ret;
}

int nodes_resolve(struct fwd_app *app, int sel, bool need_cpus, const char *what, int *out)
{
	int ids[FWD_MAX_NODES], dist[FWD_MAX_NODES], n, i, best = -1, bestd = -1;

	if (sel >= 0) {
		if (!nodes_exists(app, sel)) {
			fprintf(stderr, "nicnuma-fwd: --%s %d: node %d does not exist on this host "
				"(see /sys/devices/system/node/online, or 'nicnuma topo')\n",
				what, sel, sel);
			return -ENODEV;
		}
		*out = sel;
		return 0;
	}
	if (sel == NODE_SEL_LOCAL) {
		*out = app->ref_node;
		return 0;
	}
	n = read_distances(app, app->ref_node, ids, dist, FWD_MAX_NODES);
	if (n < 0) {
		fprintf(stderr, "nicnuma-fwd: --%s remote: cannot read node %d's distance table: %s\n",
			what, app->ref_node, strerror(-n));
		return n;
	}
	for (i = 0; i < n; i++) {
		if (ids[i] == app->ref_node || node_has(app, ids[i], need_cpus) <= 0)
			continue;
		if (dist[i] > bestd) {
			bestd = dist[i];
			best = ids[i];
		}
	}
	if (best < 0) {
		fprintf(stderr, "nicnuma-fwd: --%s remote: no node other than %d has %s "
			"(this host has %d NUMA node%s); a mismatch cannot be made here\n",
			what, app->ref_node, need_cpus ? "CPUs" : "memory", n, n == 1 ? "" : "s");
		return -ENODEV;
	}
	*out = best;
	return 0;
}
