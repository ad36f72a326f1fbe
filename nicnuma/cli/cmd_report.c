// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_report.c - "nicnuma report": the host, its NICs and every queue IRQ
 * today and as planned, drawn as one self-contained HTML page (or SVG) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nicnuma/act/hostview_save.h"
#include "nicnuma/act/observe.h"
#include "nicnuma/discover/pcie.h"
#include "opts.h"
#include "plan_opts.h"

enum {
	OPT_SVG = NN_OPT_OWN,
	OPT_TITLE,
	OPT_TRAFFIC,
};

static const struct nn_opt opts[] = {
	{ "output", 'o', NN_ARG_REQUIRED, "FILE", "write the page to FILE (replaced atomically)", 'o' },
	{ "svg", 0, NN_ARG_NONE, NULL, "write a standalone SVG picture instead of the page", OPT_SVG },
	{ "title", 0, NN_ARG_REQUIRED, "TEXT", "the page's title (default: nicnuma report)", OPT_TITLE },
	{ "traffic", 0, NN_ARG_REQUIRED, "SEC", "observe SEC seconds (1-3600) first and draw the work per "
	  "CPU (under --root: the capture's samples 0 and 1)", OPT_TRAFFIC },
	{ "plan", 0, NN_ARG_REQUIRED, "FILE", "draw this plan (from 'nicnuma plan --json'); without it a "
	  "plan is made from the plan options below", NN_OPT_PLAN },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_report = {
	.name = "report",
	.usage = "nicnuma [--root DIR] [--json] report -o FILE [--svg] [--title TEXT]\n"
		 "                              [--traffic SEC] [--plan FILE | PLAN OPTIONS]",
	.intro =
"Draw the host as one picture: each NUMA node as a box of CPU cells (a row of\n"
"cores per L3 group, SMT siblings under their core) with its memory and\n"
"distances; each NIC in its node's box with its PCIe verdict; each queue IRQ\n"
"as a mark on the CPU it runs on today (effective affinity) and on the CPU\n"
"the plan gives it, with the moves drawn (one by one up to 64 moves, else\n"
"counted per node). A mark on a CPU off its NIC's node is red and its cell\n"
"outlined; a NIC of unknown locality (numa_node -1) is drawn apart and its\n"
"marks grey: nothing is judged. Beside the picture: a legend, the distance\n"
"matrix and the off-node IRQs as text. With --traffic, the work observed per\n"
"CPU over SEC seconds (the NICs' interrupts from /proc/interrupts, NET_RX and\n"
"NET_TX from /proc/softirqs) is drawn as a heat strip under each CPU of\n"
"today's picture. Nothing is changed on the host.\n"
"\n"
"The page is one file with inline SVG and no script: its content-security\n"
"policy (the bench report's) loads nothing. Open it in any browser.\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN | NN_GROUP_PLAN_IRQB,
	.group_title = "Plan options (as for 'nicnuma plan'; without --plan only):\n",
	.outro =
"Output: what was drawn - nodes, CPUs, NICs, queue IRQs, moves, red marks\n"
"today and as planned, and each off-node IRQ. With --json: {\"report\":{\"file\",\n"
"\"format\",\"bytes\",\"nodes\",\"cpus\",\"nics\",\"queue_irqs\",\"moves\",\"off_node_now\",\n"
"\"off_node_planned\",\"unplaced_now\",\"traffic\":{\"seconds\",\"irq_rate\",\"softirq_rate\"}\n"
"(null without --traffic),\"unknown_locality\":[NIC..],\"off_node\":[{\"irq\",\n"
"\"nic\",\"queue\",\"nic_node\",\"now_cpu\",\"now_node\",\"now_off\",\"planned_cpu\",\n"
"\"planned_node\",\"planned_off\"}],\"plan_warnings\":[..]},\"warnings\":[..]}; a CPU\n"
"or node that is not known is null.\n"
"\n"
"Examples:\n"
"  nicnuma report -o host.html\n"
"  nicnuma report --plan p.json -o host.html\n"
"  nicnuma --root /tmp/capture report --policy remote --svg -o remote.svg\n"
"\n"
"Exit status: 0 clean, 1 drawn with warnings (discovery problems, plan\n"
"warnings such as unknown locality or spill), 2 error (bad option, no -o,\n"
"unreadable plan or host, file not written).\n",
};

/* One observation of SEC seconds (as check and metrics take it: a fake
 * root's samples 0 and 1, without waiting), as per-CPU rates for the picture. */
static int observe(struct nn_ctx *ctx, const struct nn_host *h, long sec, struct nn_hv_traffic *tr)
{
	struct nn_obs_report r;
	int err = nn_obs_once(ctx, h, NULL, (double)sec, &r);

	if (!err)
		err = nn_hv_traffic_from_obs(&r, tr);
	nn_obs_report_free(&r);
	return err;
}

static void print_off(struct nn_out *o, const struct nn_hv_irq *m)
{
	nn_open_object(o, NULL);
	nn_print_int(o, PRINT_JSON, "irq", NULL, m->irq);
	nn_print_string(o, PRINT_JSON, "nic", NULL, m->nic);
	nn_print_int(o, PRINT_JSON, "queue", NULL, m->queue);
	nn_print_opt_int(o, PRINT_JSON, "nic_node", NULL, m->nic_node, NULL);
	nn_print_opt_int(o, PRINT_JSON, "now_cpu", NULL, m->now_cpu, NULL);
	nn_print_opt_int(o, PRINT_JSON, "now_node", NULL, m->now_node, NULL);
	nn_print_bool(o, PRINT_JSON, "now_off", NULL, m->now_off);
	nn_print_opt_int(o, PRINT_JSON, "planned_cpu", NULL, m->plan_cpu, NULL);
	nn_print_opt_int(o, PRINT_JSON, "planned_node", NULL, m->plan_node, NULL);
	nn_print_bool(o, PRINT_JSON, "planned_off", NULL, m->plan_off);
	nn_close_object(o);
	if (!o->json)
		nn_printf(o, "  IRQ %-6d %-16s queue %-3d NIC node %-3d today CPU %d (node %d)%s, planned CPU %d "
			  "(node %d)%s\n", m->irq, m->nic, m->queue, m->nic_node, m->now_cpu, m->now_node,
			  m->now_off ? " OFF" : "", m->plan_cpu, m->plan_node, m->plan_off ? " OFF" : "");
}

static void print_summary(struct nn_ctx *ctx, const struct nn_hostview *v, const struct nn_plan *p,
			  const char *file, bool svg, size_t bytes)
{
	struct nn_out *o = &ctx->out;
	size_t i;
	bool assumed;

	nn_open_object(o, "report");
	nn_print_string(o, PRINT_ANY, "file", "report: wrote %s", file);
	nn_print_string(o, PRINT_ANY, "format", " (%s", svg ? "svg" : "html");
	nn_print_uint(o, PRINT_ANY, "bytes", ", %llu bytes)\n", bytes);
	nn_print_uint(o, PRINT_ANY, "nodes", "  %llu nodes", v->host->topo.nnodes);
	nn_print_uint(o, PRINT_ANY, "cpus", ", %llu CPUs", v->host->topo.ncpus);
	nn_print_uint(o, PRINT_ANY, "nics", ", %llu NICs", v->nnics);
	nn_print_uint(o, PRINT_ANY, "queue_irqs", ", %llu queue IRQs", v->nirqs);
	nn_print_uint(o, PRINT_ANY, "moves", ", %llu moved by the plan\n", v->moves);
	nn_print_uint(o, PRINT_ANY, "off_node_now", "  off the NIC's node: %llu today", v->now_off);
	nn_print_uint(o, PRINT_ANY, "off_node_planned", ", %llu as planned", v->plan_off);
	nn_print_uint(o, PRINT_ANY, "unplaced_now", "; %llu without one known CPU today\n", v->now_unplaced);
	if (v->traffic) {
		double ti = 0, ts = 0;

		for (i = 0; i < v->traffic->ncpus; i++) {
			ti += v->traffic->irq[i];
			ts += v->traffic->softirq[i];
		}
		nn_open_object(o, "traffic");
		nn_print_double(o, PRINT_ANY, "seconds", "  observed %.0f s", v->traffic->seconds);
		nn_print_double(o, PRINT_ANY, "irq_rate", ": %.0f interrupts/s of the NICs", ti);
		nn_print_double(o, PRINT_ANY, "softirq_rate", ", %.0f NET softirqs/s\n", ts);
		nn_close_object(o);
	} else {
		nn_print_null(o, PRINT_JSON, "traffic", NULL);
	}
	nn_open_array(o, "unknown_locality");
	for (i = 0; i < v->nnics; i++)
		if (nn_nic_home_node(&v->host->topo, v->nics[i], &assumed) < 0)
			nn_print_string(o, PRINT_ANY, NULL, "  unknown locality (not judged): %s\n",
					v->nics[i]->name);
	nn_close_array(o);
	nn_open_array(o, "off_node");
	for (i = 0; i < v->nirqs; i++)
		if (v->irqs[i].now_off || v->irqs[i].plan_off)
			print_off(o, &v->irqs[i]);
	nn_close_array(o);
	nn_open_array(o, "plan_warnings");
	for (i = 0; i < p->nwarnings; i++)
		nn_print_string(o, PRINT_ANY, NULL, "  plan: %s\n", p->warnings[i]);
	nn_close_array(o);
	nn_close_object(o);
}

int nn_cmd_report(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_out *o = &ctx->out;
	const char *planfile = NULL, *output = NULL, *title = "nicnuma report";
	struct nn_plan_opts po;
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_hv_traffic tr;
	struct nn_hostview v;
	struct nn_plan p;
	struct nn_host h;
	bool svg = false;
	size_t bytes = 0;
	long traffic = 0;
	int c, err, status = NN_EXIT_ERROR;

	memset(&po, 0, sizeof(po));
	memset(&p, 0, sizeof(p));
	memset(&h, 0, sizeof(h));
	memset(&v, 0, sizeof(v));
	memset(&tr, 0, sizeof(tr));
	st.plan = &po;
	while ((c = nn_opt_next(ctx, &nn_desc_report, &st)) > 0) {
		switch (c) {
		case 'o':
			output = st.arg;
			break;
		case NN_OPT_PLAN:
			planfile = st.arg;
			break;
		case OPT_SVG:
			svg = true;
			break;
		case OPT_TITLE:
			title = st.arg;
			break;
		case OPT_TRAFFIC:
			if (nn_parse_long(st.arg, &traffic) || traffic < 1 || traffic > 3600) {
				nn_err(ctx, "report: --traffic '%s': want whole seconds, 1 to 3600", st.arg);
				goto out_opts;
			}
			break;
		}
	}
	if (c < 0) {
		status = nn_opt_exit(c);
		goto out_opts;
	}
	if (!output || !*output) {
		nn_err(ctx, "report: -o FILE is needed: the page is written to a file");
		goto out_opts;
	}
	if (planfile && st.plan_given) {
		nn_err(ctx, "report: plan options make a new plan; they cannot change --plan %s", planfile);
		goto out_opts;
	}
	err = nn_host_discover(ctx, &h);
	nn_open_object(o, NULL);
	if (err) {
		nn_print_warnings(ctx);
		nn_err(ctx, "report: cannot discover the host under %s: %s", ctx->root.path, strerror(-err));
		goto out;
	}
	nn_pcie_warn(ctx, &h);
	if (nn_cli_get_plan(ctx, &h, planfile, &po, &p))
		goto out_warn;
	if (traffic) {
		err = observe(ctx, &h, traffic, &tr);
		if (err) {
			nn_err(ctx, "report: --traffic: cannot observe: %s", strerror(-err));
			goto out_warn;
		}
	}
	err = nn_hostview_make(&h, &p, traffic ? &tr : NULL, &v);
	if (!err)
		err = nn_hostview_save(&v, title, svg, output, &bytes);
	if (err) {
		nn_err(ctx, "report: cannot write %s: %s", output, strerror(-err));
		goto out_warn;
	}
	print_summary(ctx, &v, &p, output, svg, bytes);
	status = nn_cli_status(ctx, 0);
	if (status == NN_EXIT_OK && p.nwarnings)
		status = NN_EXIT_WARN;
out_warn:
	nn_print_warnings(ctx);
out:
	nn_close_object(o);
	nn_hostview_free(&v);
	nn_hv_traffic_free(&tr);
	nn_plan_free(&p);
	nn_host_free(&h);
out_opts:
	nn_plan_opts_free(&po);
	return status;
}
