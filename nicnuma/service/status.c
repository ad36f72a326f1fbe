// SPDX-License-Identifier: GPL-2.0-or-later
/* status.c - what "nicnuma status" reports: the service, the watcher, the host against the desired state */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/act/apply.h"
#include "nicnuma/service/desired_io.h"
#include "nicnuma/service/persist.h"
#include "nicnuma/service/status.h"
#include "nicnuma/core/print.h"
#include "nicnuma/discover/claims.h"
#include "nicnuma/discover/coexist.h"
#include "boot/boot_print.h"

int nn_status_desired(struct nn_ctx *ctx)
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
		nn_print_null(&ctx->out, PRINT_JSON, "ports", NULL);
		nn_print_null(&ctx->out, PRINT_JSON, "ports_drift", NULL);
		return -1;
	}
	if (err)
		return -2;
	nn_open_array(&ctx->out, "drift");
	err = nn_host_discover_flags(ctx, &host, NN_NICS_NO_EFFECTIVE, nn_desired_claim_flags(&d));
	/* the ports' facts for the plan's nodes; unreadable ones stay unknown */
	if (!err && d.nports && nn_host_ports_read(ctx, &host, d.ports, d.nports) == -ENOMEM)
		err = -ENOMEM;
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
		for (i = 0; i < rep.nports; i++) {
			char line[128];

			if (!strcmp(rep.ports[i].status, "unchanged"))
				continue;
			snprintf(line, sizeof(line), "port %s: %s, want %s", rep.ports[i].pci,
				 rep.ports[i].before[0] ? rep.ports[i].before : "no driver", rep.ports[i].driver);
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
	/* each desired port, check's verdict ("ports": [] without) */
	nn_check_print_ports(&ctx->out, &rep);
	/* Into the document's one "notes" list (nn_print_warnings) */
	if (err >= 0 && rep.irqb_left)
		nn_note(ctx, NULL, "irqbalance runs, left alone (irqbalance = ignore): not drift");
	if (ret >= 0)
		nn_print_bool(&ctx->out, PRINT_ANY, "matches_desired", "matches desired: %s\n", ret == 1);
	if (ret >= 0 && plan.claim_spills)
		nn_print_int(&ctx->out, PRINT_ANY, "claim_spills", "claim spills: %lld NICs (claims "
			     "left their node no CPU: see nicnuma plan)\n", plan.claim_spills);
	else if (ret >= 0)
		nn_print_int(&ctx->out, PRINT_JSON, "claim_spills", NULL, 0);
	else
		nn_print_null(&ctx->out, PRINT_JSON, "claim_spills", NULL);
	nn_check_report_free(&rep);
	nn_plan_free(&plan);
	free(missing);
	nn_host_free(&host);
	nn_desired_free(&d);
	return ret;
}

int nn_status_service(struct nn_ctx *ctx)
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

/* Running is the lock (nn_watch_lock_held); what it did is its state file
 * (nn_watch_state_read, as metrics reads it). */
int nn_status_watcher(struct nn_ctx *ctx)
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

void nn_status_claims(struct nn_ctx *ctx)
{
	struct nn_out *o = &ctx->out;
	struct nn_claims cl;
	size_t i, live = 0;

	/* Read only: pruning is for the watcher and `claims` as root. */
	if (nn_claims_read(ctx, 0, &cl)) {
		nn_print_null(o, PRINT_ANY, "claims", "claims: %s (unreadable)\n");
		return;
	}
	for (i = 0; i < cl.n; i++)
		live += cl.items[i].live;
	nn_open_object(o, "claims");
	nn_print_uint(o, PRINT_ANY, "count", "claims: %llu", live);
	nn_print_cpuset(o, PRINT_JSON, "claimed", NULL, &cl.cpus);
	if (live)
		nn_print_cpuset(o, PRINT_FP, NULL, " (CPUs %s)", &cl.cpus);
	nn_printf(o, "\n");
	nn_open_array(o, "items");
	for (i = 0; i < cl.n; i++) {
		const struct nn_claim_item *it = &cl.items[i];

		if (!it->live)
			continue;
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "name", "  claim %s", it->c.name);
		nn_print_string(o, PRINT_ANY, "source", " (%s", nn_claim_source_name(it->source));
		nn_print_string(o, PRINT_ANY, "owner", ", owner %s)", it->c.owner);
		nn_print_cpuset(o, PRINT_ANY, "cpus", ": CPUs %s\n", &it->c.cpus);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_close_object(o);
	nn_claims_free(&cl);
}

int nn_status_boot(struct nn_ctx *ctx, bool *pending)
{
	struct nn_boot_host b;
	struct nn_boot_report rep;
	struct nn_boot_arg *args = NULL;
	size_t n = 0;
	int err;

	*pending = false;
	err = nn_boot_host_read(ctx, &b, true);
	if (err) {
		nn_err(ctx, "status: cannot read the kernel's boot facts: %s", strerror(-err));
		return -2;
	}
	if (!b.has_record) {
		nn_print_null(&ctx->out, PRINT_ANY, "boot", "boot arguments: %s (nicnuma wrote none)\n");
		nn_boot_host_free(&b);
		return -1;
	}
	err = nn_boot_args_from_record(&b.record, &args, &n);
	if (!err)
		err = nn_boot_print(&ctx->out, &b, "recorded", args, n, NULL, 0, NN_BOOTP_STATE, &rep);
	if (err == -EINVAL)
		nn_err(ctx, "status: boot arguments: %s", rep.error);
	else if (err)
		nn_err(ctx, "status: %s", strerror(-err));
	*pending = !err && rep.reboot_pending;
	nn_boot_args_free(args, n);
	nn_boot_host_free(&b);
	return err ? -2 : (int)rep.ndrift;
}
