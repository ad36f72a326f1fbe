/* SPDX-License-Identifier: GPL-2.0-or-later */
/* app.h - nicnuma-fwd: configuration, per-port and per-lcore state
 *
 * The only globals are lcore_state[] (one cache-aligned slot per lcore id,
 * written by its own lcore, read by the reporter) and force_quit (set by
 * SIGINT/SIGTERM). Everything else hangs off struct fwd_app, passed by pointer.
 */
#ifndef NICNUMA_FWD_APP_H
#define NICNUMA_FWD_APP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "nicnuma/core/fsroot.h"
#include "hist.h"

#define FWD_MAX_PORTS 8
#define FWD_MAX_NODES 64
#define FWD_MAX_RXQ 16		/* (port, queue) pairs one lcore polls */
#define FWD_BURST 32
#define FWD_MAGIC 0x6e6e6677u	/* "nnfw" */
#define FWD_ETHERTYPE 0x88b5	/* IEEE local experimental: never a real protocol */

/* Node selectors before resolution. */
enum { NODE_SEL_LOCAL = -2, NODE_SEL_REMOTE = -3 };

enum lcore_role { ROLE_IDLE = 0, ROLE_FWD, ROLE_GEN, ROLE_CONTROL };

/* Where the stall meter runs: spinning on the main lcore beside the traffic,
 * on it just before the traffic (when it generates), or not at all (the main
 * lcore then sleeps, as testpmd's does: fair for speed comparisons). */
enum stall_mode { STALL_AUTO = 0, STALL_BESIDE, STALL_BEFORE, STALL_OFF };

/* What the generator writes after the Ethernet header. */
struct fwd_stamp {
	uint32_t magic;
	uint32_t flags;		/* bit 0: tsc is valid */
	uint64_t seq;
	uint64_t tsc;
} __rte_packed;

struct fwd_cfg {
	int mbuf_sel, lcore_sel;	/* NODE_SEL_* or a node id */
	bool mac_updating;
	bool gen;			/* generator role in this process */
	bool stamp;			/* generator writes/reads TSC stamps */
	bool stamp_ab;			/* stamp every other burst, compare costs */
	bool sample_ab;			/* alternate sampled and unstamped phases, compare costs */
	uint32_t stamp_every;		/* stamp one TX burst in this many (latency sampling) */
	bool tx_first;			/* seed looped ports with one burst */
	bool json;
	bool quiet;			/* no live lines */
	unsigned int size;		/* frame bytes without FCS */
	uint64_t rate;			/* pps, 0 = flat out */
	double duration;		/* seconds, 0 = until SIGINT/SIGTERM */
	unsigned int nb_rxd, nb_txd;
	unsigned int nb_mbufs;		/* per port pool */
	unsigned int fwd_lcores;	/* 0 = every usable one */
	int nports_sel;			/* -1: every probed port */
	uint16_t ports_sel[FWD_MAX_PORTS];
	bool eal_unlinks;		/* --in-memory/--huge-unlink/--no-huge given */
	bool no_huge;
	double stall_window;		/* seconds, for STALL_BEFORE */
	enum stall_mode stall;
};

/* Where a pool's pages really are (move_pages(2)). */
struct fwd_placement {
	int intended;
	unsigned long page_size;
	unsigned long npages;
	unsigned long on_node[FWD_MAX_NODES];
	unsigned long other;		/* node id beyond FWD_MAX_NODES */
	unsigned long not_present;	/* -ENOENT and other per-page errors */
	bool verified;			/* every page on @intended */
	int err;			/* move_pages() failure, 0 ok */
};

struct fwd_port {
	uint16_t id;
	char name[64];
	char driver[32];
	int node;			/* rte_eth_dev_socket_id(); -1 unknown */
	uint16_t peer;			/* index into app->ports it forwards to */
	struct rte_ether_addr mac;
	struct rte_mempool *pool;
	struct fwd_placement placement;
	bool started;
	uint16_t nq;
	uint64_t drained;		/* mbufs pulled out of RX at shutdown */
};

struct fwd_app {
	struct fwd_cfg cfg;
	struct nn_root root;		/* live sysfs, for node distances and memory */
	uint64_t hz;
	struct fwd_port ports[FWD_MAX_PORTS];
	unsigned int nports;
	int port_node;			/* first port's node, -1 unknown */
	int ref_node;			/* what "local" means */
	bool port_node_unknown;
	int lcore_node, mbuf_node;	/* resolved */
	unsigned int nfwd;
	unsigned int fwd_lcore[RTE_MAX_LCORE];
	int gen_lcore;			/* -1: no generator */
	int stall_lcore;		/* lcore running the stall meter */
	enum stall_mode stall_mode;	/* resolved: BESIDE, BEFORE or OFF */
	double stall_window_s;
	/* Run phases, shared across lcores through atomics. */
	volatile int stop_tx;		/* generator: stop sending, keep receiving */
	volatile int gen_done;		/* generator drained */
	volatile int fwd_stop;		/* forwarders: leave the loop */
	uint64_t tsc_start, tsc_stop;	/* traffic window */
	/* Live report bookkeeping. */
	uint64_t live_prev_tsc;
	uint64_t live_prev_rx[FWD_MAX_PORTS], live_prev_tx[FWD_MAX_PORTS];
	unsigned int live_secs;
};

struct fwd_rxq {
	uint16_t rx_port, rx_queue;	/* rte port ids */
	uint16_t tx_port, tx_queue;
	uint8_t rx_idx, tx_idx;		/* indexes into app->ports */
	uint64_t rx, tx, drops;
};

struct gen_stats {
	uint64_t tx, rx;
	uint64_t tx_full;		/* bursts not accepted by TX (retried later) */
	uint64_t alloc_fail;
	uint64_t reordered, foreign;
	uint64_t stamped_rx;		/* frames back that carried a stamp (latency samples) */
	uint64_t next_seq, max_seq_seen;
	bool seen_any;
	/* The generator's own cost, robust to descheduling: TSC cycles of the
	 * loop iterations that moved packets, skipping any longer than 100 us
	 * (a stall, not work), and the packets (sent + received) they moved. */
	uint64_t busy_cycles, busy_work, long_iters;
};

struct lcore_state {
	enum lcore_role role;
	unsigned int nrxq;
	struct fwd_rxq rxq[FWD_MAX_RXQ];
	struct gen_stats gen;
	struct nn_hist *lat;		/* generator: round-trip TSC ticks */
	struct nn_hist *stall;		/* stall meter: gaps between TSC reads */
	struct nn_hist *cost;		/* generator: TSC cycles per packet, per full iteration */
	struct nn_hist *cost_u;		/* the same for unstamped bursts (--stamp-ab, --sample-ab) */
	uint64_t loops;
	uint64_t cpu_ns;		/* CPU time the lcore's thread really got in its loop */
} __rte_cache_aligned;

extern struct lcore_state lcore_state[RTE_MAX_LCORE];
extern volatile bool force_quit;

/* ports.c */
int ports_probe(struct fwd_app *app);
int ports_setup(struct fwd_app *app);
void ports_drain(struct fwd_app *app);
void ports_close(struct fwd_app *app);
void ports_seed(struct fwd_app *app);

/* nodes.c */
int nodes_exists(struct fwd_app *app, int node);
int nodes_resolve(struct fwd_app *app, int sel, bool need_cpus, const char *what, int *out);
void nodes_hint_hugepages(struct fwd_app *app, int node);
long nodes_free_hugepages(struct fwd_app *app, int node);

/* gen.c: frame layout shared by the generator and --tx-first */
void frame_build(struct fwd_app *app, struct rte_mbuf *m, unsigned int port_idx,
		 uint64_t seq, uint64_t tsc, bool stamped);

/* fwd.c, gen.c, stall.c: lcore bodies */
int fwd_loop(struct fwd_app *app, unsigned int lcore);
int gen_loop(struct fwd_app *app, unsigned int lcore);
/* Spins reading the TSC until @until_tsc (0: until app->fwd_stop/force_quit
 * ends the run), recording every gap; @report: print live lines meanwhile. */
void stall_loop(struct fwd_app *app, unsigned int lcore, uint64_t until_tsc, bool report);

/* placement.c */
int placement_check(struct rte_mempool *mp, int node, struct fwd_placement *pl);

/* report.c */
void report_live(struct fwd_app *app, uint64_t now);
bool report_due(const struct fwd_app *app, uint64_t now);
int report_final(struct fwd_app *app);
void report_placement(const struct fwd_app *app, const struct fwd_port *p);

/* CPU time of the calling thread: on shared CPUs a poll loop only works
 * while it is scheduled, so packets per CPU-second is the stable figure. */
uint64_t thread_cpu_ns(void);

/* The run's end: duration over or a signal. */
static inline bool app_time_up(const struct fwd_app *app, uint64_t now)
{
	if (force_quit)
		return true;
	return app->cfg.duration > 0 &&
	       now - app->tsc_start >= (uint64_t)(app->cfg.duration * (double)app->hz);
}

#endif
