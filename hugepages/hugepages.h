/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hugepages.h - per-node hugepage pools: parse and read (hugepages/)
 *
 * DPDK and other user-space data planes take packet memory from hugepages;
 * pages on the wrong node put every DMA and packet touch across the
 * interconnect. The kernel keeps one pool per node and page size:
 *   /sys/devices/system/node/nodeN/hugepages/hugepages-<S>kB/nr_hugepages
 *
 * Parsers (hp_parse.c) are pure; the state reader (hp_state.c) goes through
 * the fs root only. What to ask of each pool is hugepages/hp_target.h; setting
 * pools and mounting hugetlbfs is hugepages/hp_set.h.
 */
#ifndef NICNUMA_HUGEPAGES_HUGEPAGES_H
#define NICNUMA_HUGEPAGES_HUGEPAGES_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_cpuset;

#define NN_HP_SYS_NODE	"/sys/devices/system/node"
#define NN_HP_SYS_MM	"/sys/kernel/mm/hugepages"

/* ---- pure parsers and formatters ---------------------------------------- */

/* Page size as the user or the kernel writes it: "2M", "2MB", "1G", "1GB",
 * "2048kB", "2048K", "1048576kB". A unit is required (a bare "2048" is
 * ambiguous); the size must be a power of two of at least 4 kB.
 * -EINVAL on garbage, -ERANGE when it does not fit. */
int nn_hp_parse_size(const char *str, unsigned long *size_kb);
/* "SIZE:COUNT" as plan --hugepages and the desired state's hugepages= take
 * it ("2M:512", "1G:4"): a size nn_hp_parse_size() accepts and a count
 * nn_hp_parse_count() accepts, at least 1, whose total in kB fits a long.
 * -EINVAL on garbage, -ERANGE when it does not fit. */
int nn_hp_parse_size_count(const char *str, unsigned long *size_kb, long *count);
/* "hugepages-2048kB" (a /sys/kernel/mm/hugepages entry) -> 2048. */
int nn_hp_parse_dirname(const char *name, unsigned long *size_kb);
/* Page count: a plain non-negative decimal ("64"); no sign, no unit.
 * -EINVAL on garbage, -ERANGE above LONG_MAX. */
int nn_hp_parse_count(const char *str, long *count);
/* Memory amount with a binary unit: "4G", "512M", "4GiB", "1T", "65536K".
 * A unit is required. Result in kB; -ERANGE on overflow. */
int nn_hp_parse_mem(const char *str, unsigned long long *kb);
/* Pages of @size_kb needed to hold @kb (rounded up); -ERANGE if > LONG_MAX. */
int nn_hp_pages_for_mem(unsigned long long kb, unsigned long size_kb, long *count);
/* @count pages of @size_kb in kB, or -ERANGE on overflow. */
int nn_hp_pages_kb(long count, unsigned long size_kb, unsigned long long *kb);
/* Shortest exact form the kernel accepts: 2048 -> "2M", 1048576 -> "1G",
 * 64 -> "64K". -ENAMETOOLONG if @size is too small. */
int nn_hp_format_size(unsigned long size_kb, char *buf, size_t size);
/* Node list as the user writes it: "all" (sets @all, leaves @nodes empty) or
 * a kernel list "0", "0,2", "0-3". -EINVAL on garbage or an empty list. */
int nn_hp_parse_nodes(const char *str, struct nn_cpuset *nodes, bool *all);
/* A field of /proc/meminfo or nodeN/meminfo ("Hugepagesize", "MemTotal";
 * the "Node N " prefix is skipped), in kB. -ENOENT when absent. */
int nn_hp_meminfo_kb(const char *text, const char *key, long *kb);

struct nn_hp_mount {
	char *path;		/* mount point, /proc/mounts escapes decoded */
	unsigned long size_kb;	/* pagesize= option, else the default size; 0 unknown */
};

/* One /proc/mounts line: 1 and @m filled for hugetlbfs, 0 for another file
 * system, -EINVAL for a malformed line. @default_kb stands in when the kernel
 * shows no pagesize= (it always does since 2.6.32; 0 = unknown). */
int nn_hp_parse_mount_line(const char *line, unsigned long default_kb, struct nn_hp_mount *m);
/* Every hugetlbfs mount in /proc/mounts text; malformed lines are counted in
 * @bad (may be NULL) and skipped. */
int nn_hp_parse_mounts(const char *text, unsigned long default_kb,
		       struct nn_hp_mount **mounts, size_t *n, size_t *bad);
void nn_hp_mounts_free(struct nn_hp_mount *mounts, size_t n);
/* Undoes the octal escapes of /proc/mounts and mountinfo fields (\040 for a
 * space; also tab, newline, backslash) in place. */
void nn_hp_mount_unescape(char *s);

/* ---- the host's pools (read through the fs root) ------------------------ */

struct nn_hp_pool {
	int node;		/* -1: the host-wide pool (/sys/kernel/mm/hugepages) */
	unsigned long size_kb;
	long total;		/* nr_hugepages; -1 where the kernel did not say */
	long free;		/* free_hugepages */
	long surplus;		/* surplus_hugepages */
	long reserved;		/* resv_hugepages: host-wide only, -1 per node */
};

struct nn_hp_node {
	int id;
	long mem_total_kb;	/* -1 unknown; 0: no memory (CPU-only node) */
	long mem_free_kb;	/* -1 unknown */
};

struct nn_hp_state {
	unsigned long *sizes;		/* supported sizes, ascending */
	size_t nsizes;
	unsigned long default_kb;	/* Hugepagesize in /proc/meminfo; 0 unknown */
	bool numa;			/* false: no node directory, node 0 = host pool */
	struct nn_hp_node *nodes;	/* ascending id */
	size_t nnodes;
	struct nn_hp_pool *pools;	/* per node, node-major then size */
	size_t npools;
	struct nn_hp_pool *totals;	/* host-wide, one per size */
	size_t ntotals;
	struct nn_hp_mount *mounts;
	size_t nmounts;
};

/* Reads sizes, nodes, per-node and host pools and hugetlbfs mounts. Unreadable
 * values become -1 and warnings; -ENOENT only when the kernel has no hugepage
 * support at all (no /sys/kernel/mm/hugepages). */
int nn_hp_state_read(struct nn_ctx *ctx, struct nn_hp_state *st);
void nn_hp_state_free(struct nn_hp_state *st);

/* Lookups over a state (pure). */
const struct nn_hp_node *nn_hp_state_node(const struct nn_hp_state *st, int id);
const struct nn_hp_pool *nn_hp_state_pool(const struct nn_hp_state *st, int node,
					  unsigned long size_kb);
bool nn_hp_state_has_size(const struct nn_hp_state *st, unsigned long size_kb);
/* The first hugetlbfs mount of @size_kb, NULL when there is none. */
const struct nn_hp_mount *nn_hp_state_mount(const struct nn_hp_state *st, unsigned long size_kb);

/* Whether @node can be set to @target pages of @size_kb: the node exists, has
 * memory, the size is supported and @target pages fit in the node's memory.
 * 0, or -ENODEV/-ENOMEM/-EOPNOTSUPP/-ERANGE with @why naming the value. Pure. */
int nn_hp_check_target(const struct nn_hp_state *st, int node, unsigned long size_kb,
		       long target, char *why, size_t whylen);

/* nr_hugepages (or @file) path of a pool: the node's, or the host's when
 * @node is -1 or the kernel has no NUMA (@numa false, node 0). Pure; every
 * pool path is made here. */
int nn_hp_pool_path(bool numa, int node, unsigned long size_kb, const char *file,
		    char *buf, size_t size);

/* Reads one pool's counters (resv_hugepages only for the host-wide pool,
 * @node -1) into @p; each missing, malformed or negative one is -1 with a
 * warning naming the file. Every pool read goes through here. */
void nn_hp_pool_read(struct nn_ctx *ctx, bool numa, int node, unsigned long size_kb,
		     struct nn_hp_pool *p);

/* One pool of a plan (struct nn_plan, plan/plan.h), and what hugepages/ sets:
 * a node's pool of one size, as found and as wanted. */
struct nn_plan_hugepages {
	int node;
	unsigned long size_kb;
	long current;			/* nr_hugepages now, -1 unknown */
	long target;			/* nr_hugepages to set: max(current, request) */
	long request;			/* pages asked for (--hugepages COUNT): DPDK --socket-mem */
};

#endif
