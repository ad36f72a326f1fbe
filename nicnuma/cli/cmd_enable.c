// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_enable.c - "nicnuma enable": record the desired state, apply it, install the watcher */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/act/desired_io.h"
#include "nicnuma/act/enabled.h"
#include "nicnuma/core/names.h"
#include "nicnuma/act/persist.h"
#include "nicnuma/act/undo.h"

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: nicnuma [--root DIR] [--json] enable [PLAN OPTIONS] [--irqbalance stop|ban|leave]\n"
"               [--interval SEC] [--settle MS] [--dry-run] [--no-start] [--coexist]\n"
"               [--state-dir DIR]\n"
"\n"
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
"before anything is written, naming the owner, unless --coexist.\n"
"\n"
"Options:\n"
"      --irqbalance MODE  stop (default: the unit Conflicts= irqbalance), ban\n"
"                         (fence the planned IRQs), leave (ignore it)\n"
"      --interval SEC     the watcher's periodic re-check (default 60)\n"
"      --settle MS        the watcher's quiet time after events (default 300)\n"
"  -n, --dry-run          print the desired state and the apply preview only\n"
"      --no-start         enable the unit but do not start it now\n"
"      --coexist          go on beside another owner (warnings)\n"
"      --state-dir DIR    snapshots, the lock and enabled.json\n"
"  -h, --help             this help\n"
"\n"
"Plan options (as for 'nicnuma plan'; --irqbalance is the one above):\n"
NN_PLAN_OPTS_HELP_NO_IRQB
"\n"
"--json: {\"enable\":{\"config\",\"desired\",\"dry_run\",\"apply\":{..as apply..},\n"
"\"snapshot\",\"unit\":{\"path\",\"written\",\"packaged\",\"action\"}},\"warnings\":[..]}.\n"
"\n"
"Exit status: 0 enabled and started; 1 done with warnings (no systemd, failed\n"
"values); 2 error (bad option, another owner, nothing written).\n");
}

enum { OPT_INTERVAL = 0x600, OPT_SETTLE, OPT_NO_START, OPT_COEXIST };

static const struct option longopts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "settle", required_argument, NULL, OPT_SETTLE },
	{ "no-start", no_argument, NULL, OPT_NO_START },
	{ "coexist", no_argument, NULL, OPT_COEXIST },
	{ "state-dir", required_argument, NULL, NN_OPT_STATE_DIR },
	{ "help", no_argument, NULL, 'h' },
	NN_PLAN_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct enable_args {
	struct nn_plan_opts popts;
	enum nn_desired_irqb irqb;
	unsigned long interval, settle;
	bool dry_run, no_start, coexist;
};

static int parse(struct nn_ctx *ctx, int argc, char **argv, struct enable_args *a)
{
	int opt, err;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "nh", longopts, NULL)) != -1) {
		if (opt == NN_OPT_IRQBALANCE) {
			if (nn_desired_irqb_parse(optarg, &a->irqb)) {
				nn_err(ctx, "--irqbalance: unknown mode '%s' (stop, ban or leave)", optarg);
				return -1;
			}
			continue;
		}
		err = nn_plan_opt(ctx, opt, optarg, &a->popts);
		if (err <= 0) {
			if (err < 0)
				return -1;
			continue;
		}
		switch (opt) {
		case 'n':
			a->dry_run = true;
			break;
		case OPT_INTERVAL:
		case OPT_SETTLE:
			if (nn_name_decimal(optarg, opt == OPT_INTERVAL ? 86400 : 60000,
					    opt == OPT_INTERVAL ? &a->interval : &a->settle, NULL) ||
			    (opt == OPT_INTERVAL ? a->interval < 1 : a->settle < 10)) {
				nn_err(ctx, "%s: expected %s, got '%s'", opt == OPT_INTERVAL ?
				       "--interval" : "--settle", opt == OPT_INTERVAL ?
				       "seconds from 1 to 86400" : "milliseconds from 10 to 60000", optarg);
				return -1;
			}
			break;
		case OPT_NO_START:
			a->no_start = true;
			break;
		case OPT_COEXIST:
			a->coexist = true;
			break;
		case NN_OPT_STATE_DIR:
			ctx->state_dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		nn_err(ctx, "enable: unexpected argument '%s' (see nicnuma enable --help)", argv[optind]);
		return -1;
	}
	a->popts.irqbalance = nn_desired_irqb_action(a->irqb);
	return 0;
}

/* Step 3: the unit. Returns 0, or 1 when it was skipped with a warning. */
static int unit_step(struct nn_ctx *ctx, const struct enable_args *a, const struct nn_desired *d,
		     struct nn_enabled *en)
{
	struct nn_unit_opts uo = { 0 };
	struct nn_sb sb = NN_SB_INIT;
	char exe[4096], packaged[256];
	const char *action = "failed";
	bool written = false;
	int err = 0, ret = 0;

	nn_open_object(&ctx->out, "unit");
	/* Always written: it overrides a packaged unit with this host's
	 * specifics (its binary, Conflicts=irqbalance.service). */
	if (nn_watch_unit_packaged(ctx, packaged, sizeof(packaged)))
		nn_printf(&ctx->out, "unit: overrides the packaged %s\n", packaged);
	err = nn_self_exe(exe, sizeof(exe));
	uo.exe = err ? "/usr/sbin/nicnuma" : exe;
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
		nn_printf(&ctx->out, "%s", nn_sb_str(&text));
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
