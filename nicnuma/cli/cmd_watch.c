// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_watch.c - "nicnuma watch": the service that keeps the desired state */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nicnuma/core/names.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/service/persist.h"
#include "nicnuma/state/undo.h"
#include "nicnuma/service/watch.h"

enum { OPT_INTERVAL = NN_OPT_OWN, OPT_SETTLE, OPT_ONCE, OPT_CONFIG, OPT_COEXIST, OPT_EVENTS,
       OPT_COUNT, OPT_DURATION, OPT_STATE_DIR, OPT_PRINT_UNIT, OPT_EXEC, OPT_CGROUP_WATCHES,
       OPT_SCHED };

static const struct nn_opt opts[] = {
	{ "interval", 0, NN_ARG_REQUIRED, "SECONDS", "periodic re-check (default: the desired state's, 60)", OPT_INTERVAL },
	{ "settle", 0, NN_ARG_REQUIRED, "MS", "quiet time after the last event (default 300)", OPT_SETTLE },
	{ "once", 0, NN_ARG_NONE, NULL, "one reconcile, then exit (what a timer or a test runs)", OPT_ONCE,
	  NN_STORE_BOOL(struct nn_watch_opts, once) },
	{ "config", 0, NN_ARG_REQUIRED, "FILE", "desired state (default /etc/nicnuma/nicnuma.conf)", OPT_CONFIG },
	{ "coexist", 0, NN_ARG_NONE, NULL, "go on beside another IRQ owner (tuned, .link, irqbalance bans): "
	  "warnings instead of refusing", OPT_COEXIST,
	  NN_STORE_BOOL(struct nn_watch_opts, coexist) },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "snapshots and the lock (default /var/lib/nicnuma)", OPT_STATE_DIR },
	{ "cgroup-watches", 0, NN_ARG_REQUIRED, "N", "the most inotify watches on the cgroup tree, two per cpuset "
	  "cgroup (default 8192); past it cpuset partitions are polled every second; 0: poll only",
	  OPT_CGROUP_WATCHES },
	{ "sched", 0, NN_ARG_REQUIRED, "POLICY", "fifo (default): run at SCHED_FIFO priority 1, so that a claim's "
	  "move does not wait behind a loaded host's threads; other: leave it as started", OPT_SCHED },
	{ "events", 0, NN_ARG_NONE, NULL, "live only, writes nothing: print each decoded netlink event and each "
	  "reconcile it would trigger", OPT_EVENTS,
	  NN_STORE_BOOL(struct nn_watch_opts, events_only) },
	{ "count", 0, NN_ARG_REQUIRED, "N", "with --events: stop after N events", OPT_COUNT },
	{ "duration", 0, NN_ARG_REQUIRED, "SECONDS", "with --events: stop after SECONDS", OPT_DURATION },
	{ "timeout", 0, NN_ARG_REQUIRED, "SECONDS", "old spelling of --duration", OPT_DURATION,
	  .deprecated = "duration" },
	{ "print-unit", 0, NN_ARG_NONE, NULL, "print the generic nicnuma-watch.service (what the package installs, "
	  "disabled; made at build time from the template enable uses) and exit; "
	  "writes nothing", OPT_PRINT_UNIT },
	{ "exec", 0, NN_ARG_REQUIRED, "PATH", "with --print-unit: the nicnuma binary for ExecStart= (default: this "
	  "one)", OPT_EXEC },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_watch = {
	.name = "watch",
	.usage = "nicnuma [--root DIR] watch [--interval SECONDS] [--settle MS] [--once]\n"
		 "               [--config FILE] [--coexist] [--state-dir DIR] [--cgroup-watches N]\n"
		 "               [--sched fifo|other]\n"
		 "       nicnuma watch --events [--count N] [--duration SECONDS]\n"
		 "       nicnuma watch --print-unit [--exec PATH] [--config FILE]",
	.intro =
"Keep the host at the desired state 'nicnuma enable' wrote (/etc/nicnuma/\n"
"nicnuma.conf): the service nicnuma-watch.service runs this (Type=notify).\n"
"The kernel resets a queue IRQ's affinity when a driver requests it again\n"
"(link up, reload, rebind, ethtool -L, hotplug); the watcher listens to\n"
"rtnetlink link events, the ethtool netlink monitor group (Linux >= 5.6) and\n"
"kernel uevents (pci/net/queues add, remove, bind, unbind), waits until a\n"
"burst settles, rediscovers the host, finds the desired NICs by PCI address,\n"
"re-plans and applies only what differs (same snapshot, readback and errno\n"
"rules as apply; one snapshot, the before-enable one, is extended, never a\n"
"new one per event). Every --interval it re-checks: values someone else\n"
"rewrote are put back and logged as drift.\n"
"\n"
"Run-time CPU claims are followed as they happen: claim records through\n"
"inotify on /run/nicnuma/claims, cgroup v2 cpuset partitions through inotify\n"
"on the cgroup tree (every cgroup directory and cpuset.cpus.partition file:\n"
"the kernel notifies partition state changes there), a claim's process\n"
"through a pidfd; a claim change is applied at once (no settle, no gap). The\n"
"claims are also read every 10 s as a safety net, every second where a\n"
"source has no event (past --cgroup-watches or the kernel's inotify limits,\n"
"an owner without a pidfd).\n"
"\n"
"Rates: a reconcile runs --settle ms after the last event, at most 5 s after\n"
"the first of a storm, and never within 1 s of the previous one (at most one\n"
"apply per second, whatever the event rate).\n"
"\n"
"DPDK ports (the desired state's dpdk_port, enable --dpdk-ports): at start the\n"
"watcher binds each to vfio-pci again (the kernel forgot driver_override at\n"
"reboot) after apply's checks; a port that became a management path or whose\n"
"IOMMU group is no longer viable is refused, said and left on its driver\n"
"(forced only with force_port = yes). Later reconciles leave the ports alone.\n",
	.opts = opts,
	.outro =
"One line per action on stderr (journald keeps it), e.g.\n"
"  nicnuma-watch: applied 8 values after link up on eth1 (0000:65:00.0) in 12 ms\n"
"and the state in /run/nicnuma/watch.json: pid, started, config,\n"
"ethtool_monitor, last_action {time, trigger, result, changed, elapsed_ms},\n"
"claims_follow {cgroup_tree, cgroup_watches, owner_pidfds, poll_ms},\n"
"counters {events, relevant, applies, values_written}. A second watcher\n"
"refuses to start (flock on /run/nicnuma/watch.lock). SIGTERM/SIGINT: exit 0;\n"
"SIGHUP: re-read the desired state. Under --root nothing live is opened:\n"
"only the timer, signals and the inotify watches on the tree's files run.\n"
"\n"
"Exit status: 0 stopped by a signal, or --once applied cleanly; 1 --once with\n"
"failed values or a refused port; 2 error (no desired state, another watcher,\n"
"another owner).\n",
};

static int number(struct nn_ctx *ctx, const char *opt, const char *arg, unsigned long lo,
		  unsigned long hi, unsigned long *v)
{
	if (nn_name_decimal(arg, hi, v, NULL) || *v < lo) {
		nn_err(ctx, "%s: expected a number from %lu to %lu, got '%s'", opt, lo, hi, arg);
		return -1;
	}
	return 0;
}

/* --print-unit: the packaged unit, from persist.c's one template. */
static int print_unit(struct nn_ctx *ctx, const char *exe, const char *config)
{
	struct nn_unit_opts uo = { .config = config, .packaged = true };
	struct nn_sb sb = NN_SB_INIT;
	char self[4096];
	int err = 0;

	if (!exe) {
		err = nn_self_exe(self, sizeof(self));
		exe = self;
	}
	if (!err) {
		uo.exe = exe;
		uo.notify = nn_watch_notify_supported();
		err = nn_watch_unit_text(&uo, &sb);
	}
	if (!err)
		fputs(nn_sb_str(&sb), stdout);	/* exactly: the unit file */
	nn_sb_free(&sb);
	if (err)
		nn_err(ctx, "watch --print-unit: %s", err == -EINVAL ?
		       "--exec and --config must be absolute paths without control characters" :
		       strerror(-err));
	return err ? NN_EXIT_ERROR : NN_EXIT_OK;
}

int nn_cmd_watch(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_watch_opts o = { 0 };
	const char *exe = NULL;
	bool print = false;
	unsigned long v;
	int opt, err;

	st.dest = &o;
	while ((opt = nn_opt_next(ctx, &nn_desc_watch, &st)) > 0) {
		switch (opt) {
		case OPT_INTERVAL:
			if (number(ctx, "--interval", st.arg, 1, 86400, &v))
				return NN_EXIT_ERROR;
			o.interval_s = (unsigned int)v;
			break;
		case OPT_SETTLE:
			if (number(ctx, "--settle", st.arg, 10, 60000, &v))
				return NN_EXIT_ERROR;
			o.settle_ms = (unsigned int)v;
			break;
		case OPT_COUNT:
			if (number(ctx, "--count", st.arg, 1, 1000000000, &v))
				return NN_EXIT_ERROR;
			o.count = v;
			break;
		case OPT_DURATION:
			if (number(ctx, "--duration", st.arg, 1, 86400, &v))
				return NN_EXIT_ERROR;
			o.timeout_s = (unsigned int)v;
			break;
		case OPT_CONFIG:
			if (st.arg[0] != '/') {
				nn_err(ctx, "--config: give an absolute path (inside --root), got '%s'", st.arg);
				return NN_EXIT_ERROR;
			}
			o.config = st.arg;
			break;
		case OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		case OPT_CGROUP_WATCHES:
			if (number(ctx, "--cgroup-watches", st.arg, 0, 1000000, &v))
				return NN_EXIT_ERROR;
			o.cgroup_watches = v ? (long)v : -1;
			break;
		case OPT_SCHED:
			if (nn_watch_sched_parse(st.arg, &o.sched)) {
				nn_err(ctx, "--sched: expected fifo or other, got '%s'", st.arg);
				return NN_EXIT_ERROR;
			}
			break;
		case OPT_PRINT_UNIT:
			print = true;
			break;
		case OPT_EXEC:
			exe = st.arg;
			break;
		}
	}
	if (opt < 0)
		return nn_opt_exit(opt);
	if (exe && !print) {
		nn_err(ctx, "watch: --exec goes with --print-unit");
		return NN_EXIT_ERROR;
	}
	if (print)
		return print_unit(ctx, exe, o.config);
	if ((o.count || o.timeout_s) && !o.events_only) {
		nn_err(ctx, "watch: --count and --duration go with --events");
		return NN_EXIT_ERROR;
	}
	ctx->prog = "nicnuma-watch";
	/* a long-running service: stdout lines reach journald at once */
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = nn_watch_run(ctx, &o);
	return err < 0 ? NN_EXIT_ERROR : err > 0 ? NN_EXIT_WARN : NN_EXIT_OK;
}
