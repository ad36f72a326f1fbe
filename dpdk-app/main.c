// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - nicnuma-fwd: an l2fwd-style forwarder that proves NUMA placement
 *
 * EAL arguments, "--", then our own options. Lcore plan (the main lcore never
 * forwards):
 *   main lcore   reporter + stall meter spinning beside the traffic; or, when
 *                --gen has no spare worker (2 lcores: -l 0-1), the generator,
 *                and the stall meter then runs on it just before the traffic
 *   workers      forwarders on the --lcore-node node; with --gen and a spare
 *                worker, one of them (preferably off that node) generates
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_pause.h>

#include "app.h"

struct lcore_state lcore_state[RTE_MAX_LCORE];
volatile bool force_quit;

enum {
	OPT_GEN = 256, OPT_NO_STAMP, OPT_STAMP_AB, OPT_SIZE, OPT_RATE, OPT_DURATION, OPT_MBUF_NODE,
	OPT_LCORE_NODE, OPT_NO_MAC, OPT_JSON, OPT_QUIET, OPT_PORTS, OPT_FWD_LCORES,
	OPT_TX_FIRST, OPT_RXD, OPT_TXD, OPT_MBUFS, OPT_STALL_WINDOW, OPT_STALL, OPT_STAMP_EVERY,
	OPT_SAMPLE_AB,
};

static const struct option long_opts[] = {
	{ "gen", no_argument, NULL, OPT_GEN },
	{ "no-stamp", no_argument, NULL, OPT_NO_STAMP },
	{ "stamp-ab", no_argument, NULL, OPT_STAMP_AB },
	{ "stamp-every", required_argument, NULL, OPT_STAMP_EVERY },
	{ "sample-ab", no_argument, NULL, OPT_SAMPLE_AB },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "mbuf-node", required_argument, NULL, OPT_MBUF_NODE },
	{ "lcore-node", required_argument, NULL, OPT_LCORE_NODE },
	{ "no-mac-updating", no_argument, NULL, OPT_NO_MAC },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "ports", required_argument, NULL, OPT_PORTS },
	{ "fwd-lcores", required_argument, NULL, OPT_FWD_LCORES },
	{ "tx-first", no_argument, NULL, OPT_TX_FIRST },
	{ "rxd", required_argument, NULL, OPT_RXD },
	{ "txd", required_argument, NULL, OPT_TXD },
	{ "mbufs", required_argument, NULL, OPT_MBUFS },
	{ "stall-window", required_argument, NULL, OPT_STALL_WINDOW },
	{ "stall", required_argument, NULL, OPT_STALL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: nicnuma-fwd [EAL options] -- [options]\n"
"\n"
"Forward packets between port pairs (0<->1, 2<->3) with packet memory and\n"
"forwarding lcores placed on chosen NUMA nodes, verify where the memory really\n"
"is (move_pages), and optionally generate stamped traffic to measure round-trip\n"
"latency beside the host's own scheduling stalls.\n"
"\n"
"Example (this process only, no NIC):\n"
"  nicnuma-fwd --no-pci --in-memory -l 0-1 --vdev=net_ring0 --vdev=net_ring1 -- --gen --duration 5\n"
"\n"
"Placement:\n"
"  --mbuf-node local|remote|N   node of the mbuf pools and RX/TX rings (default local)\n"
"  --lcore-node local|remote|N  node of the forwarding lcores, chosen among EAL's -l\n"
"                               (default local). local = the first port's node; remote\n"
"                               = the farthest node by the kernel distance table. A port\n"
"                               of unknown node (-1) makes 'local' the lcore's node.\n"
"Traffic:\n"
"  --gen                generator role: frames out of port 0, back in on port 1 through\n"
"                       the forwarder (ring vdevs, or ports looped by cable)\n"
"  --size BYTES         frame length without FCS, 60..1514 (default 64)\n"
"  --rate PPS           generator rate, 0 = flat out (default 0)\n"
"  --no-stamp           generator writes no TSC and records no latency (stamping cost)\n"
"  --stamp-ab           stamp every other burst and report the generator's cost per\n"
"                       packet with and without stamps, measured side by side\n"
"  --stamp-every N      stamp one TX burst in N, 1..65536 (default 16): latency is\n"
"                       sampled, the rate reported beside the percentiles\n"
"  --sample-ab          alternate phases that stamp as --stamp-every does with\n"
"                       phases that stamp nothing, and report the generator's\n"
"                       packet rate in each: what latency sampling costs, side by side\n"
"  --tx-first           without --gen: seed every TX queue with one burst (looped ports)\n"
"  --no-mac-updating    forward without rewriting the Ethernet addresses\n"
"Run:\n"
"  --duration SECONDS   bounded run (default 0: until SIGINT/SIGTERM)\n"
"  --ports LIST         port ids to use, e.g. 0,1 (default every probed port)\n"
"  --fwd-lcores N       forwarding lcores to use (default all on the lcore node)\n"
"  --rxd N, --txd N     descriptors per queue (default 1024)\n"
"  --mbufs N            mbufs per port in the one shared pool (default 8191)\n"
"  --stall beside|before|off\n"
"                       host stall meter: spinning on the main lcore beside the traffic\n"
"                       (default when the main lcore is free), for --stall-window\n"
"                       seconds just before it (default when the main lcore generates),\n"
"                       or off (the main lcore sleeps, as testpmd's: for speed\n"
"                       comparisons on shared CPUs, where a spinning lcore steals time)\n"
"  --stall-window S     length of the 'before' measurement (default 1)\n"
"  --json               one JSON document on stdout (live lines go to stderr)\n"
"  --quiet              no live lines\n"
"  -h, --help           this help\n"
"\n"
"Counters: forwarder rx = tx + drops (drops: refused by the TX queue); generator\n"
"tx = rx + drops after the drain. Exit: 0 ok, 1 ran but placement not verified or\n"
"counters inconsistent, 2 error (bad option, no memory on a node, no lcore there).\n");
}

static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "nicnuma-fwd: --%s '%s': expected an integer in %llu..%llu\n", opt, s,
			(unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_node(const char *opt, const char *s, int *out)
{
	uint64_t v;

	if (!strcmp(s, "local")) {
		*out = NODE_SEL_LOCAL;
		return 0;
	}
	if (!strcmp(s, "remote")) {
		*out = NODE_SEL_REMOTE;
		return 0;
	}
	if (parse_u64(opt, s, 0, FWD_MAX_NODES - 1, &v) < 0) {
		fprintf(stderr, "nicnuma-fwd: --%s takes local, remote or a node number\n", opt);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

static int parse_ports(struct fwd_cfg *c, const char *s)
{
	char *dup = strdup(s), *tok, *save = NULL;
	uint64_t v;
	int ret = 0;

	if (!dup)
		return -ENOMEM;
	c->nports_sel = 0;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (c->nports_sel == FWD_MAX_PORTS) {
			fprintf(stderr, "nicnuma-fwd: --ports: at most %d ports\n", FWD_MAX_PORTS);
			ret = -EINVAL;
			break;
		}
		ret = parse_u64("ports", tok, 0, RTE_MAX_ETHPORTS - 1, &v);
		if (ret < 0)
			break;
		c->ports_sel[c->nports_sel++] = (uint16_t)v;
	}
	if (!ret && !c->nports_sel) {
		fprintf(stderr, "nicnuma-fwd: --ports: empty list\n");
		ret = -EINVAL;
	}
	free(dup);
	return ret;
}

static int parse_double(const char *opt, const char *s, double max, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !(*out >= 0) || *out > max) {
		fprintf(stderr, "nicnuma-fwd: --%s '%s': expected seconds in 0..%g\n", opt, s, max);
		return -EINVAL;
	}
	return 0;
}

/* Returns 0, 1 for --help, or -EINVAL. */
static int parse_app(struct fwd_cfg *c, int argc, char **argv)
{
	uint64_t v;
	int opt, ret = 0;

	optind = 1;
	opterr = 1;
	while ((opt = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_GEN: c->gen = true; break;
		case OPT_NO_STAMP: c->stamp = false; break;
		case OPT_STAMP_AB: c->stamp_ab = true; break;
		case OPT_SAMPLE_AB: c->sample_ab = true; break;
		case OPT_STAMP_EVERY:
			ret = parse_u64("stamp-every", optarg, 1, 65536, &v);
			c->stamp_every = (uint32_t)v;
			break;
		case OPT_SIZE:
			ret = parse_u64("size", optarg, 60, 1514, &v);
			c->size = (unsigned int)v;
			break;
		case OPT_RATE: ret = parse_u64("rate", optarg, 0, 1000000000000ULL, &c->rate); break;
		case OPT_DURATION: ret = parse_double("duration", optarg, 86400 * 365, &c->duration); break;
		case OPT_MBUF_NODE: ret = parse_node("mbuf-node", optarg, &c->mbuf_sel); break;
		case OPT_LCORE_NODE: ret = parse_node("lcore-node", optarg, &c->lcore_sel); break;
		case OPT_NO_MAC: c->mac_updating = false; break;
		case OPT_JSON: c->json = true; break;
		case OPT_QUIET: c->quiet = true; break;
		case OPT_PORTS: ret = parse_ports(c, optarg); break;
		case OPT_FWD_LCORES:
			ret = parse_u64("fwd-lcores", optarg, 1, RTE_MAX_LCORE, &v);
			c->fwd_lcores = (unsigned int)v;
			break;
		case OPT_TX_FIRST: c->tx_first = true; break;
		case OPT_RXD:
			ret = parse_u64("rxd", optarg, 32, 16384, &v);
			c->nb_rxd = (unsigned int)v;
			break;
		case OPT_TXD:
			ret = parse_u64("txd", optarg, 32, 16384, &v);
			c->nb_txd = (unsigned int)v;
			break;
		case OPT_MBUFS:
			ret = parse_u64("mbufs", optarg, 1023, 16777215, &v);
			c->nb_mbufs = (unsigned int)v;
			break;
		case OPT_STALL_WINDOW:
			ret = parse_double("stall-window", optarg, 60, &c->stall_window);
			break;
		case OPT_STALL:
			if (!strcmp(optarg, "beside"))
				c->stall = STALL_BESIDE;
			else if (!strcmp(optarg, "before"))
				c->stall = STALL_BEFORE;
			else if (!strcmp(optarg, "off"))
				c->stall = STALL_OFF;
			else {
				fprintf(stderr, "nicnuma-fwd: --stall '%s': expected beside, before or off\n",
					optarg);
				ret = -EINVAL;
			}
			break;
		case 'h': return 1;
		default: return -EINVAL;
		}
		if (ret < 0)
			return ret;
	}
	if (optind < argc) {
		fprintf(stderr, "nicnuma-fwd: unexpected argument '%s' (see --help)\n", argv[optind]);
		return -EINVAL;
	}
	if (c->stamp_ab && (!c->stamp || !c->gen)) {
		fprintf(stderr, "nicnuma-fwd: --stamp-ab needs --gen and excludes --no-stamp\n");
		return -EINVAL;
	}
	if (c->sample_ab && (!c->stamp || !c->gen || c->stamp_ab)) {
		fprintf(stderr, "nicnuma-fwd: --sample-ab needs --gen and excludes --no-stamp and --stamp-ab\n");
		return -EINVAL;
	}
	if (c->tx_first && c->gen) {
		fprintf(stderr, "nicnuma-fwd: --tx-first and --gen exclude each other\n");
		return -EINVAL;
	}
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	force_quit = true;
}

/* EAL memory flags decide whether anything can be left behind in hugetlbfs. */
static void scan_eal_args(struct fwd_cfg *c, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--no-huge"))
			c->no_huge = c->eal_unlinks = true;
		else if (!strcmp(argv[i], "--in-memory") || !strcmp(argv[i], "--huge-unlink") ||
			 !strncmp(argv[i], "--huge-unlink=", 14))
			c->eal_unlinks = true;
	}
}

static int hugepages_precheck(struct fwd_app *app)
{
	static const char *const sizes[] = { "2048kB", "1048576kB" };
	char path[96];
	long v, total = 0;
	size_t i;
	int node = app->cfg.mbuf_sel >= 0 ? app->cfg.mbuf_sel : 0;

	if (app->cfg.no_huge)
		return 0;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%s/free_hugepages",
			 sizes[i]);
		if (nn_read_long(&app->root, path, &v) == 0)
			total += v;
	}
	if (total > 0)
		return 0;
	fprintf(stderr, "nicnuma-fwd: no free hugepages on this host "
		"(/sys/kernel/mm/hugepages/*/free_hugepages are all 0)\n");
	nodes_hint_hugepages(app, node);
	fprintf(stderr, "             (--no-huge runs on 4 KiB pages instead: a different, slower condition)\n");
	return -ENOMEM;
}

static int lcore_main(void *arg)
{
	struct fwd_app *app = arg;
	unsigned int l = rte_lcore_id();

	switch (lcore_state[l].role) {
	case ROLE_FWD: return fwd_loop(app, l);
	case ROLE_GEN: return gen_loop(app, l);
	default: return 0;
	}
}

static int plan_lcores(struct fwd_app *app)
{
	unsigned int main_l = rte_get_main_lcore(), l, nw = 0, ncand = 0, i, f, p;
	unsigned int workers[RTE_MAX_LCORE], cand[RTE_MAX_LCORE];
	int gen = -1;

	RTE_LCORE_FOREACH_WORKER(l) {
		workers[nw++] = l;
		if ((int)rte_lcore_to_socket_id(l) == app->lcore_node)
			cand[ncand++] = l;
	}
	if (!nw) {
		fprintf(stderr, "nicnuma-fwd: need at least 2 lcores (e.g. -l 0-1): the main lcore "
			"reports and measures stalls, workers forward\n");
		return -EINVAL;
	}
	if (app->cfg.gen) {
		if (nw >= 2) {
			for (i = 0; i < nw && gen < 0; i++)
				if ((int)rte_lcore_to_socket_id(workers[i]) != app->lcore_node)
					gen = (int)workers[i];
			if (gen < 0 && ncand >= 2)
				gen = (int)cand[--ncand];
		}
		if (gen < 0)
			gen = (int)main_l;
	}
	if (!ncand) {
		fprintf(stderr, "nicnuma-fwd: no worker lcore on node %d among EAL's lcores; pass CPUs "
			"of node %d to -l (they are in /sys/devices/system/node/node%d/cpulist, or run "
			"'nicnuma topo')\n", app->lcore_node, app->lcore_node, app->lcore_node);
		return -ENODEV;
	}
	app->nfwd = app->cfg.fwd_lcores ? RTE_MIN(app->cfg.fwd_lcores, ncand) : ncand;
	if (app->nfwd > FWD_MAX_RXQ)
		app->nfwd = FWD_MAX_RXQ;
	app->gen_lcore = gen;
	app->stall_lcore = (int)main_l;
	app->stall_mode = app->cfg.stall;
	if (app->stall_mode == STALL_AUTO)
		app->stall_mode = gen == (int)main_l ? STALL_BEFORE : STALL_BESIDE;
	if (app->stall_mode == STALL_BESIDE && gen == (int)main_l) {
		fprintf(stderr, "nicnuma-fwd: --stall beside: the main lcore generates (no spare worker); "
			"measuring stalls before the traffic instead\n");
		app->stall_mode = STALL_BEFORE;
	}
	for (f = 0; f < app->nfwd; f++) {
		struct lcore_state *ls = &lcore_state[cand[f]];

		app->fwd_lcore[f] = cand[f];
		ls->role = ROLE_FWD;
		for (p = 0; p < app->nports; p++) {
			struct fwd_rxq *q;

			/* With the generator the path is one way: port 0 -> port 1. */
			if (app->cfg.gen && p != 0)
				break;
			q = &ls->rxq[ls->nrxq++];
			q->rx_idx = (uint8_t)p;
			q->tx_idx = (uint8_t)app->ports[p].peer;
			q->rx_port = app->ports[p].id;
			q->tx_port = app->ports[q->tx_idx].id;
			q->rx_queue = q->tx_queue = (uint16_t)f;
		}
	}
	if (gen >= 0)
		lcore_state[gen].role = ROLE_GEN;
	lcore_state[main_l].role = gen == (int)main_l ? ROLE_GEN : ROLE_CONTROL;
	if (app->stall_mode != STALL_OFF) {
		lcore_state[main_l].stall = calloc(1, sizeof(struct nn_hist));
		if (!lcore_state[main_l].stall)
			return -ENOMEM;
		nn_hist_init(lcore_state[main_l].stall);
	}
	if (gen >= 0) {
		lcore_state[gen].lat = calloc(1, sizeof(struct nn_hist));
		lcore_state[gen].cost = calloc(1, sizeof(struct nn_hist));
		lcore_state[gen].cost_u = calloc(1, sizeof(struct nn_hist));
		if (!lcore_state[gen].lat || !lcore_state[gen].cost || !lcore_state[gen].cost_u)
			return -ENOMEM;
	}
	return 0;
}

static int resolve_nodes(struct fwd_app *app)
{
	int ret;

	if (app->port_node >= 0) {
		app->ref_node = app->port_node;
	} else {
		app->port_node_unknown = true;
		app->ref_node = app->cfg.lcore_sel >= 0 ? app->cfg.lcore_sel : (int)rte_socket_id();
		fprintf(stderr, "nicnuma-fwd: port %u (%s) reports NUMA node -1 (unknown locality): "
			"'local' means the lcore's node %d\n", app->ports[0].id, app->ports[0].name,
			app->ref_node);
	}
	ret = nodes_resolve(app, app->cfg.lcore_sel, true, "lcore-node", &app->lcore_node);
	if (ret < 0)
		return ret;
	return nodes_resolve(app, app->cfg.mbuf_sel, false, "mbuf-node", &app->mbuf_node);
}

/* The main lcore's job when it neither generates nor measures stalls: the
 * live line and the end of the run, waking at most every 50 ms (and at the
 * end exactly). A 1 ms tick was 1000 wakeups a second on a CPU that other
 * processes then left for the forwarder's: testpmd's main lcore sleeps. */
static void control_sleep(struct fwd_app *app)
{
	const uint64_t tick = app->hz / 20;
	uint64_t now, left;
	struct timespec ts;

	for (;;) {
		now = rte_rdtsc();
		if (app_time_up(app, now))
			break;
		if (report_due(app, now))
			report_live(app, now);
		left = tick;
		if (app->cfg.duration > 0) {
			uint64_t end = app->tsc_start + (uint64_t)(app->cfg.duration * (double)app->hz);

			left = end > now && end - now < tick ? end - now : left;
		}
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1000000000ULL / app->hz);
		nanosleep(&ts, NULL);
	}
}

static void run(struct fwd_app *app)
{
	unsigned int main_l = rte_get_main_lcore(), l;

	if (app->cfg.tx_first)
		ports_seed(app);
	if (app->stall_mode == STALL_BEFORE) {
		app->stall_window_s = app->cfg.stall_window;
		stall_loop(app, main_l, rte_rdtsc() + (uint64_t)(app->stall_window_s * (double)app->hz),
			   false);
	}
	app->tsc_start = rte_rdtsc();
	app->live_prev_tsc = app->tsc_start;
	RTE_LCORE_FOREACH_WORKER(l)
		if (lcore_state[l].role != ROLE_IDLE)
			rte_eal_remote_launch(lcore_main, app, l);
	if (lcore_state[main_l].role == ROLE_GEN) {
		gen_loop(app, main_l);
	} else {
		if (app->stall_mode == STALL_BESIDE) {
			stall_loop(app, main_l, 0, true);
			app->stall_window_s = (double)(rte_rdtsc() - app->tsc_start) / (double)app->hz;
		} else {
			control_sleep(app);
		}
		if (app->gen_lcore >= 0) {
			__atomic_store_n(&app->stop_tx, 1, __ATOMIC_RELEASE);
			while (!__atomic_load_n(&app->gen_done, __ATOMIC_ACQUIRE))
				rte_pause();
		} else {
			app->tsc_stop = rte_rdtsc();
		}
	}
	__atomic_store_n(&app->fwd_stop, 1, __ATOMIC_RELEASE);
	rte_eal_mp_wait_lcore();
	if (!app->tsc_stop)
		app->tsc_stop = rte_rdtsc();
}

static bool consistent(const struct fwd_app *app)
{
	uint64_t rx = 0, tx = 0, dr = 0;
	unsigned int f, i;

	for (f = 0; f < app->nfwd; f++) {
		const struct lcore_state *ls = &lcore_state[app->fwd_lcore[f]];

		for (i = 0; i < ls->nrxq; i++) {
			rx += ls->rxq[i].rx;
			tx += ls->rxq[i].tx;
			dr += ls->rxq[i].drops;
		}
	}
	if (rx != tx + dr)
		return false;
	if (app->gen_lcore >= 0) {
		const struct gen_stats *g = &lcore_state[app->gen_lcore].gen;

		return g->tx == g->rx + dr;
	}
	return true;
}

int main(int argc, char **argv)
{
	struct fwd_app *app;
	char **app_argv;
	int i, sep = argc, ret, status = 2, eal_ok = 0;
	bool verified = true;
	unsigned int l;

	app = calloc(1, sizeof(*app));
	if (!app)
		return 2;
	app->cfg = (struct fwd_cfg){
		.mbuf_sel = NODE_SEL_LOCAL, .lcore_sel = NODE_SEL_LOCAL, .mac_updating = true,
		.stamp = true, .stamp_every = 16, .size = 64, .nb_rxd = 1024, .nb_txd = 1024, .nb_mbufs = 8191,
		.nports_sel = -1, .stall_window = 1.0,
	};
	app->gen_lcore = -1;
	/* Our options first, so a typo costs no EAL start-up and leaves nothing. */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			sep = i;
			break;
		}
	app_argv = calloc((size_t)(argc - sep) + 2, sizeof(*app_argv));
	if (!app_argv) {
		free(app);
		return 2;
	}
	app_argv[0] = argv[0];
	for (i = sep + 1; i < argc; i++)
		app_argv[i - sep] = argv[i];
	ret = parse_app(&app->cfg, sep < argc ? argc - sep : 1, app_argv);
	free(app_argv);
	if (ret) {
		if (ret > 0)
			usage(stdout);
		free(app);
		return ret > 0 ? 0 : 2;
	}
	scan_eal_args(&app->cfg, argc, argv);
	if (nn_root_open(&app->root, "/") < 0) {
		fprintf(stderr, "nicnuma-fwd: cannot open /\n");
		goto out;
	}
	if (hugepages_precheck(app) < 0)
		goto out;
	if (!app->cfg.eal_unlinks)
		fprintf(stderr, "nicnuma-fwd: note: without --in-memory or --huge-unlink, EAL leaves "
			"rtemap files (and their hugepages) behind after exit\n");

	ret = rte_eal_init(sep, argv);
	if (ret < 0) {
		fprintf(stderr, "nicnuma-fwd: EAL initialisation failed: %s\n", rte_strerror(rte_errno));
		if (rte_errno == ENOMEM || rte_errno == EFAULT)
			nodes_hint_hugepages(app, app->cfg.mbuf_sel >= 0 ? app->cfg.mbuf_sel : 0);
		goto out;
	}
	eal_ok = 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	app->hz = rte_get_tsc_hz();

	if (ports_probe(app) < 0 || resolve_nodes(app) < 0 || plan_lcores(app) < 0)
		goto out;
	if (ports_setup(app) < 0)
		goto out;
	run(app);
	ports_drain(app);
	for (l = 0; l < app->nports; l++)
		verified = verified && app->ports[l].placement.verified;
	ret = report_final(app);
	status = ret < 0 ? 2 : (verified && consistent(app) ? 0 : 1);
out:
	if (eal_ok) {
		ports_close(app);
		RTE_LCORE_FOREACH(l) {
			free(lcore_state[l].lat);
			free(lcore_state[l].stall);
			free(lcore_state[l].cost);
			free(lcore_state[l].cost_u);
		}
		rte_eal_cleanup();
	}
	nn_root_close(&app->root);
	free(app);
	return status;
}
