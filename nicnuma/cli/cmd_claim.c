// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_claim.c - "nicnuma claim", "release" and "claims": run-time CPU claims (docs/claims.md) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/service/claim.h"
#include "nicnuma/service/claim_sched.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/names.h"

enum { OPT_CPUS = NN_OPT_OWN, OPT_NAME, OPT_PID, OPT_REASON, OPT_COEXIST, OPT_PRUNE, OPT_SCHED };

static const struct nn_opt claim_opts[] = {
	{ "cpus", 0, NN_ARG_REQUIRED, "CPULIST", "the CPUs claimed (kernel form: 1,4-7); each must be "
	  "an online CPU", OPT_CPUS },
	{ "pid", 0, NN_ARG_REQUIRED, "PID", "the claim ends when this process does (pid and start "
	  "time: a recycled pid is not it)", OPT_PID },
	{ "reason", 0, NN_ARG_REQUIRED, "TEXT", "why, for status and claims (at most 512 characters)",
	  OPT_REASON },
	/* release's options from here on */
	{ "name", 0, NN_ARG_REQUIRED, "NAME", "the claim's name (A-Z a-z 0-9 _ . : @ -, at most 128)",
	  OPT_NAME },
	{ "dry-run", 'n', NN_ARG_NONE, NULL, "check everything, record nothing", 'n' },
	{ "coexist", 0, NN_ARG_NONE, NULL, "re-apply here beside another owner of IRQ placement "
	  "(warnings)", OPT_COEXIST },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "snapshots, the lock and enabled.json (the "
	  "re-apply's)", NN_OPT_STATE_DIR },
	{ "sched", 0, NN_ARG_REQUIRED, "POLICY", "fifo (default as root on the live host): SCHED_FIFO "
	  "priority 1 (else nice -20) until the record is written and re-applied, so that a loaded "
	  "host's threads do not hold the claim up; other: leave it as started", OPT_SCHED },
	{ 0 },
};

#define CLAIM_APPLY_TEXT \
"The placement is then re-applied through the one pipeline and undo log:\n" \
"a running 'nicnuma watch' sees the record at once (inotify) and moves queue\n" \
"IRQs, NAPI threads and XPS off the claimed CPUs onto the NIC's other local\n" \
"CPUs; without a watcher this command does it itself under the state lock,\n" \
"as 'nicnuma watch --once' would (the desired state of 'nicnuma enable').\n" \
"Not enabled: the claim is recorded and every later plan, apply and check\n" \
"leaves its CPUs out; nothing is moved now (a note says so).\n"

const struct nn_cmd_desc nn_desc_claim = {
	.name = "claim",
	.usage = "nicnuma [--root DIR] [--json] claim --cpus CPULIST --name NAME [--pid PID]\n"
		 "               [--reason TEXT] [--dry-run] [--coexist] [--state-dir DIR]\n"
		 "               [--sched fifo|other]",
	.intro =
"Claim CPUs for a workload: no NIC work (queue IRQs, NAPI threads, XPS,\n"
"housekeeping IRQs) may use them while the claim lasts. The claim is a\n"
"record under /run/nicnuma/claims (root's, 0600), until 'nicnuma release\n"
"NAME', or with --pid until that process is gone (also after SIGKILL: the\n"
"watcher and 'nicnuma claims' end it when they next look).\n"
"Only root may claim. Refused with a message and nothing changed: a bad\n"
"name, a CPU that does not exist or is offline, claims that would leave no\n"
"CPU for NIC work, a pid that does not exist, a live claim of that name.\n"
"\n" CLAIM_APPLY_TEXT,
	.opts = claim_opts,
	.outro =
"Output: what was claimed and how it was applied: by the watcher, here, or\n"
"not (not enabled, or --dry-run). --dry-run previews the placement that would\n"
"follow: the plan (the desired state's, or the default one 'apply' makes)\n"
"with and without this claim, and each IRQ that would move (from, to, its\n"
"reason) and how many leave their NIC's node. --json: {\"claim\":{\"name\",\n"
"\"cpus\",\"pid\",\"preview\" (--dry-run: {\"plan\" (desired, default),\"enabled\",\n"
"\"moves\":[{\"irq\",\"nic\",\"queue\",\"from\",\"to\",\"spill\",\"reason\"}],\"spills\"}),\n"
"\"recorded\",\"applied\" (watcher, self, none),\"apply_status\"},\"warnings\":[..],\n"
"\"notes\":[..]}.\n"
"\n"
"Exit status: 0 claimed (and applied where it applies), 1 claimed with\n"
"warnings or failed values, 2 refused or an error (not root).\n",
};

const struct nn_cmd_desc nn_desc_release = {
	.name = "release",
	.usage = "nicnuma [--root DIR] [--json] release [--dry-run] [--coexist] [--state-dir DIR]\n"
		 "               [--sched fifo|other] --name NAME | NAME",
	.intro =
"End claim NAME (--name NAME, as claim takes it, or NAME alone): its record\n"
"is removed and the placement re-applied as for 'nicnuma claim' (by the\n"
"running watcher, or here), so NIC work may use its CPUs again. Only root may release. A cpuset partition is no record: it\n"
"ends when the partition does.\n",
	.opts = claim_opts + 3,
	.args = "[NAME]",
	.outro =
"--json: {\"release\":{\"name\",\"recorded\",\"applied\",\"apply_status\"},\"warnings\":[..],\n"
"\"notes\":[..]}.\n"
"\n"
"Exit status: 0 released, 1 with warnings, 2 no such claim, not root, or an error.\n",
};

static const struct nn_opt claims_opts[] = {
	{ "prune", 0, NN_ARG_NONE, NULL, "remove the stale records (their owners are gone) and list them as "
	  "pruned; root on the live host only", OPT_PRUNE },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_claims = {
	.name = "claims",
	.usage = "nicnuma [--root DIR] [--json] claims [--prune]",
	.intro =
"Every claim now: the records of 'nicnuma claim' and of the OCI hook, and\n"
"the cgroup v2 cpuset partitions (an isolated partition's CPUs, the root's\n"
"cpuset.cpus.isolated; root partitions when the desired state says\n"
"claim_root_partitions = yes), each with its source, owner, CPUs and whether\n"
"it is live or stale (its process is gone). A stale record claims nothing\n"
"and is listed as such; --prune removes it (as the watcher does) and lists\n"
"it as pruned. A record that breaks the trust rule (not root's,\n"
"not 0600, not one link, too big, not valid) is ignored with a warning.\n",
	.opts = claims_opts,
	.outro =
"--json: {\"claims\":{\"claimed\",\"cgroup\":{\"mount\",\"cpuset\",\"note\",\n"
"\"invalid_partitions\"},\"items\":[{\"name\",\"source\" (record, partition,\n"
"cgroup_isolated),\"owner\" (claim, hook, cpuset),\"cpus\",\"live\",\"pruned\",\"stale_reason\",\n"
"\"pid\",\"container_id\",\"reason\",\"created\"}]},\"warnings\":[..],\"notes\":[..]}.\n"
"\n"
"Exit status: 0, 1 with warnings (a refused record), 2 an error (--prune\n"
"when not root on the live host).\n",
};

static int parse_sched(struct nn_ctx *ctx, const char *arg, enum nn_watch_sched *out)
{
	if (!nn_watch_sched_parse(arg, out))
		return 0;
	nn_err(ctx, "--sched: expected fifo or other, got '%s'", arg);
	return -EINVAL;
}

static const char *applied_name(enum nn_claim_applied a)
{
	return a == NN_CLAIM_BY_WATCHER ? "watcher" : a == NN_CLAIM_BY_SELF ? "self" : "none";
}

static void print_result(struct nn_ctx *ctx, const struct nn_claim_result *res, bool dry)
{
	struct nn_out *o = &ctx->out;

	nn_print_bool(o, PRINT_JSON, "recorded", NULL, res->recorded);
	nn_print_string(o, PRINT_JSON, "applied", NULL, applied_name(res->applied));
	nn_print_int(o, PRINT_JSON, "apply_status", NULL, res->apply_rc);
	if (dry)
		nn_printf(o, "dry run: nothing recorded\n");
	else if (res->applied == NN_CLAIM_BY_WATCHER)
		nn_printf(o, "applied by the running watcher\n");
	else if (res->applied == NN_CLAIM_BY_SELF)
		nn_printf(o, "applied here under the state lock (no watcher runs)%s\n",
			  res->apply_rc ? ": some values failed" : "");
	else if (res->recorded && res->not_enabled)
		nn_printf(o, "nothing moved: nicnuma is not enabled and no watcher runs ('nicnuma apply' "
			  "places NIC work by the claims now; 'nicnuma enable' and its watcher keep doing so)\n");
	else if (res->recorded)
		nn_printf(o, "recorded, not applied now%s\n", res->apply_rc < 0 ?
			  ": the re-apply failed (see above); the watcher or the next apply takes it" : "");
}

static int finish(struct nn_ctx *ctx, int err, const struct nn_claim_result *res)
{
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	if (!err && res->apply_rc)
		return res->apply_rc < 0 ? NN_EXIT_ERROR : NN_EXIT_WARN;
	return nn_cli_status(ctx, err);
}

int nn_cmd_claim(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_claim c = NN_CLAIM_INIT;
	struct nn_claim_result res = { 0 };
	enum nn_watch_sched sched = NN_WATCH_SCHED_DEFAULT;
	struct nn_claim_sched saved;
	unsigned int flags = 0;
	unsigned long pid;
	const char *why = NULL;
	bool have_cpus = false;
	int opt, err, ret = NN_EXIT_ERROR;

	while ((opt = nn_opt_next(ctx, &nn_desc_claim, &st)) > 0) {
		switch (opt) {
		case OPT_CPUS:
			if (nn_cpuset_parse_list(st.arg, &c.cpus) || nn_cpuset_empty(&c.cpus)) {
				nn_err(ctx, "claim: --cpus '%.64s%s': expected a CPU list (1,4-7) below %d",
				       st.arg, strlen(st.arg) > 64 ? "..." : "", NN_CPU_MAX);
				goto out;
			}
			have_cpus = true;
			break;
		case OPT_NAME:
			c.name = st.arg;
			break;
		case OPT_PID:
			if (nn_name_decimal(st.arg, NN_PID_MAX, &pid, &why) || pid == 0) {
				nn_err(ctx, "claim: --pid '%.32s': not a process id%s%s", st.arg,
				       why ? ": " : "", why ? why : "");
				goto out;
			}
			c.pid = (int)pid;
			break;
		case OPT_REASON:
			c.reason = st.arg;
			break;
		case 'n':
			flags |= NN_CLAIM_DRY_RUN;
			break;
		case OPT_COEXIST:
			flags |= NN_CLAIM_COEXIST;
			break;
		case NN_OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		case OPT_SCHED:
			if (parse_sched(ctx, st.arg, &sched))
				goto out;
			break;
		}
	}
	if (opt < 0) {
		ret = nn_opt_exit(opt);
		goto out;
	}
	if (!have_cpus || !c.name) {
		nn_err(ctx, "claim: --cpus and --name are required");
		goto out;
	}
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "claim");
	nn_print_string(&ctx->out, PRINT_ANY, "name", "claim %s", c.name);
	nn_print_cpuset(&ctx->out, PRINT_ANY, "cpus", ": CPUs %s", &c.cpus);
	nn_print_opt_int(&ctx->out, PRINT_ANY, "pid", ", pid %lld\n", c.pid, "none");
	nn_claim_sched_raise(sched, nn_root_is_live(&ctx->root), &saved);
	err = nn_claim_add(ctx, &c, flags, NULL, &res);
	nn_claim_sched_drop(&saved);
	if (!err)
		print_result(ctx, &res, flags & NN_CLAIM_DRY_RUN);
	nn_close_object(&ctx->out);
	ret = finish(ctx, err, &res);
out:
	/* name and reason point into argv */
	nn_cpuset_free(&c.cpus);
	return ret;
}

int nn_cmd_release(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_claim_result res = { 0 };
	unsigned int flags = 0;
	const char *name = NULL;
	enum nn_watch_sched sched = NN_WATCH_SCHED_DEFAULT;
	struct nn_claim_sched saved;
	int opt, err;

	while ((opt = nn_opt_next(ctx, &nn_desc_release, &st)) > 0) {
		switch (opt) {
		case 'n':
			flags |= NN_CLAIM_DRY_RUN;
			break;
		case OPT_COEXIST:
			flags |= NN_CLAIM_COEXIST;
			break;
		case NN_OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		case OPT_NAME:
			name = st.arg;
			break;
		case OPT_SCHED:
			if (parse_sched(ctx, st.arg, &sched))
				return NN_EXIT_ERROR;
			break;
		}
	}
	if (opt < 0)
		return nn_opt_exit(opt);
	if (st.ind + (name ? 0 : 1) != argc) {
		nn_err(ctx, "release: one claim NAME expected (--name NAME or NAME)");
		return NN_EXIT_ERROR;
	}
	if (!name)
		name = argv[st.ind];
	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "release");
	nn_print_string(&ctx->out, PRINT_ANY, "name", "release %s\n", name);
	nn_claim_sched_raise(sched, nn_root_is_live(&ctx->root), &saved);
	err = nn_claim_release(ctx, name, flags, &res);
	nn_claim_sched_drop(&saved);
	if (!err)
		print_result(ctx, &res, flags & NN_CLAIM_DRY_RUN);
	nn_close_object(&ctx->out);
	return finish(ctx, err, &res);
}

int nn_cmd_claims(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_claims cl;
	bool prune = false;
	int opt, err;

	while ((opt = nn_opt_next(ctx, &nn_desc_claims, &st)) > 0)
		prune = prune || opt == OPT_PRUNE;
	if (opt < 0)
		return nn_opt_exit(opt);
	err = nn_claims_list(ctx, prune, &cl);
	if (err == -EPERM)
		return NN_EXIT_ERROR;
	if (err) {
		nn_err(ctx, "claims: %s", strerror(-err));
		return NN_EXIT_ERROR;
	}
	nn_open_object(&ctx->out, NULL);
	nn_claims_print(ctx, &cl);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	nn_claims_free(&cl);
	return nn_cli_status(ctx, 0);
}
