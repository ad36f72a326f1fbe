// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_bench.c - "nicnuma bench mismatch": what NUMA misplacement costs here
 *
 * Drives nicnuma-fwd through the four placements of (forwarding lcores,
 * packet memory): local/local, local/remote, remote/local, remote/remote,
 * with the same traffic and duration, each row repeated, and prints medians
 * with min-max and each row's ratio to the matched row. Rows that this host
 * cannot make (one NUMA node) say so; nothing is estimated or faked. The
 * report carries its conditions: topology, distances, CPU model, VM flag,
 * kernel NUMA knobs, and each row's exact binding and command line.
 *
 * Options and output only: planning, running and the statistics are
 * plan/bench*.c's and act/bench_exec.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "cli.h"
#include "nicnuma/act/bench_exec.h"
#include "nicnuma/plan/bench_html.h"
#include "nicnuma/act/bench_save.h"
#include "nicnuma/discover/topo.h"
#include "nicnuma/state/undo.h"

#define BENCH_PAGES NN_BENCH_PAGES
#define NPCT NN_BENCH_NPCT

enum {
	OPT_DURATION = NN_OPT_OWN, OPT_REPEAT, OPT_PCI, OPT_SIZE, OPT_RATE, OPT_IN_MEMORY, OPT_FWD, OPT_STATE_DIR,
	OPT_REPORT,
};

struct bench {
	struct nn_bench_cfg cfg;
	bool in_memory;
	const char *fwd_opt;
	char fwd[PATH_MAX];
	struct nn_topo topo;
	bool topo_read;
	int port_node, ref_node;
	unsigned int sizes[NN_BENCH_MAX_SIZES];	/* --size list; each set of rows runs at one */
	int nsizes;
	struct nn_bench_row rows[NN_BENCH_MAX_SIZES][NN_BENCH_ROWS];
	struct nn_bench_hp hp[NN_BENCH_ROWS];
	const char *report_dir;		/* --report DIR */
	int argc;
	char **argv;			/* the command, for the report */
	int nhp;
	const char *state_dir;		/* --state-dir, NULL: the default */
	struct nn_undo undo;		/* the pages added, when any were */
	bool undo_open;
	int lock;
	bool interrupted;
};

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct nn_opt opts[] = {
	{ "duration", 0, NN_ARG_REQUIRED, "S", "seconds per run (default 5)", OPT_DURATION },
	{ "repeat", 0, NN_ARG_REQUIRED, "N", "runs per row (default 3)", OPT_REPEAT },
	{ "pci", 0, NN_ARG_REQUIRED, "A[,B]", "real ports instead of virtual ones", OPT_PCI },
	{ "size", 0, NN_ARG_REQUIRED, "B[,B...]", "frame bytes without FCS, 60..1514 (default 64); a list (64,1500) runs "
	  "every row at each size (up to " STR(NN_BENCH_MAX_SIZES) ")", OPT_SIZE },
	{ "rate", 0, NN_ARG_REQUIRED, "PPS", "generator rate, 0 = flat out (default 0). Flat out, the latency is "
	  "mostly queueing in full rings; give a rate below the matched row's "
	  "Mpps to compare latency at a load", OPT_RATE },
	{ "in-memory", 0, NN_ARG_NONE, NULL, "use the free hugepages as they are; without it, the 2 MB pages each "
	  "mbuf node lacks (" STR(BENCH_PAGES) ") are added to nr_hugepages for the benchmark and "
	  "given back afterwards, through an undo log like apply's: if the bench "
	  "is killed, 'nicnuma rollback' gives them back. EAL always runs "
	  "--in-memory, so no rtemap file outlives a run", OPT_IN_MEMORY },
	{ "fwd", 0, NN_ARG_REQUIRED, "PATH", "the nicnuma-fwd binary (default: next to nicnuma, or "
	  "../dpdk-app/nicnuma-fwd in a build tree)", OPT_FWD },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "where the hugepage undo log and lock go (default /var/lib/nicnuma)", OPT_STATE_DIR },
	{ "report", 0, NN_ARG_REQUIRED, "DIR", "also write DIR/report.json (the --json document with the command) and "
	  "DIR/report.html: one self-contained page with the host, the commands, "
	  "every row and SVG charts (latency CDFs on a log axis, Mpps with "
	  "min-max)", OPT_REPORT },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_bench = {
	.name = "bench",
	.usage = "nicnuma [--json] bench mismatch [--duration S] [--repeat N] [--pci ADDR[,ADDR]]\n"
		 "                                [--size B[,B...]] [--rate PPS] [--in-memory] [--fwd PATH]\n"
		 "                                [--state-dir DIR] [--report DIR]",
	.intro =
"Measure what NUMA misplacement costs on this host. The same forwarder\n"
"(nicnuma-fwd), the same traffic and duration run with its forwarding lcores and\n"
"its packet memory (mbuf pools, descriptor rings) on the port's node ('local') or\n"
"on the farthest node by the kernel's distance table ('remote'):\n"
"  lcores local  / mbufs local     the matched row every ratio is taken against\n"
"  lcores local  / mbufs remote    every packet touch crosses the interconnect\n"
"  lcores remote / mbufs local     the core is away from the NIC and its memory\n"
"  lcores remote / mbufs remote    all of it away from the NIC\n"
"Each row runs --repeat times and shows the median with min-max of Mpps and of\n"
"round-trip latency percentiles, beside the host's own scheduling-stall baseline\n"
"measured in the same run. Where the pool's pages really are is checked with\n"
"move_pages(2); a row is called mismatched only when they are on the other node.\n"
"On a one-NUMA-node host the remote rows say 'skipped: one NUMA node'.\n"
"\n"
"Ports: without --pci, two net_ring virtual ports in one process: a generator\n"
"lcore sends stamped frames through the forwarder and back (needs no NIC). With\n"
"--pci, the given DPDK-bound ports (vfio-pci) forward a seeded burst between them\n"
"(cable them back to back or feed them from a traffic generator); latency then\n"
"needs the in-process generator and is not shown.\n",
	.opts = opts,
	.outro =
"Trust: on a VM (hypervisor CPU flag) node distances are what the hypervisor\n"
"declares and guest nodes may share one host node, so the report says so.\n"
"Exit status: 0 clean, 1 finished with warnings (a run failed, placement not\n"
"verified), 2 error (bad option, the matched row could not run, interrupted).\n",
};

static int parse_ull(const char *opt, const char *s, unsigned long long min,
		     unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || *out < min || *out > max) {
		nn_fprintf_text(stderr, "nicnuma bench: --%s '%s': expected an integer in %llu..%llu\n", opt,
			s, min, max);
		return -EINVAL;
	}
	return 0;
}

/* "64,1500": each a frame size, no repeats. */
static int parse_sizes(struct bench *b, char *list)
{
	unsigned long long v;
	char *tok, *save = NULL;
	int i;

	b->nsizes = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_ull("size", tok, 60, 1514, &v) < 0)
			return -EINVAL;
		for (i = 0; i < b->nsizes; i++)
			if (b->sizes[i] == v) {
				nn_fprintf_text(stderr, "nicnuma bench: --size: %llu given twice\n", v);
				return -EINVAL;
			}
		if (b->nsizes == NN_BENCH_MAX_SIZES) {
			nn_fprintf_text(stderr, "nicnuma bench: --size: at most %d sizes\n", NN_BENCH_MAX_SIZES);
			return -EINVAL;
		}
		b->sizes[b->nsizes++] = (unsigned int)v;
	}
	if (!b->nsizes) {
		nn_fprintf_text(stderr, "nicnuma bench: --size: expected B[,B...]\n");
		return -EINVAL;
	}
	return 0;
}

static int parse_opts(struct nn_ctx *ctx, struct bench *b, int argc, char **argv)
{
	unsigned long long v;
	char *end, *comma;
	int opt;

	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	char *arg;

	while ((opt = nn_opt_next(ctx, &nn_desc_bench, &st)) > 0) {
		arg = st.arg;
		switch (opt) {
		case OPT_DURATION:
			errno = 0;
			b->cfg.duration = strtod(arg, &end);
			if (errno || end == arg || *end || !(b->cfg.duration > 0) || b->cfg.duration > 3600) {
				nn_fprintf_text(stderr, "nicnuma bench: --duration '%s': expected seconds in (0, 3600]\n",
					arg);
				return -EINVAL;
			}
			break;
		case OPT_REPEAT:
			if (parse_ull("repeat", arg, 1, 100, &v) < 0)
				return -EINVAL;
			b->cfg.repeat = (unsigned int)v;
			break;
		case OPT_PCI:
			b->cfg.pci[0] = arg;
			b->cfg.npci = 1;
			comma = strchr(arg, ',');
			if (comma) {
				*comma = '\0';
				b->cfg.pci[1] = comma + 1;
				b->cfg.npci = 2;
				if (strchr(b->cfg.pci[1], ',') || !*b->cfg.pci[1]) {
					nn_fprintf_text(stderr, "nicnuma bench: --pci takes one or two addresses\n");
					return -EINVAL;
				}
			}
			if (!*b->cfg.pci[0]) {
				nn_fprintf_text(stderr, "nicnuma bench: --pci: empty address\n");
				return -EINVAL;
			}
			break;
		case OPT_SIZE:
			if (parse_sizes(b, arg) < 0)
				return -EINVAL;
			break;
		case OPT_REPORT:
			if (!*arg) {
				nn_fprintf_text(stderr, "nicnuma bench: --report: empty directory\n");
				return -EINVAL;
			}
			b->report_dir = arg;
			break;
		case OPT_RATE:
			if (parse_ull("rate", arg, 0, 1000000000000ULL, &b->cfg.rate) < 0)
				return -EINVAL;
			break;
		case OPT_IN_MEMORY:
			b->in_memory = true;
			break;
		case OPT_FWD:
			b->fwd_opt = arg;
			break;
		case OPT_STATE_DIR:
			b->state_dir = arg;
			break;
		}
	}
	if (opt < 0)
		return opt == NN_OPT_HELP ? 1 : -EINVAL;
	return 0;
}

static void print_stat(struct nn_out *o, const char *key, struct nn_bench_stat s)
{
	nn_open_object(o, key);
	if (s.n) {
		nn_print_double(o, PRINT_JSON, "median", NULL, s.med);
		nn_print_double(o, PRINT_JSON, "min", NULL, s.min);
		nn_print_double(o, PRINT_JSON, "max", NULL, s.max);
	} else {
		nn_print_null(o, PRINT_JSON, "median", NULL);
		nn_print_null(o, PRINT_JSON, "min", NULL);
		nn_print_null(o, PRINT_JSON, "max", NULL);
	}
	nn_close_object(o);
}

static void print_host(struct nn_out *o, const struct bench *b)
{
	const struct nn_topo *t = &b->topo;
	size_t i, j;

	nn_open_object(o, "host");
	nn_print_string(o, PRINT_ANY, "cpu_model", "host: %s", t->knobs.cpu_model[0] ? t->knobs.cpu_model : NULL);
	nn_print_uint(o, PRINT_ANY, "nnodes", ", %llu NUMA node(s)", t->nnodes);
	nn_print_uint(o, PRINT_ANY, "ncpus", ", %llu CPUs", t->ncpus);
	if (t->knobs.hypervisor < 0)
		nn_print_null(o, PRINT_ANY, "hypervisor", ", VM: %s");
	else
		nn_print_bool(o, PRINT_ANY, "hypervisor", ", VM: %s", t->knobs.hypervisor == 1);
	nn_print_string(o, PRINT_ANY, "trust", "\n  %s\n",
			t->knobs.hypervisor == 1
			? "virtual machine (hypervisor CPU flag): node distances are what the hypervisor "
			  "declares and guest nodes may share host memory; timings and ratios here "
			  "cannot be trusted as the hardware's"
			: t->knobs.hypervisor == 0 ? "bare metal: distances and timings are the hardware's"
			: "unknown whether this is a VM (/proc/cpuinfo unreadable)");
	nn_open_array(o, "nodes");
	for (i = 0; i < t->nnodes; i++) {
		const struct nn_node *n = &t->nodes[i];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "id", "  node %lld:", n->id);
		nn_print_cpuset(o, PRINT_ANY, "cpus", " cpus %s", &n->cpus);
		nn_print_opt_int(o, PRINT_ANY, "mem_total_kb", ", %lld kB", n->mem_total_kb, "unknown");
		nn_printf(o, "\n");
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_printf(o, "  distances:");
	nn_open_array(o, "distances");
	for (i = 0; i < t->nnodes; i++) {
		nn_printf(o, " [");
		nn_open_array(o, NULL);
		for (j = 0; j < t->nnodes; j++)
			nn_print_opt_int(o, PRINT_ANY, NULL, j ? " %lld" : "%lld",
					 nn_topo_distance(t, t->nodes[i].id, t->nodes[j].id), "?");
		nn_close_array(o);
		nn_printf(o, "]");
	}
	nn_close_array(o);
	nn_printf(o, "\n");
	nn_open_object(o, "knobs");
	nn_print_opt_int(o, PRINT_ANY, "numa_balancing", "  numa_balancing %lld",
			 t->knobs.numa_balancing, "unknown");
	nn_print_opt_int(o, PRINT_ANY, "zone_reclaim_mode", ", zone_reclaim_mode %lld",
			 t->knobs.zone_reclaim_mode, "unknown");
	nn_print_string(o, PRINT_ANY, "thp_enabled", ", THP %s",
			t->knobs.thp_enabled[0] ? t->knobs.thp_enabled : NULL);
	nn_print_string(o, PRINT_ANY, "thp_defrag", " (defrag %s)\n",
			t->knobs.thp_defrag[0] ? t->knobs.thp_defrag : NULL);
	nn_close_object(o);
	nn_close_object(o);
}

static void print_conditions(struct nn_out *o, const struct bench *b)
{
	int i;

	nn_open_object(o, "conditions");
	nn_print_double(o, PRINT_ANY, "duration_s", "runs: %g s", b->cfg.duration);
	nn_print_uint(o, PRINT_ANY, "repeat", " x %llu per row", b->cfg.repeat);
	nn_print_uint(o, PRINT_ANY, "frame_size", ", %llu", b->sizes[0]);
	nn_open_array(o, "frame_sizes");
	for (i = 1; i < b->nsizes; i++)
		nn_printf(o, ",%u", b->sizes[i]);
	for (i = 0; i < b->nsizes; i++)
		nn_print_uint(o, PRINT_JSON, NULL, NULL, b->sizes[i]);
	nn_close_array(o);
	nn_printf(o, " B frames");
	nn_print_uint(o, PRINT_ANY, "rate_pps", ", rate %llu pps (0 = flat out)", b->cfg.rate);
	nn_print_string(o, PRINT_ANY, "ports", ", ports: %s",
			b->cfg.npci ? "pci" : "virtual net_ring0/net_ring1 (generator <-> forwarder, one process)");
	nn_open_array(o, "pci");
	for (i = 0; i < b->cfg.npci; i++)
		nn_print_string(o, PRINT_ANY, NULL, " %s", b->cfg.pci[i]);
	nn_close_array(o);
	nn_print_opt_int(o, PRINT_ANY, "port_node", "\nport node %lld", b->port_node, "unknown");
	nn_print_int(o, PRINT_ANY, "reference_node", ", 'local' = node %lld", b->ref_node);
	nn_printf(o, "%s\n", b->port_node < 0
		  ? (b->cfg.npci ? " (port locality unknown: using the first CPU node)"
			     : " (virtual ports live on the generator's node)") : "");
	nn_print_string(o, PRINT_JSON, "forwarder", NULL, b->fwd);
	nn_print_string(o, PRINT_JSON, "hugepages", NULL,
			b->in_memory ? "--in-memory: used the free 2 MB pages as found"
				     : "added missing 2 MB pages per mbuf node, given back afterwards");
	nn_open_array(o, "hugepages_added");
	for (i = 0; i < b->nhp; i++) {
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "node", NULL, b->hp[i].node);
		nn_print_int(o, PRINT_JSON, "pages_2m", NULL, b->hp[i].added);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_close_object(o);
}

static void print_row(struct nn_out *o, const struct nn_bench_row *r, const struct nn_bench_row *matched)
{
	struct nn_bench_stat mp = nn_bench_stat(r, NN_BENCH_MPPS, 0);
	struct nn_bench_stat mm = nn_bench_stat(matched, NN_BENCH_MPPS, 0);
	struct nn_bench_stat p99 = nn_bench_stat(r, NN_BENCH_LAT, 2);
	struct nn_bench_stat mp99 = nn_bench_stat(matched, NN_BENCH_LAT, 2);
	bool verified = r->nruns > 0;
	unsigned int i;
	int k;

	nn_open_object(o, NULL);
	nn_print_uint(o, PRINT_ANY, "frame_size", "%5llu ", r->size);
	nn_print_string(o, PRINT_ANY, "lcores", "%-7s", r->lsel);
	nn_print_string(o, PRINT_ANY, "mbufs", " %-7s", r->msel);
	if (r->skipped[0]) {
		nn_print_null(o, PRINT_JSON, "lcore_node", NULL);
		nn_print_null(o, PRINT_JSON, "mbuf_node", NULL);
		nn_print_string(o, PRINT_ANY, "skipped", " %s\n", r->skipped);
		nn_open_array(o, "runs");
		nn_close_array(o);
		nn_close_object(o);
		return;
	}
	nn_print_null(o, PRINT_JSON, "skipped", NULL);
	nn_print_int(o, PRINT_JSON, "good_runs", NULL, mp.n);
	nn_print_int(o, PRINT_ANY, "lcore_node", " %4lld", r->lcore_node);
	nn_print_int(o, PRINT_ANY, "mbuf_node", "/%-3lld", r->mbuf_node);
	for (i = 0; i < r->nruns; i++)
		verified = verified && r->runs[i].ok && r->runs[i].verified;
	if (mp.n) {
		char range[64];

		snprintf(range, sizeof(range), "[%.3f-%.3f]", mp.min, mp.max);
		nn_printf(o, " %8.3f %-15s", mp.med, range);
	} else
		nn_printf(o, " %8s %-15s", "-", "(no good run)");
	if (nn_bench_ratio(mp, mm) >= 0)
		nn_print_double(o, PRINT_ANY, "ratio_mpps", " %6.2f", nn_bench_ratio(mp, mm));
	else
		nn_print_null(o, PRINT_ANY, "ratio_mpps", " %6s");
	for (k = 0; k < NPCT; k++) {
		struct nn_bench_stat s = nn_bench_stat(r, NN_BENCH_LAT, k);

		if (k == 0 || k == 2 || k == 3) {
			if (s.n)
				nn_printf(o, " %9.1f", s.med / 1000.0);
			else
				nn_printf(o, " %9s", "-");
		}
	}
	if (nn_bench_ratio(p99, mp99) >= 0)
		nn_print_double(o, PRINT_ANY, "ratio_p99", " %6.2f", nn_bench_ratio(p99, mp99));
	else
		nn_print_null(o, PRINT_ANY, "ratio_p99", " %6s");
	{
		struct nn_bench_stat s = nn_bench_stat(r, NN_BENCH_STALL, 4);

		if (s.n)
			nn_printf(o, " %10.1f", s.med / 1000.0);
		else
			nn_printf(o, " %10s", "-");
	}
	nn_print_bool(o, PRINT_ANY, "placement_verified", "  %s", verified);
	nn_print_string(o, PRINT_ANY, "placement", " (%s)\n",
			!verified ? "unverified" : r->mbuf_node == r->lcore_node ? "matched" : "mismatched");
	print_stat(o, "mpps", mp);
	nn_open_object(o, "latency_ns");
	for (k = 0; k < NPCT; k++)
		print_stat(o, nn_bench_pct_key(k), nn_bench_stat(r, NN_BENCH_LAT, k));
	nn_close_object(o);
	/* The latency CDF point by point, medians over the runs: the report's chart. */
	nn_open_array(o, "latency_cdf_ns");
	for (k = 0; k < NN_BENCH_NCDF; k++) {
		struct nn_bench_stat s = nn_bench_stat(r, NN_BENCH_CDF, k);

		if (!s.n)
			continue;
		nn_open_object(o, NULL);
		nn_print_double(o, PRINT_JSON, "p", NULL, nn_bench_cdf_p(k));
		nn_print_double(o, PRINT_JSON, "median", NULL, s.med);
		nn_print_double(o, PRINT_JSON, "min", NULL, s.min);
		nn_print_double(o, PRINT_JSON, "max", NULL, s.max);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_open_object(o, "stall_baseline_ns");
	for (k = 0; k < NPCT; k++)
		print_stat(o, nn_bench_pct_key(k), nn_bench_stat(r, NN_BENCH_STALL, k));
	nn_close_object(o);
	nn_open_object(o, "binding");
	nn_print_string(o, PRINT_JSON, "eal_lcores", NULL, r->lcores);
	nn_print_int(o, PRINT_JSON, "gen_cpu", NULL, r->gen_cpu);
	nn_print_int(o, PRINT_JSON, "fwd_cpu", NULL, r->fwd_cpu);
	nn_print_int(o, PRINT_JSON, "lcore_node", NULL, r->lcore_node);
	nn_print_int(o, PRINT_JSON, "mbuf_node", NULL, r->mbuf_node);
	nn_print_string(o, PRINT_JSON, "mbuf_policy", NULL,
			"rte_pktmbuf_pool_create and RX/TX rings on socket mbuf_node, 2 MB hugepages, "
			"EAL --in-memory; pages checked with move_pages(2)");
	nn_print_string(o, PRINT_JSON, "process_mempolicy", NULL,
			"default (unchanged): only DPDK's explicit socket placement applies");
	nn_open_array(o, "argv");
	for (k = 0; k < r->argc; k++)
		nn_print_string(o, PRINT_JSON, NULL, NULL, r->argv[k]);
	nn_close_array(o);
	nn_close_object(o);
	nn_open_array(o, "runs");
	for (i = 0; i < r->nruns; i++) {
		const struct nn_bench_run *x = &r->runs[i];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "exit", NULL, x->status);
		nn_print_bool(o, PRINT_JSON, "ok", NULL, x->ok);
		nn_print_double(o, PRINT_JSON, "mpps", NULL, x->mpps);
		nn_print_bool(o, PRINT_JSON, "placement_verified", NULL, x->verified);
		nn_print_opt_int(o, PRINT_JSON, "fwd_cpu", NULL, x->fwd_cpu_seen, NULL);
		nn_print_uint(o, PRINT_JSON, "drops", NULL, x->drops);
		nn_print_uint(o, PRINT_JSON, "loss", NULL, x->loss);
		nn_open_object(o, "latency_ns");
		for (k = 0; k < NPCT; k++)
			if (x->lat[k] >= 0)
				nn_print_double(o, PRINT_JSON, nn_bench_pct_key(k), NULL, x->lat[k]);
			else
				nn_print_null(o, PRINT_JSON, nn_bench_pct_key(k), NULL);
		nn_close_object(o);
		nn_print_double(o, PRINT_JSON, "stall_max_ns", NULL, x->stall[4]);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_close_object(o);
}

/* Adds the 2 MB pages each mbuf node lacks, under the state lock and in an
 * undo log begun only when a node lacks some. Returns -errno when the lock
 * or the log cannot be had: then nothing was written. */
static int reserve(struct nn_ctx *ctx, struct bench *b)
{
	int i, j, err;

	if (b->in_memory)
		return 0;
	for (i = 0; i < 4; i++) {
		const struct nn_bench_row *r = &b->rows[0][i];	/* same nodes at every size */
		long free_now;
		bool seen = false;

		if (r->skipped[0])
			continue;
		for (j = 0; j < b->nhp; j++)
			seen = seen || b->hp[j].node == r->mbuf_node;
		if (seen)
			continue;
		free_now = nn_bench_hugepages_free(ctx, r->mbuf_node);
		if (free_now >= 0 && free_now < BENCH_PAGES && !b->undo_open) {
			b->lock = nn_state_lock(ctx);
			if (b->lock < 0)
				return b->lock;
			err = nn_undo_begin(ctx, &b->undo, "bench mismatch");
			if (err) {
				nn_err(ctx, "bench: cannot start the undo log in %s: %s", ctx->state_dir,
				       strerror(-err));
				return err;
			}
			b->undo_open = true;
		}
		nn_bench_hugepages_ensure(ctx, b->undo_open ? &b->undo : NULL, r->mbuf_node,
					  BENCH_PAGES, &b->hp[b->nhp]);
		b->nhp++;
	}
	return 0;
}

/* Gives the added pages back by replaying the log, reported as rollback does. */
static void give_back(struct nn_ctx *ctx, struct bench *b)
{
	if (!b->undo_open)
		return;
	if (b->undo.nchanges) {
		nn_printf(&ctx->out, "\nhugepages added for the bench, given back:\n");
		nn_open_object(&ctx->out, "hugepages_given_back");
		if (nn_undo_rollback(ctx, &b->undo) == 0)
			nn_undo_mark_rolled_back(ctx, &b->undo);
		else
			nn_err(ctx, "bench: not every hugepage count could be put back: see above; "
			       "'nicnuma rollback --state-dir %s' retries", ctx->state_dir);
		nn_close_object(&ctx->out);
	}
	nn_undo_free(&b->undo);
	b->undo_open = false;
}

/* Host, conditions and every row of every size: the document both stdout and --report get. */
static void print_doc(struct nn_out *o, const struct bench *b)
{
	int i, z;

	print_host(o, b);
	print_conditions(o, b);
	nn_printf(o, "\n%5s %-7s %-7s %4s/%-3s %8s %-15s %6s %9s %9s %9s %6s %10s  %s\n", "bytes", "lcores",
		  "mbufs", "L", "M", "Mpps", "[min-max]", "ratio", "p50 us", "p99 us", "p99.9 us", "p99 x",
		  "stall us", "placement");
	nn_open_array(o, "rows");
	for (z = 0; z < b->nsizes; z++)
		for (i = 0; i < NN_BENCH_ROWS; i++)
			print_row(o, &b->rows[z][i], &b->rows[z][0]);
	nn_close_array(o);
	nn_printf(o, "(medians of %u run(s); ratio = row / matched row of the same frame size; stall = "
		  "the host's worst scheduling gap in the same run)\n", b->cfg.repeat);
}

/* --report DIR: the same document as JSON with the command and the warnings,
 * saved with its HTML page. Returns 0 or -1 (message printed). */
static int write_report(struct nn_ctx *ctx, const struct bench *b)
{
	struct nn_out rep;
	const char *what = NULL;
	char created[64];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
	int k, err;

	nn_out_init(&rep, stdout, true);
	nn_open_object(&rep, NULL);
	nn_open_object(&rep, "report");
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%S%z", localtime_r(&now, &tm));
	nn_print_string(&rep, PRINT_JSON, "created", NULL, created);
	nn_open_array(&rep, "command");
	nn_print_string(&rep, PRINT_JSON, NULL, NULL, ctx->prog ? ctx->prog : "nicnuma");
	if (ctx->out.json)
		nn_print_string(&rep, PRINT_JSON, NULL, NULL, "--json");
	for (k = 0; k < b->argc; k++)
		nn_print_string(&rep, PRINT_JSON, NULL, NULL, b->argv[k]);
	nn_close_array(&rep);
	nn_close_object(&rep);
	print_doc(&rep, b);
	nn_open_array(&rep, "warnings");
	for (i = 0; i < ctx->nwarns; i++) {
		nn_open_object(&rep, NULL);
		nn_print_string(&rep, PRINT_JSON, "file", NULL, ctx->warns[i].file);
		nn_print_string(&rep, PRINT_JSON, "message", NULL, ctx->warns[i].msg);
		nn_close_object(&rep);
	}
	nn_close_array(&rep);
	nn_close_object(&rep);
	err = rep.root ? nn_bench_report_save(b->report_dir, rep.root, &what) : -ENOMEM;
	nn_out_free(&rep);
	if (err) {
		nn_err(ctx, "bench: cannot write the report in %s (%s): %s", b->report_dir, what ? what : "?",
		       strerror(-err));
		return -1;
	}
	nn_print_string(&ctx->out, PRINT_ANY, "report_dir", "report: %s/report.html (and report.json)\n",
			b->report_dir);
	return 0;
}

int nn_cmd_bench(struct nn_ctx *ctx, int argc, char **argv)
{
	struct bench b = { .cfg = { .duration = 5, .repeat = 3, .size = 64 }, .port_node = -1,
			   .lock = -1, .sizes = { 64 }, .nsizes = 1, .argc = argc, .argv = argv };
	struct nn_bench_stat m;
	sigset_t old;
	bool blocked = false;
	int ret, i, z, status = NN_EXIT_ERROR;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		nn_opt_help(ctx, &nn_desc_bench, argc < 2 ? stderr : stdout);
		return argc < 2 ? NN_EXIT_ERROR : NN_EXIT_OK;
	}
	if (strcmp(argv[1], "mismatch")) {
		nn_err(ctx, "bench: unknown benchmark '%s' (there is: mismatch)", argv[1]);
		return NN_EXIT_ERROR;
	}
	/* getopt permutes argv and --size's list is split in place: the report keeps a copy. */
	b.argv = calloc((size_t)argc + 1, sizeof(*b.argv));
	for (i = 0; b.argv && i < argc; i++)
		b.argv[i] = strdup(argv[i]);
	for (i = 0; b.argv && i < argc; i++)
		if (!b.argv[i])
			b.argc = 0;
	if (!b.argv) {
		nn_err(ctx, "bench: out of memory");
		return NN_EXIT_ERROR;
	}
	ret = parse_opts(ctx, &b, argc - 1, argv + 1);
	if (ret) {
		status = ret > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
		goto out;
	}
	if (nn_require_live(ctx, "bench mismatch (runs DPDK on this host)") < 0)
		goto out;
	if (nn_bench_find_fwd(ctx, b.fwd_opt, b.fwd, sizeof(b.fwd)) < 0)
		goto out;
	b.cfg.fwd = b.fwd;
	ret = nn_topo_discover(ctx, &b.topo);
	if (ret < 0) {
		nn_err(ctx, "bench: cannot read this host's topology: %s", strerror(-ret));
		goto out;
	}
	b.topo_read = true;
	b.port_node = nn_bench_port_node(ctx, &b.cfg);
	if (b.port_node == -ENODEV)
		goto out;
	b.ref_node = nn_bench_ref_node(&b.topo, b.port_node);
	for (z = 0; z < b.nsizes; z++) {
		b.cfg.size = b.sizes[z];
		if (nn_bench_plan(&b.topo, &b.cfg, b.ref_node, b.rows[z]) < 0) {
			nn_err(ctx, "bench: out of memory");
			goto out;
		}
	}
	if (b.rows[0][0].skipped[0]) {
		nn_err(ctx, "bench: the matched row cannot run: %s", b.rows[0][0].skipped);
		goto out;
	}
	if (nn_bench_signals_block(&old) < 0)
		goto out;
	blocked = true;
	if (b.state_dir)
		ctx->state_dir = b.state_dir;
	if (reserve(ctx, &b) < 0)
		goto out;
	for (z = 0; z < b.nsizes && !b.interrupted; z++) {
		b.cfg.size = b.sizes[z];
		for (i = 0; i < NN_BENCH_ROWS && !b.interrupted; i++) {
			if (b.rows[z][i].skipped[0])
				continue;
			nn_bench_run_row(ctx, &b.cfg, &b.rows[z][i], &old, &b.interrupted);
			b.interrupted = b.interrupted || nn_bench_interrupted();
		}
	}

	status = NN_EXIT_OK;
	nn_open_object(&ctx->out, NULL);
	print_doc(&ctx->out, &b);
	if (b.interrupted) {
		nn_err(ctx, "bench: interrupted; the rows above are what finished");
		status = NN_EXIT_ERROR;
	}
	for (z = 0; z < b.nsizes; z++) {
		m = nn_bench_stat(&b.rows[z][0], NN_BENCH_MPPS, 0);
		if (!m.n) {
			nn_err(ctx, "bench: the matched row at %u B produced no good run (see the warnings)",
			       b.sizes[z]);
			status = NN_EXIT_ERROR;
		}
	}
	/* Signals stay blocked until the pages are back: a Ctrl-C here waits. */
	give_back(ctx, &b);
	nn_state_unlock(b.lock);
	b.lock = -1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	blocked = false;
	if (b.report_dir && write_report(ctx, &b) < 0)
		status = NN_EXIT_ERROR;
	else if (!b.report_dir)
		nn_print_null(&ctx->out, PRINT_JSON, "report_dir", NULL);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	if (!status)
		status = nn_cli_status(ctx, 0);
out:
	give_back(ctx, &b);
	nn_state_unlock(b.lock);
	if (blocked)
		sigprocmask(SIG_SETMASK, &old, NULL);
	for (z = 0; z < b.nsizes; z++)
		nn_bench_rows_free(b.rows[z]);
	if (b.topo_read)
		nn_topo_free(&b.topo);
	for (i = 0; b.argv && i < argc; i++)
		free(b.argv[i]);
	free(b.argv);
	return status;
}
