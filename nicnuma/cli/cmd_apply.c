// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_apply.c - "nicnuma apply": carry out a plan, snapshot first, read back after */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/apply_request.h"

enum { OPT_KEEP_GOING = NN_OPT_OWN, OPT_COEXIST, OPT_VERIFY, OPT_VERIFY_CMD, OPT_VERIFY_BETTER, OPT_VERIFY_RUNS,
       OPT_VERIFY_MARGIN, OPT_VERIFY_STRICT };

static const struct nn_opt opts[] = {
	{ "plan", 0, NN_ARG_REQUIRED, "FILE", "apply this plan instead of planning now", NN_OPT_PLAN },
	{ "dry-run", 'n', NN_ARG_NONE, NULL, "print current -> planned for every value; write nothing", 'n' },
	{ "keep-going", 0, NN_ARG_NONE, NULL, "on a fatal write error, go on instead of rolling back",
	  OPT_KEEP_GOING },
	{ "coexist", 0, NN_ARG_NONE, NULL, "apply although another owner of IRQ placement was found (tuned, "
	  "a .link file, irqbalance bans, nicnuma watch; see 'nicnuma enable --help'); refused otherwise "
	  "(exit 2)", OPT_COEXIST },
	{ "irqbalance", 0, NN_ARG_REQUIRED, "ACTION", "what to do with a running irqbalance, which would\n"
	  "rewrite the planned affinities on its next pass:\n"
	  "stop    (default) systemctl disable --now under systemd,\n"
	  "        else SIGTERM it, remembering its command line and\n"
	  "        IRQBALANCE_* environment so rollback restarts it\n"
	  "ban     keep it, restarted with --policyscript=STATE_DIR/\n"
	  "        irqbalance-ban.sh, which bans the planned IRQs\n"
	  "ignore  leave it running (the plan will not last)\n"
	  "(default: the plan file's choice, else stop)", NN_OPT_IRQBALANCE,
	  .values = nn_irqbalance_words, .old_values = nn_irqbalance_old_words },
	{ "verify", 0, NN_ARG_REQUIRED, "SECONDS", "sample the plan's NICs (SECONDS each, --verify-runs "
	  "times) before and after applying; where a NIC's share of work on its node, or the "
	  "--verify-cmd number, got worse beyond the margin and the noise, roll everything back; "
	  "every sample goes into the report", OPT_VERIFY },
	{ "verify-cmd", 0, NN_ARG_REQUIRED, "CMD", "with --verify: run CMD (/bin/sh -c) after each "
	  "sample; it prints one number, compared before and after", OPT_VERIFY_CMD },
	{ "verify-better", 0, NN_ARG_REQUIRED, "higher|lower", "which way the --verify-cmd number is "
	  "better (default higher)", OPT_VERIFY_BETTER,
	  .values = (const char *const[]){ "higher", "lower", NULL } },
	{ "verify-runs", 0, NN_ARG_REQUIRED, "N", "with --verify: samples before and after, 1 to 25 "
	  "(default 5); medians are compared", OPT_VERIFY_RUNS },
	{ "verify-margin", 0, NN_ARG_REQUIRED, "PCT", "with --verify: a median moving less than PCT "
	  "percent is the same (default 10)", OPT_VERIFY_MARGIN },
	{ "verify-strict", 0, NN_ARG_NONE, NULL, "with --verify: roll back also when worse by more than "
	  "the margin but too noisy to tell", OPT_VERIFY_STRICT },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "snapshots and the lock (default /var/lib/nicnuma, or "
	  "$NICNUMA_STATE_DIR); resolved inside --root, so a fixture tree keeps its own snapshots",
	  NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_apply = {
	.name = "apply",
	.usage = "nicnuma [--root DIR] [--json] apply [--plan FILE] [--dry-run] [--keep-going]\n"
		 "               [--irqbalance stop|ban|ignore] [--state-dir DIR] [PLAN OPTIONS]",
	.intro =
"Put every planned queue IRQ, XPS mask (and, with --channels, channel count)\n"
"in place. Without --plan, the discovered host is planned with the same rules\n"
"and options as 'nicnuma plan'; with --plan FILE (from 'nicnuma plan --json',\n"
"'-' for stdin) that plan is used, and refused if it was made for another host\n"
"shape (CPU count, node count, NIC names and PCI addresses). Then only what\n"
"applying it needs is read: the NICs it names (no other netdev, no ethtool or\n"
"rtnetlink), the nodes and their CPUs, irqbalance and the other owners; not\n"
"the claims, knobs or node memory the plan was made from.\n"
"\n"
"How it writes:\n"
"  1. every value the plan touches is read first (an IRQ's affinity by this\n"
"     run's discovery, moments before); one that cannot be read stops the run\n"
"     with nothing changed;\n"
"  2. a snapshot of all of them (and of irqbalance's state) is saved under the\n"
"     state directory before the first write: written to a temporary file,\n"
"     fsync'd and renamed, mode 0600; 'nicnuma rollback' replays it;\n"
"  3. irqbalance is handled (see --irqbalance), then each IRQ is probed by\n"
"     writing its current value back: the kernel refuses that for kernel-\n"
"     managed IRQs (EIO; EPERM on 6.x kernels), which are reported 'managed'\n"
"     and left alone;\n"
"  4. the planned CPUs are ANDed with the online CPUs and written with one\n"
"     write(2); smp_affinity_list and effective_affinity_list are read back.\n"
"The kernel's errno decides what follows: ENOSPC (no vectors left on that CPU)\n"
"tries the NIC's next planned CPU; EINVAL, ERANGE, EOVERFLOW (bad mask) fail\n"
"that value only; EBUSY and EAGAIN are retried once; any other error, or a\n"
"value that reads back different, rolls back everything changed so far.\n"
"A lock (flock on STATE_DIR/lock), taken before the host is read, keeps two\n"
"applies from running at once. A plan whose snapshot would be larger than\n"
"rollback reads (16 MiB) is refused before anything is written.\n"
"A plan's boot arguments are written last through the bootloader (GRUB's\n"
"/etc/default/grub.d drop-in, kernel-install's /etc/kernel/cmdline, grubby),\n"
"after every check passed, with its tool run on the live root only and the\n"
"generated configuration read back; nicnuma never reboots (docs/boot.md).\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN | NN_GROUP_RSS | NN_GROUP_NET | NN_GROUP_BOOT,
	.group_title = "Plan options (as for 'nicnuma plan'; without --plan only; --irqbalance is\n"
		       "the one above):\n",
	.outro =
"Under --root DIR the files under DIR are written (a writable copy of a captured\n"
"tree); irqbalance, channels and anything else live are reported 'not touched\n"
"(fake root)'.\n"
"\n"
"Output: one row per value: KIND (irq, xps, channels), TARGET, BEFORE, PLANNED,\n"
"AFTER (read back), EFFECTIVE (effective_affinity_list), STATUS (changed,\n"
"unchanged, managed, failed, rolled_back, skipped; would_change in a dry run)\n"
"and a note. --json: {\"apply\":{\"plan_warnings\":[..],\"plan_notes\":[..],\"dry_run\",\n"
"\"values\":[{\"kind\",\"irq\",\"nic\",\n"
"\"queue\",\"path\",\"before\",\"planned\",\"after\",\"effective\",\"status\",\"note\"}],\n"
"\"irqbalance\":{\"before\",\"action\",\"status\"},\"summary\":{..},\"rolled_back\",\n"
"\"snapshot\"},\"warnings\":[..]}.\n"
"\n"
"Exit status: 0 every value applied (or unchanged, or managed); 1 done, but some\n"
"values failed (bad mask, no vectors, busy) or warnings; 2 error: nothing written,\n"
"or a fatal write error after which everything was rolled back.\n"
"\n"
"Example:\n"
"  nicnuma plan --json > p.json && nicnuma apply --plan p.json --dry-run\n"
"  nicnuma apply --plan p.json --irqbalance ban && nicnuma check --plan p.json\n",
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* What the run's plan says before the values: its warnings and notes (the
 * output opens here; nn_cmd_apply closes it). */
static void print_plan_head(struct nn_ctx *ctx, const struct nn_plan *plan)
{
	size_t i;

	nn_open_object(&ctx->out, NULL);
	nn_open_object(&ctx->out, "apply");
	nn_open_array(&ctx->out, "plan_warnings");
	for (i = 0; i < plan->nwarnings; i++)
		nn_print_string(&ctx->out, PRINT_ANY, NULL, "plan: %s\n", plan->warnings[i]);
	nn_close_array(&ctx->out);
	nn_open_array(&ctx->out, "plan_notes");
	for (i = 0; i < plan->nnotes; i++)
		nn_print_string(&ctx->out, PRINT_ANY, NULL, "plan: note: %s\n", plan->notes[i]);
	nn_close_array(&ctx->out);
}

/* --verify SECONDS and its --verify-* options: 0 or -1 with the message printed. */
static int verify_opt(struct nn_ctx *ctx, int opt, const char *arg, struct nn_verify *v)
{
	char *end;

	if (opt == OPT_VERIFY_CMD) {
		v->o.cmd = arg;
		return 0;
	}
	if (opt == OPT_VERIFY_BETTER) {
		if (strcmp(arg, "higher") && strcmp(arg, "lower")) {
			nn_err(ctx, "--verify-better: expected higher or lower, got '%s'", arg);
			return -1;
		}
		v->o.lower_better = !strcmp(arg, "lower");
		return 0;
	}
	if (opt == OPT_VERIFY_STRICT) {
		v->o.strict = true;
		return 0;
	}
	errno = 0;
	if (opt == OPT_VERIFY_RUNS) {
		long n = strtol(arg, &end, 10);

		if (errno || end == arg || *end || n < 1 || n > NN_VERIFY_RUNS_MAX) {
			nn_err(ctx, "--verify-runs: expected 1 to %d, got '%s'", NN_VERIFY_RUNS_MAX, arg);
			return -1;
		}
		v->o.runs = (unsigned int)n;
		return 0;
	}
	if (opt == OPT_VERIFY_MARGIN) {
		v->o.margin_pct = strtod(arg, &end);
		if (errno || end == arg || *end || !(v->o.margin_pct >= 0 && v->o.margin_pct <= 1000)) {
			nn_err(ctx, "--verify-margin: expected a percentage from 0 to 1000, got '%s'", arg);
			return -1;
		}
		return 0;
	}
	v->o.seconds = strtod(arg, &end);
	if (errno || end == arg || *end || !(v->o.seconds >= 0.1 && v->o.seconds <= 3600)) {
		nn_err(ctx, "--verify: expected seconds from 0.1 to 3600, got '%s'", arg);
		return -1;
	}
	return 0;
}

int nn_cmd_apply(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_plan_opts popts = { 0 };
	struct nn_apply_request r = { .popts = &popts };
	struct nn_pipeline pl = { .gate = true };
	struct nn_apply_report rep = { 0 };
	bool plan_opts = false, coexist = false;
	double t0 = now_ms();
	int opt, err, ret = NN_EXIT_ERROR;
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	struct nn_verify verify;
	bool verify_cmd_given = false;
	char **only = NULL;		/* the plan file's NIC names, into pl.plan */

	nn_pipeline_init(&pl);
	memset(&verify, 0, sizeof(verify));
	nn_verify_opts_init(&verify.o);
	popts.boot_cmd = true;
	st.plan = &popts;
	while ((opt = nn_opt_next(ctx, &nn_desc_apply, &st)) > 0) {
		switch (opt) {
		case NN_OPT_PLAN:
			r.plan_file = st.arg;
			break;
		case 'n':
			pl.ao.dry_run = true;
			break;
		case OPT_KEEP_GOING:
			pl.ao.keep_going = true;
			break;
		case OPT_COEXIST:
			coexist = true;
			break;
		case NN_OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		case OPT_VERIFY_CMD:
		case OPT_VERIFY_BETTER:
		case OPT_VERIFY_RUNS:
		case OPT_VERIFY_MARGIN:
		case OPT_VERIFY_STRICT:
			verify_cmd_given = true;
			/* fall through */
		case OPT_VERIFY:
			if (verify_opt(ctx, opt, st.arg, &verify))
				goto out;
			break;
		}
	}
	if (opt < 0) {
		ret = nn_opt_exit(opt);
		goto out;
	}
	r.irqb_given = st.plan_given & NN_PLAN_GIVEN(NN_OPT_IRQBALANCE);
	plan_opts = st.plan_given & ~NN_PLAN_GIVEN(NN_OPT_IRQBALANCE);
	if (r.plan_file && plan_opts) {
		nn_err(ctx, "apply: plan options (--nics, --cpus, ...) make a new plan; they "
		       "cannot change --plan %s", r.plan_file);
		goto out;
	}
	if (verify_cmd_given && !verify.o.seconds) {
		nn_err(ctx, "apply: --verify-cmd, --verify-better, --verify-runs, --verify-margin and "
		       "--verify-strict need --verify SECONDS");
		goto out;
	}
	if (verify.o.seconds && pl.ao.dry_run) {
		nn_err(ctx, "apply: --verify measures a real apply; not with --dry-run");
		goto out;
	}
	r.verify = verify.o.seconds ? &verify : NULL;
	/* A plan file is read (and refused) before anything else: bad input
	 * never takes the lock or creates the state directory. */
	if (r.plan_file && nn_plan_load(ctx, r.plan_file, &pl.plan))
		goto out;
	/* A plan file names its NICs: discovery reads those alone (the shape
	 * check still refuses one missing here). */
	if (r.plan_file && nn_plan_nic_names(&pl.plan, &only, &pl.nonly)) {
		nn_err(ctx, "apply: %s", strerror(ENOMEM));
		goto out;
	}
	pl.only = only;
	/* The lock (before discovery) only for a real run; another owner of
	 * the NICs refuses it (a dry run warns). */
	pl.lock = !pl.ao.dry_run;
	pl.ao.boot = true;
	pl.ao.ports = true;
	pl.gate_allow = coexist || pl.ao.dry_run;
	err = nn_apply_request_prepare(ctx, &r, &pl);
	if (pl.stage >= NN_PIPE_BEFORE_APPLY)
		print_plan_head(ctx, &pl.plan);
	if (!err)
		err = nn_apply_request_apply(ctx, &r, &pl, &rep);
	if (pl.stage < NN_PIPE_APPLIED)
		goto out;
	nn_apply_print(ctx, &rep);
	if (r.verify && verify.reason[0])
		nn_verify_print(ctx, &verify);
	if (ctx->verbose)
		nn_print_double(&ctx->out, PRINT_ANY, "elapsed_ms", "elapsed: %.1f ms\n",
				now_ms() - t0);
	nn_close_object(&ctx->out);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	if (rep.rolled_back && rep.rolled_back_by == NN_ROLLBACK_FAILURE)
		nn_err(ctx, "apply failed and was rolled back: every value is as it was");
	ret = nn_cli_status(ctx, err);
out:
	nn_apply_report_free(&rep);
	nn_pipeline_free(&pl);
	nn_plan_opts_free(&popts);
	free(only);
	return ret;
}
