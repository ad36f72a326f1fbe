// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_hook.c - "nicnuma hook": the OCI runtime hook that claims a container's CPUs */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/service/oci_hook.h"

enum { OPT_STAGE = NN_OPT_OWN, OPT_DEADLINE };

static const struct nn_opt opts[] = {
	{ "stage", 0, NN_ARG_REQUIRED, "STAGE", "the hook stage it runs at: prestart, createRuntime, "
	  "createContainer, startContainer or poststart claim; poststop releases (default: from the "
	  "state's status)", OPT_STAGE },
	{ "deadline-ms", 0, NN_ARG_REQUIRED, "MS", "the whole run's bound (default 2000, at most 30000): "
	  "past it the hook exits 0 and the re-apply finishes in the background", OPT_DEADLINE },
	{ "dry-run", 'n', NN_ARG_NONE, NULL, "read and decide, print what it would claim; change nothing", 'n' },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "snapshots and the lock, when the hook applies itself "
	  "(no watcher running)", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_hook = {
	.name = "hook",
	.usage = "nicnuma [--root DIR] [--json] hook [--stage STAGE] [--deadline-ms MS] [--dry-run]\n"
		 "       [--state-dir DIR] < STATE",
	.intro =
"An OCI runtime hook (runc, crun, podman, CRI-O): reads the container's state\n"
"(JSON on stdin: ociVersion, id, status, pid, bundle, annotations) and its\n"
"bundle's config.json. When the annotations ask for it -\n"
"irq-load-balancing.crio.io: disable (or true) claims every CPU of\n"
"linux.resources.cpu.cpus; housekeeping claims all but the first CPU and its\n"
"SMT siblings, which keep taking IRQs; nicnuma.io/claim: true claims them all;\n"
"nicnuma.io/claim: false never claims - it claims those CPUs as\n"
"oci-CONTAINER_ID, owned by the container's pid, so no queue IRQ, NAPI thread\n"
"or XPS CPU stays on them. poststop releases the claim. A pod sandbox (pause)\n"
"container claims nothing. A running watcher re-applies at once; without one\n"
"the hook applies itself under the state lock (docs/claims.md).\n"
"\n"
"A hook must never stop a container: the run is bounded (--deadline-ms),\n"
"and whatever fails on nicnuma's side - bad or hostile input (not JSON, not\n"
"UTF-8, over 1 MiB of state or 8 MiB of config, a wrong type, a pid out of\n"
"range, CPUs that do not exist), not root, a full disk - is said on stderr and\n"
"in the journal and changes nothing, and the exit status is still 0.\n",
	.opts = opts,
	.outro =
"Output: stage, container, action (claim, release, none), mode, claim, cpus,\n"
"outcome, applied (watcher, self, no), elapsed. --json: {\"hook\":{\"stage\",\n"
"\"container_id\",\"action\",\"mode\",\"name\",\"cpus\",\"outcome\",\"applied\",\n"
"\"elapsed_ms\"}}.\n"
"\n"
"Exit status: always 0 (the reasons are on stderr), also for a bad option.\n",
};

int nn_cmd_hook(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_hook_opts o = { .deadline_ms = NN_HOOK_DEADLINE_MS, .in_fd = 0 };
	char *end;
	long v;
	int opt;

	while ((opt = nn_opt_next(ctx, &nn_desc_hook, &st)) > 0) {
		switch (opt) {
		case OPT_STAGE:
			v = nn_oci_stage_parse(st.arg);
			if (v < 0) {
				nn_err(ctx, "hook: --stage %s is no OCI hook stage; nothing claimed", st.arg);
				return NN_EXIT_OK;
			}
			o.stage = (enum nn_oci_stage)v;
			break;
		case OPT_DEADLINE:
			errno = 0;
			v = strtol(st.arg, &end, 10);
			if (errno || *end || end == st.arg || v < 1 || v > NN_HOOK_DEADLINE_MAX_MS) {
				nn_err(ctx, "hook: --deadline-ms %s is not 1..%d; nothing claimed", st.arg,
				       NN_HOOK_DEADLINE_MAX_MS);
				return NN_EXIT_OK;
			}
			o.deadline_ms = (unsigned int)v;
			break;
		case 'n':
			o.dry_run = true;
			break;
		case NN_OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		}
	}
	/* --help is 0 anyway; a bad option must not stop the container either */
	if (opt < 0)
		return NN_EXIT_OK;
	nn_open_object(&ctx->out, NULL);
	nn_hook_run(ctx, &o);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	return NN_EXIT_OK;
}
