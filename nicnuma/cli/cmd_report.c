// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_report.c - "nicnuma report": the host, its NICs and every queue IRQ
 * today and as planned, drawn as one self-contained HTML page (or SVG) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/emit/hostview_save.h"
#include "nicnuma/discover/pcie.h"
#include "opts.h"
#include "plan_opts.h"

enum {
	OPT_SVG = NN_OPT_OWN,
	OPT_TITLE,
	OPT_TRAFFIC,
};

static const struct nn_opt opts[] = {
	{ "output", 'o', NN_ARG_REQUIRED, "FILE", "write the page to FILE (replaced atomically), - for stdout", 'o' },
	{ "svg", 0, NN_ARG_NONE, NULL, "write a standalone SVG picture instead of the page", OPT_SVG },
	{ "title", 0, NN_ARG_REQUIRED, "TEXT", "the page's title (default: nicnuma report)", OPT_TITLE },
	{ "traffic", 0, NN_ARG_REQUIRED, "SECONDS", "observe SECONDS (1-3600) first and draw the work per "
	  "CPU (under --root: the capture's samples 0 and 1)", OPT_TRAFFIC },
	{ "plan", 0, NN_ARG_REQUIRED, "FILE", "draw this plan (from 'nicnuma plan --json'); without it a "
	  "plan is made from the plan options below", NN_OPT_PLAN },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_report = {
	.name = "report",
	.usage = "nicnuma [--root DIR] [--json] report -o FILE [--svg] [--title TEXT]\n"
		 "                              [--traffic SECONDS] [--plan FILE | PLAN OPTIONS]",
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
"CPU over SECONDS (the NICs' interrupts from /proc/interrupts, NET_RX and\n"
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
"\"planned_node\",\"planned_off\"}],\"plan_warnings\":[..],\"plan_notes\":[..]},\"warnings\":[..]}; a CPU\n"
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
	bool svg = false, to_stdout = false;
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
		nn_err(ctx, "report: -o FILE is needed: the page is written to a file (- for stdout)");
		goto out_opts;
	}
	to_stdout = !strcmp(output, "-");
	if (to_stdout && o->json) {
		nn_err(ctx, "report: --json needs -o FILE (with -o - the page itself goes to stdout)");
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
		nn_host_discover_failed(ctx, "report", err);
		goto out;
	}
	nn_pcie_warn(ctx, &h);
	if (nn_plan_get(ctx, &h, planfile, &po, &p))
		goto out_warn;
	if (traffic) {
		err = nn_hv_traffic_observe(ctx, &h, (double)traffic, &tr);
		if (err) {
			nn_err(ctx, "report: --traffic: cannot observe: %s", strerror(-err));
			goto out_warn;
		}
	}
	err = nn_hostview_make(&h, &p, traffic ? &tr : NULL, &v);
	if (!err)
		err = nn_hostview_save(&v, title, svg, output, &bytes);
	if (err) {
		nn_err(ctx, "report: cannot write %s: %s", output, nn_output_strerror(err));
		goto out_warn;
	}
	if (!to_stdout)	/* else stdout is the page: warnings only, on stderr */
		nn_hostview_summary_print(o, &v, output, svg, bytes);
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
