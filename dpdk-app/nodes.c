// SPDX-License-Identifier: GPL-2.0-or-later
/* nodes.c - what "local" and "remote" mean on this host
 *
 * local is the port's node; remote the farthest node from it by the kernel's
 * distance table, among nodes that have what the role needs (online CPUs for
 * lcores, memory for mbufs). The answers are libnicnuma's (nn_topo_discover
 * and topo.h's node questions), so nicnuma bench and nicnuma-fwd agree on
 * which node is remote; an unknown distance is never called remote.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/topo.h"
#include "app.h"

/* A snapshot of the nodes through the app's root. Discovery warnings are
 * dropped: a missing file shows as an unknown value in the messages below. */
static int nodes_topo(struct fwd_app *app, struct nn_topo *t)
{
	struct nn_ctx ctx;
	int err;

	err = nn_ctx_init(&ctx, app->root.path ? app->root.path : "/", false);
	if (!err)
		err = nn_topo_discover_basic(&ctx, t);
	nn_ctx_free(&ctx);
	return err;
}

int nodes_exists(struct fwd_app *app, int node)
{
	struct nn_topo t;
	int ret;

	if (node < 0 || nodes_topo(app, &t))
		return 0;
	/* CONFIG_NUMA=n: discovery reports one node 0 holding everything. */
	ret = nn_topo_node(&t, node) != NULL;
	nn_topo_free(&t);
	return ret;
}

long nodes_free_hugepages(struct fwd_app *app, int node)
{
	const struct nn_node *n;
	struct nn_topo t;
	long total = -1;
	size_t i;

	if (nodes_topo(app, &t))
		return -1;
	n = nn_topo_node(&t, node);
	for (i = 0; n && i < n->nhugepages; i++) {
		const struct nn_hugepages *hp = &n->hugepages[i];

		if (hp->free < 0)
			continue;
		total = (total < 0 ? 0 : total) + hp->free * (long)(hp->size_kb / 1024);
	}
	nn_topo_free(&t);
	return total;	/* MiB of free hugepages on @node, -1 unknown */
}

void nodes_hint_hugepages(struct fwd_app *app, int node)
{
	long mib = nodes_free_hugepages(app, node);

	if (mib >= 0)
		fprintf(stderr, "nicnuma-fwd: node %d has %ld MiB of free hugepages\n", node, mib);
	fprintf(stderr,
		"nicnuma-fwd: reserve hugepages on node %d: nicnuma hugepages reserve --nodes %d --size 2M --count 512\n"
		"             (or: echo 512 > /sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages)\n",
		node, node, node);
}

int nodes_resolve(struct fwd_app *app, int sel, bool need_cpus, const char *what, int *out)
{
	unsigned int wants = need_cpus ? NN_NODE_ONLINE_CPUS : NN_NODE_MEMORY;
	struct nn_topo t;
	int best, err;
	size_t n;

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
	err = nodes_topo(app, &t);
	if (err) {
		fprintf(stderr, "nicnuma-fwd: --%s remote: cannot read the NUMA topology: %s\n",
			what, strerror(-err));
		return err;
	}
	best = nn_topo_farthest_node(&t, app->ref_node, wants, NULL, NULL);
	n = t.nnodes;
	nn_topo_free(&t);
	if (best < 0 || best == app->ref_node) {
		fprintf(stderr, "nicnuma-fwd: --%s remote: no node other than %d has %s at a known "
			"distance (this host has %zu NUMA node%s); a mismatch cannot be made here\n",
			what, app->ref_node, need_cpus ? "online CPUs" : "memory", n, n == 1 ? "" : "s");
		return -ENODEV;
	}
	*out = best;
	return 0;
}
