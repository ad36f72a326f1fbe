// SPDX-License-Identifier: GPL-2.0-or-later
/* ports.c - port and queue setup on the chosen node, and a clean teardown
 *
 * One mbuf pool per port and every RX/TX descriptor ring on the mbuf node
 * (packet memory is what the NIC and the forwarding core both touch). Teardown
 * order matters for memif peers, which crash when the other side vanishes
 * with traffic in flight: stop traffic, drain, stop, close, then free pools.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "app.h"

static int port_info(struct fwd_app *app, struct fwd_port *p, uint16_t id)
{
	struct rte_eth_dev_info info;
	int ret;

	p->id = id;
	ret = rte_eth_dev_info_get(id, &info);
	if (ret < 0)
		return ret;
	snprintf(p->driver, sizeof(p->driver), "%s", info.driver_name ? info.driver_name : "?");
	if (rte_eth_dev_get_name_by_port(id, p->name) < 0)
		snprintf(p->name, sizeof(p->name), "port%u", id);
	/* SOCKET_ID_ANY (-1) is "unknown locality", never node 0. */
	p->node = rte_eth_dev_socket_id(id);
	if (p->node < 0)
		p->node = -1;
	(void)app;
	return 0;
}

int ports_probe(struct fwd_app *app)
{
	uint16_t avail[FWD_MAX_PORTS], id;
	unsigned int navail = 0, i, j;
	int ret;

	RTE_ETH_FOREACH_DEV(id) {
		if (navail < FWD_MAX_PORTS)
			avail[navail++] = id;
	}
	if (!navail) {
		fprintf(stderr, "nicnuma-fwd: no ports: give EAL a PCI device (-a 0000:3b:00.0) bound to "
			"vfio-pci or uio_pci_generic (see dpdk-devbind.py --status), or virtual ports "
			"(--vdev=net_ring0 --vdev=net_ring1)\n");
		return -ENODEV;
	}
	if (app->cfg.nports_sel < 0) {
		for (i = 0; i < navail; i++)
			if ((ret = port_info(app, &app->ports[app->nports++], avail[i])) < 0)
				return ret;
	} else {
		for (i = 0; i < (unsigned int)app->cfg.nports_sel; i++) {
			id = app->cfg.ports_sel[i];
			for (j = 0; j < navail && avail[j] != id; j++)
				;
			if (j == navail) {
				fprintf(stderr, "nicnuma-fwd: --ports: unknown port %u; EAL found %u port%s:",
					id, navail, navail == 1 ? "" : "s");
				for (j = 0; j < navail; j++) {
					char name[RTE_ETH_NAME_MAX_LEN];

					if (rte_eth_dev_get_name_by_port(avail[j], name) < 0)
						snprintf(name, sizeof(name), "?");
					fprintf(stderr, " %u (%s)", avail[j], name);
				}
				fprintf(stderr, "\n");
				return -ENODEV;
			}
			if ((ret = port_info(app, &app->ports[app->nports++], id)) < 0)
				return ret;
		}
	}
	if (app->cfg.gen && app->nports != 2) {
		fprintf(stderr, "nicnuma-fwd: --gen needs exactly 2 ports (gen TX -> port 0 -> forwarder "
			"-> port 1 -> gen RX), found %u; select them with --ports A,B\n", app->nports);
		return -EINVAL;
	}
	/* Pairs 0<->1, 2<->3...; an odd last port forwards back to itself. With
	 * the generator the path is one way: port 0 -> port 1. */
	for (i = 0; i < app->nports; i++)
		app->ports[i].peer = (i ^ 1) < app->nports ? (uint16_t)(i ^ 1) : (uint16_t)i;
	app->port_node = app->ports[0].node;
	for (i = 1; i < app->nports; i++)
		if (app->ports[i].node != app->port_node)
			fprintf(stderr, "nicnuma-fwd: warning: port %u (%s) is on node %d but port %u (%s) "
				"on node %d; 'local' follows port %u\n", app->ports[i].id, app->ports[i].name,
				app->ports[i].node, app->ports[0].id, app->ports[0].name, app->port_node,
				app->ports[0].id);
	return 0;
}

static int port_setup(struct fwd_app *app, struct fwd_port *p)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nrxd = (uint16_t)app->cfg.nb_rxd, ntxd = (uint16_t)app->cfg.nb_txd, q;
	char name[RTE_MEMPOOL_NAMESIZE];
	int ret;

	/* One pool for every port (all on mbuf_node), as testpmd has one per
	 * socket: a per-port pool each had its own lcore cache, twice the
	 * mbufs cycling through L1/L2 for the same traffic. Port 0 makes it
	 * with room for all; the others share it and its placement check. */
	if (p != &app->ports[0]) {
		p->pool = app->ports[0].pool;
		p->placement = app->ports[0].placement;
		goto pool_done;
	}
	snprintf(name, sizeof(name), "nnfwd_pool");
	p->pool = rte_pktmbuf_pool_create(name, app->cfg.nb_mbufs * app->nports, 256, 0,
					  RTE_MBUF_DEFAULT_BUF_SIZE, app->mbuf_node);
	if (!p->pool) {
		ret = -rte_errno;
		/* DPDK logs nothing for this; say which node and how to fix it. */
		fprintf(stderr, "nicnuma-fwd: cannot create the mbuf pool of port %u (%s) on node %d: %s\n",
			p->id, p->name, app->mbuf_node,
			rte_errno == ENOMEM ? "not enough free hugepage memory on that node (ENOMEM)"
					    : rte_strerror(rte_errno));
		if (rte_errno == ENOMEM)
			nodes_hint_hugepages(app, app->mbuf_node);
		return ret ? ret : -ENOMEM;
	}
	ret = placement_check(p->pool, app->mbuf_node, &p->placement);
	if (ret < 0)
		fprintf(stderr, "nicnuma-fwd: warning: cannot check where pool %s lives: %s\n",
			name, strerror(-ret));
	report_placement(app, p);
pool_done:
	ret = rte_eth_dev_info_get(p->id, &info);
	if (ret < 0)
		return ret;
	p->nq = (uint16_t)app->nfwd;
	if (p->nq > info.max_rx_queues || p->nq > info.max_tx_queues) {
		fprintf(stderr, "nicnuma-fwd: port %u (%s) has %u RX / %u TX queues, %u forwarding lcores "
			"need one each; use --fwd-lcores %u\n", p->id, p->name, info.max_rx_queues,
			info.max_tx_queues, p->nq, RTE_MIN(info.max_rx_queues, info.max_tx_queues));
		return -EINVAL;
	}
	memset(&conf, 0, sizeof(conf));
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ret = rte_eth_dev_configure(p->id, p->nq, p->nq, &conf);
	if (ret < 0) {
		fprintf(stderr, "nicnuma-fwd: port %u (%s): configure failed: %s\n", p->id, p->name,
			rte_strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(p->id, &nrxd, &ntxd);
	if (ret < 0)
		return ret;
	for (q = 0; q < p->nq; q++) {
		ret = rte_eth_rx_queue_setup(p->id, q, nrxd, (unsigned int)app->mbuf_node, NULL, p->pool);
		if (ret < 0) {
			fprintf(stderr, "nicnuma-fwd: port %u (%s): RX queue %u on node %d: %s\n",
				p->id, p->name, q, app->mbuf_node, rte_strerror(-ret));
			if (ret == -ENOMEM)
				nodes_hint_hugepages(app, app->mbuf_node);
			return ret;
		}
		ret = rte_eth_tx_queue_setup(p->id, q, ntxd, (unsigned int)app->mbuf_node, NULL);
		if (ret < 0) {
			fprintf(stderr, "nicnuma-fwd: port %u (%s): TX queue %u on node %d: %s\n",
				p->id, p->name, q, app->mbuf_node, rte_strerror(-ret));
			if (ret == -ENOMEM)
				nodes_hint_hugepages(app, app->mbuf_node);
			return ret;
		}
	}
	ret = rte_eth_macaddr_get(p->id, &p->mac);
	if (ret < 0)
		return ret;
	ret = rte_eth_dev_start(p->id);
	if (ret < 0) {
		fprintf(stderr, "nicnuma-fwd: port %u (%s): start failed: %s\n", p->id, p->name,
			rte_strerror(-ret));
		return ret;
	}
	p->started = true;
	/* Virtual ports may not implement it; the forwarder works either way. */
	ret = rte_eth_promiscuous_enable(p->id);
	if (ret < 0 && ret != -ENOTSUP)
		fprintf(stderr, "nicnuma-fwd: warning: port %u: promiscuous mode: %s\n", p->id,
			rte_strerror(-ret));
	rte_eth_stats_reset(p->id);
	return 0;
}

int ports_setup(struct fwd_app *app)
{
	unsigned int i;
	int ret;

	for (i = 0; i < app->nports; i++) {
		ret = port_setup(app, &app->ports[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* --tx-first: looped ports (net_ring, cabled pairs) carry nothing until
 * someone sends; put one burst on every TX queue, as testpmd does. */
void ports_seed(struct fwd_app *app)
{
	struct rte_mbuf *pkts[FWD_BURST];
	unsigned int i, k;
	uint16_t q, sent;

	for (i = 0; i < app->nports; i++) {
		struct fwd_port *p = &app->ports[i];

		for (q = 0; q < p->nq; q++) {
			if (rte_pktmbuf_alloc_bulk(p->pool, pkts, FWD_BURST) < 0)
				continue;
			for (k = 0; k < FWD_BURST; k++)
				frame_build(app, pkts[k], i, k, 0, false);
			sent = rte_eth_tx_burst(p->id, q, pkts, FWD_BURST);
			if (sent < FWD_BURST)
				rte_pktmbuf_free_bulk(pkts + sent, FWD_BURST - sent);
		}
	}
}

/* A queue holds at most the pool's mbufs, so a drain stops there: a port
 * that never runs dry (net_null makes a frame on every poll) used to be
 * polled 2^20 times per queue, ~1 s of CPU after every run. */
void ports_drain(struct fwd_app *app)
{
	struct rte_mbuf *pkts[FWD_BURST];
	unsigned int i;
	uint64_t cap, got;
	uint16_t q, n;

	for (i = 0; i < app->nports; i++) {
		struct fwd_port *p = &app->ports[i];

		if (!p->started)
			continue;
		cap = p->pool ? p->pool->size : 0;
		for (q = 0; q < p->nq; q++)
			for (got = 0; got < cap; got += n) {
				n = rte_eth_rx_burst(p->id, q, pkts, FWD_BURST);
				if (!n)
					break;
				p->drained += n;
				rte_pktmbuf_free_bulk(pkts, n);
			}
	}
}

void ports_close(struct fwd_app *app)
{
	struct rte_mempool *shared;
	unsigned int i;
	int ret;

	for (i = 0; i < app->nports; i++) {
		struct fwd_port *p = &app->ports[i];

		if (p->started) {
			ret = rte_eth_dev_stop(p->id);
			if (ret < 0)
				fprintf(stderr, "nicnuma-fwd: warning: port %u: stop: %s\n", p->id,
					rte_strerror(-ret));
			p->started = false;
		}
		ret = rte_eth_dev_close(p->id);
		if (ret < 0)
			fprintf(stderr, "nicnuma-fwd: warning: port %u: close: %s\n", p->id,
				rte_strerror(-ret));
	}
	/* Pools last: a closed port no longer holds their mbufs. */
	shared = app->nports ? app->ports[0].pool : NULL;
	for (i = 0; i < app->nports; i++) {
		/* Shared: freed once, through the port that made it. */
		if (i == 0 || app->ports[i].pool != shared)
			rte_mempool_free(app->ports[i].pool);
		app->ports[i].pool = NULL;
	}
}
