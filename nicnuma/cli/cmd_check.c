// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_check.c - "nicnuma check": does the live host still match the plan? */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/service/desired_io.h"
#include "nicnuma/service/metrics.h"
#include "nicnuma/emit/observe.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/discover/pcie.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/discover/coexist.h"
#include "boot/boot_print.h"

enum { OPT_TRAFFIC = NN_OPT_OWN, OPT_FRESH };

static const struct nn_opt opts[] = {
	{ "plan", 0, NN_ARG_REQUIRED, "FILE", "the plan to check against ('-' for stdin)", NN_OPT_PLAN },
	{ "traffic", 0, NN_ARG_REQUIRED, "SECONDS", "observe the packet work for SECONDS (0.1-3600) "
	  "too, as 'nicnuma observe' does", OPT_TRAFFIC },
	{ "fresh", 0, NN_ARG_NONE, NULL, "check against a fresh plan of this host even where nicnuma "
	  "is enabled (plan options imply it)", OPT_FRESH },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_check = {
	.name = "check",
	.usage = "nicnuma [--root DIR] [--json] [-v] check [--plan FILE] [--traffic SECONDS] [PLAN OPTIONS]\n"
		 "       nicnuma [--root DIR] [--json] check --pid PID[,PID...] [--interval SECONDS] [--count N]\n"
		 "       nicnuma [--json] check --dpdk [--file-prefix P | --socket PATH] [--timeout SECONDS]",
	.intro =
"Compare the host's IRQ affinities, XPS masks (and channel counts, when the plan\n"
"sets them) with a plan: the given --plan FILE (checked against this host's\n"
"shape); else, where nicnuma is enabled, the desired state's plan (what the\n"
"watcher keeps and 'nicnuma status' compares against); else the plan of the\n"
"newest 'nicnuma apply' not rolled back (kept beside its snapshot); else, or\n"
"with --fresh or plan options, a fresh plan of this host by the locality rule\n"
"with the plan options below. The first line names which. Nothing is written.\n"
"\n"
"Each drifted value is listed with its current and expected value (-v lists the\n"
"aligned ones too). Kernel-managed IRQs (debugfs says IRQD_AFFINITY_MANAGED)\n"
"are reported 'managed', not drift. A running irqbalance counts as drift unless\n"
"it is fenced (nicnuma's ban policy script, or --banirq for every planned IRQ):\n"
"its next pass would rewrite the affinities.\n"
"Another owner of IRQ placement (a tuned profile, a .link file, irqbalance bans,\n"
"a running 'nicnuma watch') is a warning (exit 1); the watcher only when its\n"
"desired state does not keep every value of the plan checked.\n"
"Works on a captured tree with --root.\n"
"\n"
"With --pid, checks running processes instead: where their threads run and\n"
"where their memory sits, per node ('nicnuma check --pid --help').\n"
"\n"
"With --dpdk, asks a running DPDK application's telemetry socket for its\n"
"ports, mempools and lcores and says per port whether the mempool and the\n"
"polling lcores sit on the port's node: 'mempool remote to its port', 'mempool\n"
"of this port unknown', 'lcore remote', 'unknown locality' or 'ok'\n"
"('nicnuma check --dpdk --help').\n"
"\n"
"With --traffic, also observes where the NICs' packet work ran for SECONDS\n"
"(as 'nicnuma observe' does: interrupts, softirqs and NAPI threads per CPU and\n"
"node) and reports it beside the placement: the plan says where IRQs are\n"
"bound, the traffic section where their work really ran.\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN | NN_GROUP_PLAN_IRQB | NN_GROUP_RSS | NN_GROUP_NET | NN_GROUP_BOOT,
	.group_title = "Plan options (as for 'nicnuma plan'; without --plan only):\n",
	.outro =
"--json: {\"check\":{\"values\":[{\"kind\",\"irq\",\"nic\",\"queue\",\"path\",\"current\",\n"
"\"planned\",\"status\":\"aligned|drift|managed|skipped\",\"note\"}],\"ports\":[{\"pci\",\n"
"\"driver\",\"planned\",\"status\":\"in_place|drift\"}],\"ports_drift\",\"irqbalance\":\n"
"{\"running\",\"pid\",\"fenced\",\"drift\"},\"drift_count\",\"traffic\":{..}},\n"
"\"warnings\":[..]}; traffic (with --traffic) has the keys of one 'nicnuma observe'\n"
"interval. ports: each --dpdk-ports port's driver now (null: none) against the\n"
"plan's; a port off its planned driver is drift, counted in drift_count too\n"
"(docs/ports.md).\n"
"\n"
"The plan line: a file's path, \"desired state (/etc/nicnuma/nicnuma.conf)\",\n"
"\"last apply (STATE_DIR/SNAPSHOT.plan)\" or \"fresh (locality rule)\"; --json\n"
"\"plan\" the same (the saved plan's path for the last apply) and \"plan_source\"\n"
"(file, desired, applied, default: metrics' words; metrics never uses applied).\n"
"\n"
"Exit status: 0 aligned, 1 drift or warnings (such as a PCIe link down-trained\n"
"or narrower than its ports), 2 error (bad plan, plan for another host,\n"
"unreadable tree).\n",
};

/* Where nicnuma is enabled, the desired state's plan options (its NICs found
 * on the host now, its claims read as the watcher reads them) replace @o's
 * (--irqbalance, @irqb_given, still decides):
 * 1. No desired state: 0, @o as given (a fresh plan). A desired state none
 * of whose NICs is here: a warning, 0. A broken one: its error, -errno. */
static int desired_opts(struct nn_ctx *ctx, struct nn_host *host, struct nn_plan_opts *o, bool irqb_given)
{
	struct nn_desired d;
	struct nn_plan_opts dopts = { 0 };
	const char **missing = NULL;
	size_t nmissing = 0, i;
	int err = nn_desired_read(ctx, NULL, &d);

	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	err = nn_desired_claims(ctx, &d, host);
	if (!err)
		err = nn_desired_plan_opts(&d, host, &dopts, &missing, &nmissing);
	for (i = 0; i < nmissing; i++)
		nn_warn(ctx, NN_DESIRED_PATH, "desired NIC %s is not on the host", missing[i]);
	free(missing);
	nn_desired_free(&d);
	if (err == -ENOENT) {
		nn_warn(ctx, NN_DESIRED_PATH, "none of the desired NICs is on the host: checked against "
			"a fresh plan");
		nn_plan_opts_free(&dopts);
		return 0;
	}
	if (err) {
		nn_err(ctx, "check: cannot plan the desired state: %s", strerror(-err));
		nn_plan_opts_free(&dopts);
		return err;
	}
	dopts.boot_cmd = o->boot_cmd;
	if (irqb_given)
		dopts.irqbalance = o->irqbalance;
	nn_plan_opts_free(o);
	*o = dopts;
	return 1;
}

int nn_cmd_check(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_plan_opts popts = { 0 };
	struct nn_check_report rep = { 0 };
	const char *plan_file = NULL;
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	bool plan_opts = false, fresh = false, desired = false;
	char *applied = NULL;	/* the last apply's plan, where check compares with it */
	double traffic = 0;
	struct nn_obs_report obs = { 0 };
	struct nn_boot_report boot = { 0 };
	struct nn_host host;
	struct nn_plan plan;
	int opt, err, ret = NN_EXIT_ERROR;

	/* check --pid is a different question (a process, not the host's IRQs):
	 * it has its own options and report. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--pid") && i + 1 < argc &&
		    (!strcmp(argv[i + 1], "--help") || !strcmp(argv[i + 1], "-h"))) {
			char *help[] = { argv[0], argv[i + 1], NULL };

			return cmd_check_pid(ctx, 2, help);
		}
		if (!strcmp(argv[i], "--pid") || !strncmp(argv[i], "--pid=", 6))
			return cmd_check_pid(ctx, argc, argv);
		if (!strcmp(argv[i], "--dpdk"))
			return cmd_check_dpdk(ctx, argc, argv);
	}

	memset(&host, 0, sizeof(host));
	memset(&plan, 0, sizeof(plan));
	rep.irqb.pid = -1;
	popts.boot_cmd = true;
	st.plan = &popts;
	while ((opt = nn_opt_next(ctx, &nn_desc_check, &st)) > 0) {
		if (opt == NN_OPT_PLAN) {
			plan_file = st.arg;
		} else if (opt == OPT_FRESH) {
			fresh = true;
		} else if (opt == OPT_TRAFFIC) {
			if (nn_opt_seconds(ctx, "--traffic", st.arg, 0.1, 3600, &traffic))
				goto out;
		}
	}
	if (opt < 0) {
		ret = nn_opt_exit(opt);
		goto out;
	}
	plan_opts = st.plan_given & ~NN_PLAN_GIVEN(NN_OPT_IRQBALANCE);
	if (plan_file && plan_opts) {
		nn_err(ctx, "check: plan options make a new plan; they cannot change --plan %s",
		       plan_file);
		goto out;
	}
	err = nn_host_discover(ctx, &host);
	if (err) {
		nn_host_discover_failed(ctx, NULL, err);
		goto out;
	}
	if (plan_file && fresh) {
		nn_err(ctx, "check: --fresh makes a new plan; it cannot change --plan %s", plan_file);
		goto out;
	}
	nn_pcie_warn(ctx, &host);
	if (!plan_file && !plan_opts && !fresh) {
		err = desired_opts(ctx, &host, &popts, st.plan_given & NN_PLAN_GIVEN(NN_OPT_IRQBALANCE));
		if (err < 0)
			goto out;
		desired = err > 0;
	}
	if (!plan_file && !plan_opts && !fresh && !desired &&
	    nn_plan_get_applied(ctx, &host, &plan, &applied) < 0)
		goto out;
	if (!applied && nn_plan_get(ctx, &host, plan_file, &popts, &plan))
		goto out;
	/* Other owners of IRQ placement: warnings (exit 1), never a refusal.
	 * The watcher is one only for a plan it does not keep. */
	if (nn_coexist_gate(ctx, &host, popts.nics, popts.nnics,
			    nn_desired_watcher_keeps(ctx, &host, &plan) ? NN_COEXIST_NO_WATCHER : 0, true))
		goto out;
	err = nn_check_run(ctx, &plan, &rep);
	if (err < 0) {
		nn_err(ctx, "check failed: %s", strerror(-err));
		goto out;
	}
	nn_host_place_count(&host, nn_plan_irq_cpus, &plan, &rep.places);
	if (traffic > 0) {
		err = nn_obs_once(ctx, &host, NULL, traffic, &obs);
		if (err < 0) {
			nn_err(ctx, "check --traffic: %s", strerror(-err));
			goto out;
		}
	}
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "check");
	if (applied)
		nn_print_string(&ctx->out, PRINT_ANY, "plan", "plan: last apply (%s)\n", applied);
	else
		nn_print_string(&ctx->out, PRINT_ANY, "plan", "plan: %s\n", plan_file ? plan_file :
				desired ? "desired state (" NN_DESIRED_PATH ")" : "fresh (locality rule)");
	nn_print_string(&ctx->out, PRINT_JSON, "plan_source", NULL,
			nn_metrics_plan_source_name(plan_file ? NN_METRICS_PLAN_FILE : desired ?
						    NN_METRICS_PLAN_DESIRED : applied ? NN_METRICS_PLAN_APPLIED :
						    NN_METRICS_PLAN_DEFAULT));
	nn_check_print(ctx, &rep);
	nn_plan_print_roles(&ctx->out, &host, &plan);
	if (plan.boot_mode != NN_BOOT_NONE) {
		char mode[160];

		nn_plan_boot_mode_text(plan.boot_mode, plan.boot_names, mode, sizeof(mode));
		err = nn_boot_print(&ctx->out, &host.boot, mode, plan.boot_args, plan.nboot_args, plan.boot_left,
				    plan.nboot_left, NN_BOOTP_STATE, &boot);
		if (err == -ENOMEM)
			nn_err(ctx, "check: out of memory");
		else if (err)
			nn_err(ctx, "boot arguments: %s", boot.error);
	}
	if (traffic > 0) {
		nn_open_object(&ctx->out, "traffic");
		nn_printf(&ctx->out, "\ntraffic: where the packet work ran over %g s\n", traffic);
		nn_obs_report_print(&ctx->out, &obs, -1);
		nn_close_object(&ctx->out);
	}
	nn_close_object(&ctx->out);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	ret = nn_cli_status(ctx, 0);
	if (ret == NN_EXIT_OK && (rep.ndrift || boot.ndrift))
		ret = NN_EXIT_WARN;
out:
	free(applied);
	nn_obs_report_free(&obs);
	nn_check_report_free(&rep);
	nn_plan_free(&plan);
	nn_host_free(&host);
	nn_plan_opts_free(&popts);
	return ret;
}
