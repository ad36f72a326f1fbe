/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_opts.h - planning options shared by `nicnuma plan` and `nicnuma script` */
#ifndef NICNUMA_CLI_PLAN_OPTS_H
#define NICNUMA_CLI_PLAN_OPTS_H

#include <getopt.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/plan.h"

/* Long-only option values start at 256 so they never collide with short ones. */
enum {
	NN_OPT_NICS = 256,
	NN_OPT_CPUS,
	NN_OPT_RESERVE,
	NN_OPT_POLICY,
	NN_OPT_CHANNELS,
	NN_OPT_IRQBALANCE,
	NN_OPT_HUGEPAGES,
	NN_OPT_NO_XPS,
	NN_OPT_PLAN,
	NN_OPT_STATE_DIR,
	NN_OPT_RSS,
};

#define NN_PLAN_LONGOPTS \
	{ "nics", required_argument, NULL, NN_OPT_NICS }, \
	{ "cpus", required_argument, NULL, NN_OPT_CPUS }, \
	{ "reserve", required_argument, NULL, NN_OPT_RESERVE }, \
	{ "policy", required_argument, NULL, NN_OPT_POLICY }, \
	{ "channels", no_argument, NULL, NN_OPT_CHANNELS }, \
	{ "no-xps", no_argument, NULL, NN_OPT_NO_XPS }, \
	{ "irqbalance", required_argument, NULL, NN_OPT_IRQBALANCE }, \
	{ "hugepages", required_argument, NULL, NN_OPT_HUGEPAGES }

/* The shared block, in three parts: `enable` has its own --irqbalance
 * (stop|ban|leave, the desired state's words) and prints the block without
 * the plan's (NN_PLAN_OPTS_HELP_NO_IRQB), so each --help defines an option once. */
#define NN_PLAN_OPTS_HELP_HEAD \
"  --nics NIC[,NIC..]   plan these NICs only (default: every non-virtual NIC;\n" \
"                       virtual ones such as veth are planned when named)\n" \
"  --cpus CPULIST       queue IRQs and XPS only on these CPUs (kernel form:\n" \
"                       0-3,8); housekeeping is chosen separately\n" \
"  --reserve CPULIST    housekeeping CPUs, kept free of queue IRQs; the NICs'\n" \
"                       other IRQs (config, async, misc) go there (default: the\n" \
"                       first core of each node with its SMT siblings)\n" \
"  --policy POLICY      local (default): the NIC's own node, spilling to the\n" \
"                       nearest nodes by distance when it has no or too few\n" \
"                       cores; spread: all nodes in turn; remote: the node\n" \
"                       farthest from the NIC, for mismatch experiments\n" \
"  --channels           also set each NIC's combined channels to the number of\n" \
"                       cores planned for it (ethtool -L)\n" \
"  --no-xps             plan no XPS masks: the tx queues' xps_cpus are left as\n" \
"                       they are (the desired state's xps = no)\n"

#define NN_PLAN_OPTS_HELP_IRQB \
"  --irqbalance ACTION  stop (default): stop irqbalance (systemctl disable --now\n" \
"                       under systemd); ban: keep it running but fence the\n" \
"                       planned IRQs (IRQBALANCE_BANNED_CPULIST / --banirq);\n" \
"                       ignore: leave it alone (it will move IRQs again)\n"

#define NN_PLAN_OPTS_HELP_TAIL \
"  --hugepages SIZE:COUNT\n" \
"                       reserve at least COUNT pages of SIZE (2M, 1G, 2048kB)\n" \
"                       on each node that holds a planned NIC (a larger pool\n" \
"                       is kept); adds DPDK --socket-mem COUNT x SIZE\n"

#define NN_PLAN_OPTS_HELP NN_PLAN_OPTS_HELP_HEAD NN_PLAN_OPTS_HELP_IRQB NN_PLAN_OPTS_HELP_TAIL
#define NN_PLAN_OPTS_HELP_NO_IRQB NN_PLAN_OPTS_HELP_HEAD NN_PLAN_OPTS_HELP_TAIL
/* --rss: only the commands that plan, apply or check a plan (plan, apply,
 * check); script, layout, metrics and enable do not carry an RSS table. */
#define NN_PLAN_RSS_LONGOPT { "rss", required_argument, NULL, NN_OPT_RSS }
#define NN_PLAN_RSS_HELP \
"  --rss MODE           local: spread each NIC's RSS indirection table over its\n" \
"                       queues whose IRQs are planned on the NIC's node only\n" \
"                       (equal weights); local:cpu: weighted by each queue's\n" \
"                       share of its CPUs; none (default): leave the table\n"

/* Handles one getopt value; 0 done, 1 not a planning option, -1 bad value
 * (message already printed, naming the option). */
int nn_plan_opt(struct nn_ctx *ctx, int opt, const char *arg, struct nn_plan_opts *o);
/* Checks what needs the host: NIC names, online CPUs, page sizes. */
int nn_plan_opts_check(struct nn_ctx *ctx, const struct nn_host *host, struct nn_plan_opts *o);
/* Message for an nn_plan_make() error; returns NN_EXIT_ERROR. */
int nn_plan_errmsg(struct nn_ctx *ctx, int err);

/* Reads a plan file ("-" stdin) strictly; messages name the file and key. */
int nn_cli_read_plan(struct nn_ctx *ctx, const char *path, struct nn_plan *plan);
/* The plan a command works on: read from @planfile ("-" stdin) and checked
 * against @host's shape, or made from @o. Messages printed; 0 or -errno. */
/* The host shape check of a plan read from a file (the plan is freed when
 * it fails). */
int nn_cli_check_plan_shape(struct nn_ctx *ctx, const struct nn_host *host, const char *planfile,
			    struct nn_plan *plan);
int nn_cli_get_plan(struct nn_ctx *ctx, const struct nn_host *host, const char *planfile,
		    struct nn_plan_opts *o, struct nn_plan *plan);


#endif
