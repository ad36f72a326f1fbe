// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - nicnuma: discover, plan and apply a host's NIC/NUMA placement */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "nn_version.h"

static const struct nn_cmd cmds[] = {
	{ "topo", nn_cmd_topo, "NUMA nodes, CPUs, memory, distances and kernel NUMA knobs",
	  { &nn_desc_topo } },
	{ "nics", nn_cmd_nics, "network devices: PCI locality, local CPUs, queues and queue IRQs",
	  { &nn_desc_nics } },
	{ "plan", nn_cmd_plan, "plan where queue IRQs, XPS, channels and hugepages go (changes nothing)",
	  { &nn_desc_plan } },
	{ "apply", nn_cmd_apply, "carry out a plan: snapshot, write, read back (--dry-run to preview)",
	  { &nn_desc_apply } },
	{ "check", nn_cmd_check, "compare live IRQ/XPS placement with a plan; --pid: a process's placement",
	  { &nn_desc_check, &nn_desc_check_pid, &nn_desc_check_dpdk } },
	{ "rollback", nn_cmd_rollback, "restore the values the newest (or a given) snapshot saved",
	  { &nn_desc_rollback } },
	{ "script", nn_cmd_script, "render a plan as a standalone POSIX sh script (with restore)",
	  { &nn_desc_script } },
	{ "hugepages", nn_cmd_hugepages, "per-node hugepage pools: show, reserve, release",
	  { &nn_desc_hugepages, &nn_desc_hugepages_show, &nn_desc_hugepages_reserve,
	    &nn_desc_hugepages_release } },
	{ "bench", nn_cmd_bench, "prove what NUMA misplacement costs: nicnuma-fwd local vs remote",
	  { &nn_desc_bench } },
	{ "layout", nn_cmd_layout, "one service instance per NUMA node as systemd units",
	  { &nn_desc_layout } },
	{ "enable", nn_cmd_enable, "record the desired state, apply it, keep it with nicnuma-watch",
	  { &nn_desc_enable } },
	{ "disable", nn_cmd_disable, "stop the watcher and roll back to before enable",
	  { &nn_desc_disable } },
	{ "status", nn_cmd_status, "enabled? watcher running? host matching the desired state?",
	  { &nn_desc_status } },
	{ "claim", nn_cmd_claim, "claim CPUs for a workload: NIC work moves off them while it lasts",
	  { &nn_desc_claim } },
	{ "release", nn_cmd_release, "end a claim: NIC work may use its CPUs again",
	  { &nn_desc_release } },
	{ "claims", nn_cmd_claims, "every CPU claim: records, cpuset partitions, live or stale",
	  { &nn_desc_claims } },
	{ "watch", nn_cmd_watch, "the service: re-apply the desired state after link/driver events",
	  { &nn_desc_watch } },
	{ "observe", nn_cmd_observe, "where the packet work really runs: IRQs, softirqs, NAPI per CPU and node",
	  { &nn_desc_observe } },
	{ "report", nn_cmd_report, "draw the host, its NICs and queue IRQs today and as planned (HTML/SVG)",
	  { &nn_desc_report } },
	{ "metrics", nn_cmd_metrics, "placement, drift, hugepages as Prometheus textfile metrics",
	  { &nn_desc_metrics } },
	{ "hook", nn_cmd_hook, "OCI runtime hook: a container's CPUs claimed from create to poststop",
	  { &nn_desc_hook } },
	{ NULL, NULL, NULL, { NULL } },
};

/* The global options: taken out of argv wherever they stand (before "--"). */
enum { G_ROOT = NN_OPT_OWN };

static const struct nn_opt global_opts[] = {
	{ "root", 0, NN_ARG_REQUIRED, "DIR", "read sysfs/procfs under DIR instead of / (also $NICNUMA_ROOT); "
	  "nothing live is touched: no netlink, ioctl or signals", G_ROOT },
	{ "json", 'j', NN_ARG_NONE, NULL, "one JSON document on stdout (stable snake_case keys); with "
	  "--help: the options of every command (or of COMMAND) as JSON", 'j' },
	{ "verbose", 'v', NN_ARG_NONE, NULL, "more detail on stderr", 'v' },
	{ "help", 'h', NN_ARG_NONE, NULL, "this help; 'nicnuma COMMAND --help' for a command", 'h' },
	{ "version", 'V', NN_ARG_NONE, NULL, "print the version", 'V' },
	{ 0 },
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
	fprintf(fp, "\nGlobal options (accepted before or after COMMAND):\n");
	nn_opt_rows(fp, global_opts);
	fprintf(fp,
"\n"
"Exit status: 0 clean, 1 completed with warnings (or drift), 2 error.\n");
}

/* "nicnuma --json --help": every command's options, for tests/doc. */
static void dump(void)
{
	struct json_object *doc = json_object_new_object(), *arr = json_object_new_array();
	const struct nn_cmd_desc global = { .name = "nicnuma", .opts = global_opts };
	const struct nn_cmd_desc *g[] = { &global, NULL };
	const struct nn_cmd *c;

	json_object_object_add(doc, "global", nn_opt_dump("nicnuma", g));
	for (c = cmds; c->name; c++)
		json_object_array_add(arr, nn_opt_dump(c->name, c->descs));
	json_object_object_add(doc, "commands", arr);
	printf("%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY));
	json_object_put(doc);
}

/* The global option @a names (exactly, or as --name=VALUE), or NULL. */
static const struct nn_opt *global_opt(const char *a, const char **value)
{
	const struct nn_opt *o;
	size_t n;

	*value = NULL;
	for (o = global_opts; o->name; o++) {
		n = strlen(o->name);
		if (a[0] == '-' && a[1] == o->short_name && o->short_name && !a[2])
			return o;
		if (strncmp(a, "--", 2) || strncmp(a + 2, o->name, n))
			continue;
		if (!a[n + 2])
			return o;
		if (a[n + 2] == '=' && o->arg != NN_ARG_NONE) {
			*value = a + n + 3;
			return o;
		}
	}
	return NULL;
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

	/* the planning options, shared by the commands that plan */
	nn_opt_share(&nn_plan_optgroup);
	/* Global options may stand anywhere before "--": take them out so each
	 * command's parser (core/opts.c) sees only its own. */
	nargv = calloc((size_t)argc + 1, sizeof(*nargv));
	if (!nargv) {
		nn_fprintf_text(stderr, "nicnuma: out of memory\n");
		return NN_EXIT_ERROR;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		const struct nn_opt *g = global_opt(a, &val);

		if (!strcmp(a, "--")) {
			while (i < argc)
				nargv[nargc++] = argv[i++];
			break;
		}
		/* --help and --version only before the command: after it they are its own */
		if (g && nargc && (g->id == 'h' || g->id == 'V'))
			g = NULL;
		if (!g) {
			if (!nargc && a[0] == '-') {
				nn_fprintf_text(stderr, "nicnuma: unknown option '%s' (see nicnuma --help)\n", a);
				free(nargv);
				return NN_EXIT_ERROR;
			}
			nargv[nargc++] = argv[i];
			continue;
		}
		switch (g->id) {
		case 'j':
			json = true;
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			help = true;
			break;
		case 'V':
			nn_fprintf_text(stdout, "nicnuma %s\n", NICNUMA_VERSION);
			free(nargv);
			return NN_EXIT_OK;
		case G_ROOT:
			if (!val && i + 1 >= argc) {
				nn_fprintf_text(stderr, "nicnuma: option '--root' requires a directory\n");
				free(nargv);
				return NN_EXIT_ERROR;
			}
			root = val ? val : argv[++i];
			break;
		}
	}
	if (help && json) {
		dump();
		free(nargv);
		return NN_EXIT_OK;
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
		nn_fprintf_text(stderr, "nicnuma: unknown command '%s' (see nicnuma --help)\n", nargv[0]);
		free(nargv);
		return NN_EXIT_ERROR;
	}
	err = nn_ctx_init(&ctx, root, json);
	if (err) {
		nn_fprintf_text(stderr, "nicnuma: cannot open root '%s': %s\n",
			root ? root : (getenv("NICNUMA_ROOT") ? getenv("NICNUMA_ROOT") : "/"),
			strerror(-err));
		nn_ctx_free(&ctx);
		free(nargv);
		return NN_EXIT_ERROR;
	}
	ctx.verbose = verbose;
	ret = cmd->fn(&ctx, nargc, nargv);
	/* Output that did not reach its reader is an error, warnings or not. */
	if (nn_out_flush(&ctx.out) < 0 && (ret == NN_EXIT_OK || ret == NN_EXIT_WARN)) {
		nn_fprintf_text(stderr, "nicnuma: error writing output\n");
		ret = NN_EXIT_ERROR;
	}
	nn_ctx_free(&ctx);
	free(nargv);
	return ret;
}
