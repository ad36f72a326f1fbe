// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_enable.c - "nicnuma enable": record the desired state, apply it, install the watcher */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/trust.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/act/desired_io.h"
#include "nicnuma/act/enabled.h"
#include "nicnuma/core/names.h"
#include "nicnuma/act/persist.h"
#include "nicnuma/state/undo.h"

struct enable_args {
	struct nn_plan_opts popts;
	enum nn_desired_irqb irqb;
	unsigned long interval, settle;
	bool dry_run, no_start, coexist;
	char exe[4096];		/* ExecStart='s binary: this one, checked */
};

enum { OPT_INTERVAL = NN_OPT_OWN, OPT_SETTLE, OPT_NO_START, OPT_COEXIST, OPT_IRQB };

static const struct nn_opt opts[] = {
	{ "irqbalance", 0, NN_ARG_REQUIRED, "MODE", "stop (default: the unit Conflicts= irqbalance), ban (fence the planned "
	  "IRQs), leave (ignore it)", OPT_IRQB },
	{ "interval", 0, NN_ARG_REQUIRED, "SEC", "the watcher's periodic re-check (default 60)", OPT_INTERVAL },
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
	.usage = "nicnuma [--root DIR] [--json] enable [PLAN OPTIONS] [--irqbalance stop|ban|leave]\n"
		 "               [--interval SEC] [--settle MS] [--dry-run] [--no-start] [--coexist]\n"
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
"     enabled, with a warning (exit 1); under --root: 'not touched (fake root)'.\n"
"Another owner of IRQ placement (a tuned profile with [irq], [irqbalance] or\n"
"[scheduler], or cpu-partitioning; a systemd .link file setting IRQAffinity*=\n"
"for a planned NIC; an irqbalance ban list or foreign policyscript) stops it\n"
"before anything is written, naming the owner, unless --coexist.\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN,
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
				nn_err(ctx, "--irqbalance: unknown mode '%s' (stop, ban or leave)", arg);
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

/* Before anything is written: the binary the unit's ExecStart= names, which
 * systemd runs as root at every start, must be one nobody but root could
 * have written (nn_trusted_file, the rule irqbalance's binary follows). On a
 * fake root the unit is never started, so it is not asked there. */
static int exe_step(struct nn_ctx *ctx, struct enable_args *a)
{
	char why[512];

	if (nn_self_exe(a->exe, sizeof(a->exe)))
		snprintf(a->exe, sizeof(a->exe), "/usr/sbin/nicnuma");
	if (!nn_root_is_live(&ctx->root) || !nn_trusted_file(&ctx->root, a->exe, why, sizeof(why)))
		return 0;
	nn_err(ctx, "enable: refusing to write a unit that runs %s as root at every start: %s; "
	       "install nicnuma and run the installed /usr/sbin/nicnuma enable", a->exe, why);
	return -1;
}

/* Step 3: the unit. Returns 0, or 1 when it was skipped with a warning. */
static int unit_step(struct nn_ctx *ctx, const struct enable_args *a, const struct nn_desired *d,
		     struct nn_enabled *en)
{
	struct nn_unit_opts uo = { 0 };
	struct nn_sb sb = NN_SB_INIT;
	char packaged[256];
	const char *action = "failed";
	bool written = false;
	int err = 0, ret = 0;

	nn_open_object(&ctx->out, "unit");
	/* Always written: it overrides a packaged unit with this host's
	 * specifics (its binary, Conflicts=irqbalance.service). */
	if (nn_watch_unit_packaged(ctx, packaged, sizeof(packaged)))
		nn_printf(&ctx->out, "unit: overrides the packaged %s\n", packaged);
	uo.exe = a->exe;
	uo.conflicts_irqbalance = d->irqbalance == NN_DIRQB_STOP;
	uo.notify = nn_watch_notify_supported();
	err = nn_watch_unit_text(&uo, &sb);
	if (!err)
		err = nn_watch_unit_write(ctx, sb.buf, sb.len);
	if (err) {
		nn_err(ctx, "cannot write %s: %s", NN_WATCH_UNIT_PATH, strerror(-err));
		ret = -1;
		goto out;
	}
	written = true;
	free(en->unit);
	en->unit = strdup(NN_WATCH_UNIT_PATH);
	nn_printf(&ctx->out, "unit: wrote %s\n", NN_WATCH_UNIT_PATH);
	if (!nn_root_is_live(&ctx->root)) {
		action = "not touched (fake root)";
	} else if (!nn_systemd_booted(ctx)) {
		action = "skipped: systemd is not PID 1";
		nn_warn(ctx, NN_WATCH_UNIT, "systemd is not PID 1: the unit is written but not "
			"enabled; run 'nicnuma watch' from the init system instead");
		ret = 1;
	} else {
		err = nn_systemctl(ctx, "daemon-reload", NULL, false);
		if (!err)
			err = nn_systemctl(ctx, a->no_start ? "enable" : "restart", NULL, true);
		if (!err && !a->no_start)
			err = nn_systemctl(ctx, "enable", NULL, true);
		action = a->no_start ? "enabled (not started: --no-start)" : "enabled and started";
		if (err) {
			nn_err(ctx, "systemctl on %s failed (%s%d); see journalctl -u %s",
			       NN_WATCH_UNIT, err < 0 ? "errno " : "status ", err < 0 ? -err : err,
			       NN_WATCH_UNIT);
			action = "failed";
			ret = -1;
		}
	}
	nn_printf(&ctx->out, "unit: %s\n", action);
out:
	nn_print_string(&ctx->out, PRINT_JSON, "path", NULL, written ? NN_WATCH_UNIT_PATH :
			packaged[0] ? packaged : NULL);
	nn_print_bool(&ctx->out, PRINT_JSON, "written", NULL, written);
	nn_print_bool(&ctx->out, PRINT_JSON, "packaged", NULL, packaged[0] != '\0');
	nn_print_string(&ctx->out, PRINT_JSON, "action", NULL, ret < 0 ? "failed" : action);
	nn_close_object(&ctx->out);
	nn_sb_free(&sb);
	return ret;
}

int nn_cmd_enable(struct nn_ctx *ctx, int argc, char **argv)
{
	struct enable_args a = { 0 };
	struct nn_apply_opts ao = { 0 };
	struct nn_apply_report rep = { 0 };
	struct nn_enabled en = { 0 };
	struct nn_desired d;
	struct nn_undo log = { 0 };
	struct nn_sb text = NN_SB_INIT;
	struct json_object *shape = NULL;
	struct nn_host host;
	struct nn_plan plan;
	int err, ret = NN_EXIT_ERROR, lock = -1, u;

	memset(&host, 0, sizeof(host));
	memset(&plan, 0, sizeof(plan));
	nn_desired_init(&d);
	err = parse(ctx, argc, argv, &a);
	if (err) {
		ret = err > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
		goto out;
	}
	if (exe_step(ctx, &a))
		goto out;
	if (!a.dry_run) {
		lock = nn_state_lock(ctx);
		if (lock < 0)
			goto out;
	}
	err = nn_host_discover_flags(ctx, &host, NN_NICS_NO_EFFECTIVE);
	if (err) {
		nn_err(ctx, "cannot discover the host under %s: %s", ctx->root.path, strerror(-err));
		goto out;
	}
	if (nn_cli_get_plan(ctx, &host, NULL, &a.popts, &plan))
		goto out;
	if (!plan.nnics) {
		nn_err(ctx, "enable: no NIC to keep (none planned; name them with --nics)");
		goto out;
	}
	if (nn_desired_from_plan(&d, &plan, &a.popts))
		goto out;
	d.irqbalance = a.irqb;
	if (a.interval)
		d.interval_s = (unsigned int)a.interval;
	if (a.settle)
		d.settle_ms = (unsigned int)a.settle;
	/* The running watcher is ours: enable restarts it. */
	if (nn_coexist_gate(ctx, &host, a.popts.nics, a.popts.nnics, NN_COEXIST_NO_WATCHER, a.coexist))
		goto out;
	if (nn_desired_format(&d, &text))
		goto out;

	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "enable");
	nn_print_string(&ctx->out, PRINT_ANY, "config", "desired state: %s\n", NN_DESIRED_PATH);
	nn_print_string(&ctx->out, PRINT_JSON, "desired", NULL, nn_sb_str(&text));
	if (a.dry_run || ctx->verbose)
		nn_print_block(&ctx->out, nn_sb_str(&text));
	nn_print_bool(&ctx->out, PRINT_JSON, "dry_run", NULL, a.dry_run);
	if (!a.dry_run && nn_desired_write(ctx, NULL, &d))
		goto close;
	err = nn_enabled_read(ctx, &en);
	if (err && err != -ENOENT)
		goto close;
	if (!a.dry_run && nn_enabled_log(ctx, &en, &log)) {
		nn_err(ctx, "cannot open the before-enable snapshot %s", en.snapshot ? en.snapshot : "");
		goto close;
	}
	shape = nn_plan_shape_to_json(&plan);
	ao.shape = shape;
	ao.host = &host;
	ao.dry_run = a.dry_run;
	ao.irqbalance = a.popts.irqbalance;
	ao.locked = !a.dry_run;
	ao.log = a.dry_run ? NULL : &log;
	nn_open_object(&ctx->out, "apply");
	err = nn_apply_run(ctx, &plan, &ao, &rep);
	nn_apply_print(ctx, &rep);
	nn_close_object(&ctx->out);
	if (err < 0)
		goto close;
	ret = err > 0 ? NN_EXIT_WARN : NN_EXIT_OK;
	if (a.dry_run)
		goto close;
	en.enabled = true;
	nn_enabled_note_log(ctx, &en, &log);
	nn_print_string(&ctx->out, PRINT_ANY, "snapshot", "before-enable snapshot: %s\n",
			en.snapshot);
	/* the watcher must be able to take the state lock at once */
	nn_state_unlock(lock);
	lock = -1;
	u = unit_step(ctx, &a, &d, &en);
	if (nn_enabled_write(ctx, &en) || u < 0)
		ret = NN_EXIT_ERROR;
	else if (u > 0 && ret == NN_EXIT_OK)
		ret = NN_EXIT_WARN;
close:
	nn_close_object(&ctx->out);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	if (ret == NN_EXIT_OK && ctx->nwarns)
		ret = NN_EXIT_WARN;
out:
	nn_state_unlock(lock);
	nn_apply_report_free(&rep);
	json_object_put(shape);
	nn_undo_free(&log);
	nn_enabled_free(&en);
	nn_desired_free(&d);
	nn_sb_free(&text);
	nn_plan_free(&plan);
	nn_host_free(&host);
	nn_plan_opts_free(&a.popts);
	return ret;
}
