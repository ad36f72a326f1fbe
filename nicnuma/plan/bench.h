/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench.h - "nicnuma bench mismatch": the four placements of (forwarding
 * lcores, packet memory), the nicnuma-fwd runs, their reports and the
 * statistics over them
 *
 * Row planning (bench.c), report parsing and statistics (bench_report.c)
 * are pure: a topology snapshot and a report text in, rows and numbers out.
 * Running the child, lending it hugepages and the host lookups are
 * emit/bench_exec.h's.
 */
#ifndef NICNUMA_BENCH_H
#define NICNUMA_BENCH_H

#include <stdbool.h>
#include <stddef.h>

struct nn_out;
struct nn_topo;

#define NN_BENCH_PAGES 48		/* 2 MB pages per mbuf node: one pool of 2 x 8191 mbufs + EAL */
#define NN_BENCH_PAGE_KB 2048		/* nicnuma-fwd's pools take 2 MB pages */
#define NN_BENCH_NPCT 5			/* p50 p90 p99 p999 max */
#define NN_BENCH_MAX_ARGS 48
#define NN_BENCH_ROWS 4
#define NN_BENCH_NCDF 14		/* the latency CDF's fixed ranks (nicnuma-fwd's "cdf") */
#define NN_BENCH_MAX_SIZES 8		/* --size 64,1500,... */

/* "p50", "p90", "p99", "p999", "max": the report's histogram keys. */
const char *nn_bench_pct_key(int k);
/* The rank (percent, 0..100) of CDF point @k, -1 out of range. */
double nn_bench_cdf_p(int k);

struct nn_bench_cfg {
	double duration;		/* seconds per run */
	unsigned int repeat, size;
	unsigned long long rate;
	const char *fwd;		/* the nicnuma-fwd binary */
	const char *pci[2];		/* --pci; npci 0: virtual ports */
	int npci;
};

/* One run's report, as nicnuma-fwd --json printed it. */
struct nn_bench_run {
	bool ok;			/* exited 0/1 with a parsable report */
	int status;
	double mpps;
	double lat[NN_BENCH_NPCT];	/* ns, < 0 when not measured */
	double stall[NN_BENCH_NPCT];
	double cdf[NN_BENCH_NCDF];	/* latency ns at nn_bench_cdf_p(k), < 0 unknown */
	bool verified;
	long long stamp_every;		/* latency samples one TX burst in this many; -1 unknown */
	long long lat_samples;		/* stamped frames the percentiles are over; -1 unknown */
	int fwd_cpu_seen;		/* the CPU the child says its forwarder ran on */
	long long rx;			/* frames the forwarder received (with --pci: what fed the port); -1 unknown */
	unsigned long long drops, loss;
};

struct nn_bench_row {
	const char *lsel, *msel;	/* "local" / "remote" */
	int lcore_node, mbuf_node;	/* -1 when skipped before resolving */
	char skipped[128];		/* "" when the row runs */
	int gen_cpu, fwd_cpu;
	unsigned int size;		/* frame bytes of this row's runs */
	char lcores[64];		/* EAL --lcores */
	char *argv[NN_BENCH_MAX_ARGS];
	int argc;
	struct nn_bench_run *runs;
	unsigned int nruns;
};

/* 'local': the port's node, else the first node with CPUs; -1 none. */
int nn_bench_ref_node(const struct nn_topo *t, int port_node);
/* Of @n ports bound to vfio-pci (sorted) on @nodes (-1 unknown), the one
 * bench mismatch takes without --pci: the first on @node (the node under
 * test), else the first. Its index, -1 when @n is 0. Pure. */
int nn_bench_pick_port(const int *nodes, size_t n, int node);
/* The four rows (local/local, local/remote, remote/local, remote/remote):
 * nodes, CPUs and the child's argv, or why a row cannot run on this host
 * ("skipped: one NUMA node"). 'remote' is the farthest node by distance.
 * Returns 0 or -ENOMEM/-E2BIG. Free with nn_bench_rows_free. */
int nn_bench_plan(const struct nn_topo *t, const struct nn_bench_cfg *cfg, int ref_node,
		  struct nn_bench_row rows[NN_BENCH_ROWS]);
void nn_bench_rows_free(struct nn_bench_row rows[NN_BENCH_ROWS]);

/* Marks @res's counters unknown (-1, JSON null): a run that could not
 * start or whose report is not read says so, never 0. */
void nn_bench_run_unknown(struct nn_bench_run *res);
/* Parses nicnuma-fwd's --json report into @res (ok false when it is not one). */
void nn_bench_parse_report(const char *text, struct nn_bench_run *res);

/* Median, min and max over a row's good runs; n 0 (and -1s) when none. */
struct nn_bench_stat {
	double med, min, max;
	int n;
};

enum nn_bench_metric { NN_BENCH_MPPS, NN_BENCH_LAT, NN_BENCH_STALL, NN_BENCH_CDF, NN_BENCH_STAMP_EVERY,
		       NN_BENCH_LAT_SAMPLES };

/* @k: the percentile index for LAT/STALL, the point for CDF (ignored for MPPS). */
struct nn_bench_stat nn_bench_stat(const struct nn_bench_row *r, enum nn_bench_metric m, int k);
/* Median of @x over median of @ref; -1 when either has no run or @ref's is 0. */
double nn_bench_ratio(struct nn_bench_stat x, struct nn_bench_stat ref);

/* Hugepages added for the run: recorded in an undo log before the write (so a
 * bench killed outright leaves `nicnuma rollback` to give them back) and
 * rolled back when the runs are over. */
struct nn_bench_hp {
	int node;
	long added;		/* 2 MB pages we added to nr_hugepages */
};

/* One "bench mismatch": its conditions, the rows of every frame size and
 * what their runs measured. */
struct nn_bench_result {
	struct nn_bench_cfg cfg;	/* cfg.size: the size being planned or run */
	const struct nn_topo *topo;
	int port_node, ref_node;
	unsigned int sizes[NN_BENCH_MAX_SIZES];	/* --size list; each set of rows runs at one */
	int nsizes;
	struct nn_bench_row rows[NN_BENCH_MAX_SIZES][NN_BENCH_ROWS];
	bool in_memory;			/* --in-memory: the free pages as found */
	struct nn_bench_hp hp[NN_BENCH_ROWS];	/* pages added per mbuf node */
	int nhp;
};

/* The report (bench_print.c): host, conditions, then a row per placement
 * and frame size with medians, min-max and ratios to the matched row; in
 * JSON every run, the latency CDF and each row's binding. */
void nn_bench_print(struct nn_out *o, const struct nn_bench_result *b);

#endif
