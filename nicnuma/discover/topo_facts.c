// SPDX-License-Identifier: GPL-2.0-or-later
/* topo_facts.c - the one answer to each question about a topology snapshot
 *
 * Which node, which distance, which CPU's node, which housekeeping CPUs: the
 * planner, layout, the CLI and nicnuma-fwd all ask here, so a rule (an
 * unknown distance, a node's distance to itself) is decided once. Pure.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "nicnuma/discover/topo.h"

int nn_topo_node_index(const struct nn_topo *t, int id)
{
	size_t lo = 0, hi = t->nnodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->nodes[mid].id == id)
			return (int)mid;
		if (t->nodes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const struct nn_node *nn_topo_node(const struct nn_topo *t, int id)
{
	int i = nn_topo_node_index(t, id);

	return i < 0 ? NULL : &t->nodes[i];
}

const struct nn_cpu *nn_topo_cpu(const struct nn_topo *t, int id)
{
	size_t lo = 0, hi = t->ncpus;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->cpus[mid].id == id)
			return &t->cpus[mid];
		if (t->cpus[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int nn_topo_cpu_node(const struct nn_topo *t, int cpu)
{
	const struct nn_cpu *c = nn_topo_cpu(t, cpu);

	return c ? c->node : -1;
}

int nn_topo_distance(const struct nn_topo *t, int a, int b)
{
	int ia = nn_topo_node_index(t, a), ib = nn_topo_node_index(t, b);

	if (ia < 0 || ib < 0)
		return -1;
	/* SLIT fixes the diagonal at 10 (LOCAL_DISTANCE): a node's distance to
	 * itself is known even when its row was not readable. */
	if ((size_t)ib >= t->nodes[ia].ndistances)
		return a == b ? NN_LOCAL_DISTANCE : -1;
	return t->nodes[ia].distances[ib];
}

/* Sort key: @from itself first, then known distances, unknown (-1) last. */
static unsigned long dist_key(const struct nn_topo *t, int from, int id)
{
	int d;

	if (id == from)
		return 0;
	d = nn_topo_distance(t, from, id);
	return d < 0 ? ULONG_MAX : (unsigned long)d + 1;
}

static bool before(const struct nn_topo *t, int from, int a, int b)
{
	unsigned long ka = dist_key(t, from, a), kb = dist_key(t, from, b);

	return ka < kb || (ka == kb && a < b);
}

size_t nn_topo_nodes_by_distance(const struct nn_topo *t, int from, int *ids, size_t max)
{
	size_t n = 0, i, j;

	/* Insertion into the @max best so far: O(nnodes * max), no allocation. */
	for (i = 0; i < t->nnodes; i++) {
		int id = t->nodes[i].id;

		if (n == max && (!n || !before(t, from, id, ids[n - 1])))
			continue;
		j = n < max ? n++ : n - 1;
		for (; j > 0 && before(t, from, id, ids[j - 1]); j--)
			ids[j] = ids[j - 1];
		ids[j] = id;
	}
	return n;
}

bool nn_topo_node_has(const struct nn_topo *t, const struct nn_node *n, unsigned int wants)
{
	if ((wants & NN_NODE_CPUS) && nn_cpuset_empty(&n->cpus))
		return false;
	if ((wants & NN_NODE_ONLINE_CPUS) && !nn_cpuset_intersects(&n->cpus, &t->online))
		return false;
	/* Only a MemTotal of 0 says "no memory"; an unreadable meminfo (-1)
	 * must not take a node out of every memory question. */
	if ((wants & NN_NODE_MEMORY) && n->mem_total_kb == 0)
		return false;
	return true;
}

static bool qualifies(const struct nn_topo *t, const struct nn_node *n, unsigned int wants,
		      nn_node_filter ok, void *arg)
{
	return nn_topo_node_has(t, n, wants) && (!ok || ok(t, n->id, arg));
}

int nn_topo_nearest_node(const struct nn_topo *t, int from, unsigned int wants,
			 nn_node_filter ok, void *arg)
{
	int best = -1;
	size_t i;

	if (nn_topo_node_index(t, from) < 0)
		return -1;
	for (i = 0; i < t->nnodes; i++) {
		const struct nn_node *n = &t->nodes[i];

		if (qualifies(t, n, wants, ok, arg) && (best < 0 || before(t, from, n->id, best)))
			best = n->id;
	}
	return best;
}

int nn_topo_farthest_node(const struct nn_topo *t, int from, unsigned int wants,
			  nn_node_filter ok, void *arg)
{
	int best = -1, bestd = -1, self = -1;
	size_t i;

	if (nn_topo_node_index(t, from) < 0)
		return -1;
	for (i = 0; i < t->nnodes; i++) {
		const struct nn_node *n = &t->nodes[i];
		int d;

		if (!qualifies(t, n, wants, ok, arg))
			continue;
		if (n->id == from) {
			self = from;
			continue;
		}
		/* Unknown distance: cannot be shown to be far, never picked. */
		d = nn_topo_distance(t, from, n->id);
		if (d > bestd) {
			best = n->id;
			bestd = d;
		}
	}
	return best >= 0 ? best : self;
}

/* @cpu's SMT threads: its sibling list, else CPUs with the same
 * package/die/core ids; online and on @node only. */
static int add_core(const struct nn_topo *t, const struct nn_cpu *c, int node, struct nn_cpuset *out)
{
	size_t i;

	if (nn_cpuset_set(out, (unsigned int)c->id))
		return -ENOMEM;
	for (i = 0; i < t->ncpus; i++) {
		const struct nn_cpu *o = &t->cpus[i];
		bool same;

		if (o->node != node || o == c)
			continue;
		if (!nn_cpuset_empty(&c->siblings))
			same = nn_cpuset_test(&c->siblings, (unsigned int)o->id);
		else
			same = c->package >= 0 && c->core >= 0 && o->package == c->package &&
			       o->die == c->die && o->core == c->core;
		if (same && nn_cpuset_set(out, (unsigned int)o->id))
			return -ENOMEM;
	}
	return 0;
}

int nn_topo_isolated_cpus(const struct nn_topo *t, struct nn_cpuset *out)
{
	const struct nn_isolation *is = &t->isol;
	int err;

	nn_cpuset_zero(out);
	err = nn_cpuset_or(out, &is->isolated);
	if (!err)
		err = nn_cpuset_or(out, &is->nohz_full);
	if (!err)
		err = nn_cpuset_or(out, &is->isolcpus);
	if (err)
		return err;
	nn_cpuset_and(out, &t->online);
	return 0;
}

int nn_topo_default_housekeeping(const struct nn_topo *t, struct nn_cpuset *out)
{
	struct nn_cpuset iso = NN_CPUSET_INIT;
	bool orphan_done = false;
	size_t i;
	int err;

	nn_cpuset_zero(out);
	err = nn_topo_isolated_cpus(t, &iso);
	/* cpus[] ascend by id: the first CPU met on a node is its lowest. */
	for (i = 0; i < t->nnodes && !err; i++) {
		size_t k;

		for (k = 0; k < t->ncpus; k++)
			if (t->cpus[k].node == t->nodes[i].id &&
			    !nn_cpuset_test(&iso, (unsigned int)t->cpus[k].id))
				break;
		if (k < t->ncpus)
			err = add_core(t, &t->cpus[k], t->nodes[i].id, out);
	}
	/* CPUs in no node's cpulist are one more group, or they would have none. */
	for (i = 0; i < t->ncpus && !err && !orphan_done; i++)
		if (t->cpus[i].node < 0 && !nn_cpuset_test(&iso, (unsigned int)t->cpus[i].id)) {
			err = add_core(t, &t->cpus[i], -1, out);
			orphan_done = true;
		}
	/* An isolated SMT sibling of a housekeeping CPU stays isolated. */
	if (!err)
		nn_cpuset_andnot(out, &iso);
	nn_cpuset_free(&iso);
	return err;
}
