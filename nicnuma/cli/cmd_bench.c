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
 * Options only: planning, the statistics and the report's printing are
 * plan/bench*.c's; running, the hugepages lent and the --report files
 * emit/bench_exec.c's and emit/bench_save.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nicnuma/core/cmd_exec.h"
#include "nicnuma/emit/bench_exec.h"
#include "nicnuma/emit/bench_save.h"
#include "nicnuma/discover/topo.h"

enum {
	OPT_DURATION = NN_OPT_OWN, OPT_REPEAT, OPT_PCI, OPT_SIZE, OPT_RATE, OPT_IN_MEMORY, OPT_FWD, OPT_STATE_DIR,
	OPT_REPORT,
};

struct bench {
	struct nn_bench_result r;	/* conditions, rows, what was measured */
	const char *fwd_opt;
	char fwd[PATH_MAX];
	struct nn_topo topo;
	bool topo_read;
	const char *report_dir;		/* --report DIR */
	int argc;
	char **argv;			/* the command, for the report */
	const char *state_dir;		/* --state-dir, NULL: the default */
	struct nn_bench_lend lend;	/* lock and log of the pages added, when any were */
	bool interrupted;
	char picked[32];		/* without --pci: the bound port taken */
};

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct nn_opt opts[] = {
	{ "duration", 0, NN_ARG_REQUIRED, "SECONDS", "seconds per run (default 5)", OPT_DURATION },
	{ "repeat", 0, NN_ARG_REQUIRED, "N", "runs per row (default 3)", OPT_REPEAT },
	{ "pci", 0, NN_ARG_REQUIRED, "A[,B]", "real ports instead of virtual ones", OPT_PCI },
	{ "size", 0, NN_ARG_REQUIRED, "B[,B...]", "frame bytes without FCS, 60..1514 (default 64); a list (64,1500) runs "
	  "every row at each size (up to " STR(NN_BENCH_MAX_SIZES) ")", OPT_SIZE },
	{ "rate", 0, NN_ARG_REQUIRED, "PPS", "generator rate, 0 = flat out (default 0). Flat out, the latency is "
	  "mostly queueing in full rings; give a rate below the matched row's "
	  "Mpps to compare latency at a load", OPT_RATE },
	{ "in-memory", 0, NN_ARG_NONE, NULL, "use the free hugepages as they are; without it, the 2 MB pages each "
	  "mbuf node lacks (" STR(NN_BENCH_PAGES) ") are added to nr_hugepages for the benchmark and "
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
"Ports: without --pci, a function bound to vfio-pci now (as 'nicnuma nics'\n"
"lists them; the first on the node under test, else the first; named on\n"
"stderr), else two net_ring virtual ports in one process: a generator\n"
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

	b->r.nsizes = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_ull("size", tok, 60, 1514, &v) < 0)
			return -EINVAL;
		for (i = 0; i < b->r.nsizes; i++)
			if (b->r.sizes[i] == v) {
				nn_fprintf_text(stderr, "nicnuma bench: --size: %llu given twice\n", v);
				return -EINVAL;
			}
		if (b->r.nsizes == NN_BENCH_MAX_SIZES) {
			nn_fprintf_text(stderr, "nicnuma bench: --size: at most %d sizes\n", NN_BENCH_MAX_SIZES);
			return -EINVAL;
		}
		b->r.sizes[b->r.nsizes++] = (unsigned int)v;
	}
	if (!b->r.nsizes) {
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
			b->r.cfg.duration = strtod(arg, &end);
			if (errno || end == arg || *end || !(b->r.cfg.duration > 0) || b->r.cfg.duration > 3600) {
				nn_fprintf_text(stderr, "nicnuma bench: --duration '%s': expected seconds in (0, 3600]\n",
					arg);
				return -EINVAL;
			}
			break;
		case OPT_REPEAT:
			if (parse_ull("repeat", arg, 1, 100, &v) < 0)
				return -EINVAL;
			b->r.cfg.repeat = (unsigned int)v;
			break;
		case OPT_PCI:
			b->r.cfg.pci[0] = arg;
			b->r.cfg.npci = 1;
			comma = strchr(arg, ',');
			if (comma) {
				*comma = '\0';
				b->r.cfg.pci[1] = comma + 1;
				b->r.cfg.npci = 2;
				if (strchr(b->r.cfg.pci[1], ',') || !*b->r.cfg.pci[1]) {
					nn_fprintf_text(stderr, "nicnuma bench: --pci takes one or two addresses\n");
					return -EINVAL;
				}
			}
			if (!*b->r.cfg.pci[0]) {
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
			if (parse_ull("rate", arg, 0, 1000000000000ULL, &b->r.cfg.rate) < 0)
				return -EINVAL;
			break;
		case OPT_IN_MEMORY:
			b->r.in_memory = true;
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

int nn_cmd_bench(struct nn_ctx *ctx, int argc, char **argv)
{
	struct bench b = { .r = { .cfg = { .duration = 5, .repeat = 3, .size = 64 }, .port_node = -1,
				  .sizes = { 64 }, .nsizes = 1 },
			   .lend = NN_BENCH_LEND_INIT, .argc = argc, .argv = argv };
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
	b.r.cfg.fwd = b.fwd;
	ret = nn_topo_discover(ctx, &b.topo);
	if (ret < 0) {
		nn_err(ctx, "bench: cannot read this host's topology: %s", strerror(-ret));
		goto out;
	}
	b.topo_read = true;
	b.r.topo = &b.topo;
	/* Without --pci: a port on vfio-pci where there is one (on the node
	 * under test first), said; else the virtual ports. */
	if (!b.r.cfg.npci) {
		int node = -1;

		ret = nn_bench_bound_port(ctx, nn_bench_ref_node(&b.topo, -1), b.picked, sizeof(b.picked),
					  &node);
		if (ret == -ENOMEM) {
			nn_err(ctx, "bench: out of memory");
			goto out;
		}
		if (!ret) {
			b.r.cfg.pci[0] = b.picked;
			b.r.cfg.npci = 1;
			nn_fprintf_text(stderr, "nicnuma bench: no --pci: using %s, bound to vfio-pci on node %d "
					"(nicnuma nics lists the bound ports; --pci picks another)\n", b.picked, node);
		}
	}
	b.r.port_node = nn_bench_port_node(ctx, &b.r.cfg);
	if (b.r.port_node == -ENODEV)
		goto out;
	b.r.ref_node = nn_bench_ref_node(&b.topo, b.r.port_node);
	for (z = 0; z < b.r.nsizes; z++) {
		b.r.cfg.size = b.r.sizes[z];
		if (nn_bench_plan(&b.topo, &b.r.cfg, b.r.ref_node, b.r.rows[z]) < 0) {
			nn_err(ctx, "bench: out of memory");
			goto out;
		}
	}
	if (b.r.rows[0][0].skipped[0]) {
		nn_err(ctx, "bench: the matched row cannot run: %s", b.r.rows[0][0].skipped);
		goto out;
	}
	if (nn_cmd_signals_block(&old) < 0)
		goto out;
	blocked = true;
	if (b.state_dir)
		ctx->state_dir = b.state_dir;
	if (nn_bench_hugepages_lend(ctx, &b.lend, &b.r) < 0)
		goto out;
	for (z = 0; z < b.r.nsizes && !b.interrupted; z++) {
		b.r.cfg.size = b.r.sizes[z];
		for (i = 0; i < NN_BENCH_ROWS && !b.interrupted; i++) {
			if (b.r.rows[z][i].skipped[0])
				continue;
			nn_bench_run_row(ctx, &b.r.cfg, &b.r.rows[z][i], &old, &b.interrupted);
			b.interrupted = b.interrupted || nn_cmd_interrupted();
		}
	}

	status = NN_EXIT_OK;
	nn_open_object(&ctx->out, NULL);
	nn_bench_print(&ctx->out, &b.r);
	if (b.interrupted) {
		nn_err(ctx, "bench: interrupted; the rows above are what finished");
		status = NN_EXIT_ERROR;
	}
	for (z = 0; z < b.r.nsizes; z++) {
		m = nn_bench_stat(&b.r.rows[z][0], NN_BENCH_MPPS, 0);
		if (!m.n) {
			nn_err(ctx, "bench: the matched row at %u B produced no good run (see the warnings)",
			       b.r.sizes[z]);
			status = NN_EXIT_ERROR;
		}
	}
	/* Signals stay blocked until the pages are back: a Ctrl-C here waits. */
	nn_bench_hugepages_return(ctx, &b.lend);
	sigprocmask(SIG_SETMASK, &old, NULL);
	blocked = false;
	if (b.report_dir && nn_bench_report_write(ctx, &b.r, b.argv, b.argc, b.report_dir) < 0)
		status = NN_EXIT_ERROR;
	else if (!b.report_dir)
		nn_print_null(&ctx->out, PRINT_JSON, "report_dir", NULL);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	if (!status)
		status = nn_cli_status(ctx, 0);
out:
	nn_bench_hugepages_return(ctx, &b.lend);
	if (blocked)
		sigprocmask(SIG_SETMASK, &old, NULL);
	for (z = 0; z < b.r.nsizes; z++)
		nn_bench_rows_free(b.r.rows[z]);
	if (b.topo_read)
		nn_topo_free(&b.topo);
	for (i = 0; b.argv && i < argc; i++)
		free(b.argv[i]);
	free(b.argv);
	return status;
}
