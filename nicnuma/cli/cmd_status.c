// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_status.c - "nicnuma status": enabled, the service, the watcher, drift */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/service/enabled.h"
#include "nicnuma/service/status.h"

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
"last action, counters), whether the host matches the desired state now\n"
"(the check of 'nicnuma check' on a plan made from /etc/nicnuma/nicnuma.conf),\n"
"the CPU claims now with their owners (see 'nicnuma claims'), and each kernel\n"
"argument nicnuma configured: in effect, pending a reboot, or drift. The\n"
"watcher reports these and never reboots.\n",
	.opts = opts,
	.outro =
"--json keys: enabled (bool), service {active, main_pid, unit} or null,\n"
"watcher {pid, started, last_action {time, trigger, result, changed} or\n"
"null, counters {events, relevant, applies, values_written}} or null,\n"
"matches_desired (bool, null when there is no desired state), drift\n"
"[\"irq 41 (eth1): 0-1, want 2\", \"port 0000:af:00.0: mlx5_core, want vfio-pci\",\n"
"..], ports [{pci, driver, planned, status: in_place|drift}] (each desired\n"
"dpdk_port as 'nicnuma check' judges it; null without a desired state),\n"
"ports_drift, notes [..] (a running irqbalance with\n"
"irqbalance = ignore: not drift), warnings [..], claim_spills (NICs whose node\n"
"the claims left no CPU; null without a desired state), claims {count,\n"
"claimed, items [{name, source, owner, cpus}]} (docs/claims.md), boot (the\n"
"kernel arguments nicnuma put into the bootloader's configuration, from\n"
"STATE_DIR/boot.json: {bootloader, kernel, args [{name, change, status, running,\n"
"configured, planned, ..}], reboot_pending, ..}, null when it wrote none;\n"
"status in_effect, pending_reboot, drift, not_configured, not_planned,\n"
"removed_pending_reboot, removed_still_running; docs/boot.md).\n"
"\n"
"Exit status: 0 enabled, running and matching; 1 otherwise (a boot argument\n"
"in drift too; a reboot pending is not drift); 2 error.\n",
};

int nn_cmd_status(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_enabled en = { 0 };
	int opt, err, svc, wat, match, boot;
	bool pending;
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
	svc = nn_status_service(ctx);
	wat = nn_status_watcher(ctx);
	match = nn_status_desired(ctx);
	nn_status_claims(ctx);
	boot = nn_status_boot(ctx, &pending);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	enabled = en.enabled;
	nn_enabled_free(&en);
	if (match < -1 || boot < -1)
		return NN_EXIT_ERROR;
	if (boot > 0)
		return NN_EXIT_WARN;	/* a boot argument in drift */
	/* running: the unit is active, or (no systemd) a watcher holds the lock */
	return enabled && (svc > 0 || (svc < 0 && wat)) && match == 1 ? NN_EXIT_OK : NN_EXIT_WARN;
}
