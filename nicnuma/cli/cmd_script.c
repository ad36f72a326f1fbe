// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_script.c - "nicnuma script": a plan as a standalone POSIX sh script */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/emit/script.h"
#include "nn_version.h"
#include "plan_opts.h"

static const struct nn_opt opts[] = {
	{ "plan", 0, NN_ARG_REQUIRED, "FILE", "render this plan (from `nicnuma plan --json`, \"-\" for stdin) instead "
	  "of planning this host; the script checks its target itself, so the "
	  "plan may come from elsewhere", NN_OPT_PLAN },
	{ "output", 'o', NN_ARG_REQUIRED, "FILE", "write the script to FILE (mode 0755, replaced atomically) instead of "
	  "stdout", 'o' },
	{ "restore-dir", 0, NN_ARG_REQUIRED, "DIR", "default directory for the restore script on the target (default "
	  "/var/lib/nicnuma)", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_script = {
	.name = "script",
	.usage = "nicnuma [--root DIR] [--json] script [--plan FILE | PLAN OPTIONS]\n"
		 "                                      [-o FILE] [--restore-dir DIR]",
	.intro =
"Write a POSIX sh script that performs a plan on a host where nicnuma is not\n"
"installed: the same placement `nicnuma apply` would make, as a file you can\n"
"review, ship and run with plain sh. Nothing is changed here.\n"
"\n"
"The script, when run as root on the target:\n"
"  - answers --help; with --dry-run (-n) checks the host and says what it\n"
"    would change, changing nothing (--check: the same, exit 1 when anything\n"
"    would change); refuses any other argument before any write (exit 2); its\n"
"    restore script answers --help and --dry-run the same way;\n"
"  - refuses (exit 2, nothing changed) unless the host has the plan's CPU\n"
"    count, NUMA node count, NIC PCI addresses and nodes, and each planned IRQ\n"
"    still belongs to its NIC (IRQ numbers change across reboots);\n"
"  - writes a restore script with every value it will change before the first\n"
"    change (0600, written to a temporary name and renamed; default\n"
"    /var/lib/nicnuma/restore-DATE-PID.sh, $NICNUMA_RESTORE to choose);\n"
"  - handles irqbalance as planned: stop (systemctl disable --now under\n"
"    systemd, otherwise the daemon found by name is stopped and the restore\n"
"    script restarts it with its command line) or ban (restart it with\n"
"    --banirq for every planned IRQ, via a systemd drop-in under systemd);\n"
"  - sets combined channels (ethtool -L), then each smp_affinity_list,\n"
"    xps_cpus and nr_hugepages, reading each back and reporting mismatches;\n"
"    an IRQ that refuses even its current value is kernel-managed and is\n"
"    reported and skipped;\n"
"  - sets the plan's coalescing and ring sizes (a profile's) with ethtool -C\n"
"    and -G, the old values read from the host going into the restore script;\n"
"    with no ethtool (or ROOT set) each is left alone with a message;\n"
"  - leaves out what sh cannot restore or set, each named in its header:\n"
"    per-NAPI settings, RSS indirection tables, ports' driver bindings and\n"
"    kernel arguments (nicnuma apply sets them);\n"
"  - leaves values already in place alone (running it twice is harmless) and\n"
"    exits 1 when any value failed.\n"
"Every interface name and path in it is single-quoted: names such as\n"
"'a$(touch x)' stay literal. ROOT=DIR makes it act on a copy of /sys and /proc\n"
"(for tests; irqbalance and ethtool are then left alone).\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN | NN_GROUP_PLAN_IRQB | NN_GROUP_NET,
	.group_title = "Planning options, when no --plan is given (see `nicnuma plan --help`):\n",
	.outro =
"With --json (needs -o): {\"script\":{\"file\",\"irqs\",\"xps\",\"napi_threads\",\n"
"\"channels\",\"coalesce_rings\",\"hugepages\",\"irqbalance\"},\"warnings\":[..]}.\n"
"\n"
"Examples:\n"
"  nicnuma script -o bind.sh && scp bind.sh host2: && ssh host2 sh bind.sh\n"
"  nicnuma plan --json > p.json; nicnuma script --plan p.json > bind.sh\n"
"\n"
"Exit status: 0 written, 1 written but the plan has warnings, 2 error.\n",
};

int nn_cmd_script(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_script_opts so = { NULL, NICNUMA_VERSION, NULL };
	const char *planfile = NULL, *output = NULL;
	struct nn_out *o = &ctx->out;
	struct nn_plan_opts po;
	struct nn_plan p;
	struct nn_host h;
	bool have_host = false, planning = false;
	char *source = NULL;
	int c, err, status = NN_EXIT_ERROR;

	memset(&po, 0, sizeof(po));
	memset(&p, 0, sizeof(p));
	st.plan = &po;
	while ((c = nn_opt_next(ctx, &nn_desc_script, &st)) > 0) {
		switch (c) {
		case 'o':
			output = st.arg;
			break;
		case NN_OPT_PLAN:
			planfile = st.arg;
			break;
		case NN_OPT_STATE_DIR:	/* --restore-dir */
			if (st.arg[0] != '/') {
				nn_err(ctx, "--restore-dir: '%s' is not an absolute path", st.arg);
				nn_plan_opts_free(&po);
				return NN_EXIT_ERROR;
			}
			so.restore_dir = st.arg;
			break;
		}
	}
	if (c < 0) {
		nn_plan_opts_free(&po);
		return nn_opt_exit(c);
	}
	planning = st.plan_given != 0;
	if (planfile && planning) {
		nn_err(ctx, "script: --plan and planning options exclude each other (the plan is already made)");
		goto out;
	}
	if (o->json && !output) {
		nn_err(ctx, "script: --json needs -o FILE (without it the script itself goes to stdout)");
		goto out;
	}
	if (planfile) {
		if (nn_plan_load(ctx, planfile, &p))
			goto out;
		if (asprintf(&source, "plan file %s", planfile) < 0)
			source = NULL;
	} else {
		err = nn_host_discover(ctx, &h);
		if (err) {
			nn_print_warnings(ctx);
			nn_host_discover_failed(ctx, "script", err);
			goto out;
		}
		have_host = true;
		if (nn_plan_get(ctx, &h, NULL, &po, &p))
			goto out;
		source = strdup("a plan of the host it was made on");
	}
	so.source = source;
	if (output)
		err = nn_script_write(output, &p, &so);
	else
		err = nn_script_render(stdout, &p, &so);
	if (err) {
		if (output)
			nn_err(ctx, "script: cannot write %s: %s", output, nn_output_strerror(err));
		else
			nn_err(ctx, "script: cannot write the script: %s", strerror(-err));
		goto out_plan;
	}
	nn_cli_plan_findings(ctx, &p);
	if (output) {
		nn_open_object(o, NULL);
		nn_open_object(o, "script");
		nn_print_string(o, PRINT_ANY, "file", "wrote %s: ", output);
		nn_print_uint(o, PRINT_ANY, "irqs", "%llu IRQ affinities, ", p.nirqs);
		nn_print_uint(o, PRINT_ANY, "xps", "%llu XPS masks, ", p.nxps);
		nn_print_uint(o, PRINT_ANY, "napi_threads", "%llu NAPI threads, ", p.nnapi_threads);
		nn_print_uint(o, PRINT_ANY, "channels", "%llu channel counts, ", p.nchannels);
		nn_print_uint(o, PRINT_ANY, "coalesce_rings", "%llu coalescing and ring values, ", p.neth);
		nn_print_uint(o, PRINT_ANY, "hugepages", "%llu hugepage counts; ", p.nhugepages);
		nn_print_string(o, PRINT_ANY, "irqbalance", "irqbalance: %s\n",
				nn_irqbalance_action_name(p.irqbalance.action));
		nn_close_object(o);
		nn_print_warnings(ctx);
	} else {
		nn_print_warnings(ctx);
	}
	status = nn_cli_status(ctx, 0);
out_plan:
	nn_plan_free(&p);
out:
	free(source);
	if (have_host)
		nn_host_free(&h);
	nn_plan_opts_free(&po);
	return status;
}
