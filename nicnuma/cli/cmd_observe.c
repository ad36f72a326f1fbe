// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_observe.c - "nicnuma observe": where each NIC's packet work really ran,
 * interval by interval.
 *
 * Options and output only: the sampling and attribution are
 * nicnuma/obs/obs_*.c's, the session and the report's printing
 * nicnuma/emit/observe.c's.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "nicnuma/emit/observe.h"

struct observe_opts {
	double interval;
	double duration;	/* 0: until stopped */
	long count;		/* reports; 0: until stopped (or duration) */
	double max_remote;	/* -1: no threshold */
	bool plain;
	enum nn_obs_qsrc qwant;
	char **only;		/* NULL-terminated, NULL: all */
	bool dpdk;
	const char *prefix;	/* --file-prefix; NULL: rte */
};

enum { OPT_DPDK = NN_OPT_OWN, OPT_PREFIX };

static const struct nn_opt opts[] = {
	{ "interval", 'i', NN_ARG_REQUIRED, "SECONDS", "time between samples (default 1; 0.1-3600)", 'i' },
	{ "duration", 'd', NN_ARG_REQUIRED, "SECONDS", "stop after this long (whole intervals)", 'd' },
	{ "count", 'c', NN_ARG_REQUIRED, "N", "stop after N intervals (default: until Ctrl-C)", 'c' },
	{ "max-remote", 'r', NN_ARG_REQUIRED, "PERCENT", "exit 1 when a NIC's observed off-node share "
	  "passes PERCENT in any interval", 'r' },
	{ "queue-stats", 'q', NN_ARG_REQUIRED, "SOURCE", "per-queue packet counts from: auto (default: "
	  "netdev netlink qstats-get, else the driver's ethtool statistics that name queues), ethtool, "
	  "none", 'q' },
	{ "plain", 'p', NN_ARG_NONE, NULL, "tables one after another, no redraw (logs)", 'p' },
	{ "dpdk", 0, NN_ARG_NONE, NULL, "add a running DPDK process's per-port and per-queue rates "
	  "and lcore busy share from its telemetry", OPT_DPDK },
	{ "file-prefix", 0, NN_ARG_REQUIRED, "P", "with --dpdk: the EAL --file-prefix of the process "
	  "(default rte)", OPT_PREFIX },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_observe = {
	.name = "observe",
	.usage = "nicnuma observe [IF...] [--interval SECONDS] [--duration SECONDS | --count N]\n"
		 "                       [--max-remote PERCENT] [--queue-stats SOURCE] [--plain]\n"
		 "                       [--dpdk [--file-prefix P]]",
	.intro =
"Show where each NIC's packet work really runs, interval by interval: which\n"
"CPUs and nodes took its queue interrupts, ran its receive/transmit softirqs\n"
"and its threaded-NAPI kthreads, against the NIC's own NUMA node. It samples\n"
"/proc/interrupts (each NIC IRQ per CPU), /proc/softirqs (NET_RX, NET_TX per\n"
"CPU), /proc/PID/stat of each napi/IF-ID kthread (CPU time, last CPU) and,\n"
"where the kernel has netdev netlink qstats-get (6.10), per-queue packet counts\n"
"(else the driver's per-queue ethtool statistics, rx_queue_N_packets,\n"
"rx-N.packets, rxN_packets; else \"not available\"). A CPU's softirqs are\n"
"split between the NICs in proportion to their interrupts on it; softirqs on\n"
"CPUs that took no NIC interrupt (RPS, veth, loopback) are shown as\n"
"unattributed.\n"
"\n"
"Per NIC and queue: interrupt and softirq rates, the share of each done on the\n"
"NIC's node (irq_local_ratio, softirq_local_ratio, napi_local_ratio) and the\n"
"worst off-node share of the three (remote_pct). Flags:\n"
"  irq_off_node          a queue's IRQ fired on a CPU of another node\n"
"  napi_off_node         a NAPI kthread ran on another node\n"
"  irq_one_cpu           one CPU took most (over 80%) of a multi-queue NIC's\n"
"                        interrupts\n"
"  irq_on_isolated_cpu   NIC interrupts on a CPU of\n"
"                        /sys/devices/system/cpu/isolated\n"
"\n"
"On a terminal the table is redrawn each interval, like top; with --json (or\n"
"when stdout is not a terminal) each interval is one JSON document on one line\n"
"(JSON lines). Under --root the tree's counters are read as a series: sample K\n"
"(0 first) reads /.observe/K/PATH where the tree has it, and rates use the\n"
"nominal interval; nothing sleeps.\n"
"\n"
"With --dpdk, a running DPDK process (found by its EAL --file-prefix) is\n"
"sampled beside the kernel through its telemetry socket each interval: per\n"
"port and queue the packet rates (/ethdev/stats, per-queue rx_qN_packets /\n"
"tx_qN_packets xstats where the PMD names them) and each lcore's CPU, node and\n"
"busy share (/eal/lcore/usage, DPDK 23.03+; null with a note on 22.11). Each\n"
"exchange has a deadline of the interval (at least 1 s). A process that stops\n"
"answering is a warning; the observation goes on.\n"
"\n"
"IF...: only these NICs (default: every NIC with IRQs or a NAPI thread).\n",
	.opts = opts,
	.args = "[IF...]",
	.outro =
"Exit status: 0 clean, 1 --max-remote passed or warnings, 2 error (unknown\n"
"NIC, bad option).\n"
"\n"
"Example: nicnuma observe eth0 --interval 2 --count 5 --max-remote 10\n",
};

static int parse_opts(struct nn_ctx *ctx, int argc, char **argv, struct observe_opts *o)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->interval = 1;
	o->max_remote = -1;
	o->qwant = NN_OBS_QSTATS_NETLINK;
	while ((c = nn_opt_next(ctx, &nn_desc_observe, &st)) > 0) {
		const char *arg = st.arg;

		switch (c) {
		case 'i':
			if (nn_opt_seconds(ctx, "--interval", arg, 0.1, 3600, &o->interval))
				return -EINVAL;
			break;
		case 'd':
			if (nn_opt_seconds(ctx, "--duration", arg, 0.1, 31536000, &o->duration))
				return -EINVAL;
			break;
		case 'c':
			if (nn_parse_long(arg, &v) || v <= 0 || v > 100000000) {
				nn_err(ctx, "--count: '%s' is not a positive number", arg);
				return -EINVAL;
			}
			o->count = v;
			break;
		case 'r':
			if (nn_parse_long(arg, &v) || v < 0 || v > 100) {
				nn_err(ctx, "--max-remote: '%s' is not a percentage (0-100)", arg);
				return -EINVAL;
			}
			o->max_remote = (double)v;
			break;
		case 'q':
			if (!strcmp(arg, "auto")) {
				o->qwant = NN_OBS_QSTATS_NETLINK;
			} else if (!strcmp(arg, "ethtool")) {
				o->qwant = NN_OBS_QSTATS_ETHTOOL;
			} else if (!strcmp(arg, "none")) {
				o->qwant = NN_OBS_QSTATS_NONE;
			} else {
				nn_err(ctx, "--queue-stats: '%s' is not auto, ethtool or none", arg);
				return -EINVAL;
			}
			break;
		case 'p':
			o->plain = true;
			break;
		case OPT_DPDK:
			o->dpdk = true;
			break;
		case OPT_PREFIX:
			if (!*arg || strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, "..")) {
				nn_err(ctx, "--file-prefix: '%s' is not a file prefix", arg);
				return -EINVAL;
			}
			o->prefix = arg;
			break;
		}
	}
	if (c < 0)
		return c == NN_OPT_HELP ? 1 : -EINVAL;
	if (o->duration && o->count) {
		nn_err(ctx, "observe: give --duration or --count, not both");
		return -EINVAL;
	}
	if (o->prefix && !o->dpdk) {
		nn_err(ctx, "observe: --file-prefix needs --dpdk");
		return -EINVAL;
	}
	if (o->duration)
		o->count = (long)ceil(o->duration / o->interval - 1e-9);
	if (st.ind < argc)
		o->only = argv + st.ind;	/* permuted to the end; argv is NULL-terminated */
	return 0;
}

int nn_cmd_observe(struct nn_ctx *ctx, int argc, char **argv)
{
	struct observe_opts o;
	struct nn_obs_session ss;
	struct nn_obs_dpdk dp;
	sigset_t set, old;
	bool live_view, stop = false, passed = false, warned = false;
	int err;
	long n;

	err = parse_opts(ctx, argc, argv, &o);
	if (err)
		return err > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
	/* not a terminal and no --plain: JSON lines */
	if (!ctx->out.json && !o.plain && !isatty(fileno(ctx->out.fp)))
		ctx->out.json = true;
	ctx->out.lines = true;
	live_view = !ctx->out.json && !o.plain;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	err = nn_obs_session_open(ctx, &ss, o.only, o.interval, o.qwant);
	if (err) {
		if (err != -ENODEV)
			nn_err(ctx, "observe: %s", strerror(-err));
		nn_print_warnings(ctx);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return NN_EXIT_ERROR;
	}
	if (o.dpdk) {
		int ms = (int)(o.interval * 1000);

		err = nn_obs_dpdk_open(ctx, &dp, o.prefix, ms < 1000 ? 1000 : ms);
		if (err) {
			if (err == -ENOMEM)
				nn_err(ctx, "observe --dpdk: %s", strerror(-err));
			nn_print_warnings(ctx);
			nn_obs_session_close(&ss);
			sigprocmask(SIG_SETMASK, &old, NULL);
			return NN_EXIT_ERROR;
		}
	}
	for (n = 0; !stop && (!o.count || n < o.count); n++) {
		struct nn_obs_report r;

		stop = nn_obs_session_wait(ctx, &ss, &set);
		err = nn_obs_session_next(ctx, &ss, &r);
		if (err) {
			nn_err(ctx, "observe: %s", strerror(-err));
			break;
		}
		if (o.dpdk) {
			err = nn_obs_dpdk_next(ctx, &dp);	/* only -ENOMEM */
			if (err) {
				nn_obs_report_free(&r);
				nn_err(ctx, "observe --dpdk: %s", strerror(-err));
				break;
			}
		}
		if (o.max_remote >= 0 && r.remote_pct > o.max_remote)
			passed = true;
		nn_open_object(&ctx->out, NULL);
		nn_obs_sample_head_print(ctx, n + 1, live_view);
		nn_obs_report_print(&ctx->out, &r, o.max_remote);
		if (o.dpdk && nn_obs_dpdk_print(&ctx->out, &dp)) {
			nn_obs_report_free(&r);
			err = -ENOMEM;
			nn_err(ctx, "observe: %s", strerror(-err));
			nn_close_object(&ctx->out);
			break;
		}
		if (o.max_remote >= 0 && r.remote_pct > o.max_remote && !ctx->out.json)
			nn_printf(&ctx->out, "\noff-node share %.1f%% passes --max-remote %.0f%%\n",
				  r.remote_pct, o.max_remote);
		if (ctx->nwarns)
			warned = true;
		nn_print_warnings(ctx);
		nn_close_object(&ctx->out);
		nn_obs_report_free(&r);
		/* each interval is its own document, with its own warnings */
		nn_warnings_clear(ctx);
		if (!ctx->out.json && !live_view)
			nn_printf(&ctx->out, "\n");
		if (nn_out_flush(&ctx->out) < 0) {
			err = -EIO;
			break;
		}
	}
	nn_obs_session_close(&ss);
	if (o.dpdk)
		nn_obs_dpdk_close(&dp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (err)
		return NN_EXIT_ERROR;
	return passed || warned ? NN_EXIT_WARN : NN_EXIT_OK;
}
