// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_metrics.c - "nicnuma metrics": the host's placement for node_exporter */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/service/enabled.h"
#include "nicnuma/service/metrics.h"
#include "nicnuma/emit/observe.h"
#include "nicnuma/plan/plan.h"

enum { OPT_TRAFFIC = NN_OPT_OWN };

static const struct nn_opt opts[] = {
	{ "output", 'o', NN_ARG_REQUIRED, "FILE", "write the metrics to FILE (a host path, not under --root)", 'o' },
	{ "plan", 0, NN_ARG_REQUIRED, "FILE", "the plan to check against ('-' for stdin)", NN_OPT_PLAN },
	{ "traffic", 0, NN_ARG_REQUIRED, "SECONDS", "observe the packet work for SECONDS (0.1-3600) "
	  "first and add the traffic families", OPT_TRAFFIC },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_metrics = {
	.name = "metrics",
	.usage = "nicnuma [--root DIR] [--json] metrics [--output FILE] [--plan FILE] [--traffic SECONDS]\n"
		 "                                      [PLAN OPTIONS]",
	.intro =
"Render the host's NIC/NUMA placement as Prometheus metrics in the text format\n"
"node_exporter's textfile collector reads: per NIC its NUMA node, queue IRQs,\n"
"those off the NIC's node against the plan (a planned spill to a near node is\n"
"counted apart: nicnuma_nic_queue_irqs_spilled) and those off the plan, drifted\n"
"values; per node its\n"
"hugepage pools; each NIC's PCIe link (width and speed, current and max,\n"
"down-trained, healthy as 'nicnuma nics' judges it); irqbalance; and nicnuma\n"
"watch: running (its lock) and its last action (/run/nicnuma/watch.json, as\n"
"'nicnuma status' reads it; success 1 for applied, unchanged and skipped);\n"
"when enabled, the desired state's NICs and how many the host has. Nothing on\n"
"the host is changed.\n"
"\n"
"The plan the check families compare against, named by the sample\n"
"nicnuma_plan_info{source=...}:\n"
"  file     --plan FILE\n"
"  desired  without --plan and plan options, when 'nicnuma enable' is in\n"
"           effect: the desired state, /etc/nicnuma/nicnuma.conf\n"
"  default  otherwise: a fresh plan of this host by the locality rule with\n"
"           the plan options below (as for 'nicnuma check')\n"
"  none     no plan could be made (a warning): no check families\n"
"\n"
"Without --output the metrics go to stdout. With it the file is replaced\n"
"atomically (a temp file in its directory, renamed), mode 0644, so the\n"
"collector never reads half a file; run it from a timer, e.g.\n"
"  nicnuma metrics --output /var/lib/prometheus/node-exporter/nicnuma.prom\n"
"\n"
"With --traffic, the packet work is observed for SECONDS first (as 'nicnuma\n"
"observe' does) and per NIC its interrupt and softirq rates and the shares done\n"
"on its own node are added: nicnuma_nic_irq_local_ratio,\n"
"nicnuma_nic_softirq_local_ratio, nicnuma_nic_napi_local_ratio,\n"
"nicnuma_nic_irqs_per_second, nicnuma_nic_softirqs_per_second and\n"
"nicnuma_traffic_window_seconds. Off by default: the timer runs every minute;\n"
"give it a window shorter than that (10 to 30 s).\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN | NN_GROUP_PLAN_IRQB,
	.group_title = "Plan options (as for 'nicnuma plan'; without --plan only):\n",
	.outro =
"Plan options (as for 'nicnuma plan'; without --plan only):\n"
"\n"
"--json: {\"metrics\":{\"output\",\"plan_source\",\"samples\":[{\"name\",\"type\",\"labels\":{..},\n"
"\"value\"}]},\"warnings\":[..]}.\n"
"\n"
"Exit status: 0 written, 1 written with warnings, 2 error (bad plan, plan for\n"
"another host, output not writable). Drift is a metric, not an exit status.\n",
};

int nn_cmd_metrics(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_plan_opts popts = { 0 };
	struct nn_metrics m = { 0 }, desired = { 0 };
	struct nn_sb sb = NN_SB_INIT;
	const char *plan_file = NULL, *output = NULL;
	enum nn_metrics_plan_source source = NN_METRICS_PLAN_NONE;
	bool plan_opts = false;
	double traffic = 0;
	struct nn_obs_report obs = { 0 };
	struct nn_host host;
	struct nn_plan plan;
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int opt, err, ret = NN_EXIT_ERROR;

	memset(&host, 0, sizeof(host));
	memset(&plan, 0, sizeof(plan));
	st.plan = &popts;
	while ((opt = nn_opt_next(ctx, &nn_desc_metrics, &st)) > 0) {
		if (opt == 'o') {
			output = st.arg;
		} else if (opt == NN_OPT_PLAN) {
			plan_file = st.arg;
		} else if (opt == OPT_TRAFFIC) {
			if (nn_opt_seconds(ctx, "--traffic", st.arg, 0.1, 3600, &traffic))
				goto out;
		}
	}
	if (opt < 0) {
		ret = nn_opt_exit(opt);
		goto out;
	}
	plan_opts = st.plan_given != 0;
	if (plan_file && plan_opts) {
		nn_err(ctx, "metrics: plan options make a new plan; they cannot change --plan %s",
		       plan_file);
		goto out;
	}
	err = nn_host_discover(ctx, &host);
	if (err) {
		nn_host_discover_failed(ctx, NULL, err);
		goto out;
	}
	if (!plan_file && !plan_opts && nn_enabled_on(ctx)) {
		err = nn_metrics_desired_plan(ctx, &host, &plan, &desired);
		if (err < 0)
			goto out;
		source = err ? NN_METRICS_PLAN_NONE : NN_METRICS_PLAN_DESIRED;
	} else if (nn_plan_get(ctx, &host, plan_file, &popts, &plan) == 0) {
		source = plan_file ? NN_METRICS_PLAN_FILE : NN_METRICS_PLAN_DEFAULT;
	} else if (plan_file || plan_opts) {
		goto out;
	} else {
		nn_warn(ctx, NULL, "no plan of this host: metrics without the plan check");
	}
	err = nn_metrics_collect(ctx, &host, source != NN_METRICS_PLAN_NONE ? &plan : NULL, source, &m);
	if (err < 0) {
		nn_err(ctx, "metrics: %s", strerror(-err));
		goto out;
	}
	if (traffic > 0) {
		err = nn_obs_once(ctx, &host, NULL, traffic, &obs);
		if (err < 0) {
			nn_err(ctx, "metrics --traffic: %s", strerror(-err));
			goto out;
		}
		m.traffic = &obs;
	}
	m.has_desired = desired.has_desired;
	m.desired_nics = desired.desired_nics;
	m.desired_nics_present = desired.desired_nics_present;
	if (nn_metrics_output(ctx, &m, output, &sb) < 0)
		goto out;
	nn_open_object(&ctx->out, NULL);
	nn_metrics_print(ctx, &m, source, output, nn_sb_str(&sb));
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	ret = nn_cli_status(ctx, 0);
out:
	nn_obs_report_free(&obs);
	nn_sb_free(&sb);
	nn_metrics_free(&m);
	nn_plan_free(&plan);
	nn_host_free(&host);
	nn_plan_opts_free(&popts);
	return ret;
}
