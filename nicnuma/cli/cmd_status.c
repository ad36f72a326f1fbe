// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_status.c - "nicnuma status": enabled, the service, the watcher, drift */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/act/desired_io.h"
#include "nicnuma/act/enabled.h"
#include "nicnuma/act/persist.h"

static const struct nn_opt opts[] = {
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "snapshots, the lock and enabled.json", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_status = {
	.name = "status",
	.usage = "nicnuma [--root DIR] [--json] status [--state-dir DIR]",
	.intro =
"Is the placement kept? Reports whether 'nicnuma enable' ran, the\n"
"nicnuma-watch service (systemctl show; null without systemd or under\n"
"--root), the watcher (its lock and /run/nicnuma/watch.json: pid, started,\n"
"last action, counters) and whether the host matches the desired state now\n"
"(the check of 'nicnuma check' on a plan made from /etc/nicnuma/nicnuma.conf).\n",
	.opts = opts,
	.outro =
"--json keys: enabled (bool), service {active, main_pid, unit} or null,\n"
"watcher {pid, started, last_action {time, trigger, result, changed} or\n"
"null, counters {events, relevant, applies, values_written}} or null,\n"
"matches_desired (bool, null when there is no desired state), drift\n"
"[\"irq 41 (eth1): 0-1, want 2\", ..], notes [..] (a running irqbalance with\n"
"irqbalance = leave: not drift), warnings [..].\n"
"\n"
"Exit status: 0 enabled, running and matching; 1 otherwise; 2 error.\n",
};

/* The host against the desired state: 1 matches, 0 drift, -1 no state, < -1 error. */
static int desired_check(struct nn_ctx *ctx)
{
	struct nn_check_report rep = { 0 };
	struct nn_desired d;
	struct nn_host host;
	struct nn_plan plan;
	const char **missing = NULL;
	size_t nmissing = 0, i;
	int err, ret = -2;

	memset(&host, 0, sizeof(host));
	memset(&plan, 0, sizeof(plan));
	err = nn_desired_read(ctx, NULL, &d);
	if (err == -ENOENT) {
		nn_print_null(&ctx->out, PRINT_ANY, "matches_desired", "matches desired: %s (no desired state)\n");
		return -1;
	}
	if (err)
		return -2;
	nn_open_array(&ctx->out, "drift");
	err = nn_host_discover_flags(ctx, &host, NN_NICS_NO_EFFECTIVE);
	if (!err)
		err = nn_desired_make_plan(&d, &host, &plan, &missing, &nmissing);
	for (i = 0; i < nmissing; i++)
		nn_print_string(&ctx->out, PRINT_ANY, NULL, "drift: %s is not on the host\n", missing[i]);
	if (err == -ENOENT)
		err = 0;
	if (!err && plan.nnics)
		err = nn_check_run(ctx, &plan, &rep);
	if (err >= 0) {
		for (i = 0; i < rep.nvals; i++) {
			const struct nn_apply_val *v = &rep.vals[i];
			char line[512];

			if (v->status != NN_VAL_DRIFT)
				continue;
			snprintf(line, sizeof(line), "%s: %s, want %s", v->path, v->before ? v->before : "?",
				 v->planned ? v->planned : "?");
			nn_print_string(&ctx->out, PRINT_ANY, NULL, "drift: %s\n", line);
		}
		if (rep.irqb_drift)
			nn_print_string(&ctx->out, PRINT_ANY, NULL, "drift: %s\n",
					"irqbalance runs and is not fenced");
		ret = !nmissing && rep.ndrift == 0;
	} else {
		nn_err(ctx, "status: cannot compare with the desired state: %s", strerror(-err));
	}
	nn_close_array(&ctx->out);
	nn_open_array(&ctx->out, "notes");
	if (err >= 0 && rep.irqb_left)
		nn_print_string(&ctx->out, PRINT_ANY, NULL, "note: %s\n",
				"irqbalance runs, left alone (irqbalance = leave): not drift");
	nn_close_array(&ctx->out);
	if (ret >= 0)
		nn_print_bool(&ctx->out, PRINT_ANY, "matches_desired", "matches desired: %s\n", ret == 1);
	nn_check_report_free(&rep);
	nn_plan_free(&plan);
	free(missing);
	nn_host_free(&host);
	nn_desired_free(&d);
	return ret;
}

/* The service: 1 active, 0 not, -1 unknown (no systemd). */
static int service(struct nn_ctx *ctx)
{
	char active[64] = "";
	int pid = 0;

	if (!nn_systemd_booted(ctx) || nn_watch_service_show(ctx, active, sizeof(active), &pid)) {
		nn_print_null(&ctx->out, PRINT_ANY, "service", "service: %s (no systemd here)\n");
		return -1;
	}
	nn_open_object(&ctx->out, "service");
	nn_print_string(&ctx->out, PRINT_ANY, "active", "service: %s", active);
	nn_print_int(&ctx->out, PRINT_ANY, "main_pid", " (pid %lld)\n", pid);
	nn_print_string(&ctx->out, PRINT_JSON, "unit", NULL, NN_WATCH_UNIT);
	nn_close_object(&ctx->out);
	return !strcmp(active, "active");
}

/* The watcher: 1 running, 0 not. Running is the lock (nn_watch_lock_held);
 * what it did is its state file (nn_watch_state_read, as metrics reads it). */
static int watcher(struct nn_ctx *ctx)
{
	struct nn_watch_state st;
	int holder = 0, held = nn_watch_lock_held(ctx, &holder);

	if (held <= 0) {
		nn_print_null(&ctx->out, PRINT_ANY, "watcher", "watcher: %s (not running)\n");
		return 0;
	}
	nn_watch_state_read(ctx, &st);
	nn_open_object(&ctx->out, "watcher");
	nn_print_int(&ctx->out, PRINT_ANY, "pid", "watcher: pid %lld", holder);
	nn_print_string(&ctx->out, PRINT_ANY, "started", ", started %s\n", st.started);
	if (st.has_action) {
		nn_open_object(&ctx->out, "last_action");
		nn_print_string(&ctx->out, PRINT_ANY, "time", "last action: %s", st.time);
		nn_print_string(&ctx->out, PRINT_ANY, "trigger", " after %s", st.trigger);
		nn_print_string(&ctx->out, PRINT_ANY, "result", ": %s", st.result);
		nn_print_int(&ctx->out, PRINT_ANY, "changed", ", %lld values\n",
			     st.changed < 0 ? 0 : st.changed);
		nn_close_object(&ctx->out);
	} else {
		nn_print_null(&ctx->out, PRINT_ANY, "last_action", "last action: %s\n");
	}
	/* since the watcher started; null: its state file lacks the counter */
	nn_open_object(&ctx->out, "counters");
	nn_print_opt_int(&ctx->out, PRINT_ANY, "events", "counters: %lld events", st.events, "-");
	nn_print_opt_int(&ctx->out, PRINT_ANY, "relevant", " (%lld relevant)", st.relevant, "-");
	nn_print_opt_int(&ctx->out, PRINT_ANY, "applies", ", %lld applies", st.applies, "-");
	nn_print_opt_int(&ctx->out, PRINT_ANY, "values_written", ", %lld values written\n",
			 st.values_written, "-");
	nn_close_object(&ctx->out);
	nn_close_object(&ctx->out);
	nn_watch_state_free(&st);
	return 1;
}

int nn_cmd_status(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_enabled en = { 0 };
	int opt, err, svc, wat, match;
	bool enabled;

	while ((opt = nn_opt_next(ctx, &nn_desc_status, &st)) > 0) {
		switch (opt) {
		case NN_OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		}
	}
	if (opt < 0)
		return nn_opt_exit(opt);
	err = nn_enabled_read(ctx, &en);
	if (err && err != -ENOENT)
		return NN_EXIT_ERROR;
	nn_open_object(&ctx->out, NULL);
	nn_print_bool(&ctx->out, PRINT_ANY, "enabled", "enabled: %s\n", en.enabled);
	svc = service(ctx);
	wat = watcher(ctx);
	match = desired_check(ctx);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	enabled = en.enabled;
	nn_enabled_free(&en);
	if (match < -1)
		return NN_EXIT_ERROR;
	/* running: the unit is active, or (no systemd) a watcher holds the lock */
	return enabled && (svc > 0 || (svc < 0 && wat)) && match == 1 ? NN_EXIT_OK : NN_EXIT_WARN;
}
