// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_layout.c - "nicnuma layout": one service instance per NUMA node, as a
 * systemd template unit and a drop-in per instance.
 *
 * Discovery and the plan say which cores take queue IRQs and which are
 * housekeeping; nicnuma/plan/layout.c turns that into instances,
 * nicnuma/plan/layout_units.c into unit text and layout_print.c into the
 * report; nicnuma/emit/layout_write.c writes the files (atomically, never over
 * a file that nicnuma did not generate unless --force). This file only parses
 * options and runs those steps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/emit/layout_write.h"
#include "nicnuma/plan/layout.h"
#include "nicnuma/core/unitfile.h"

enum {
	OPT_SERVICE = NN_OPT_OWN,
	OPT_EXEC,
	OPT_NODES,
	OPT_DPDK,
	OPT_NUMACTL,
	OPT_INCLUDE_IRQ,
	OPT_OUT,
	OPT_DRY_RUN,
	OPT_FORCE,
};

struct layout_args {
	struct nn_layout_opts lo;
	struct nn_plan_opts po;
	const char *planfile;
	const char *exec;
	const char *out;
	bool numactl, dry_run, force;
};

static const struct nn_opt opts[] = {
	{ "service", 0, NN_ARG_REQUIRED, "NAME", "unit name prefix: letters, digits, ':', '-', '_', '.'", OPT_SERVICE,
	  NN_STORE_STR(struct layout_args, lo.service) },
	{ "exec", 0, NN_ARG_REQUIRED, "'CMD ARGS...'", "the command, split like a shell would ('...', \"...\", backslash) but "
	  "never run by one: unquoted | ; & < > $ ` * ? are refused; every word "
	  "is escaped for systemd (% and $ stay literal)", OPT_EXEC,
	  NN_STORE_STR(struct layout_args, exec) },
	{ "nodes", 0, NN_ARG_REQUIRED, "NODES", "with-nics (default): nodes holding a NIC (on a one-node host a NIC of "
	  "unknown locality counts as on it); all: every node with CPUs; LIST: "
	  "these node ids (0,2-3)", OPT_NODES },
	{ "dpdk", 0, NN_ARG_NONE, NULL, "add the EAL arguments", OPT_DPDK,
	  NN_STORE_BOOL(struct layout_args, lo.dpdk) },
	{ "numactl", 0, NN_ARG_NONE, NULL, "bind through numactl in ExecStart= (older systemd)", OPT_NUMACTL,
	  NN_STORE_BOOL(struct layout_args, numactl) },
	{ "include-irq-cores", 0, NN_ARG_NONE, NULL, "let instances use the queue-IRQ cores too", OPT_INCLUDE_IRQ,
	  NN_STORE_BOOL(struct layout_args, lo.include_irq_cores) },
	{ "output", 'o', NN_ARG_REQUIRED, "DIR", "write the units into DIR (e.g. /etc/systemd/system)", 'o',
	  NN_STORE_STR(struct layout_args, out) },
	{ "out", 0, NN_ARG_REQUIRED, "DIR", "old spelling of --output", 'o',
	  NN_STORE_STR(struct layout_args, out), .deprecated = "output" },
	{ "dry-run", 'n', NN_ARG_NONE, NULL, "print the files instead of writing them", 'n',
	  NN_STORE_BOOL(struct layout_args, dry_run) },
	{ "force", 0, NN_ARG_NONE, NULL, "overwrite files in DIR that nicnuma did not generate", OPT_FORCE,
	  NN_STORE_BOOL(struct layout_args, force) },
	{ "plan", 0, NN_ARG_REQUIRED, "FILE", "take the plan from FILE (nicnuma plan --json) instead of planning now",
	  NN_OPT_PLAN },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_layout = {
	.name = "layout",
	.stray = "the command goes in --exec '...'",
	.usage = "nicnuma layout --service NAME --exec 'CMD ARGS...' [--nodes with-nics|all|LIST]\n"
		 "                      [--dpdk] [--numactl] [--include-irq-cores]\n"
		 "                      (--output DIR | --dry-run) [--force] [planning options]",
	.intro =
"Lay a service out as one instance per NUMA node, each pinned to its node's\n"
"cores and memory, next to its node's NICs and hugepages. Writes a systemd\n"
"template unit NAME@.service and, per instance, a drop-in\n"
"NAME@<node>.service.d/nicnuma.conf with:\n"
"  CPUAffinity=   the node's CPUs minus the housekeeping CPUs and, unless\n"
"                 --include-irq-cores, minus the cores the plan gives the\n"
"                 NICs' queue IRQs (packets are handled there already);\n"
"                 the node's isolated CPUs (nicnuma topo) go to a --dpdk\n"
"                 instance first (it runs on them alone when it has any);\n"
"                 another service leaves them out unless nothing else is left\n"
"  NUMAPolicy=bind and NUMAMask=<node> (systemd 243 or newer), or with\n"
"                 --numactl an ExecStart= through numactl --physcpubind\n"
"                 --membind (numactl's --cpunodebind would widen the CPUs\n"
"                 back to the whole node)\n"
"  Environment=   NICNUMA_NODE, NICNUMA_CPUS, NICNUMA_NICS and, with --dpdk,\n"
"                 NICNUMA_EAL_ARGS: -l CPUS --file-prefix NAME-<node>\n"
"                 --socket-mem (the node's hugepages) -a PCI... (the node's\n"
"                 functions on vfio-pci where it has some, else its NICs;\n"
"                 --no-pci when it has none, so it never probes another\n"
"                 node's). With --dpdk the template passes $NICNUMA_EAL_ARGS\n"
"                 right after the program, before ARGS (put '--' in ARGS for\n"
"                 the application's own options).\n"
"\n"
"Nothing is started or reloaded: run 'systemctl daemon-reload' and enable the\n"
"instances yourself (the template's header lists them).\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN | NN_GROUP_PLAN_IRQB,
	.group_title = "Planning options (as for 'nicnuma plan'; they decide the IRQ cores):\n",
	.outro =
"Exit status: 0 written (or shown), 1 done with warnings, 2 error.\n"
"\n"
"Example: nicnuma layout --service fwd --exec '/usr/bin/dpdk-testpmd -- -i' --dpdk \\\n"
"           --hugepages 2M:1024 --output /etc/systemd/system\n",
};

static int parse_nodes(struct nn_ctx *ctx, const char *arg, struct nn_layout_opts *lo)
{
	if (!strcmp(arg, "with-nics")) {
		lo->nodes_mode = NN_LAYOUT_WITH_NICS;
		return 0;
	}
	if (!strcmp(arg, "all")) {
		lo->nodes_mode = NN_LAYOUT_ALL;
		return 0;
	}
	lo->nodes_mode = NN_LAYOUT_LIST;
	if (nn_cpuset_parse_list(arg, &lo->nodes) || nn_cpuset_empty(&lo->nodes)) {
		nn_err(ctx, "--nodes: '%s' is not with-nics, all or a node list (0,2-3)", arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_args(struct nn_ctx *ctx, int argc, char **argv, struct layout_args *a)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int c;

	st.plan = &a->po;
	st.dest = a;
	while ((c = nn_opt_next(ctx, &nn_desc_layout, &st)) > 0)
		if (c == OPT_NODES && parse_nodes(ctx, st.arg, &a->lo))
			return -EINVAL;
	if (c < 0)
		return c == NN_OPT_HELP ? 1 : -EINVAL;
	if (!a->lo.service || !a->exec) {
		nn_err(ctx, "layout: --service NAME and --exec 'CMD ARGS...' are required");
		return -EINVAL;
	}
	if (!a->out && !a->dry_run) {
		nn_err(ctx, "layout: give --output DIR (e.g. /etc/systemd/system) or --dry-run");
		return -EINVAL;
	}
	return 0;
}

int nn_cmd_layout(struct nn_ctx *ctx, int argc, char **argv)
{
	struct layout_args a;
	struct nn_layout_render_opts ro = { 0 };
	struct nn_unit_file *files = NULL;
	struct nn_layout l = { 0 };
	struct nn_plan plan;
	struct nn_host host;
	char why[320] = "", **exec = NULL;
	bool have_host = false, have_plan = false;
	size_t nexec = 0, nfiles = 0, i;
	int err, status = NN_EXIT_ERROR;

	memset(&a, 0, sizeof(a));
	err = parse_args(ctx, argc, argv, &a);
	if (err) {
		status = err > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
		goto out;
	}
	if (nn_exec_split(a.exec, &exec, &nexec, why, sizeof(why)) ||
	    nn_exec_check_path(exec[0], why, sizeof(why))) {
		nn_err(ctx, "--exec: %s", why);
		goto out;
	}
	/* The instance ids are node ids: check the name for the largest one later. */
	if (nn_unit_prefix_check(a.lo.service, 0, why, sizeof(why))) {
		nn_err(ctx, "--service: %s", why);
		goto out;
	}

	err = nn_host_discover(ctx, &host);
	if (err) {
		nn_print_warnings(ctx);
		nn_host_discover_failed(ctx, "layout", err);
		goto out;
	}
	have_host = true;
	if (host.topo.nnodes &&
	    nn_unit_prefix_check(a.lo.service, host.topo.nodes[host.topo.nnodes - 1].id, why,
				 sizeof(why))) {
		nn_err(ctx, "--service: %s", why);
		goto out;
	}
	if (nn_plan_get(ctx, &host, a.planfile, &a.po, &plan))
		goto out;
	have_plan = true;
	/* --dpdk: each node's ports on vfio-pci go to its instance's -a. */
	if (a.lo.dpdk && !host.nports) {
		err = nn_host_bound_ports_read(ctx, &host);
		if (err) {
			nn_err(ctx, "layout: the ports on vfio-pci: %s", strerror(-err));
			goto out;
		}
	}
	nn_cli_plan_findings(ctx, &plan);
	if (nn_cpuset_copy(&a.lo.housekeeping, &plan.housekeeping)) {
		nn_err(ctx, "layout: out of memory");
		goto out;
	}
	err = nn_layout_make(&host, &plan, &a.lo, &l, why, sizeof(why));
	if (err) {
		nn_err(ctx, "layout: %s", why);
		goto out;
	}
	for (i = 0; i < l.nwarnings; i++)
		nn_warn(ctx, NULL, "%s", l.warnings[i]);

	ro.exec = exec;
	ro.nexec = nexec;
	ro.numactl = a.numactl;
	if (a.numactl) {
		ro.numactl_path = nn_layout_find_numactl(ctx);
		if (!ro.numactl_path) {
			nn_err(ctx, "layout: out of memory");
			goto out;
		}
	}
	err = nn_layout_render(&l, &ro, &files, &nfiles);
	if (err) {
		nn_err(ctx, "layout: cannot render the units: %s", strerror(-err));
		goto out;
	}
	nn_open_object(&ctx->out, NULL);
	nn_layout_print(&ctx->out, &l, a.numactl);
	err = nn_layout_emit(ctx, a.out, a.dry_run, a.force, &l, files, nfiles);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	status = nn_cli_status(ctx, err);
out:
	nn_unit_files_free(files, nfiles);
	free((char *)ro.numactl_path);
	nn_layout_free(&l);
	if (have_plan)
		nn_plan_free(&plan);
	if (have_host)
		nn_host_free(&host);
	nn_exec_free(exec);
	nn_layout_opts_free(&a.lo);
	nn_plan_opts_free(&a.po);
	return status;
}
