// SPDX-License-Identifier: GPL-2.0-or-later
/* fwd.c - the per-lcore forwarding loop
 *
 * Each forwarding lcore owns queue q (its index among forwarders) of every RX
 * port it polls and of the paired TX port, so no queue is ever shared and no
 * lock is taken. Counters: rx = tx + drops per (port, queue), exactly, where
 * drops are packets the TX queue refused (freed here).
 */
#include <string.h>
#include <time.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "app.h"

/* Relaxed stores, once per burst: the reporter reads them from another lcore.
 * On x86-64 this is a plain mov (no lock prefix, no fence) into this lcore's
 * own cache-aligned lcore_state; it only stops the compiler from tearing or
 * caching the counter. */
#define CNT_ADD(field, n) __atomic_store_n(&(field), (field) + (n), __ATOMIC_RELAXED)

/* dst + src as they go on the wire: one 12-byte copy (an 8- and a 4-byte
 * store) per packet instead of two 6-byte struct copies. */
struct mac_tmpl {
	uint8_t b[2 * RTE_ETHER_ADDR_LEN];
};

/* Prefetch one frame ahead, as testpmd's macfwd does. Four ahead (with no
 * per-frame branch) was not faster on net_null, whose frames come from the
 * mempool cache still hot (medians of alternating runs a few % lower, within
 * the noise of a shared 2-vCPU host), so the simpler form stays. */
static inline void mac_update(struct rte_mbuf **pkts, uint16_t n, const struct mac_tmpl *t)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		memcpy(rte_pktmbuf_mtod(pkts[i], void *), t->b, sizeof(t->b));
	}
}

uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int fwd_loop(struct fwd_app *app, unsigned int lcore)
{
	struct lcore_state *ls = &lcore_state[lcore];
	struct mac_tmpl tmpl[FWD_MAX_RXQ];
	struct rte_mbuf *pkts[FWD_BURST];
	const bool mac = app->cfg.mac_updating;
	const unsigned int nrxq = ls->nrxq;
	uint64_t cpu0 = thread_cpu_ns();
	unsigned int i;
	uint64_t loops = 0;
	uint16_t nb, sent;

	for (i = 0; i < nrxq; i++) {
		const struct fwd_port *tx = &app->ports[ls->rxq[i].tx_idx];

		/* l2fwd convention: dst 02:00:00:00:00:<tx port>, src the TX port's MAC. */
		memset(tmpl[i].b, 0, RTE_ETHER_ADDR_LEN);
		tmpl[i].b[0] = 0x02;
		tmpl[i].b[5] = (uint8_t)tx->id;
		memcpy(tmpl[i].b + RTE_ETHER_ADDR_LEN, tx->mac.addr_bytes, RTE_ETHER_ADDR_LEN);
	}
	while (!__atomic_load_n(&app->fwd_stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < nrxq; i++) {
			struct fwd_rxq *q = &ls->rxq[i];

			nb = rte_eth_rx_burst(q->rx_port, q->rx_queue, pkts, FWD_BURST);
			if (!nb)
				continue;
			if (mac)
				mac_update(pkts, nb, &tmpl[i]);
			sent = rte_eth_tx_burst(q->tx_port, q->tx_queue, pkts, nb);
			if (unlikely(sent < nb)) {
				rte_pktmbuf_free_bulk(pkts + sent, nb - sent);
				CNT_ADD(q->drops, nb - sent);
			}
			CNT_ADD(q->rx, nb);
			CNT_ADD(q->tx, sent);
		}
		loops++;	/* a register, not a store per pass */
	}
	ls->loops = loops;
	ls->cpu_ns = thread_cpu_ns() - cpu0;
	return 0;
}
