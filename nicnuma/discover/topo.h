/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topo.h - host topology snapshot: CPUs, NUMA nodes, kernel NUMA knobs
 *
 * Plain data; nothing here does I/O after nn_topo_discover() returns. Unknown
 * NUMA node, package, core... are -1, never 0.
 */
#ifndef NICNUMA_TOPO_H
#define NICNUMA_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"

#define NN_NODE_UNKNOWN (-1)

struct nn_ctx;

struct nn_hugepages {
	unsigned long size_kb;
	long total, free, surplus;	/* -1 where the file was unreadable */
};

struct nn_node {
	int id;
	struct nn_cpuset cpus;		/* its online CPUs; may be empty: memory-only node */
	struct nn_cpuset offline;	/* in its cpulist but offline (SMT off, hot-unplugged) */
	bool cpus_unknown;		/* cpulist unreadable: @cpus empty but not memory-only */
	long mem_total_kb, mem_free_kb;	/* -1 unknown; 0 total: CPU-only node */
	int *distances;			/* distances[i] to topo->nodes[i]; -1 unknown */
	size_t ndistances;		/* == topo->nnodes, or 0 when unreadable */
	struct nn_hugepages *hugepages;	/* sorted by size_kb */
	size_t nhugepages;
};

struct nn_cpu {
	int id;
	int node;			/* -1 unknown */
	int package;			/* physical_package_id, -1 unknown */
	int die;			/* die_id, -1 unknown */
	int core;			/* core_id, -1 unknown */
	int l3;				/* L3 group: lowest CPU sharing its L3, -1 unknown */
	struct nn_cpuset siblings;	/* thread_siblings_list (includes itself) */
	struct nn_cpuset l3_cpus;	/* cache/index3/shared_cpu_list; empty unknown */
};

/* Knobs of features the kernel was built without: no file, no warning. */
enum {
	NN_KNOB_NUMA_BALANCING = 1 << 0,	/* CONFIG_NUMA_BALANCING=n */
	NN_KNOB_ZONE_RECLAIM = 1 << 1,		/* CONFIG_NUMA=n */
	NN_KNOB_THP = 1 << 2,			/* CONFIG_TRANSPARENT_HUGEPAGE=n */
};

struct nn_knobs {
	unsigned int absent;		/* NN_KNOB_* not in this kernel (values unknown) */
	int numa_balancing;		/* kernel.numa_balancing, -1 unknown */
	int zone_reclaim_mode;		/* vm.zone_reclaim_mode, -1 unknown */
	char thp_enabled[32];		/* selected value, "" unknown */
	char thp_defrag[32];
	int hypervisor;			/* 1 VM, 0 bare metal, -1 unknown */
	char cpu_model[128];		/* "" unknown */
	char cpu_vendor[32];		/* /proc/cpuinfo's vendor_id ("GenuineIntel", "AuthenticAMD"); "" unknown */
};

/* CPUs the kernel keeps for a latency or DPDK workload. Each source is read
 * as is; nn_topo_isolated_cpus() is the one answer planners ask. */
struct nn_isolation {
	struct nn_cpuset isolated;	/* /sys/devices/system/cpu/isolated */
	struct nn_cpuset nohz_full;	/* /sys/devices/system/cpu/nohz_full */
	struct nn_cpuset isolcpus;	/* isolcpus= of /proc/cmdline */
	unsigned int isolcpus_flags;	/* NN_ISOL_* (core/parse.h); 0 without isolcpus= */
	bool isolated_known;		/* false: file missing or unreadable */
	bool nohz_full_known;		/* false: missing (CONFIG_NO_HZ_FULL=n) or unreadable */
	bool cmdline_known;		/* false: /proc/cmdline missing or unreadable */
};

struct nn_topo {
	struct nn_cpuset online;
	struct nn_cpuset offline;	/* cpu/present minus online: present but offline */
	bool offline_known;		/* cpu/present was read */
	struct nn_cpu *cpus;		/* online CPUs, ascending id */
	size_t ncpus;
	struct nn_node *nodes;		/* ascending id; holes in numbering allowed */
	size_t nnodes;
	struct nn_knobs knobs;
	struct nn_isolation isol;
};

/* Reads /sys/devices/system/{cpu,node}, /proc/sys, /sys/kernel/mm,
 * /proc/cpuinfo through ctx->root. Bad or missing files become warnings;
 * returns a negative errno only when nothing usable is there. */
int nn_topo_discover(struct nn_ctx *ctx, struct nn_topo *topo);
/* The same without the per-CPU topology files (package, die, core, siblings,
 * L3 stay unknown; cpus[] carry id and node), at half the file reads on a
 * 512-CPU host: the nodes with their memory and hugepage pools, as
 * nicnuma-fwd checks its node. */
int nn_topo_discover_basic(struct nn_ctx *ctx, struct nn_topo *topo);
/* How much of the topology is read: nn_topo_discover is FULL,
 * nn_topo_discover_basic BASIC. SHAPE, for applying a plan file: the online
 * CPUs, the nodes and their CPUs (the plan's shape, a NIC's node); the
 * knobs, isolation, CPU model, node memory, distances and hugepage pools
 * stay unknown. */
enum nn_topo_depth { NN_TOPO_SHAPE, NN_TOPO_BASIC, NN_TOPO_FULL };
int nn_topo_discover_depth(struct nn_ctx *ctx, struct nn_topo *topo, enum nn_topo_depth depth);
void nn_topo_free(struct nn_topo *topo);
/* The report of "nicnuma topo" on @o (topo_print.c): the online CPUs, the
 * nodes and their distances, the CPUs (@cpus: the per-CPU table too; JSON
 * has it always), the kernel's NUMA knobs and the isolated CPUs. 0 or
 * -ENOMEM. */
struct nn_out;
int nn_topo_print(struct nn_out *o, const struct nn_topo *t, bool cpus);

/* ---- node questions (topo_facts.c, pure): one answer each ----
 *
 * Distances: a node's distance to itself is NN_LOCAL_DISTANCE (10) even when
 * its row is missing (SLIT fixes the diagonal); any other missing entry is
 * unknown, -1. Orders put @from first, then known distances ascending, then
 * unknown ones; ties by node id. */
#define NN_LOCAL_DISTANCE 10

const struct nn_node *nn_topo_node(const struct nn_topo *t, int id);	/* binary search */
int nn_topo_node_index(const struct nn_topo *t, int id);	/* -1 absent */
const struct nn_cpu *nn_topo_cpu(const struct nn_topo *t, int id);	/* binary search */
/* The node of online CPU @cpu (O(log n)); -1 unknown or not online. Every
 * CPU-to-node question goes through here. */
int nn_topo_cpu_node(const struct nn_topo *t, int cpu);
/* Distance from node @a to node @b; -1 when unknown (rule above). */
int nn_topo_distance(const struct nn_topo *t, int a, int b);
/* Node ids ordered by distance from @from (rule above). Writes up to @max
 * ids; returns how many. */
size_t nn_topo_nodes_by_distance(const struct nn_topo *t, int from, int *ids, size_t max);

/* What a picked node must have (OR them; 0: any node). */
enum {
	NN_NODE_CPUS = 1 << 0,		/* a non-empty cpulist */
	NN_NODE_ONLINE_CPUS = 1 << 1,	/* an online CPU in its cpulist */
	NN_NODE_MEMORY = 1 << 2,	/* MemTotal not 0 (unknown counts as memory) */
};
bool nn_topo_node_has(const struct nn_topo *t, const struct nn_node *n, unsigned int wants);
/* A caller's own condition on top of the wants (NULL: none). */
typedef bool (*nn_node_filter)(const struct nn_topo *t, int node, void *arg);
/* Nearest node to @from with @wants (and @ok): @from itself when it
 * qualifies, else the least known distance, else - last resort - a node of
 * unknown distance; ties by id. -1 when none or @from is not a node. */
int nn_topo_nearest_node(const struct nn_topo *t, int from, unsigned int wants,
			 nn_node_filter ok, void *arg);
/* Farthest other node from @from with @wants (and @ok), greatest known
 * distance, ties by id. A node of unknown distance is never picked: it
 * cannot be shown to be far. No other node: @from when it qualifies, else -1. */
int nn_topo_farthest_node(const struct nn_topo *t, int from, unsigned int wants,
			  nn_node_filter ok, void *arg);

/* Default housekeeping CPUs: on each node, its lowest online CPU that is not
 * isolated (nn_topo_isolated_cpus) with that CPU's SMT siblings on the node
 * (thread_siblings_list; when unknown, the same package/die/core ids), the
 * isolated ones left out; CPUs of no known node count as one more node. A
 * node whose every CPU is isolated gets none. 0 or -ENOMEM. */
int nn_topo_default_housekeeping(const struct nn_topo *t, struct nn_cpuset *out);

/* Isolated CPUs: online CPUs in /sys/devices/system/cpu/isolated, nohz_full
 * or isolcpus= (any flag): no queue IRQ, XPS mask or housekeeping role
 * goes there unless --cpus names it; a node's DPDK instance gets them first.
 * Empty when no source names any (or none was readable). 0 or -ENOMEM. */
int nn_topo_isolated_cpus(const struct nn_topo *t, struct nn_cpuset *out);

#endif
