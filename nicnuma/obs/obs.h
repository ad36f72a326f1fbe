/* SPDX-License-Identifier: GPL-2.0-or-later */
/* observe.h - where the packet work really ran: counters sampled over time
 *
 * Three parts, one per file:
 *   obs_parse.c   pure parsers: the watched IRQs' per-CPU counts of
 *                 /proc/interrupts (a line at a time, reused rows), the
 *                 NET_RX/NET_TX rows of /proc/softirqs, a driver's per-queue
 *                 statistic names (a process's stat: core/proc.h).
 *   obs_sample.c  the sampler: reads those files through the fs root into an
 *                 nn_obs_sample (I/O, buffers reused from sample to sample);
 *                 per-queue packet counts from netdev netlink (obs_qstats.c,
 *                 live only).
 *   obs_attr.c    pure attribution: two samples and the host snapshot give a
 *                 per-NIC, per-queue, per-CPU report (rates, CPUs and node
 *                 that did the work, local shares, flags).
 *
 * A fake root (fixtures) gives a deterministic series: sample K (0-based)
 * reads each counter file from /.observe/K/PATH when that file exists, else
 * from PATH itself, and the report's rates use the nominal interval, not the
 * measured one.
 */
#ifndef NICNUMA_OBSERVE_H
#define NICNUMA_OBSERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/proc.h"
#include "nicnuma/discover/ethtool.h"

struct nn_ctx;
struct nn_host;
struct nn_root;
struct nn_nic;

/* ---- pure parsers (obs_parse.c) ---------------------------------------- */

/* Per-CPU counters of a fixed list of rows, one column per CPU as the
 * file's header names them ("CPU0 CPU2 ..." : CPU ids, not positions; an
 * offline CPU has no column in /proc/interrupts but has one in softirqs). */
struct nn_obs_counts {
	int *cpu;			/* column -> CPU id */
	size_t ncols, cols_cap;
	size_t nrows;			/* rows: the watched IRQs, or NET_RX/NET_TX */
	unsigned long long *v;		/* nrows x ncols, row-major */
	bool *seen;			/* per row: the file had it */
	size_t v_cap;			/* capacity of v in entries */
	size_t nbad;			/* lines it could not read */
};
void nn_obs_counts_free(struct nn_obs_counts *c);
static inline unsigned long long *nn_obs_row(const struct nn_obs_counts *c, size_t row)
{
	return c->v + row * c->ncols;
}

/* /proc/interrupts, a line at a time, keeping only the IRQs in @want
 * (ascending, no duplicates: the rows, in that order). Lines of other IRQs
 * cost one number parse. begin resets @c (keeping its memory); line returns 0
 * or -ENOMEM; a line it cannot read is counted in nbad. */
struct nn_obs_intr_parse {
	struct nn_obs_counts *c;
	const int *want;
	size_t nwant;
	bool header;
};
int nn_obs_intr_begin(struct nn_obs_intr_parse *st, struct nn_obs_counts *c,
		      const int *want, size_t nwant);
int nn_obs_intr_line(struct nn_obs_intr_parse *st, const char *p, const char *end);
/* After the last line: rows the file did not give (or gave garbage) are zero. */
void nn_obs_intr_end(struct nn_obs_intr_parse *st);
/* The whole text at once (tests, fuzzing). */
int nn_obs_parse_interrupts(const char *text, struct nn_obs_counts *c,
			    const int *want, size_t nwant);

/* Rows of nn_obs_parse_softirqs. */
enum { NN_OBS_NET_TX = 0, NN_OBS_NET_RX = 1, NN_OBS_NSOFT = 2 };
/* /proc/softirqs: the NET_TX and NET_RX rows (0 and 1), a line at a time
 * like the interrupts, or the whole text (-EINVAL without a header naming
 * CPUs). */
struct nn_obs_soft_parse {
	struct nn_obs_counts *c;
	bool header;
};
void nn_obs_soft_begin(struct nn_obs_soft_parse *st, struct nn_obs_counts *c);
int nn_obs_soft_line(struct nn_obs_soft_parse *st, const char *p, const char *end);
int nn_obs_parse_softirqs(const char *text, struct nn_obs_counts *c);

/* A driver statistic (ethtool -S) that counts one queue's packets:
 * rx_queue_N_packets / tx_queue_N_packets (virtio_net, ice, ixgbe),
 * rx-N.packets (i40e), rxN_packets (mlx5). Returns 1 with the queue and
 * direction, 0 for any other name. */
int nn_obs_ethtool_queue_stat(const char *name, int *queue, bool *rx);

/* ---- samples (obs_sample.c) --------------------------------------------- */

#define NN_OBS_COMM_MAX NN_PROC_COMM_MAX

/* A NAPI kthread: a pid netdev napi-get names for one of the host's NICs. */
struct nn_obs_thread {
	int pid;
	char comm[NN_OBS_COMM_MAX];	/* as /proc shows it, for the report */
	long long napi_id;
	int nic;			/* index into the host's NICs: napi-get's ifindex */
	unsigned long long ticks;	/* utime + stime at this sample */
	int cpu;			/* last CPU, -1 unknown */
	bool seen;			/* its stat was read at this sample */
};

/* Per-queue packet counts (netdev netlink qstats-get). */
enum nn_obs_qsrc { NN_OBS_QSTATS_NONE = 0, NN_OBS_QSTATS_NETLINK, NN_OBS_QSTATS_ETHTOOL };
struct nn_obs_qstat {
	int ifindex;
	int queue;
	bool rx;			/* rx queue, else tx */
	unsigned long long packets, bytes;
};

struct nn_obs_sample {
	double t;			/* CLOCK_MONOTONIC seconds (fake root: K * interval) */
	struct nn_obs_counts intr;	/* rows: the sampler's watched IRQs */
	struct nn_obs_counts soft;	/* rows: NET_TX, NET_RX */
	bool have_intr, have_soft;
	struct nn_obs_thread *threads;	/* NAPI kthreads, ascending pid */
	size_t nthreads, threads_cap;
	struct nn_obs_qstat *qstats;
	size_t nqstats, qstats_cap;
	enum nn_obs_qsrc qsrc;
};
void nn_obs_sample_free(struct nn_obs_sample *s);

/* The sampler: what to watch and the state reused between samples. */
struct nn_obs_sampler {
	int *irqs;			/* watched IRQs, ascending: every queue IRQ of the NICs */
	size_t nirqs;
	long seq;			/* samples taken; the fake root's K */
	double interval;		/* nominal, for the fake root's clock */
	enum nn_obs_qsrc qwant;		/* NONE: no queue statistics; NETLINK: netlink,
					 * then ethtool where netlink has none; ETHTOOL:
					 * ethtool only (live root only either way) */
	bool netlink_failed;		/* qstats-get not available: not retried */
	bool ethtool_failed;		/* no NIC names per-queue statistics */
	struct nn_ethtool_stats est;	/* reused ethtool -S buffers */
	long napi_rescan;		/* samples until NAPI threads are looked for again (napi-get) */
	struct nn_obs_thread *known;	/* NAPI threads napi-get named at the last look */
	size_t nknown, known_cap;
	char *buf;			/* reused read buffer */
	size_t buf_cap;
	unsigned int warned;		/* files already warned about (one bit each) */
	/* Per host NIC: the union of its rx queues' rps_cpus (empty: no RPS),
	 * read at the first sample (irq/rps.h's paths). */
	struct nn_cpuset *rps;
	size_t nrps;
	bool rps_read;
};
/* Watches every IRQ of @host's NICs (all of them, even when the report
 * shows fewer: a CPU's softirqs are split over every NIC it served). */
int nn_obs_sampler_init(struct nn_obs_sampler *sp, const struct nn_host *host, double interval);
void nn_obs_sampler_free(struct nn_obs_sampler *sp);
/* Takes one sample into @s (its memory reused). Missing files are warnings
 * (once per file and kind); returns a negative errno only on ENOMEM. */
int nn_obs_sample_take(struct nn_ctx *ctx, struct nn_obs_sampler *sp,
		       const struct nn_host *host, struct nn_obs_sample *s);
/* The CPUs /sys/devices/system/cpu/isolated lists (isolcpus=); empty when
 * the file is absent or empty. */
int nn_obs_isolated_read(const struct nn_root *r, struct nn_cpuset *set);
/* Live only: per-queue packet counts from netdev netlink (qstats-get,
 * scope queue, kernel 6.10). 0, -EOPNOTSUPP when the kernel has no such
 * family or command, or another -errno. (obs_qstats.c) */
int nn_obs_qstats_read(struct nn_ctx *ctx, struct nn_obs_sample *s);
/* Live only: the same from each NIC's driver statistics (ethtool -S) where
 * it names per-queue packet counters (nn_obs_ethtool_queue_stat); 0 when at
 * least one NIC had some, -EOPNOTSUPP when none. */
int nn_obs_ethtool_qstats_read(struct nn_ctx *ctx, struct nn_obs_sampler *sp,
			       const struct nn_host *host, struct nn_obs_sample *s);

/* ---- attribution (obs_attr.c) ------------------------------------------- */

enum {
	NN_OBS_F_IRQ_OFF_NODE = 1 << 0,		/* a queue's IRQ fired on another node */
	NN_OBS_F_NAPI_OFF_NODE = 1 << 1,	/* a NAPI thread ran on another node */
	NN_OBS_F_IRQ_ONE_CPU = 1 << 2,		/* one CPU took most of a NIC's interrupts */
	NN_OBS_F_IRQ_ISOLATED = 1 << 3,		/* interrupts on an isolated CPU */
};
/* Stable snake_case names of the flags, in bit order. */
const char *nn_obs_flag_name(unsigned int bit);

/* One CPU's share of some work. */
struct nn_obs_cpu_share {
	int cpu;
	int node;			/* -1 unknown */
	double count;			/* events (or ticks) in the interval */
};

struct nn_obs_queue {
	int irq;
	int queue;			/* -1: not a queue IRQ (config, async) */
	enum nn_qdir dir;
	char *name;			/* action name, may be NULL */
	double irqs;			/* interrupts in the interval */
	double irq_rate;		/* per second */
	struct nn_obs_cpu_share *cpus;	/* CPUs that took them, most first */
	size_t ncpus;
	double local_ratio;		/* share on the NIC's node; -1 unknown */
	double rx_pps, tx_pps;		/* qstats; -1 not available */
	unsigned int flags;		/* NN_OBS_F_* of this queue */
};

struct nn_obs_napi {
	int pid;
	char comm[NN_OBS_COMM_MAX];
	int cpu, node;			/* last CPU and its node, -1 unknown */
	double busy;			/* share of one CPU in the interval, 0-1 */
	bool off_node;
};

struct nn_obs_nic {
	const struct nn_nic *nic;	/* borrowed from the host */
	int node;			/* -1 unknown */
	double irqs, irq_rate;
	double irq_local_ratio;		/* -1 unknown (no interrupts or no node) */
	double softirq, softirq_rate;	/* NET_RX+NET_TX events attributed to it */
	double softirq_local_ratio;	/* -1 unknown */
	double napi_busy;		/* NAPI threads' CPU share, summed */
	double napi_local_ratio;	/* -1 unknown (no NAPI threads busy) */
	double remote_pct;		/* worst off-node share of the three, 0-100; -1 unknown */
	int top_cpu;			/* CPU with most of its interrupts, -1 none */
	double top_cpu_share;
	double rx_pps, tx_pps;		/* sums over queues; -1 not available */
	/* RPS (docs/rps.md): its rx queues' rps_cpus (malloc'd cpulist, NULL:
	 * none), the NET_RX raised on those CPUs where no observed NIC
	 * interrupt came (the steered work), and that work's share of all its
	 * softirq work (-1: no RPS). */
	char *rps_cpus;
	double rps_net_rx, rps_share;
	enum nn_obs_qsrc qsrc;
	unsigned int flags;
	struct nn_obs_queue *queues;
	size_t nqueues;
	struct nn_obs_napi *napis;
	size_t nnapis;
};

struct nn_obs_cpu {
	int cpu, node;
	double nic_irqs;		/* interrupts of the observed NICs */
	double net_rx, net_tx;		/* softirqs raised (all devices) */
	double napi_busy;		/* NAPI threads whose last CPU it was */
	bool isolated;
	bool claimed;			/* a run-time claim's CPU (docs/claims.md) */
};

struct nn_obs_report {
	double interval;		/* seconds between the two samples */
	struct nn_obs_nic *nics;
	size_t nnics;
	struct nn_obs_cpu *cpus;	/* CPUs with any counted work, ascending */
	size_t ncpus;
	double net_rx, net_tx;		/* host totals in the interval */
	double unattributed_softirq;	/* NET_RX/TX on CPUs that took no NIC interrupt */
	double remote_pct;		/* worst NIC's remote_pct; -1 unknown */
	unsigned int flags;		/* union of the NICs' */
};

/* Options of the attribution. */
struct nn_obs_opts {
	double one_cpu_share;		/* NN_OBS_F_IRQ_ONE_CPU above this share (0.8) */
	double min_irqs;		/* a NIC with fewer interrupts is not judged (10) */
	const struct nn_cpuset *isolated; /* may be NULL */
	const struct nn_cpuset *claimed;  /* the claimed CPUs (nn_host_claimed_cpus); may be NULL */
	char *const *only;		/* NICs to report (NULL-terminated); NULL: every
					 * NIC with IRQs or a NAPI thread */
};
void nn_obs_opts_default(struct nn_obs_opts *o);

/* The work between @a and @b (b later) over @host. Pure. */
int nn_obs_attribute(const struct nn_host *host, const struct nn_obs_sampler *sp,
		     const struct nn_obs_sample *a, const struct nn_obs_sample *b,
		     const struct nn_obs_opts *o, struct nn_obs_report *r);
void nn_obs_report_free(struct nn_obs_report *r);

#endif
