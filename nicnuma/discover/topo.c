// SPDX-License-Identifier: GPL-2.0-or-later
/* topo.c - the topology through the fs root: online CPUs, NUMA nodes, SMT siblings, L3, distances
 *
 * Every file that is missing or malformed becomes a warning naming it and an
 * unknown (-1) value; a feature the kernel was built without (no THP, no NUMA
 * balancing) is "not available", not a fault. Only the lack of any CPU list
 * (no cpu/online and no cpuN directory) stops discovery. Rules:
 * docs/discovery.md, "How the kernel's files are read".
 *
 * The host knobs (NUMA balancing, zone reclaim, THP, CPU isolation) are
 * topo_knobs.c's, the CPU model and hypervisor flag topo_cpuinfo.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/nodes.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/ctx.h"
#include "hugepages/hugepages.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/pathf.h"
#include "nicnuma/discover/topo.h"
#include "nicnuma/discover/topo_internal.h"

#define NODE_DIR "/sys/devices/system/node"

/* Per-CPU faults are reported once per fact: the same problem on 37 CPUs
 * is one warning naming the first file and the CPUs as a cpulist, not 37. */
#define FAULT_KINDS 16

struct fault {
	char msg[96];
	char first[160];
	const char *unit;		/* "CPU", "node": what the ids are */
	struct nn_cpuset cpus;		/* the ids */
};

struct faults {
	struct fault f[FAULT_KINDS];
	unsigned int n;
};

static void fault_note_unit(struct nn_ctx *ctx, struct faults *w, const char *path, int id,
			    const char *msg, const char *unit)
{
	struct fault *f = NULL;
	unsigned int i;

	for (i = 0; i < w->n && !f; i++)
		if (!strcmp(w->f[i].msg, msg) && !strcmp(w->f[i].unit, unit))
			f = &w->f[i];
	if (!f && w->n < FAULT_KINDS) {
		f = &w->f[w->n++];
		snprintf(f->msg, sizeof(f->msg), "%s", msg);
		snprintf(f->first, sizeof(f->first), "%s", path);
		f->unit = unit;
		nn_cpuset_zero(&f->cpus);
	}
	/* No room (or no memory for the set): say it now rather than lose it. */
	if (!f || nn_cpuset_set(&f->cpus, (unsigned int)id))
		nn_warn(ctx, path, "%s (%s %d)", msg, unit, id);
}

static void fault_note(struct nn_ctx *ctx, struct faults *w, const char *path, int cpu,
		       const char *msg)
{
	fault_note_unit(ctx, w, path, cpu, msg, "CPU");
}

static void faults_flush(struct nn_ctx *ctx, struct faults *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		struct fault *f = &w->f[i];
		unsigned int n = nn_cpuset_count(&f->cpus);
		char *list = nn_cpuset_format_list(&f->cpus);

		if (n)
			nn_warn(ctx, f->first, "%s (%s%s %s)", f->msg, f->unit, n == 1 ? "" : "s",
				list ? list : "?");
		free(list);
		nn_cpuset_free(&f->cpus);
	}
	w->n = 0;
}

/* Reads an integer file of CPU @cpu through @r (the root or a view of it);
 * failures go to @w, one warning per kind. */
static long read_num_in(struct nn_ctx *ctx, const struct nn_root *r, const char *path,
			const char *what, int cpu, struct faults *w, bool missing_ok)
{
	char msg[96];
	long v;
	int err = nn_read_long(r, path, &v);

	if (!err)
		return v;
	if (err == -ENOENT && missing_ok)
		return -1;
	if (err == -ENOENT)
		snprintf(msg, sizeof(msg), "missing: %s unknown", what);
	else if (err == -EINVAL || err == -ERANGE)
		snprintf(msg, sizeof(msg), "malformed %s (not an integer): %s unknown", what, what);
	else
		snprintf(msg, sizeof(msg), "cannot read %s: %s", what, strerror(-err));
	fault_note(ctx, w, path, cpu, msg);
	return -1;
}

static int cmp_hp(const void *a, const void *b)
{
	const struct nn_hugepages *x = a, *y = b;

	return (x->size_kb > y->size_kb) - (x->size_kb < y->size_kb);
}

static int read_hugepages(struct nn_ctx *ctx, const char *dir, struct nn_node *node)
{
	struct dirent *de;
	DIR *d;
	int err;

	err = nn_root_opendir(&ctx->root, dir, &d);
	if (err == -ENOENT)
		return 0;	/* kernel without hugetlbfs */
	if (err) {
		nn_warn(ctx, dir, "cannot list hugepage sizes: %s", strerror(-err));
		return 0;
	}
	while ((de = readdir(d))) {
		struct nn_hugepages *hp, *nv;
		struct nn_hp_pool pool;
		unsigned long kb;

		if (nn_hp_parse_dirname(de->d_name, &kb))
			continue;
		nv = realloc(node->hugepages, (node->nhugepages + 1) * sizeof(*nv));
		if (!nv) {
			closedir(d);
			return -ENOMEM;
		}
		node->hugepages = nv;
		hp = &nv[node->nhugepages++];
		nn_hp_pool_read(ctx, true, node->id, kb, &pool);
		hp->size_kb = kb;
		hp->total = pool.total;
		hp->free = pool.free;
		hp->surplus = pool.surplus;
	}
	closedir(d);
	if (node->nhugepages > 1)
		qsort(node->hugepages, node->nhugepages, sizeof(*node->hugepages), cmp_hp);
	return 0;
}

/* The node list: nn_node_dirs, the one lister (core/nodes.c). */
static int list_nodes(struct nn_ctx *ctx, struct nn_topo *t)
{
	size_t n, i;
	int *ids, err;

	err = nn_node_dirs(&ctx->root, &ids, &n);
	if (err)
		return err;
	if (n) {
		t->nodes = calloc(n, sizeof(*t->nodes));
		if (!t->nodes) {
			free(ids);
			return -ENOMEM;
		}
	}
	for (i = 0; i < n; i++) {
		t->nodes[i].id = ids[i];
		t->nodes[i].mem_total_kb = -1;
		t->nodes[i].mem_free_kb = -1;
	}
	t->nnodes = n;
	free(ids);
	return 0;
}

/* The node ids a distance row is indexed by. The kernel prints one entry per
 * node of its online node mask (node_read_distance: for_each_online_node),
 * and that mask can hold nodes whose directory is not shown (a container) or
 * sparse ids (0, 8, 252-255). So a row is aligned by the first of
 * node/online, node/possible and the node directories that has as many
 * nodes as the row has entries; with none, the row is unknown. */
struct node_mask {
	int *ids;
	size_t n;
	const char *name;	/* where they came from */
};

struct node_masks {
	struct node_mask m[3];
	size_t n;
};

static int mask_from(struct nn_ctx *ctx, const char *path, const char *name, struct node_masks *ms)
{
	struct nn_cpuset set = NN_CPUSET_INIT;
	struct node_mask *m = &ms->m[ms->n];
	int id, err = nn_read_cpulist(&ctx->root, path, &set);
	size_t k = 0;

	if (!err && nn_cpuset_empty(&set))
		err = -EINVAL;
	if (!err) {
		m->n = nn_cpuset_count(&set);
		m->ids = malloc(m->n * sizeof(int));
		if (!m->ids)
			err = -ENOMEM;
	}
	if (!err) {
		nn_cpuset_foreach(id, &set)
			m->ids[k++] = id;
		m->name = name;
		ms->n++;
	} else if (err != -ENOENT && err != -ENOMEM) {
		nn_warn(ctx, path, "malformed node list: not used to align distance rows");
	}
	nn_cpuset_free(&set);
	return err == -ENOMEM ? err : 0;
}

static int read_node_masks(struct nn_ctx *ctx, const struct nn_topo *t, struct node_masks *ms)
{
	struct node_mask *m;
	size_t i;

	memset(ms, 0, sizeof(*ms));
	if (mask_from(ctx, NODE_DIR "/online", "node/online", ms) ||
	    mask_from(ctx, NODE_DIR "/possible", "node/possible", ms))
		return -ENOMEM;
	m = &ms->m[ms->n];
	m->ids = malloc((t->nnodes ? t->nnodes : 1) * sizeof(int));
	if (!m->ids)
		return -ENOMEM;
	for (i = 0; i < t->nnodes; i++)
		m->ids[i] = t->nodes[i].id;
	m->n = t->nnodes;
	m->name = "node directories";
	ms->n++;
	return 0;
}

static void node_masks_free(struct node_masks *ms)
{
	size_t i;

	for (i = 0; i < 3; i++)
		free(ms->m[i].ids);
}

/* Entry k of @row belongs to node m->ids[k]: pick each listed node's. */
static int align_row(const struct nn_topo *t, const struct node_mask *m, const int *row,
		     struct nn_node *n)
{
	size_t i, k;

	n->distances = malloc(t->nnodes * sizeof(int));
	if (!n->distances)
		return -ENOMEM;
	n->ndistances = t->nnodes;
	for (i = 0; i < t->nnodes; i++) {
		n->distances[i] = -1;
		for (k = 0; k < m->n; k++)
			if (m->ids[k] == t->nodes[i].id)
				n->distances[i] = row[k];
	}
	return 0;
}

static void row_mismatch(struct nn_ctx *ctx, const char *path, const struct node_masks *ms,
			 size_t nd, int id)
{
	struct nn_sb lists = NN_SB_INIT;
	size_t i;

	for (i = 0; i < ms->n; i++)
		nn_sb_printf(&lists, "%s%s %zu", i ? ", " : "", ms->m[i].name, ms->m[i].n);
	nn_warn(ctx, path, "distance row has %zu entries, no node list has as many (%s): "
		"distances from node %d unknown", nd, nn_sb_str(&lists) ? nn_sb_str(&lists) : "?", id);
	nn_sb_free(&lists);
}

static int read_distances(struct nn_ctx *ctx, const struct nn_topo *t, const struct node_masks *ms,
			  struct nn_node *n, struct faults *nw)
{
	char path[PATH_MAX];
	char *text;
	int *dist;
	size_t nd, i;
	int err;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/distance", n->id);
	err = nn_read_file(&ctx->root, path, &text, NULL);
	if (err == -ENOMEM)
		return err;
	if (err) {
		char msg[96];

		/* one warning for every node that lacks it (a capture without them) */
		snprintf(msg, sizeof(msg), "cannot read distance row: %s", strerror(-err));
		fault_note_unit(ctx, nw, path, n->id, msg, "node");
		return 0;
	}
	err = nn_parse_distances(text, &dist, &nd);
	free(text);
	if (err == -ENOMEM)
		return err;
	if (err) {
		nn_warn(ctx, path, "malformed distance row: distances from node %d unknown", n->id);
		return 0;
	}
	for (i = 0; i < ms->n && ms->m[i].n != nd; i++)
		;
	if (i < ms->n)
		err = align_row(t, &ms->m[i], dist, n);
	else
		row_mismatch(ctx, path, ms, nd, n->id);
	free(dist);
	return err;
}

/* @shape: the node's CPUs alone (memory, distances and hugepage pools
 * stay unknown: -1, none, none). */
static int read_node(struct nn_ctx *ctx, struct nn_topo *t, const struct node_masks *ms,
		     struct nn_node *n, struct faults *nw, bool shape)
{
	char base[64], path[PATH_MAX];
	char *text;
	int err;

	snprintf(base, sizeof(base), NODE_DIR "/node%d", n->id);

	/* The cpulist may hold offline CPUs (POWER with SMT off keeps them):
	 * the node's CPUs are its online ones, the rest are shown apart. */
	snprintf(path, sizeof(path), "%s/cpulist", base);
	err = nn_read_cpulist(&ctx->root, path, &n->cpus);
	if (err == -ENOENT) {
		/* Some capture tools save only the mask: the same set. */
		char map[PATH_MAX];

		snprintf(map, sizeof(map), "%s/cpumap", base);
		if (nn_read_cpumask(&ctx->root, map, &n->cpus) == 0)
			err = 0;
	}
	if (err == -ENOMEM)
		return err;
	n->cpus_unknown = err != 0;
	if (err)
		nn_warn(ctx, path, "%s: node %d's CPUs unknown",
			err == -ENOENT ? "missing" : err == -EINVAL || err == -ERANGE ?
			"malformed cpulist" : strerror(-err), n->id);
	if (nn_cpuset_copy(&n->offline, &n->cpus))
		return -ENOMEM;
	nn_cpuset_andnot(&n->offline, &t->online);
	nn_cpuset_and(&n->cpus, &t->online);
	if (shape) {
		n->mem_total_kb = n->mem_free_kb = -1;
		return 0;
	}

	snprintf(path, sizeof(path), "%s/meminfo", base);
	err = nn_read_file(&ctx->root, path, &text, NULL);
	if (err == -ENOMEM)
		return err;
	if (err) {
		char msg[96];

		snprintf(msg, sizeof(msg), "cannot read node meminfo: %s", strerror(-err));
		fault_note_unit(ctx, nw, path, n->id, msg, "node");
	} else {
		err = nn_parse_node_meminfo(text, &n->mem_total_kb, &n->mem_free_kb);
		free(text);
		if (err)
			nn_warn(ctx, path, "malformed node meminfo (MemTotal/MemFree): memory %s unknown",
				n->mem_total_kb < 0 && n->mem_free_kb < 0 ? "size" :
				n->mem_total_kb < 0 ? "total" : "free");
	}

	err = read_distances(ctx, t, ms, n, nw);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/hugepages", base);
	return read_hugepages(ctx, path, n);
}

/* The L3 group of @cpu: the cache index whose level is 3. A missing cache
 * directory is normal in many VMs and on some arches (POWER9 shows no L3
 * index): unknown, no warning. The L3 a CPU uses is shared with itself at
 * least. */
static void l3_check(struct nn_ctx *ctx, struct faults *w, struct nn_cpu *c, const char *path)
{
	if (!nn_cpuset_test(&c->l3_cpus, (unsigned int)c->id)) {
		fault_note(ctx, w, path, c->id, "does not list the CPU itself: L3 group unknown");
		nn_cpuset_zero(&c->l3_cpus);
		return;
	}
	c->l3 = nn_cpuset_first(&c->l3_cpus);
}

/* Reads @path as @c's L3 list; a bad one leaves the group unknown. */
static int l3_list(struct nn_ctx *ctx, const struct nn_root *r, struct faults *w,
		   struct nn_cpu *c, const char *path)
{
	int err = nn_read_cpulist(r, path, &c->l3_cpus);

	if (err == -ENOMEM)
		return err;
	if (err) {
		fault_note(ctx, w, path, c->id, err == -ENOENT ? "missing: L3 group unknown" :
			   "malformed cpulist: L3 group unknown");
		nn_cpuset_zero(&c->l3_cpus);
		return 0;
	}
	l3_check(ctx, w, c, path);
	return 0;
}

static int scan_l3(struct nn_ctx *ctx, const struct nn_root *r, struct faults *w, struct nn_cpu *c)
{
	char dir[64], path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d/cache", c->id);
	if (nn_root_opendir(r, dir, &d))
		return 0;
	while ((de = readdir(d))) {
		long level;

		if (strncmp(de->d_name, "index", 5))
			continue;
		nn_pathf(path, sizeof(path), "%s/%s/level", dir, de->d_name);
		err = nn_read_long(r, path, &level);
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (err) {
			fault_note(ctx, w, path, c->id, "malformed cache level: L3 group may be unknown");
			err = 0;
			continue;
		}
		if (level != 3)
			continue;
		nn_pathf(path, sizeof(path), "%s/%s/shared_cpu_list", dir, de->d_name);
		err = l3_list(ctx, r, w, c, path);
		break;
	}
	closedir(d);
	return err;
}

static int read_l3(struct nn_ctx *ctx, const struct nn_root *r, struct faults *w, struct nn_cpu *c)
{
	char path[PATH_MAX];
	long level;

	/* x86 and most arm64 put L3 at index3: try it before listing the
	 * directory, which saves four opens per CPU on a 512-CPU host. */
	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cache/index3/level", c->id);
	if (nn_read_long(r, path, &level) || level != 3)
		return scan_l3(ctx, r, w, c);
	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cache/index3/shared_cpu_list", c->id);
	return l3_list(ctx, r, w, c, path);
}

/* Group lists (SMT siblings, L3) are read once per group, as hwloc does:
 * the kernel prints every member's file from one shared mask, so a CPU listed
 * by an earlier CPU's good list takes that list instead of reading its own.
 * SMT siblings are by definition threads of one core, so they also share its
 * package, die and core ids; the CPUs of a package (die) list share its
 * package (die) id. On a 512-CPU SMT host this is 2500 of 3100 opens. @src[cpu] is the index in t->cpus of the CPU whose list covers
 * @cpu, -1 while none does. */
struct groups {
	int *sib_src;
	int *l3_src;
	int *pkg_src;		/* package_cpus_list: members share the package id */
	int *die_src;		/* die_cpus_list: members share the die id */
	unsigned int size;
};

static int groups_init(struct groups *g, const struct nn_cpuset *online)
{
	unsigned int i;

	g->size = (unsigned int)nn_cpuset_last(online) + 1;
	g->sib_src = malloc(g->size * sizeof(int));
	g->l3_src = malloc(g->size * sizeof(int));
	g->pkg_src = malloc(g->size * sizeof(int));
	g->die_src = malloc(g->size * sizeof(int));
	if (!g->sib_src || !g->l3_src || !g->pkg_src || !g->die_src)
		return -ENOMEM;
	for (i = 0; i < g->size; i++)
		g->sib_src[i] = g->l3_src[i] = g->pkg_src[i] = g->die_src[i] = -1;
	return 0;
}

static void groups_free(struct groups *g)
{
	free(g->sib_src);
	free(g->l3_src);
	free(g->pkg_src);
	free(g->die_src);
}

/* Marks every later CPU of @set as covered by t->cpus[@idx]. */
static void groups_mark(int *src, unsigned int size, const struct nn_cpuset *set, int idx, int cpu)
{
	int m;

	nn_cpuset_foreach(m, set) {
		if ((unsigned int)m >= size)
			break;
		if (m > cpu && src[m] < 0)
			src[m] = idx;
	}
}

/* After CPU @cpu (t->cpus[@idx]) read a good id from its own file: the
 * CPUs its @list file (package_cpus_list, die_cpus_list) names share that
 * id, as hwloc takes them. Only a shortcut: a list that is missing, does not
 * parse or leaves out the CPU itself marks nothing, and every CPU it does
 * not name reads its own id, so no warning is lost or made up. */
static int group_by_list(const struct nn_root *r, int *src, unsigned int size, int idx, int cpu,
			 const char *list)
{
	struct nn_cpuset set = NN_CPUSET_INIT;
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/topology/%s", cpu, list);
	err = nn_read_cpulist(r, path, &set);
	if (!err && nn_cpuset_test(&set, (unsigned int)cpu))
		groups_mark(src, size, &set, idx, cpu);
	nn_cpuset_free(&set);
	return err == -ENOMEM ? err : 0;
}

static int read_siblings(struct nn_ctx *ctx, const struct nn_root *r, struct faults *w,
			 struct nn_cpu *c)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/topology/thread_siblings_list", c->id);
	err = nn_read_cpulist(r, path, &c->siblings);
	if (err == -ENOMEM)
		return err;
	if (err == -ENOENT)
		fault_note(ctx, w, path, c->id, "missing: SMT siblings unknown");
	else if (err)
		fault_note(ctx, w, path, c->id, "malformed cpulist: SMT siblings unknown");
	else if (!nn_cpuset_test(&c->siblings, (unsigned int)c->id)) {
		/* A CPU is always its own sibling: an empty or foreign list is corrupt. */
		fault_note(ctx, w, path, c->id, "does not list the CPU itself: SMT siblings unknown");
		nn_cpuset_zero(&c->siblings);
	}
	return 0;
}

static int read_cpus(struct nn_ctx *ctx, struct nn_topo *t, bool detail)
{
	struct faults w = { .n = 0 };
	struct groups g = { NULL, NULL, 0 };
	struct nn_root cpus;
	size_t i = 0;
	int cpu, err = 0;

	t->ncpus = nn_cpuset_count(&t->online);
	t->cpus = calloc(t->ncpus ? t->ncpus : 1, sizeof(*t->cpus));
	if (!t->cpus)
		return -ENOMEM;
	if (detail && groups_init(&g, &t->online)) {
		groups_free(&g);
		return -ENOMEM;
	}
	/* Up to six files per CPU: walk from the cpu directory, not from the root. */
	nn_root_view_open(&ctx->root, CPU_DIR, &cpus);
	nn_cpuset_foreach(cpu, &t->online) {
		int idx = (int)i;
		struct nn_cpu *c = &t->cpus[i++];
		const struct nn_cpu *f;
		char path[PATH_MAX];
		int src;

		c->id = cpu;
		c->node = -1;
		c->l3 = -1;
		if (!detail) {
			c->package = c->die = c->core = -1;
			continue;
		}
		/* An id the first sibling could not give is read here after all. */
		src = g.sib_src[cpu];
		f = src >= 0 ? &t->cpus[src] : NULL;
		c->package = f ? f->package : -1;
		c->die = f ? f->die : -1;
		c->core = f ? f->core : -1;
		/* Then the package and die lists of an earlier CPU: a 2-socket
		 * host reads two package ids, not one per core. */
		if (c->package < 0 && g.pkg_src[cpu] >= 0)
			c->package = t->cpus[g.pkg_src[cpu]].package;
		if (c->die < 0 && g.die_src[cpu] >= 0)
			c->die = t->cpus[g.die_src[cpu]].die;
		if (c->package < 0) {
			snprintf(path, sizeof(path), CPU_DIR "/cpu%d/topology/physical_package_id", cpu);
			c->package = nn__topo_int(read_num_in(ctx, &cpus, path, "physical_package_id", cpu, &w, false));
			if (c->package >= 0 && g.pkg_src[cpu] < 0 &&
			    (err = group_by_list(&cpus, g.pkg_src, g.size, idx, cpu, "package_cpus_list")))
				goto out;
		}
		/* die_id exists since Linux 5.2; older kernels simply lack it:
		 * missing is unknown without a warning, garbage still warns. */
		if (c->die < 0) {
			snprintf(path, sizeof(path), CPU_DIR "/cpu%d/topology/die_id", cpu);
			c->die = nn__topo_int(read_num_in(ctx, &cpus, path, "die_id", cpu, &w, true));
			if (c->die >= 0 && g.die_src[cpu] < 0 &&
			    (err = group_by_list(&cpus, g.die_src, g.size, idx, cpu, "die_cpus_list")))
				goto out;
		}
		if (c->core < 0) {
			snprintf(path, sizeof(path), CPU_DIR "/cpu%d/topology/core_id", cpu);
			c->core = nn__topo_int(read_num_in(ctx, &cpus, path, "core_id", cpu, &w, false));
		}
		err = f ? nn_cpuset_copy(&c->siblings, &f->siblings) : read_siblings(ctx, &cpus, &w, c);
		if (err)
			goto out;
		if (src < 0)
			groups_mark(g.sib_src, g.size, &c->siblings, idx, cpu);

		src = g.l3_src[cpu];
		if (src >= 0) {
			err = nn_cpuset_copy(&c->l3_cpus, &t->cpus[src].l3_cpus);
			c->l3 = t->cpus[src].l3;
		} else {
			err = read_l3(ctx, &cpus, &w, c);
		}
		if (err)
			goto out;
		if (src < 0)
			groups_mark(g.l3_src, g.size, &c->l3_cpus, idx, cpu);
	}
	err = 0;
out:
	faults_flush(ctx, &w);
	nn_root_view_close(&cpus);
	groups_free(&g);
	return err;
}

static void assign_cpu_nodes(struct nn_ctx *ctx, struct nn_topo *t)
{
	size_t i, j;

	for (i = 0; i < t->nnodes; i++) {
		struct nn_node *n = &t->nodes[i];

		for (j = 0; j < t->ncpus; j++) {
			struct nn_cpu *c = &t->cpus[j];

			if (!nn_cpuset_test(&n->cpus, (unsigned int)c->id))
				continue;
			if (c->node >= 0 && c->node != n->id) {
				char path[64];

				snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", n->id);
				nn_warn(ctx, path, "CPU %d is also listed by node %d: keeping node %d",
					c->id, c->node, c->node);
				continue;
			}
			c->node = n->id;
		}
	}
	/* Every online CPU belongs to a node; one that none lists means a
	 * cpulist was lost or truncated. */
	{
		struct nn_cpuset orphans = NN_CPUSET_INIT;
		char *list;

		for (j = 0; j < t->ncpus; j++)
			if (t->cpus[j].node < 0 && nn_cpuset_set(&orphans, (unsigned int)t->cpus[j].id))
				break;
		if (!nn_cpuset_empty(&orphans)) {
			list = nn_cpuset_format_list(&orphans);
			nn_warn(ctx, NODE_DIR, "online CPUs %s are in no node's cpulist: their node is unknown",
				list ? list : "?");
			free(list);
		}
		nn_cpuset_free(&orphans);
	}
}

/* No node directory at all. One node 0 holds every CPU. @numa_off: the
 * kernel has no NUMA (CONFIG_NUMA=n, confirmed by a missing
 * zone_reclaim_mode): that is not a fault. */
static int single_node(struct nn_ctx *ctx, struct nn_topo *t, bool numa_off)
{
	t->nodes = calloc(1, sizeof(*t->nodes));
	if (!t->nodes)
		return -ENOMEM;
	t->nnodes = 1;
	t->nodes[0].id = 0;
	t->nodes[0].mem_total_kb = -1;
	t->nodes[0].mem_free_kb = -1;
	if (!numa_off)
		nn_warn(ctx, NODE_DIR, "no NUMA node directory (kernel without CONFIG_NUMA?): "
			"reporting one node 0 that holds every CPU, memory unknown");
	return nn_cpuset_copy(&t->nodes[0].cpus, &t->online);
}

/* "cpu12" -> 12, anything else -1 (cpufreq, cpuidle, ...) */
static int cpu_dir_id(const char *name)
{
	const char *p = name + 3;
	long v = 0;

	if (strncmp(name, "cpu", 3) || !*p)
		return -1;
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p) || v > NN_CPU_MAX)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return (int)v;
}

/* Without cpu/online (older kernels, containers that hide it) the CPU list is
 * the cpuN directories, each online unless its cpuN/online says 0; a CPU
 * that cannot be offlined (cpu0 on x86) has no such file. One warning says
 * what was read instead. */
static int online_from_dirs(struct nn_ctx *ctx, struct nn_topo *t, const char *online)
{
	unsigned int ndirs = 0;
	struct dirent *de;
	DIR *d;
	int err;

	err = nn_root_opendir(&ctx->root, CPU_DIR, &d);
	if (err)
		return err;
	while ((de = readdir(d))) {
		char path[64];
		long v;
		int id = cpu_dir_id(de->d_name);

		if (id < 0)
			continue;
		ndirs++;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", id);
		if (!nn_read_long(&ctx->root, path, &v) && v == 0)
			continue;
		err = nn_cpuset_set(&t->online, (unsigned int)id);
		if (err)
			break;
	}
	closedir(d);
	if (!err && nn_cpuset_empty(&t->online))
		err = -ENOENT;
	if (!err)
		nn_warn(ctx, online, "missing: online CPUs taken from the %u cpuN directories and "
			"their cpuN/online files instead (%u online)", ndirs,
			nn_cpuset_count(&t->online));
	return err;
}

static int read_online(struct nn_ctx *ctx, struct nn_topo *t)
{
	const char *online = CPU_DIR "/online";
	int err = nn_read_cpulist(&ctx->root, online, &t->online);

	if (err == -ENOENT)
		err = online_from_dirs(ctx, t, online);
	else if (!err && nn_cpuset_empty(&t->online))
		err = -EINVAL;
	if (err && err != -ENOMEM)
		nn_warn(ctx, online, "%s: no CPU list, no topology",
			err == -EINVAL || err == -ERANGE ? "malformed or empty cpulist" :
			err == -ENOENT ? "missing, and no cpuN directory either" : strerror(-err));
	return err;
}

int nn_topo_discover_depth(struct nn_ctx *ctx, struct nn_topo *t, enum nn_topo_depth depth)
{
	bool detail = depth == NN_TOPO_FULL, shape = depth == NN_TOPO_SHAPE;
	bool numa;
	size_t i;
	int err;

	memset(t, 0, sizeof(*t));
	err = read_online(ctx, t);
	if (err)
		goto fail;
	/* Present but offline (SMT off, hot-unplugged, isolated by offlining):
	 * known even where no node cpulist keeps them. Older captures lack the
	 * file: unknown, not a fault. */
	err = nn_read_cpulist(&ctx->root, CPU_DIR "/present", &t->offline);
	if (err == -ENOMEM)
		goto fail;
	t->offline_known = !err;
	if (!err)
		nn_cpuset_andnot(&t->offline, &t->online);
	else
		nn_cpuset_zero(&t->offline);
	err = 0;
	err = read_cpus(ctx, t, detail);
	if (err)
		goto fail;

	err = list_nodes(ctx, t);
	if (err == -ENOMEM)
		goto fail;
	numa = !err && t->nnodes;
	if (shape && numa) {
		t->knobs.numa_balancing = t->knobs.zone_reclaim_mode = t->knobs.hypervisor = -1;
	} else {
		/* without node directories zone_reclaim_mode tells a kernel
		 * without NUMA from a lost directory (single_node below) */
		nn__topo_read_knobs(ctx, &t->knobs, numa, detail);
	}
	if (!shape)
		nn__topo_read_isolation(ctx, &t->isol);
	if (!numa) {
		if (err && err != -ENOENT)
			nn_warn(ctx, NODE_DIR, "cannot list NUMA nodes: %s", strerror(-err));
		/* No node directory and no zone_reclaim_mode: CONFIG_NUMA=n. */
		err = single_node(ctx, t, err == -ENOENT &&
				  (t->knobs.absent & NN_KNOB_ZONE_RECLAIM));
	} else {
		struct node_masks ms;
		struct faults nw = { .n = 0 };

		/* the masks only align the distance rows, which a shape skips */
		memset(&ms, 0, sizeof(ms));
		err = shape ? 0 : read_node_masks(ctx, t, &ms);
		for (i = 0; i < t->nnodes && !err; i++)
			err = read_node(ctx, t, &ms, &t->nodes[i], &nw, shape);
		faults_flush(ctx, &nw);
		node_masks_free(&ms);
	}
	if (err)
		goto fail;
	assign_cpu_nodes(ctx, t);
	return 0;
fail:
	nn_topo_free(t);
	return err;
}

int nn_topo_discover(struct nn_ctx *ctx, struct nn_topo *t)
{
	return nn_topo_discover_depth(ctx, t, NN_TOPO_FULL);
}

int nn_topo_discover_basic(struct nn_ctx *ctx, struct nn_topo *t)
{
	return nn_topo_discover_depth(ctx, t, NN_TOPO_BASIC);
}

void nn_topo_free(struct nn_topo *t)
{
	size_t i;

	for (i = 0; t->cpus && i < t->ncpus; i++) {
		nn_cpuset_free(&t->cpus[i].siblings);
		nn_cpuset_free(&t->cpus[i].l3_cpus);
	}
	for (i = 0; t->nodes && i < t->nnodes; i++) {
		nn_cpuset_free(&t->nodes[i].cpus);
		nn_cpuset_free(&t->nodes[i].offline);
		free(t->nodes[i].distances);
		free(t->nodes[i].hugepages);
	}
	free(t->cpus);
	free(t->nodes);
	nn_cpuset_free(&t->online);
	nn_cpuset_free(&t->isol.isolated);
	nn_cpuset_free(&t->isol.nohz_full);
	nn_cpuset_free(&t->isol.isolcpus);
	nn_cpuset_free(&t->offline);
	memset(t, 0, sizeof(*t));
}