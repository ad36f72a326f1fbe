// SPDX-License-Identifier: GPL-2.0-or-later
/* verify.c - apply --verify: one window of the observe engine (and the
 * user's command) before and after apply; the judgement is pure */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/print.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/act/bench_exec.h"
#include "nicnuma/act/cmd_exec.h"
#include "nicnuma/act/observe.h"
#include "nicnuma/act/pipeline.h"
#include "nicnuma/act/verify.h"
#include "nicnuma/plan/plan.h"

int nn_verify_parse_number(const char *s, double *val)
{
	char *end;
	double d;

	if (!s)
		return -EINVAL;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	errno = 0;
	d = strtod(s, &end);
	if (end == s || errno || !isfinite(d))
		return -EINVAL;
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (*end)
		return -EINVAL;
	*val = d;
	return 0;
}

/* The user's command, bounded (cmd_exec.h): its one number, or NAN with a warning. */
static double run_cmd(struct nn_ctx *ctx, const struct nn_verify *v)
{
	struct nn_cmd_result res;
	char *out = NULL, *err = NULL;
	sigset_t old;
	double d = NAN;
	int e;

	if (nn_bench_signals_block(&old))
		return NAN;
	e = nn_cmd_run(v->o.cmd, &old, v->o.seconds * 4 + 60, &out, &err, &res);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (e)
		nn_warn(ctx, "--verify-cmd", "could not run: %s", strerror(-e));
	else if (res.timed_out)
		nn_warn(ctx, "--verify-cmd", "still running after %g s: ended, not judged", v->o.seconds * 4 + 60);
	else if (res.status)
		nn_warn(ctx, "--verify-cmd", "exited %d: not judged", res.status);
	else if (res.out_dropped)
		nn_warn(ctx, "--verify-cmd", "printed more than %d KiB (%zu bytes past it dropped): not judged",
			NN_CMD_OUT_MAX / 1024, res.out_dropped);
	else if (nn_verify_parse_number(out, &d))
		nn_warn(ctx, "--verify-cmd", "printed no single number ('%.40s'): not judged", out ? out : "");
	free(out);
	free(err);
	return d;
}

static int window(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		  struct nn_verify *v, bool after)
{
	char *only[NN_VERIFY_NICS_MAX + 1] = { NULL };
	struct nn_obs_report r;
	size_t i, k, n = plan->nnics < NN_VERIFY_NICS_MAX ? plan->nnics : NN_VERIFY_NICS_MAX;
	int err;

	for (i = 0; i < n; i++)
		only[i] = plan->nics[i].nic;
	if (!after) {
		v->nnics = n;
		for (i = 0; i < n; i++) {
			snprintf(v->nics[i].name, sizeof(v->nics[i].name), "%s", plan->nics[i].nic);
			v->nics[i].before = v->nics[i].after = -1;
		}
		v->cmd_before = v->cmd_after = NAN;
	}
	err = nn_obs_once(ctx, host, only, v->o.seconds, &r);
	if (err) {
		nn_err(ctx, "--verify: observing %s apply: %s", after ? "after" : "before", strerror(-err));
		return err;
	}
	for (i = 0; i < r.nnics; i++)
		for (k = 0; k < v->nnics; k++)
			if (r.nics[i].nic && !strcmp(r.nics[i].nic->name, v->nics[k].name)) {
				double share = r.nics[i].remote_pct < 0 ? -1 : 100.0 - r.nics[i].remote_pct;

				*(after ? &v->nics[k].after : &v->nics[k].before) = share;
			}
	nn_obs_report_free(&r);
	if (v->o.cmd)
		*(after ? &v->cmd_after : &v->cmd_before) = run_cmd(ctx, v);
	if (after)
		v->measured_after = true;
	return 0;
}

int nn_verify_before(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		     struct nn_verify *v)
{
	return window(ctx, host, plan, v, false);
}

int nn_verify_after(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		    struct nn_verify *v)
{
	return window(ctx, host, plan, v, true);
}

int nn_verify_finish(struct nn_ctx *ctx, struct nn_pipeline *pl, struct nn_apply_report *rep,
		     struct nn_verify *v)
{
	int err = 0;

	if ((rep->counts[NN_VAL_CHANGED] > 0 || (rep->irqb_done && !rep->irqb.noop)) &&
	    (err = nn_verify_after(ctx, &pl->host, &pl->plan, v)))
		return err;
	nn_verify_judge(v);
	if (v->worse) {
		err = nn_pipeline_abort(pl);
		v->rolled_back = !err;
		if (err) {
			nn_err(ctx, "--verify: rolling back failed: %s; see 'nicnuma rollback'", strerror(-err));
		} else {
			/* the apply report says it too: its values are no longer "changed" */
			nn_apply_report_rolled_back(rep, "verify");
			nn_warn(ctx, "--verify", "the host got worse: every value put back as it was");
		}
	}
	return err ? err : v->rolled_back;
}

/* The verdict's text, through the string builder, copied into @v (cut at its size). */
static void set_verdict(struct nn_verify *v, struct nn_sb *sb)
{
	const char *t = nn_sb_str(sb);

	snprintf(v->verdict, sizeof(v->verdict), "%s", t ? t : "?");
	nn_sb_free(sb);
}

void nn_verify_judge(struct nn_verify *v)
{
	struct nn_sb sb = NN_SB_INIT;
	size_t i, judged = 0;

	v->worse = false;
	if (!v->measured_after) {
		nn_sb_printf(&sb, "already as planned: nothing changed, nothing to verify");
		set_verdict(v, &sb);
		return;
	}
	for (i = 0; i < v->nnics; i++) {
		const struct nn_verify_nic *n = &v->nics[i];

		if (n->before < 0 || n->after < 0)
			continue;
		judged++;
		if (n->after < n->before - NN_VERIFY_SHARE_SLACK) {
			v->worse = true;
			nn_sb_printf(&sb, "%s: share of work on its node fell from %.1f%% to %.1f%%; ", n->name,
				     n->before, n->after);
		}
	}
	if (!judged)
		nn_sb_printf(&sb, "no NIC's share of work on its node known on both sides (no traffic?): "
			     "not judged; ");
	if (v->o.cmd) {
		if (isnan(v->cmd_before) || isnan(v->cmd_after)) {
			nn_sb_printf(&sb, "the command's number unknown on one side: not judged; ");
		} else if (v->o.lower_better ? v->cmd_after > v->cmd_before : v->cmd_after < v->cmd_before) {
			v->worse = true;
			nn_sb_printf(&sb, "the command's number got worse: %g before, %g after (%s is better); ",
				     v->cmd_before, v->cmd_after, v->o.lower_better ? "lower" : "higher");
		} else {
			nn_sb_printf(&sb, "the command's number: %g before, %g after; ", v->cmd_before, v->cmd_after);
		}
	}
	nn_sb_printf(&sb, "%s", v->worse ? "worse: rolled back" : "kept");
	set_verdict(v, &sb);
}

static void print_fig(struct nn_out *o, const char *key, const char *fmt, double d)
{
	if (d < 0 || isnan(d))
		nn_print_null(o, PRINT_JSON, key, NULL);
	else
		nn_print_double(o, PRINT_JSON, key, fmt, d);
}

/* The command's number: any sign, null when unknown. */
static void print_num(struct nn_out *o, const char *key, double d)
{
	if (isnan(d))
		nn_print_null(o, PRINT_JSON, key, NULL);
	else
		nn_print_double(o, PRINT_JSON, key, NULL, d);
}

void nn_verify_print(struct nn_ctx *ctx, const struct nn_verify *v)
{
	struct nn_out *o = &ctx->out;
	size_t i;

	nn_open_object(o, "verify");
	nn_print_double(o, PRINT_JSON, "seconds", NULL, v->o.seconds);
	if (v->o.cmd)
		nn_print_string(o, PRINT_JSON, "command", NULL, v->o.cmd);
	else
		nn_print_null(o, PRINT_JSON, "command", NULL);
	nn_print_string(o, PRINT_JSON, "better", NULL, v->o.lower_better ? "lower" : "higher");
	nn_open_array(o, "nics");
	for (i = 0; i < v->nnics; i++) {
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_JSON, "nic", NULL, v->nics[i].name);
		print_fig(o, "local_share_before", NULL, v->nics[i].before);
		print_fig(o, "local_share_after", NULL, v->nics[i].after);
		nn_close_object(o);
	}
	nn_close_array(o);
	print_num(o, "command_before", v->cmd_before);
	print_num(o, "command_after", v->cmd_after);
	nn_print_bool(o, PRINT_JSON, "measured_after", NULL, v->measured_after);
	nn_print_bool(o, PRINT_JSON, "worse", NULL, v->worse);
	nn_print_bool(o, PRINT_JSON, "rolled_back", NULL, v->rolled_back);
	nn_print_string(o, PRINT_ANY, "verdict", "verify: %s\n", v->verdict);
	nn_close_object(o);
}
