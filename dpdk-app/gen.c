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
#include <stddef.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

#include "app.h"

#define CNT_SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

/* What every frame from @port_idx starts with: the Ethernet header, magic and
 * flags. The generator copies it whole (a constant-size memcpy the compiler
 * turns into two stores) and then writes only {seq, tsc} per frame. */
struct frame_tmpl {
	uint8_t b[sizeof(struct rte_ether_hdr) + offsetof(struct fwd_stamp, seq)];
};

static void frame_template(const struct fwd_app *app, unsigned int port_idx, bool stamped,
			   struct frame_tmpl *t)
{
	const struct fwd_port *p = &app->ports[port_idx];
	struct rte_ether_hdr eth;
	struct fwd_stamp st;

	memset(&eth.dst_addr, 0, sizeof(eth.dst_addr));
	eth.dst_addr.addr_bytes[0] = 0x02;
	eth.dst_addr.addr_bytes[5] = (uint8_t)p->id;
	eth.src_addr = p->mac;
	eth.ether_type = rte_cpu_to_be_16(FWD_ETHERTYPE);
	st.magic = FWD_MAGIC;
	st.flags = stamped ? 1u : 0u;
	memcpy(t->b, &eth, sizeof(eth));
	memcpy(t->b + sizeof(eth), &st, sizeof(t->b) - sizeof(eth));
}

static inline void frame_fill(struct rte_mbuf *m, const struct frame_tmpl *t, unsigned int len,
			      uint64_t seq, uint64_t tsc)
{
	char *data = rte_pktmbuf_mtod(m, char *);
	struct fwd_stamp *st = (struct fwd_stamp *)(data + sizeof(struct rte_ether_hdr));

	memcpy(data, t->b, sizeof(t->b));
	st->seq = seq;
	st->tsc = tsc;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
}

void frame_build(struct fwd_app *app, struct rte_mbuf *m, unsigned int port_idx,
		 uint64_t seq, uint64_t tsc, bool stamped)
{
	struct frame_tmpl t;

	frame_template(app, port_idx, stamped, &t);
	frame_fill(m, &t, app->cfg.size, seq, tsc);
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

/* Frames of one TX burst carry one TSC, so a run of equal stamps in an RX
 * burst is one latency: record it once. The RX TSC is read when the first
 * stamped frame of the burst is looked at (unstamped bursts read none). */
static inline void lat_flush(struct nn_hist *h, uint64_t now, uint64_t tsc, uint64_t n)
{
	if (n && now >= tsc)	/* a stamp from the future: TSCs out of sync, skip */
		nn_hist_record_n(h, now - tsc, n);
}

/* Returns the frames received; *nstamped: how many carried a stamp. The
 * per-frame work is a magic check, the reorder check and, for a stamped
 * frame, one compare with the current run's TSC; stats live in locals and are
 * written back once per burst. */
static uint16_t gen_receive(struct fwd_app *app, struct lcore_state *ls, uint16_t port, uint16_t nq,
			    bool stamp, uint16_t *nstamped)
{
	struct rte_mbuf *pkts[FWD_BURST];
	struct gen_stats *g = &ls->gen;
	uint64_t now, run_tsc, run_n, max_seq = g->max_seq_seen, reordered = 0, foreign = 0;
	uint16_t q, nb, i, got = 0, nst = 0;
	bool seen = g->seen_any;

	for (q = 0; q < nq; q++) {
		nb = rte_eth_rx_burst(port, q, pkts, FWD_BURST);
		if (!nb)
			continue;
		now = 0;
		run_tsc = 0;
		run_n = 0;
		for (i = 0; i < nb; i++) {
			const struct fwd_stamp *st;

			if (i + 1 < nb)
				rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
			if (unlikely(pkts[i]->data_len < sizeof(struct rte_ether_hdr) + sizeof(*st))) {
				foreign++;
				continue;
			}
			st = rte_pktmbuf_mtod_offset(pkts[i], const struct fwd_stamp *,
						     sizeof(struct rte_ether_hdr));
			if (unlikely(st->magic != FWD_MAGIC)) {
				foreign++;
				continue;
			}
			if (seen && st->seq < max_seq)
				reordered++;
			else
				max_seq = st->seq;
			seen = true;
			if (!stamp || !(st->flags & 1u))
				continue;
			nst++;
			if (st->tsc != run_tsc) {
				if (!now)
					now = rte_rdtsc();
				lat_flush(ls->lat, now, run_tsc, run_n);
				run_tsc = st->tsc;
				run_n = 0;
			}
			run_n++;
		}
		lat_flush(ls->lat, now, run_tsc, run_n);
		rte_pktmbuf_free_bulk(pkts, nb);
		got += nb;
	}
	if (got) {
		g->max_seq_seen = max_seq;
		g->seen_any = seen;
		g->reordered += reordered;
		g->foreign += foreign;
		CNT_SET(g->rx, g->rx + got);
	}
	g->stamped_rx += nst;
	*nstamped += nst;
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
	const bool ab = app->cfg.stamp_ab, sab = app->cfg.sample_ab;
	const uint32_t every = app->cfg.stamp_every ? app->cfg.stamp_every : 1;
	/* --sample-ab: phases of this many bursts, sampled and unstamped in
	 * turn, long enough to hold several stamped bursts and short enough
	 * (~0.2 ms) that both phases share the host's load. */
	const uint64_t phase_len = RTE_MAX((uint64_t)every * 4, (uint64_t)64);
	uint64_t phase_left = phase_len;
	uint32_t until_stamp = 1;
	bool tx_stamp = false, phase_sampled = true;
	const uint64_t long_iter = app->hz / 10000;
	const unsigned int len = app->cfg.size;
	struct frame_tmpl tmpl_st, tmpl_un;
	const struct frame_tmpl *t;

	nn_hist_init(ls->lat);
	nn_hist_init(ls->cost);
	nn_hist_init(ls->cost_u);
	frame_template(app, 0, true, &tmpl_st);
	frame_template(app, 0, false, &tmpl_un);
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
				/* One burst in --stamp-every is stamped: latency is a
				 * sample (the rate is reported beside it), the rest pay
				 * no TSC reads and no histogram. --stamp-ab: every
				 * other burst, so the cost of a stamped burst and of an
				 * unstamped one are measured in the same run. */
				if (sab && !--phase_left) {
					phase_left = phase_len;
					phase_sampled = !phase_sampled;
				}
				if (ab) {
					tx_stamp = stamp && (bursts++ & 1);
				} else if (stamp && phase_sampled && !--until_stamp) {
					until_stamp = every;
					tx_stamp = true;
				} else {
					tx_stamp = false;
				}
				t = tx_stamp ? &tmpl_st : &tmpl_un;
				/* One TSC per burst: the burst leaves together, so
				 * each frame's stamp is its departure time to within
				 * building the burst (tens of ns). */
				tsc = tx_stamp ? rte_rdtsc() : 0;
				for (k = 0; k < n; k++)
					frame_fill(pkts[k], t, len, g->next_seq + k, tsc);
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

					/* --sample-ab: the whole iteration's cycles
					 * (work is 2 bursts in both phases), no
					 * rounding per packet. */
					if (sab)
						nn_hist_record(phase_sampled ? ls->cost : ls->cost_u, end - now);
					else if (!ab)
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
