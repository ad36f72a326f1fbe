/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench.h - "nicnuma bench mismatch": the four placements of (forwarding
 * lcores, packet memory), the nicnuma-fwd runs, their reports and the
 * statistics over them
 *
 * Row planning (bench.c), report parsing and statistics (bench_report.c)
 * are pure: a topology snapshot and a report text in, rows and numbers out.
 * Running the child, lending it hugepages and the host lookups are
 * bench_exec.c's.
 */
#ifndef NICNUMA_BENCH_H
#define NICNUMA_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_topo;
struct nn_undo;

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
	int fwd_cpu_seen;		/* the CPU the child says its forwarder ran on */
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
/* The four rows (local/local, local/remote, remote/local, remote/remote):
 * nodes, CPUs and the child's argv, or why a row cannot run on this host
 * ("skipped: one NUMA node"). 'remote' is the farthest node by distance.
 * Returns 0 or -ENOMEM/-E2BIG. Free with nn_bench_rows_free. */
int nn_bench_plan(const struct nn_topo *t, const struct nn_bench_cfg *cfg, int ref_node,
		  struct nn_bench_row rows[NN_BENCH_ROWS]);
void nn_bench_rows_free(struct nn_bench_row rows[NN_BENCH_ROWS]);

/* Parses nicnuma-fwd's --json report into @res (ok false when it is not one). */
void nn_bench_parse_report(const char *text, struct nn_bench_run *res);

/* Median, min and max over a row's good runs; n 0 (and -1s) when none. */
struct nn_bench_stat {
	double med, min, max;
	int n;
};

enum nn_bench_metric { NN_BENCH_MPPS, NN_BENCH_LAT, NN_BENCH_STALL, NN_BENCH_CDF };

/* @k: the percentile index for LAT/STALL, the point for CDF (ignored for MPPS). */
struct nn_bench_stat nn_bench_stat(const struct nn_bench_row *r, enum nn_bench_metric m, int k);
/* Median of @x over median of @ref; -1 when either has no run or @ref's is 0. */
double nn_bench_ratio(struct nn_bench_stat x, struct nn_bench_stat ref);

/* ---- the host and the child (bench_exec.c) ---- */

/* nicnuma-fwd: @opt when given (must be executable), else next to this
 * binary or in ../dpdk-app of a build tree. 0 or -ENOENT (message printed). */
int nn_bench_find_fwd(struct nn_ctx *ctx, const char *opt, char *buf, size_t size);
/* The node of the --pci ports (-1 unknown or virtual ports); -ENODEV with a
 * message when a device does not exist. A second port elsewhere warns. */
int nn_bench_port_node(struct nn_ctx *ctx, const struct nn_bench_cfg *cfg);

/* Blocks SIGINT/SIGTERM/SIGCHLD; @old receives the previous mask (children get it back). */
int nn_bench_signals_block(sigset_t *old);
/* True when a SIGINT/SIGTERM is pending (consumes it). */
bool nn_bench_interrupted(void);

/* One child run: argv vector, no shell. stdout and stderr are captured whole
 * (memfd) and returned NUL-terminated. SIGINT/SIGTERM/SIGCHLD must be blocked
 * by the caller (nn_bench_signals_block); a SIGINT or SIGTERM received while
 * waiting is passed on to the child as SIGTERM (so it stops, drains and
 * closes its ports) and sets *interrupted. After @timeout_s the child gets
 * SIGTERM, 5 s later SIGKILL. Returns 0 with *status = the exit code (128+N
 * for signal N), or a negative errno when it could not run. */
int nn_bench_exec(char *const argv[], const sigset_t *child_mask, double timeout_s,
		  char **out, char **err, int *status, bool *interrupted);

/* Runs @r cfg->repeat times (stops early on an interrupt), parsing each
 * report; a failed run, a forwarder on another CPU or pages off their node
 * become warnings. Returns 0 or -ENOMEM. */
int nn_bench_run_row(struct nn_ctx *ctx, const struct nn_bench_cfg *cfg, struct nn_bench_row *r,
		     const sigset_t *child_mask, bool *interrupted);

/* Hugepages added for the run: recorded in an undo log before the write (so a
 * bench killed outright leaves `nicnuma rollback` to give them back) and
 * rolled back when the runs are over. */
struct nn_bench_hp {
	int node;
	long added;		/* 2 MB pages we added to nr_hugepages */
};

/* Free 2 MB hugepages on @node, -1 unknown. */
long nn_bench_hugepages_free(struct nn_ctx *ctx, int node);
/* Makes sure @node has @pages free 2 MB hugepages, reserving the difference
 * through hugepages/ (readback, compaction retry) with @undo recording the
 * old count; a short result is kept. Warns and returns a negative errno when
 * the kernel does not give them all. */
int nn_bench_hugepages_ensure(struct nn_ctx *ctx, struct nn_undo *undo, int node, long pages,
			      struct nn_bench_hp *hp);

#endif
