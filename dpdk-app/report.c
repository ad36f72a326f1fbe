// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - live lines, placement lines and the final summary / JSON
 *
 * Live lines go to stdout, or to stderr with --json so stdout stays one JSON
 * document. Counter definitions (also in --help):
 *   fwd rx    packets a forwarder received on a port
 *   fwd tx    packets a forwarder handed to the paired port's TX queue
 *   drops     packets a forwarder received but the TX queue refused (freed)
 *             => per port pair and in total: rx = tx + drops, exactly
 *   gen tx/rx frames the generator sent on port 0 / got back on port 1
 *             => after the drain: gen tx = gen rx + drops + lost in flight
 *             ("unaccounted", 0 unless the drain timed out: 1 s without
 *             progress or 5 s in all)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "nicnuma/core/print.h"
#include "app.h"

static FILE *live_fp(const struct fwd_app *app)
{
	return app->cfg.json ? stderr : stdout;
}

bool report_due(const struct fwd_app *app, uint64_t now)
{
	return !app->cfg.quiet && now - app->live_prev_tsc >= app->hz;
}

struct totals {
	uint64_t rx[FWD_MAX_PORTS], tx[FWD_MAX_PORTS], drops[FWD_MAX_PORTS];
	uint64_t all_rx, all_tx, all_drops;
};

static void sum_fwd(const struct fwd_app *app, struct totals *t)
{
	unsigned int l, i;

	memset(t, 0, sizeof(*t));
	for (l = 0; l < app->nfwd; l++) {
		const struct lcore_state *ls = &lcore_state[app->fwd_lcore[l]];

		for (i = 0; i < ls->nrxq; i++) {
			const struct fwd_rxq *q = &ls->rxq[i];
			uint64_t rx = __atomic_load_n(&q->rx, __ATOMIC_RELAXED);
			uint64_t tx = __atomic_load_n(&q->tx, __ATOMIC_RELAXED);
			uint64_t dr = __atomic_load_n(&q->drops, __ATOMIC_RELAXED);

			t->rx[q->rx_idx] += rx;
			t->tx[q->tx_idx] += tx;
			t->drops[q->rx_idx] += dr;
			t->all_rx += rx;
			t->all_tx += tx;
			t->all_drops += dr;
		}
	}
}

void report_live(struct fwd_app *app, uint64_t now)
{
	FILE *fp = live_fp(app);
	double dt = (double)(now - app->live_prev_tsc) / (double)app->hz;
	struct totals t;
	unsigned int i;

	if (app->live_prev_tsc == 0 || dt <= 0) {
		app->live_prev_tsc = now;
		return;
	}
	sum_fwd(app, &t);
	app->live_secs++;
	fprintf(fp, "%4us", app->live_secs);
	for (i = 0; i < app->nports; i++) {
		fprintf(fp, "  p%u rx %7.3f tx %7.3f Mpps", app->ports[i].id,
			(double)(t.rx[i] - app->live_prev_rx[i]) / dt / 1e6,
			(double)(t.tx[i] - app->live_prev_tx[i]) / dt / 1e6);
		app->live_prev_rx[i] = t.rx[i];
		app->live_prev_tx[i] = t.tx[i];
	}
	fprintf(fp, "  drops %" PRIu64, t.all_drops);
	if (app->gen_lcore >= 0) {
		const struct gen_stats *g = &lcore_state[app->gen_lcore].gen;

		fprintf(fp, "  gen tx %" PRIu64 " rx %" PRIu64,
			__atomic_load_n(&g->tx, __ATOMIC_RELAXED),
			__atomic_load_n(&g->rx, __ATOMIC_RELAXED));
	}
	fputc('\n', fp);
	fflush(fp);
	app->live_prev_tsc = now;
}

void report_placement(const struct fwd_app *app, const struct fwd_port *p)
{
	const struct fwd_placement *pl = &p->placement;
	FILE *fp = live_fp(app);
	int n;

	fprintf(fp, "pool of port %u (%s): asked node %d, %lu page%s of %lu KiB:", p->id, p->name,
		pl->intended, pl->npages, pl->npages == 1 ? "" : "s", pl->page_size / 1024);
	for (n = 0; n < FWD_MAX_NODES; n++)
		if (pl->on_node[n])
			fprintf(fp, " node%d=%lu", n, pl->on_node[n]);
	if (pl->not_present)
		fprintf(fp, " not-present=%lu", pl->not_present);
	if (pl->err)
		fprintf(fp, " (move_pages failed: %s)", strerror(-pl->err));
	fprintf(fp, " -> %s\n", pl->verified ? "verified" : "NOT on the intended node");
}

static double ns(const struct fwd_app *app, uint64_t ticks)
{
	return (double)ticks * 1e9 / (double)app->hz;
}

/* @every: the histogram samples one TX burst in @every (0: not sampled, no key). */
static void print_hist(struct nn_out *o, const struct fwd_app *app, const char *key,
		       const char *label, const struct nn_hist *h, unsigned int every)
{
	static const struct { const char *key; double p; } ps[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p999", 99.9 }, { "max", 100 },
	};
	size_t i;

	nn_open_object(o, key);
	nn_printf(o, "%-22s", label);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		char fmt[32];

		snprintf(fmt, sizeof(fmt), " %s %%.0f", ps[i].key);
		if (h && h->count)
			nn_print_double(o, PRINT_ANY, ps[i].key, (const char *)fmt, ns(app, nn_hist_percentile(h, ps[i].p)));
		else
			nn_print_null(o, PRINT_JSON, ps[i].key, NULL);
	}
	if (h && h->count) {
		/* The CDF at fixed ranks, so a bench can take medians of several
		 * runs point by point and draw it (nicnuma bench --report). */
		static const double cdf_p[] = { 0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100 };

		nn_open_array(o, "cdf");
		for (i = 0; i < sizeof(cdf_p) / sizeof(cdf_p[0]); i++) {
			nn_open_object(o, NULL);
			nn_print_double(o, PRINT_JSON, "p", NULL, cdf_p[i]);
			nn_print_double(o, PRINT_JSON, "ns", NULL, ns(app, nn_hist_percentile(h, cdf_p[i])));
			nn_close_object(o);
		}
		nn_close_array(o);
		nn_print_double(o, PRINT_JSON, "mean", NULL, ns(app, (uint64_t)nn_hist_mean(h)));
		nn_print_uint(o, PRINT_ANY, "samples", " ns (%llu samples", h->count);
	} else {
		nn_print_uint(o, PRINT_ANY, "samples", " none (%llu samples", 0);
	}
	if (every)
		nn_print_uint(o, PRINT_ANY, "stamp_every", ", one TX burst in %llu stamped", every);
	nn_printf(o, ")");
	nn_printf(o, "\n");
	nn_close_object(o);
}

static struct nn_hist *merged(const struct fwd_app *app, bool stall)
{
	struct nn_hist *h = calloc(1, sizeof(*h));
	unsigned int l;

	if (!h)
		return NULL;
	nn_hist_init(h);
	RTE_LCORE_FOREACH(l) {
		const struct nn_hist *src = stall ? lcore_state[l].stall : lcore_state[l].lat;

		if (src)
			nn_hist_merge(h, src);
	}
	(void)app;
	return h;
}

static void print_config(struct nn_out *o, const struct fwd_app *app)
{
	unsigned int i;

	nn_open_object(o, "config");
	nn_print_int(o, PRINT_ANY, "mbuf_node", "mbufs on node %lld", app->mbuf_node);
	nn_print_int(o, PRINT_ANY, "lcore_node", ", forwarding lcores on node %lld", app->lcore_node);
	nn_print_opt_int(o, PRINT_ANY, "port_node", ", ports on node %lld", app->port_node, "unknown");
	nn_print_bool(o, PRINT_JSON, "port_node_unknown", NULL, app->port_node_unknown);
	nn_print_int(o, PRINT_JSON, "reference_node", NULL, app->ref_node);
	nn_printf(o, "%s\n", app->port_node_unknown ? " (unknown locality: 'local' = the lcore's node)" : "");
	nn_open_array(o, "ports");
	for (i = 0; i < app->nports; i++) {
		const struct fwd_port *p = &app->ports[i];

		nn_open_object(o, NULL);
		nn_print_uint(o, PRINT_ANY, "id", "port %llu", p->id);
		nn_print_string(o, PRINT_ANY, "name", " %s", p->name);
		nn_print_string(o, PRINT_ANY, "driver", " (%s", p->driver);
		nn_print_opt_int(o, PRINT_ANY, "node", ", node %lld)", p->node, "unknown");
		nn_print_uint(o, PRINT_ANY, "peer", " -> port %llu\n", app->ports[p->peer].id);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_printf(o, "forwarding lcores:");
	nn_open_array(o, "lcores");
	for (i = 0; i < app->nfwd; i++)
		nn_print_uint(o, PRINT_ANY, NULL, " %llu", app->fwd_lcore[i]);
	nn_close_array(o);
	nn_open_array(o, "lcore_cpus");
	for (i = 0; i < app->nfwd; i++)
		nn_print_int(o, PRINT_JSON, NULL, NULL, rte_lcore_to_cpu_id((int)app->fwd_lcore[i]));
	nn_close_array(o);
	nn_printf(o, "\n");
	nn_print_uint(o, PRINT_JSON, "main_lcore", NULL, rte_get_main_lcore());
	if (app->gen_lcore >= 0)
		nn_print_int(o, PRINT_ANY, "gen_lcore", "generator lcore %lld", app->gen_lcore);
	else
		nn_print_null(o, PRINT_ANY, "gen_lcore", "generator %s");
	if (app->stall_mode == STALL_OFF)
		nn_print_null(o, PRINT_ANY, "stall_lcore", ", stall meter %s");
	else
		nn_print_int(o, PRINT_ANY, "stall_lcore", ", stall meter on lcore %lld", app->stall_lcore);
	nn_print_string(o, PRINT_ANY, "stall_mode", " (%s)\n",
			app->stall_mode == STALL_BESIDE ? "beside_traffic" :
			app->stall_mode == STALL_BEFORE ? "before_traffic" : "off");
	nn_print_uint(o, PRINT_ANY, "frame_size", "frames %llu B", app->cfg.size);
	nn_print_uint(o, PRINT_ANY, "rate_pps", ", rate %llu pps (0 = flat out)", app->cfg.rate);
	nn_print_bool(o, PRINT_ANY, "mac_updating", ", mac updating %s", app->cfg.mac_updating);
	nn_print_bool(o, PRINT_ANY, "stamping", ", stamping %s", app->cfg.gen && app->cfg.stamp);
	nn_print_string(o, PRINT_ANY, "eal_memory", ", memory %s\n",
			app->cfg.no_huge ? "no-huge (4 KiB pages: a different condition)" : "hugepages");
	nn_print_double(o, PRINT_JSON, "tsc_hz", NULL, (double)app->hz);
	nn_close_object(o);
}

static void print_pools(struct nn_out *o, const struct fwd_app *app)
{
	unsigned int i;
	int n;

	nn_open_array(o, "pools");
	for (i = 0; i < app->nports; i++) {
		const struct fwd_placement *pl = &app->ports[i].placement;

		nn_open_object(o, NULL);
		nn_print_uint(o, PRINT_JSON, "port", NULL, app->ports[i].id);
		nn_print_int(o, PRINT_JSON, "intended_node", NULL, pl->intended);
		nn_print_uint(o, PRINT_JSON, "page_size", NULL, pl->page_size);
		nn_print_uint(o, PRINT_JSON, "pages", NULL, pl->npages);
		nn_open_object(o, "pages_by_node");
		for (n = 0; n < FWD_MAX_NODES; n++)
			if (pl->on_node[n]) {
				char key[16];

				snprintf(key, sizeof(key), "%d", n);
				nn_print_uint(o, PRINT_JSON, key, NULL, pl->on_node[n]);
			}
		nn_close_object(o);
		nn_print_uint(o, PRINT_JSON, "not_present", NULL, pl->not_present);
		nn_print_bool(o, PRINT_JSON, "verified", NULL, pl->verified);
		nn_close_object(o);
	}
	nn_close_array(o);
}

int report_final(struct fwd_app *app)
{
	struct nn_out out, *o = &out;
	struct nn_hist *lat = merged(app, false), *stall = merged(app, true);
	double dur = (double)(app->tsc_stop - app->tsc_start) / (double)app->hz;
	bool verified = app->nports > 0;
	struct totals t;
	unsigned int i;
	double mpps;
	int ret;

	if (!lat || !stall) {
		free(lat);
		free(stall);
		return -ENOMEM;
	}
	sum_fwd(app, &t);
	for (i = 0; i < app->nports; i++)
		verified = verified && app->ports[i].placement.verified;
	mpps = dur > 0 ? (double)t.all_tx / dur / 1e6 : 0;

	nn_out_init(o, stdout, app->cfg.json);
	nn_open_object(o, NULL);
	nn_printf(o, "\n== nicnuma-fwd summary\n");
	print_config(o, app);
	nn_print_bool(o, PRINT_ANY, "placement_verified", "placement verified: %s", verified);
	nn_printf(o, "%s\n", verified ? "" : " (see the pool lines above: a run is matched or "
		  "mismatched only by where its pages are)");
	nn_print_double(o, PRINT_ANY, "duration_s", "duration %.3f s", dur);
	nn_print_double(o, PRINT_ANY, "mpps", ", forwarded %.3f Mpps", mpps);
	nn_print_double(o, PRINT_ANY, "mpps_per_lcore", " (%.3f per forwarding lcore)",
			app->nfwd ? mpps / app->nfwd : 0);
	nn_print_double(o, PRINT_ANY, "gbps", ", %.3f Gbit/s", mpps * app->cfg.size * 8 / 1000);
	nn_printf(o, " at %u B\n", app->cfg.size);
	{
		uint64_t cpu = 0;

		for (i = 0; i < app->nfwd; i++)
			cpu += lcore_state[app->fwd_lcore[i]].cpu_ns;
		nn_print_double(o, PRINT_ANY, "fwd_cpu_s", "forwarding lcores were on a CPU %.3f s",
				(double)cpu / 1e9);
		nn_print_double(o, PRINT_ANY, "mpps_per_fwd_cpu_s", ": %.3f Mpps per CPU-second they got\n",
				cpu ? (double)t.all_tx / ((double)cpu / 1e9) / 1e6 : 0);
	}
	nn_print_uint(o, PRINT_ANY, "rx", "forwarder rx %llu", t.all_rx);
	nn_print_uint(o, PRINT_ANY, "tx", ", tx %llu", t.all_tx);
	nn_print_uint(o, PRINT_ANY, "drops", ", drops %llu", t.all_drops);
	nn_printf(o, " (rx = tx + drops: %s)\n", t.all_rx == t.all_tx + t.all_drops ? "yes" : "NO");
	if (app->gen_lcore >= 0) {
		const struct gen_stats *g = &lcore_state[app->gen_lcore].gen;
		long long unacc = (long long)g->tx - (long long)g->rx - (long long)t.all_drops;

		nn_print_uint(o, PRINT_ANY, "loss", "generator: lost %llu", g->tx - RTE_MIN(g->rx, g->tx));
		nn_print_uint(o, PRINT_ANY, "reordered", ", reordered %llu\n", g->reordered);
		nn_open_object(o, "gen");
		nn_print_uint(o, PRINT_ANY, "tx", "generator tx %llu", g->tx);
		nn_print_uint(o, PRINT_ANY, "rx", ", rx %llu", g->rx);
		nn_print_int(o, PRINT_ANY, "unaccounted", ", unaccounted %lld", unacc);
		nn_print_uint(o, PRINT_ANY, "foreign", ", foreign %llu", g->foreign);
		nn_print_uint(o, PRINT_ANY, "stamped_rx", ", stamped back %llu", g->stamped_rx);
		nn_print_uint(o, PRINT_ANY, "tx_full", ", tx-full bursts %llu", g->tx_full);
		nn_print_uint(o, PRINT_ANY, "alloc_fail", ", mbuf alloc failures %llu\n", g->alloc_fail);
		nn_print_double(o, PRINT_JSON, "mpps", NULL, dur > 0 ? (double)g->rx / dur / 1e6 : 0);
		{
			/* A packet is sent once and received once: two units of work.
			 * The median per-iteration cost is the robust figure; the mean
			 * over all busy iterations is kept beside it. */
			const struct nn_hist *ch = lcore_state[app->gen_lcore].cost;
			double ns_pkt = ch && ch->count ? ns(app, nn_hist_percentile(ch, 50)) : 0;

			/* --sample-ab records whole iterations (two bursts of work). */
			if (app->cfg.sample_ab)
				ns_pkt /= FWD_BURST;

			nn_print_double(o, PRINT_JSON, "busy_ns_per_packet_mean", NULL, g->busy_work
					? ns(app, g->busy_cycles) / ((double)g->busy_work / 2) : 0);

			nn_print_double(o, PRINT_ANY, "busy_ns_per_packet", "generator cost %.1f ns per packet",
					ns_pkt);
			nn_print_double(o, PRINT_ANY, "capacity_mpps", " (capacity %.2f Mpps on its CPU;",
					ns_pkt > 0 ? 1e3 / ns_pkt : 0);
			nn_print_uint(o, PRINT_ANY, "long_iters", " %llu loop iterations over 100 us left out)\n",
				      g->long_iters);
		}
		if (app->cfg.stamp_ab) {
			const struct nn_hist *cs = lcore_state[app->gen_lcore].cost;
			const struct nn_hist *cu = lcore_state[app->gen_lcore].cost_u;
			double s_ns = cs->count ? ns(app, nn_hist_percentile(cs, 50)) : 0;
			double u_ns = cu->count ? ns(app, nn_hist_percentile(cu, 50)) : 0;

			nn_open_object(o, "stamp_ab");
			nn_print_double(o, PRINT_ANY, "stamped_ns_per_packet",
					"stamping A/B: stamped %.1f ns", s_ns);
			nn_print_double(o, PRINT_ANY, "unstamped_ns_per_packet",
					", unstamped %.1f ns per packet", u_ns);
			/* cost_pct: a stamped burst against an unstamped one.
			 * A run stamps one burst in --stamp-every, so what
			 * sampling costs the generator is that share of it. */
			if (s_ns > 0 && u_ns > 0) {
				nn_print_double(o, PRINT_ANY, "cost_pct", ": cost %.1f %% per stamped burst",
						(s_ns / u_ns - 1) * 100);
				nn_print_double(o, PRINT_ANY, "sampled_cost_pct", ", %.2f %%",
						(s_ns / u_ns - 1) * 100 / app->cfg.stamp_every);
			} else {
				nn_print_null(o, PRINT_ANY, "cost_pct", ": cost %s");
				nn_print_null(o, PRINT_ANY, "sampled_cost_pct", ", %s");
			}
			nn_print_uint(o, PRINT_ANY, "stamp_every", " stamping one burst in %llu",
				      app->cfg.stamp_every);
			nn_print_uint(o, PRINT_ANY, "stamped_iterations", " (%llu", cs->count);
			nn_print_uint(o, PRINT_ANY, "unstamped_iterations", " and %llu full iterations)\n",
				      cu->count);
			nn_close_object(o);
		}
		if (app->cfg.sample_ab) {
			/* Trimmed means (to p99) of full iterations, not medians:
			 * one burst in stamp_every is stamped, and a median of the
			 * sampled phase would not see it. Throughput is the
			 * inverse of the mean cost. */
			const struct nn_hist *cs = lcore_state[app->gen_lcore].cost;
			const struct nn_hist *cu = lcore_state[app->gen_lcore].cost_u;
			double s_ns = ns(app, 1) * nn_hist_mean_upto(cs, 99) / FWD_BURST;
			double u_ns = ns(app, 1) * nn_hist_mean_upto(cu, 99) / FWD_BURST;

			nn_open_object(o, "sample_ab");
			nn_print_uint(o, PRINT_ANY, "stamp_every", "sampling A/B: one TX burst in %llu stamped",
				      app->cfg.stamp_every);
			nn_print_double(o, PRINT_ANY, "sampled_ns_per_packet", ": %.2f ns per packet", s_ns);
			nn_print_double(o, PRINT_ANY, "off_ns_per_packet", ", timestamps off %.2f ns", u_ns);
			nn_print_double(o, PRINT_ANY, "sampled_mpps", " (%.2f", s_ns > 0 ? 1e3 / s_ns : 0);
			nn_print_double(o, PRINT_ANY, "off_mpps", " vs %.2f Mpps of generator capacity)",
					u_ns > 0 ? 1e3 / u_ns : 0);
			if (s_ns > 0 && u_ns > 0)
				nn_print_double(o, PRINT_ANY, "cost_pct", ": sampling costs %.2f %%",
						(s_ns / u_ns - 1) * 100);
			else
				nn_print_null(o, PRINT_ANY, "cost_pct", ": sampling costs %s");
			nn_print_uint(o, PRINT_ANY, "sampled_iterations", " (%llu", cs->count);
			nn_print_uint(o, PRINT_ANY, "off_iterations", " and %llu full iterations)\n", cu->count);
			nn_close_object(o);
		}
		nn_print_double(o, PRINT_JSON, "cpu_s", NULL, (double)lcore_state[app->gen_lcore].cpu_ns / 1e9);
		nn_print_double(o, PRINT_JSON, "mpps_per_cpu_s", NULL, lcore_state[app->gen_lcore].cpu_ns
				? (double)g->rx / ((double)lcore_state[app->gen_lcore].cpu_ns / 1e9) / 1e6 : 0);
		nn_close_object(o);
	} else {
		nn_print_null(o, PRINT_JSON, "loss", NULL);
		nn_print_null(o, PRINT_JSON, "reordered", NULL);
	}
	print_hist(o, app, "latency_ns", "round trip (ns):", app->gen_lcore >= 0 ? lat : NULL,
		   app->gen_lcore >= 0 && app->cfg.stamp ? (app->cfg.stamp_ab ? 2 :
		   app->cfg.sample_ab ? 2 * app->cfg.stamp_every : app->cfg.stamp_every) : 0);
	print_hist(o, app, "stall_baseline_ns", "host stalls (ns):", stall, 0);
	nn_print_uint(o, PRINT_JSON, "stalls_over_10us", NULL,
		      nn_hist_count_above(stall, (uint64_t)(app->hz / 100000)));
	nn_print_double(o, PRINT_JSON, "stall_window_s", NULL, app->stall_window_s);

	nn_open_array(o, "port_stats");
	for (i = 0; i < app->nports; i++) {
		const struct fwd_port *p = &app->ports[i];
		struct rte_eth_stats st;

		nn_open_object(o, NULL);
		nn_print_uint(o, PRINT_ANY, "port", "port %llu:", p->id);
		nn_print_uint(o, PRINT_ANY, "fwd_rx", " fwd rx %llu", t.rx[i]);
		nn_print_uint(o, PRINT_ANY, "fwd_tx", " tx %llu", t.tx[i]);
		nn_print_uint(o, PRINT_ANY, "fwd_drops", " drops %llu", t.drops[i]);
		nn_print_uint(o, PRINT_JSON, "drained", NULL, p->drained);
		if (rte_eth_stats_get(p->id, &st) == 0) {
			nn_print_uint(o, PRINT_ANY, "ipackets", "; device ipackets %llu", st.ipackets);
			nn_print_uint(o, PRINT_ANY, "opackets", " opackets %llu", st.opackets);
			nn_print_uint(o, PRINT_ANY, "imissed", " imissed %llu", st.imissed);
			nn_print_uint(o, PRINT_ANY, "ierrors", " ierrors %llu", st.ierrors);
			nn_print_uint(o, PRINT_ANY, "oerrors", " oerrors %llu", st.oerrors);
		}
		nn_printf(o, "\n");
		nn_close_object(o);
	}
	nn_close_array(o);
	print_pools(o, app);
	nn_close_object(o);
	ret = nn_out_flush(o);
	free(lat);
	free(stall);
	return ret;
}
