// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - nicnuma: discover, plan and apply a host's NIC/NUMA placement */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nn_version.h"

static const struct nn_cmd cmds[] = {
	{ "topo", nn_cmd_topo, "NUMA nodes, CPUs, memory, distances and kernel NUMA knobs" },
	{ "nics", nn_cmd_nics, "network devices: PCI locality, local CPUs, queues and queue IRQs" },
	{ "plan", nn_cmd_plan, "plan where queue IRQs, XPS, channels and hugepages go (changes nothing)" },
	{ "apply", nn_cmd_apply, "carry out a plan: snapshot, write, read back (--dry-run to preview)" },
	{ "check", nn_cmd_check, "compare live IRQ/XPS placement with a plan; --pid: a process's placement" },
	{ "rollback", nn_cmd_rollback, "restore the values the newest (or a given) snapshot saved" },
	{ "script", nn_cmd_script, "render a plan as a standalone POSIX sh script (with restore)" },
	{ "hugepages", nn_cmd_hugepages, "per-node hugepage pools: show, reserve, release" },
	{ "bench", nn_cmd_bench, "prove what NUMA misplacement costs: nicnuma-fwd local vs remote" },
	{ "layout", nn_cmd_layout, "one service instance per NUMA node as systemd units" },
	{ "enable", nn_cmd_enable, "record the desired state, apply it, keep it with nicnuma-watch" },
	{ "disable", nn_cmd_disable, "stop the watcher and roll back to before enable" },
	{ "status", nn_cmd_status, "enabled? watcher running? host matching the desired state?" },
	{ "watch", nn_cmd_watch, "the service: re-apply the desired state after link/driver events" },
	{ "observe", nn_cmd_observe, "where the packet work really runs: IRQs, softirqs, NAPI per CPU and node" },
	{ "metrics", nn_cmd_metrics, "placement, drift, hugepages as Prometheus textfile metrics" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *fp)
{
	const struct nn_cmd *c;

	fprintf(fp,
"Usage: nicnuma [--root DIR] [--json] [-v] COMMAND [OPTIONS]\n"
"\n"
"Tune a Linux host's network data plane for its NUMA topology: find where each\n"
"NIC, queue and IRQ sits, plan where they should go, apply it reversibly.\n"
"\n"
"Commands:\n");
	for (c = cmds; c->name; c++)
		fprintf(fp, "  %-12s %s\n", c->name, c->summary);
	fprintf(fp,
"\n"
"Global options (accepted before or after COMMAND):\n"
"  --root DIR    read sysfs/procfs under DIR instead of / (also $NICNUMA_ROOT);\n"
"                nothing live is touched: no netlink, ioctl or signals\n"
"  -j, --json    one JSON document on stdout (stable snake_case keys)\n"
"  -v, --verbose more detail on stderr\n"
"  -h, --help    this help; 'nicnuma COMMAND --help' for a command\n"
"  -V, --version print the version\n"
"\n"
"Exit status: 0 clean, 1 completed with warnings (or drift), 2 error.\n");
}

int nn_cli_status(const struct nn_ctx *ctx, int err)
{
	if (err < 0)
		return NN_EXIT_ERROR;
	if (err > 0)
		return err;
	return ctx->nwarns ? NN_EXIT_WARN : NN_EXIT_OK;
}

int main(int argc, char **argv)
{
	const char *root = NULL;
	const struct nn_cmd *cmd = NULL;
	bool json = false, help = false;
	int verbose = 0, nargc = 0, i, ret, err;
	struct nn_ctx ctx;
	char **nargv;

	/* Global options may stand anywhere before "--": take them out so each
	 * command's getopt_long sees only its own. */
	nargv = calloc((size_t)argc + 1, sizeof(*nargv));
	if (!nargv) {
		fprintf(stderr, "nicnuma: out of memory\n");
		return NN_EXIT_ERROR;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (i < argc)
				nargv[nargc++] = argv[i++];
			break;
		}
		if (!strcmp(a, "--json") || !strcmp(a, "-j")) {
			json = true;
		} else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			verbose++;
		} else if (!strcmp(a, "--root")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "nicnuma: option '--root' requires a directory\n");
				free(nargv);
				return NN_EXIT_ERROR;
			}
			root = argv[++i];
		} else if (!strncmp(a, "--root=", 7)) {
			root = a + 7;
		} else if (!nargc && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			help = true;
		} else if (!nargc && (!strcmp(a, "--version") || !strcmp(a, "-V"))) {
			printf("nicnuma %s\n", NICNUMA_VERSION);
			free(nargv);
			return NN_EXIT_OK;
		} else if (!nargc && a[0] == '-') {
			fprintf(stderr, "nicnuma: unknown option '%s' (see nicnuma --help)\n", a);
			free(nargv);
			return NN_EXIT_ERROR;
		} else {
			nargv[nargc++] = argv[i];
		}
	}
	if (help || !nargc) {
		usage(help ? stdout : stderr);
		free(nargv);
		return help ? NN_EXIT_OK : NN_EXIT_ERROR;
	}
	for (i = 0; cmds[i].name; i++)
		if (!strcmp(cmds[i].name, nargv[0]))
			cmd = &cmds[i];
	if (!cmd) {
		fprintf(stderr, "nicnuma: unknown command '%s' (see nicnuma --help)\n", nargv[0]);
		free(nargv);
		return NN_EXIT_ERROR;
	}
	err = nn_ctx_init(&ctx, root, json);
	if (err) {
		fprintf(stderr, "nicnuma: cannot open root '%s': %s\n",
			root ? root : (getenv("NICNUMA_ROOT") ? getenv("NICNUMA_ROOT") : "/"),
			strerror(-err));
		nn_ctx_free(&ctx);
		free(nargv);
		return NN_EXIT_ERROR;
	}
	ctx.verbose = verbose;
	ret = cmd->fn(&ctx, nargc, nargv);
	if (nn_out_flush(&ctx.out) < 0 && ret == NN_EXIT_OK) {
		fprintf(stderr, "nicnuma: error writing output\n");
		ret = NN_EXIT_ERROR;
	}
	nn_ctx_free(&ctx);
	free(nargv);
	return ret;
}
