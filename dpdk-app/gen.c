// SPDX-License-Identifier: GPL-2.0-or-later
/* gen.c - the generator role: stamped frames out, round trips back in
 *
 * Path: gen TX on port 0 -> forwarder RX port 0 -> forwarder TX port 1 -> gen
 * RX port 1. On net_ring ports each port is a loopback (queue q's TX ring is
 * its RX ring), so that path exists inside one process; with real ports it
 * needs port 0 and port 1 looped back by cable. Each frame carries {magic,
 * seq, TSC} right after the Ethernet header; one TSC read per burst on each
 * side keeps stamping cheap. After the run the generator stops sending and
 * keeps receiving until every frame is accounted for (received, or dropped
 * by a forwarder), 1 s passes without one coming back, or 5 s in all, so
 * that tx = rx + drops holds.
 */
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "app.h"

#define CNT_SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

void frame_build(struct fwd_app *app, struct rte_mbuf *m, unsigned int port_idx,
		 uint64_t seq, uint64_t tsc, bool stamped)
{
	const struct fwd_port *p = &app->ports[port_idx];
	struct rte_ether_hdr *eth;
	struct fwd_stamp *st;
	unsigned int len = app->cfg.size;
	char *data;

	data = rte_pktmbuf_mtod(m, char *);
	eth = (struct rte_ether_hdr *)data;
	memset(&eth->dst_addr, 0, sizeof(eth->dst_addr));
	eth->dst_addr.addr_bytes[0] = 0x02;
	eth->dst_addr.addr_bytes[5] = (uint8_t)p->id;
	eth->src_addr = p->mac;
	eth->ether_type = rte_cpu_to_be_16(FWD_ETHERTYPE);
	st = (struct fwd_stamp *)(eth + 1);
	st->magic = FWD_MAGIC;
	st->flags = stamped ? 1u : 0u;
	st->seq = seq;
	st->tsc = tsc;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
}

static uint64_t fwd_drops(struct fwd_app *app)
{
	uint64_t d = 0;
	unsigned int i, l;

	for (l = 0; l < app->nfwd; l++) {
		struct lcore_state *ls = &lcore_state[app->fwd_lcore[l]];

		for (i = 0; i < ls->nrxq; i++)
			d += __atomic_load_n(&ls->rxq[i].drops, __ATOMIC_RELAXED);
	}
	return d;
}

/* Returns the frames received; *nstamped: how many carried a stamp. */
static uint16_t gen_receive(struct fwd_app *app, struct lcore_state *ls, uint16_t port, uint16_t nq,
			    bool stamp, uint16_t *nstamped)
{
	struct rte_mbuf *pkts[FWD_BURST];
	struct gen_stats *g = &ls->gen;
	uint64_t now, run_v = 0, run_n = 0, v;
	uint16_t q, nb, i, got = 0;

	for (q = 0; q < nq; q++) {
		nb = rte_eth_rx_burst(port, q, pkts, FWD_BURST);
		if (!nb)
			continue;
		now = 0;
		for (i = 0; i < nb; i++) {
			const struct fwd_stamp *st;

			if (pkts[i]->data_len < sizeof(struct rte_ether_hdr) + sizeof(*st)) {
				g->foreign++;
				continue;
			}
			st = rte_pktmbuf_mtod_offset(pkts[i], const struct fwd_stamp *,
						     sizeof(struct rte_ether_hdr));
			if (st->magic != FWD_MAGIC) {
				g->foreign++;
				continue;
			}
			if (g->seen_any && st->seq < g->max_seq_seen)
				g->reordered++;
			else
				g->max_seq_seen = st->seq;
			g->seen_any = true;
			if (!stamp || !(st->flags & 1u))
				continue;
			(*nstamped)++;
			if (!now)
				now = rte_rdtsc();	/* only for bursts that carry stamps */
			if (now < st->tsc)
				continue;
			/* One TSC read per burst on each side: frames of one TX
			 * burst received in one RX burst share a latency, so runs
			 * of equal values go into the histogram at once. */
			v = now - st->tsc;
			if (run_n && v == run_v) {
				run_n++;
			} else {
				if (run_n)
					nn_hist_record_n(ls->lat, run_v, run_n);
				run_v = v;
				run_n = 1;
			}
		}
		if (run_n) {
			nn_hist_record_n(ls->lat, run_v, run_n);
			run_n = 0;
		}
		rte_pktmbuf_free_bulk(pkts, nb);
		CNT_SET(g->rx, g->rx + nb);
		got += nb;
	}
	return got;
}

int gen_loop(struct fwd_app *app, unsigned int lcore)
{
	struct lcore_state *ls = &lcore_state[lcore];
	struct gen_stats *g = &ls->gen;
	struct fwd_port *txp = &app->ports[0], *rxp = &app->ports[1];
	struct rte_mbuf *pkts[FWD_BURST];
	const bool stamp = app->cfg.stamp;
	const bool report = rte_get_main_lcore() == lcore;
	const uint64_t rate = app->cfg.rate;
	uint64_t now, deadline = 0, cap = 0, last_rx = 0, allowed, tsc = 0;
	uint16_t q = 0, n, sent, k, got, nst;
	uint64_t cpu0 = thread_cpu_ns(), work, end, bursts = 0;
	const bool ab = app->cfg.stamp_ab;
	bool tx_stamp = false;
	const uint64_t long_iter = app->hz / 10000;

	nn_hist_init(ls->lat);
	nn_hist_init(ls->cost);
	nn_hist_init(ls->cost_u);
	for (;;) {
		now = rte_rdtsc();
		if (!app->stop_tx && app_time_up(app, now)) {
			app->tsc_stop = now;
			__atomic_store_n(&app->stop_tx, 1, __ATOMIC_RELEASE);
			/* Drain: wait while frames keep coming back; give up after
			 * 1 s without progress (a descheduled vCPU can stall the
			 * forwarder for hundreds of ms) or 5 s in all. */
			deadline = now + app->hz;
			cap = now + 5 * app->hz;
			last_rx = g->rx;
		}
		work = 0;
		sent = 0;
		if (!app->stop_tx) {
			n = FWD_BURST;
			if (rate) {
				/* Credit-based pacing from the start of the run: no drift. */
				allowed = (uint64_t)((double)(now - app->tsc_start) * (double)rate /
						     (double)app->hz);
				allowed = allowed > g->tx ? allowed - g->tx : 0;
				n = (uint16_t)RTE_MIN(allowed, (uint64_t)FWD_BURST);
			}
			if (n && rte_pktmbuf_alloc_bulk(txp->pool, pkts, n) == 0) {
				/* --stamp-ab: every other burst unstamped, so both
				 * costs are measured in the same run and conditions. */
				tx_stamp = stamp && (!ab || (bursts++ & 1));
				if (tx_stamp)
					tsc = rte_rdtsc();
				for (k = 0; k < n; k++)
					frame_build(app, pkts[k], 0, g->next_seq + k, tsc, tx_stamp);
				sent = rte_eth_tx_burst(txp->id, q, pkts, n);
				if (sent < n) {
					rte_pktmbuf_free_bulk(pkts + sent, n - sent);
					g->tx_full++;
				}
				g->next_seq += sent;
				work += sent;
				CNT_SET(g->tx, g->tx + sent);
				if (++q == txp->nq)
					q = 0;
			} else if (n) {
				g->alloc_fail++;
			}
		}
		nst = 0;
		got = gen_receive(app, ls, rxp->id, rxp->nq, stamp, &nst);
		work += got;
		if (work) {
			end = rte_rdtsc();
			if (end - now < long_iter) {
				g->busy_cycles += end - now;
				g->busy_work += work;
				/* Per-packet cost of full iterations only (a full burst
				 * out and a full burst back): the same work in every
				 * mode, so stamped and unstamped runs compare; the
				 * median ignores those a context switch inflated. */
				if (sent == FWD_BURST && got == FWD_BURST) {
					uint64_t c = (end - now) * 2 / work;

					if (!ab)
						nn_hist_record(ls->cost, c);
					else if (tx_stamp && nst == FWD_BURST)
						nn_hist_record(ls->cost, c);
					else if (!tx_stamp && nst == 0)
						nn_hist_record(ls->cost_u, c);
				}
			} else {
				g->long_iters++;
			}
		}
		if (report && report_due(app, now))
			report_live(app, now);
		if (app->stop_tx) {
			if (g->rx != last_rx) {
				last_rx = g->rx;
				deadline = now + app->hz;
			}
			if (g->rx + fwd_drops(app) >= g->tx || now > deadline || now > cap)
				break;
		}
	}
	ls->cpu_ns = thread_cpu_ns() - cpu0;
	__atomic_store_n(&app->gen_done, 1, __ATOMIC_RELEASE);
	return 0;
}
