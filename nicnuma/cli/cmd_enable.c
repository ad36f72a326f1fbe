// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_enable.c - "nicnuma enable": record the desired state, apply it, install the watcher */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/pipeline.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/service/desired_io.h"
#include "nicnuma/service/enabled.h"
#include "nicnuma/core/names.h"
#include "nicnuma/service/persist.h"

struct enable_args {
	struct nn_plan_opts popts;
	enum nn_desired_irqb irqb;
	unsigned long interval, settle;
	bool dry_run, no_start, coexist;
	char exe[4096];		/* ExecStart='s binary: this one, checked */
};

enum { OPT_INTERVAL = NN_OPT_OWN, OPT_SETTLE, OPT_NO_START, OPT_COEXIST, OPT_IRQB };

static const struct nn_opt opts[] = {
	{ "irqbalance", 0, NN_ARG_REQUIRED, "ACTION", "stop (default: the unit Conflicts= irqbalance), ban "
	  "(fence the planned IRQs), ignore (leave it alone)", OPT_IRQB,
	  .values = nn_irqbalance_words, .old_values = nn_irqbalance_old_words },
	{ "interval", 0, NN_ARG_REQUIRED, "SECONDS", "the watcher's periodic re-check (default 60)", OPT_INTERVAL },
	{ "settle", 0, NN_ARG_REQUIRED, "MS", "the watcher's quiet time after events (default 300)", OPT_SETTLE },
	{ "dry-run", 'n', NN_ARG_NONE, NULL, "print the desired state and the apply preview only", 'n',
	  NN_STORE_BOOL(struct enable_args, dry_run) },
	{ "no-start", 0, NN_ARG_NONE, NULL, "enable the unit but do not start it now", OPT_NO_START,
	  NN_STORE_BOOL(struct enable_args, no_start) },
	{ "coexist", 0, NN_ARG_NONE, NULL, "go on beside another owner (warnings)", OPT_COEXIST,
	  NN_STORE_BOOL(struct enable_args, coexist) },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "snapshots, the lock and enabled.json", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_enable = {
	.name = "enable",
	.usage = "nicnuma [--root DIR] [--json] enable [PLAN OPTIONS] [--irqbalance stop|ban|ignore]\n"
		 "               [--interval SECONDS] [--settle MS] [--dry-run] [--no-start] [--coexist]\n"
		 "               [--state-dir DIR]",
	.intro =
"Make the placement last: plan as 'nicnuma plan' does, then\n"
"  1. write the desired state to /etc/nicnuma/nicnuma.conf (0644, atomically;\n"
"     NICs by PCI address, format in docs/persist.md);\n"
"  2. apply it now (the engine of 'nicnuma apply'); the snapshot of the FIRST\n"
"     enable is the before-enable state, named in STATE_DIR/enabled.json;\n"
"     later enables and the watcher add to it, 'nicnuma disable' replays it;\n"
"  3. write /etc/systemd/system/nicnuma-watch.service (this binary, and\n"
"     Conflicts=irqbalance.service for --irqbalance stop; it overrides the\n"
"     package's generic unit, the same template), systemctl daemon-reload and\n"
"     enable --now it. Without systemd as PID 1 the unit is written but not\n"
"     enabled, with a warning (exit 1); under --root the unit is written in the\n"
"     tree and systemd left alone.\n"
"Another owner of IRQ placement (a tuned profile with [irq], [irqbalance] or\n"
"[scheduler], or cpu-partitioning; a systemd .link file setting IRQAffinity*=\n"
"for a planned NIC; an irqbalance ban list or foreign policyscript) stops it\n"
"before anything is written, naming the owner, unless --coexist.\n"
"--dpdk-ports: the ports are checked and bound to vfio-pci as apply binds them,\n"
"recorded in the desired state (dpdk_port =), and bound again by the watcher at\n"
"each start (the kernel forgets driver_override at reboot) after the same\n"
"checks; disable binds each back to its original driver.\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN | NN_GROUP_NET | NN_GROUP_PORTS,
	.group_title = "Plan options (as for 'nicnuma plan'; --irqbalance is the one above):\n",
	.outro =
"Plan options (as for 'nicnuma plan'; --irqbalance is the one above):\n"
"\n"
"--json: {\"enable\":{\"config\",\"desired\",\"dry_run\",\"apply\":{..as apply..},\n"
"\"snapshot\",\"unit\":{\"path\",\"written\",\"packaged\",\"action\"}},\"warnings\":[..]}.\n"
"\n"
"Exit status: 0 enabled and started; 1 done with warnings (no systemd, failed\n"
"values); 2 error (bad option, another owner, nothing written).\n",
};


static int parse(struct nn_ctx *ctx, int argc, char **argv, struct enable_args *a)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int opt;

	st.plan = &a->popts;
	st.dest = a;
	while ((opt = nn_opt_next(ctx, &nn_desc_enable, &st)) > 0) {
		const char *arg = st.arg;

		switch (opt) {
		case OPT_INTERVAL:
		case OPT_SETTLE:
			if (nn_name_decimal(arg, opt == OPT_INTERVAL ? 86400 : 60000,
					    opt == OPT_INTERVAL ? &a->interval : &a->settle, NULL) ||
			    (opt == OPT_INTERVAL ? a->interval < 1 : a->settle < 10)) {
				nn_err(ctx, "%s: expected %s, got '%s'", opt == OPT_INTERVAL ?
				       "--interval" : "--settle", opt == OPT_INTERVAL ?
				       "seconds from 1 to 86400" : "milliseconds from 10 to 60000", arg);
				return -1;
			}
			break;
		case NN_OPT_STATE_DIR:
			ctx->state_dir = arg;
			break;
		case OPT_IRQB:
			if (nn_desired_irqb_parse(arg, &a->irqb)) {
				nn_err(ctx, "--irqbalance: unknown action '%s' (stop, ban or ignore)", arg);
				return -1;
			}
			break;
		}
	}
	if (opt < 0)
		return opt == NN_OPT_HELP ? 1 : -1;
	a->popts.irqbalance = nn_desired_irqb_action(a->irqb);
	return 0;
}

/* enable's run: its options, the desired state and the record. */
struct enable_run {
	struct enable_args a;
	struct nn_desired d;
	struct nn_enabled en;
	struct nn_sb text;
	bool opened;		/* the output objects are open */
};

/* A new plan of the NICs to keep, and the desired state made of it. */
static int enable_plan(struct nn_ctx *ctx, struct nn_pipeline *pl, struct enable_run *r)
{

	if (nn_plan_get(ctx, &pl->host, NULL, &r->a.popts, &pl->plan))
		return -EINVAL;
	/* with ports, the message below says why their netdevs are none */
	if (!pl->plan.nnics && !pl->plan.nports) {
		nn_err(ctx, "enable: no NIC to keep (none planned; name them with --nics)");
		return -EINVAL;
	}
	if (nn_desired_from_plan(&r->d, &pl->plan, &r->a.popts))
		return -EINVAL;
	if (!r->d.nnics) {
		nn_err(ctx, "enable: no NIC to keep beside the --dpdk-ports (a port's netdev goes with "
		       "its bind; name the kernel's NICs with --nics)");
		return -EINVAL;
	}
	r->d.irqbalance = r->a.irqb;
	if (r->a.interval)
		r->d.interval_s = (unsigned int)r->a.interval;
	if (r->a.settle)
		r->d.settle_ms = (unsigned int)r->a.settle;
	pl->nics = r->a.popts.nics;
	pl->nnics = r->a.popts.nnics;
	pl->ao.irqbalance = r->a.popts.irqbalance;
	/* bound now as apply binds them; the watcher binds them again at each start */
	pl->ao.ports = pl->plan.nports > 0;
	return 0;
}

/* The desired state shown and written, the before-enable log opened,
 * with the lock held since discovery. */
static int enable_begin(struct nn_ctx *ctx, struct nn_pipeline *pl, struct enable_run *r)
{
	int err;

	if (nn_desired_format(&r->d, &r->text))
		return -EINVAL;
	r->opened = true;
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "enable");
	nn_print_string(&ctx->out, PRINT_ANY, "config", "desired state: %s\n", NN_DESIRED_PATH);
	nn_print_string(&ctx->out, PRINT_JSON, "desired", NULL, nn_sb_str(&r->text));
	if (r->a.dry_run || ctx->verbose)
		nn_print_block(&ctx->out, nn_sb_str(&r->text));
	nn_print_bool(&ctx->out, PRINT_JSON, "dry_run", NULL, r->a.dry_run);
	if (!r->a.dry_run && nn_desired_write(ctx, NULL, &r->d))
		return -EIO;
	err = nn_enabled_read(ctx, &r->en);
	if (err && err != -ENOENT)
		return err;
	if (!r->a.dry_run && nn_enabled_log(ctx, &r->en, pl->tx)) {
		nn_err(ctx, "cannot open the before-enable snapshot %s",
		       r->en.snapshot ? r->en.snapshot : "");
		return -EIO;
	}
	nn_open_object(&ctx->out, "apply");
	return 0;
}

int nn_cmd_enable(struct nn_ctx *ctx, int argc, char **argv)
{
	struct enable_run r = { .text = NN_SB_INIT };
	struct nn_pipeline pl = { .gate = true, .gate_flags = NN_COEXIST_NO_WATCHER };
	struct nn_apply_report rep = { 0 };
	int err, ret = NN_EXIT_ERROR, u;

	nn_pipeline_init(&pl);
	nn_desired_init(&r.d);
	err = parse(ctx, argc, argv, &r.a);
	if (err) {
		ret = err > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
		goto out;
	}
	if (nn_enable_exe(ctx, r.a.exe, sizeof(r.a.exe)))
		goto out;
	/* The running watcher is ours: enable restarts it (NO_WATCHER). */
	pl.lock = !r.a.dry_run;
	pl.ao.dry_run = r.a.dry_run;
	pl.gate_allow = r.a.coexist;
	/* one lock from discovery to the end of the apply */
	err = nn_pipeline_discover(ctx, &pl);
	if (!err)
		err = enable_plan(ctx, &pl, &r);
	if (!err)
		err = nn_pipeline_gate(ctx, &pl);
	if (!err)
		err = enable_begin(ctx, &pl, &r);
	if (!err)
		err = nn_pipeline_apply(ctx, &pl, &rep);
	if (pl.stage < NN_PIPE_APPLIED) {
		if (r.opened)
			goto close;
		goto out;
	}
	nn_apply_print(ctx, &rep);
	nn_close_object(&ctx->out);
	if (err < 0)
		goto close;
	ret = err > 0 ? NN_EXIT_WARN : NN_EXIT_OK;
	if (r.a.dry_run)
		goto close;
	r.en.enabled = true;
	nn_enabled_note_log(ctx, &r.en, nn_pipeline_log(&pl));
	nn_print_string(&ctx->out, PRINT_ANY, "snapshot", "before-enable snapshot: %s\n",
			r.en.snapshot);
	/* the watcher must be able to take the state lock at once */
	nn_pipeline_unlock(&pl);
	u = nn_enable_unit(ctx, r.a.exe, r.d.irqbalance == NN_DIRQB_STOP, r.d.nports > 0, r.a.no_start,
			   &r.en);
	if (nn_enabled_write(ctx, &r.en) || u < 0)
		ret = NN_EXIT_ERROR;
	else if (u > 0 && ret == NN_EXIT_OK)
		ret = NN_EXIT_WARN;
close:
	ret = nn_end_report(ctx, ret);
out:
	nn_apply_report_free(&rep);
	nn_pipeline_free(&pl);
	nn_enabled_free(&r.en);
	nn_desired_free(&r.d);
	nn_sb_free(&r.text);
	nn_plan_opts_free(&r.a.popts);
	return ret;
}
