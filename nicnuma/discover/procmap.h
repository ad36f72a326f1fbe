/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procmap.h - where a process's memory and threads sit: pure parsers of
 * /proc/PID/status, /proc/PID/numa_maps and /proc/PID/task/TID/stat, and the
 * verdict `nicnuma check --pid` reports.
 *
 * First touch puts a page on the node of the CPU that touched it first, so a
 * worker that initialised its heap on the wrong node keeps paying for remote
 * memory long after it was moved. numa_maps shows it; these functions turn the
 * text into bytes per node per class and a verdict. No I/O here.
 */
#ifndef NICNUMA_PROCMAP_H
#define NICNUMA_PROCMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/proc.h"

/* Memory policy as numa_maps prints it (mm/mempolicy.c mpol_to_str). */
enum nn_mpol {
	NN_MPOL_DEFAULT = 0,		/* "default": first touch */
	NN_MPOL_LOCAL,			/* "local" */
	NN_MPOL_PREFER,			/* "prefer:N" */
	NN_MPOL_PREFER_MANY,		/* "prefer (many):LIST" */
	NN_MPOL_BIND,			/* "bind:LIST", "bind=static:LIST" */
	NN_MPOL_INTERLEAVE,		/* "interleave:LIST" */
	NN_MPOL_WEIGHTED_INTERLEAVE,	/* "weighted interleave:LIST" */
	NN_MPOL_UNKNOWN,		/* a newer kernel's word */
	NN_MPOL_COUNT,
};

/* Where a mapping's pages come from. Page cache of shared libraries lands
 * wherever some process first read it, so it is reported but does not decide
 * the verdict; anonymous and hugetlb pages are the process's own. */
enum nn_mem_class {
	NN_MEM_ANON = 0,	/* heap, stack, anonymous, private copies of file pages */
	NN_MEM_FILE,		/* page cache, shmem/tmpfs */
	NN_MEM_HUGE,		/* hugetlbfs pages ("huge") */
	NN_MEM_COUNT,
};

struct nn_pm_node {
	int node;
	unsigned long long bytes[NN_MEM_COUNT];
	/* Anonymous + hugetlb bytes by the policy of their mapping. */
	unsigned long long private_by_policy[NN_MPOL_COUNT];
	/* Anonymous + hugetlb bytes of bind mappings on a node outside the bind set. */
	unsigned long long outside_bind;
};

struct nn_numa_maps {
	struct nn_pm_node *nodes;	/* ascending node id */
	size_t nnodes;
	size_t nmappings;		/* lines parsed */
	size_t nbad;			/* lines that did not parse (skipped) */
	struct nn_cpuset bind_nodes;	/* union of bind / prefer node lists */
	struct nn_cpuset interleave_nodes;
};

/* Parses a whole numa_maps text. Unknown words are skipped (newer kernels add
 * them); a line without an address or with a bad N<node>= is counted in nbad.
 * @default_page_kb is used where kernelpagesize_kB= is missing. Returns 0,
 * -ENOMEM, or -EINVAL when no line at all could be parsed from non-empty text. */
int nn_numa_maps_parse(const char *text, unsigned long default_page_kb, struct nn_numa_maps *out);
void nn_numa_maps_free(struct nn_numa_maps *m);
const struct nn_pm_node *nn_numa_maps_node(const struct nn_numa_maps *m, int node);
unsigned long long nn_numa_maps_total(const struct nn_numa_maps *m, int cls);	/* cls -1: all */


enum nn_pm_verdict_flag {
	NN_PMV_REMOTE = 1u << 0,	/* flagged: most private memory off the threads' nodes */
	NN_PMV_SPAN_NO_POLICY = 1u << 1,	/* flagged: threads on >1 node, no memory policy */
	NN_PMV_OUTSIDE_BIND = 1u << 2,	/* flagged: pages outside the bind nodes */
	NN_PMV_BOUND = 1u << 3,		/* policy bind and memory where bound */
	NN_PMV_INTERLEAVED = 1u << 4,	/* most private memory interleaved */
	NN_PMV_LOCAL = 1u << 5,		/* most private memory on the threads' nodes */
	NN_PMV_NO_MEMORY = 1u << 6,	/* nothing resident to judge */
	NN_PMV_UNKNOWN_LOCALITY = 1u << 7,	/* threads' nodes unknown */
	NN_PMV_EXITED = 1u << 8,	/* a zombie: exited, not reaped yet */
};

#define NN_PMV_LAST NN_PMV_EXITED

#define NN_PMV_FLAGGED (NN_PMV_REMOTE | NN_PMV_SPAN_NO_POLICY | NN_PMV_OUTSIDE_BIND)

struct nn_pm_thresholds {
	double remote_fraction;		/* "mostly remote" above this share (default 0.5) */
	unsigned long long min_bytes;	/* judge locality only from this much private memory */
};

struct nn_pm_verdict {
	unsigned int flags;
	unsigned long long private_bytes;	/* anon + huge */
	unsigned long long judged_bytes;	/* private, minus interleaved mappings */
	unsigned long long local_bytes;		/* judged, on the threads' nodes */
	unsigned long long remote_bytes;	/* judged, elsewhere */
	unsigned long long interleaved_bytes;
	unsigned long long bound_bytes;		/* private under bind */
	unsigned long long outside_bind_bytes;
	double remote_fraction;			/* remote / judged; -1 when not judged */
};

void nn_pm_thresholds_default(struct nn_pm_thresholds *t);
/* Pure: numa_maps aggregate + the nodes the threads last ran on -> verdict.
 * @thread_nodes empty means the threads' nodes are unknown. */
void nn_pm_verdict_make(const struct nn_numa_maps *m, const struct nn_cpuset *thread_nodes,
			const struct nn_pm_thresholds *t, struct nn_pm_verdict *v);

/* The verdict of a process that exited (zombie): nothing else applies. */
void nn_pm_verdict_exited(struct nn_pm_verdict *v);

/* Private bytes under each policy over all nodes (saturating). */
void nn_pm_policy_bytes(const struct nn_numa_maps *m, unsigned long long by[NN_MPOL_COUNT]);
/* 100 * @part / @whole, within 0..100 whatever the counts (0 when @whole is 0). */
double nn_pm_percent(unsigned long long part, unsigned long long whole);

/* Names for output: snake_case key and a phrase for the table. */
const char *nn_pm_verdict_key(unsigned int flag);
const char *nn_pm_verdict_text(unsigned int flag);
const char *nn_mpol_name(enum nn_mpol p);

/* ---- a process's snapshot, read through the fs root (procmap_read.c) ---- */

struct nn_ctx;

/* CPU -> node, from the node cpulists. */
struct nn_pm_cpu_nodes {
	int *node;		/* node[cpu], -1 unknown */
	size_t ncpus;
	struct nn_cpuset nodes;	/* nodes that exist */
};

/* Unreadable lists become warnings (those CPUs are of unknown node); returns
 * 0 or -ENOMEM. */
int nn_pm_cpu_nodes_read(struct nn_ctx *ctx, struct nn_pm_cpu_nodes *cn);
void nn_pm_cpu_nodes_free(struct nn_pm_cpu_nodes *cn);
int nn_pm_cpu_node(const struct nn_pm_cpu_nodes *cn, int cpu);	/* -1 unknown */

struct nn_pm_thread {
	int tid, cpu, node;	/* cpu/node -1 unknown */
};

struct nn_pm_snapshot {
	int pid;
	struct nn_proc_status st;
	bool exited;			/* zombie: no memory, no threads read */
	struct nn_numa_maps maps;
	struct nn_pm_thread *threads;	/* ascending tid */
	size_t nthreads, threads_cap;
	struct nn_cpuset thread_nodes;
	size_t unknown_threads;		/* last CPU not on any known node */
	struct nn_pm_verdict v;
};

/* Reads /proc/PID/{status,numa_maps,task/TID/stat} and judges them. Errors
 * are reported here (nn_err), naming the pid and the file; -ENOENT/-ESRCH
 * when there is no such process (any more). Free @s whatever it returns. */
int nn_pm_snapshot_read(struct nn_ctx *ctx, const struct nn_pm_cpu_nodes *cn,
			const struct nn_pm_thresholds *th, int pid, struct nn_pm_snapshot *s);
void nn_pm_snapshot_free(struct nn_pm_snapshot *s);

/* procmap_print.c: the report of one process (threads, memory per node,
 * policies, verdicts: "check --pid"), and its one line per --watch sample
 * ("12:00:01 pid 42 (w) threads on node 0 | N0 1.2 GiB | 71.0% remote | ..."). */
struct nn_out;
void nn_pm_report_print(struct nn_out *o, const struct nn_pm_snapshot *r);
void nn_pm_line_print(struct nn_out *o, const struct nn_pm_snapshot *r, const char *stamp);
/* A process that could not be read (-errno @err): {"pid","error"}, JSON only. */
void nn_pm_error_print(struct nn_out *o, int pid, int err);

#endif
