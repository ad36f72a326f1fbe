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
#include "nicnuma/core/cmd_exec.h"
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

/* One sample of a window: every NIC's share, then the command's number. */
static int sample(struct nn_ctx *ctx, const struct nn_host *host, char **only, struct nn_verify *v, bool after)
{
	struct nn_obs_report r;
	size_t i, k, at = after ? v->cmd.nafter : v->cmd.nbefore;
	int err;

	err = nn_obs_once(ctx, host, only, v->o.seconds, &r);
	if (err) {
		nn_err(ctx, "--verify: observing %s apply: %s", after ? "after" : "before", strerror(-err));
		return err;
	}
	for (k = 0; k < v->nnics; k++) {
		struct nn_verify_series *s = &v->nics[k].s;

		(after ? s->after : s->before)[at] = NAN;
		for (i = 0; i < r.nnics; i++)
			if (r.nics[i].nic && !strcmp(r.nics[i].nic->name, v->nics[k].name) &&
			    r.nics[i].remote_pct >= 0)
				(after ? s->after : s->before)[at] = 100.0 - r.nics[i].remote_pct;
		*(after ? &s->nafter : &s->nbefore) = at + 1;
	}
	nn_obs_report_free(&r);
	(after ? v->cmd.after : v->cmd.before)[at] = v->o.cmd ? run_cmd(ctx, v) : NAN;
	*(after ? &v->cmd.nafter : &v->cmd.nbefore) = at + 1;
	return 0;
}

static int window(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		  struct nn_verify *v, bool after)
{
	char *only[NN_VERIFY_NICS_MAX + 1] = { NULL };
	size_t i, n = plan->nnics < NN_VERIFY_NICS_MAX ? plan->nnics : NN_VERIFY_NICS_MAX;
	unsigned int runs = v->o.runs ? v->o.runs : NN_VERIFY_RUNS_DEFAULT;
	int err;

	if (runs > NN_VERIFY_RUNS_MAX)
		runs = NN_VERIFY_RUNS_MAX;
	for (i = 0; i < n; i++)
		only[i] = plan->nics[i].nic;
	if (!after) {
		v->nnics = n;
		for (i = 0; i < n; i++) {
			memset(&v->nics[i], 0, sizeof(v->nics[i]));
			snprintf(v->nics[i].name, sizeof(v->nics[i].name), "%s", plan->nics[i].nic);
		}
		memset(&v->cmd, 0, sizeof(v->cmd));
	}
	for (i = 0; i < runs; i++)
		if ((err = sample(ctx, host, only, v, after)))
			return err;
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
			nn_apply_report_rolled_back(rep, NN_ROLLBACK_VERIFY);
			nn_warn(ctx, "--verify", "the host got worse: every value put back as it was");
		}
	}
	return err ? err : v->rolled_back;
}

void nn_verify_opts_init(struct nn_verify_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->runs = NN_VERIFY_RUNS_DEFAULT;
	o->margin_pct = NN_VERIFY_MARGIN_DEFAULT;
}

/* "95.0 -> 60.0 (medians of 5 and 5): -36.8% (noise 3.1%): worse; " */
static void say(struct nn_sb *sb, const char *what, const struct nn_judgement *j, const char *unit)
{
	if (j->verdict == NN_VERDICT_UNKNOWN) {
		nn_sb_printf(sb, "%s unknown on a side: not judged; ", what);
		return;
	}
	nn_sb_printf(sb, "%s %.4g%s -> %.4g%s (medians of %zu and %zu): %+.1f%% the better way, noise %.1f%%: %s; ",
		     what, j->med_before, unit, j->med_after, unit, j->n_before, j->n_after, j->change_pct,
		     j->noise_pct, nn_verdict_name(j->verdict));
}

void nn_verify_judge(struct nn_verify *v)
{
	struct nn_sb sb = NN_SB_INIT;
	bool worse = false, noisy = false, better = false, same = false;
	size_t i;
	const char *t;

	v->worse = false;
	for (i = 0; i <= v->nnics; i++) {
		struct nn_verify_series *s = i < v->nnics ? &v->nics[i].s : &v->cmd;
		char what[64];

		if (i == v->nnics && !v->o.cmd)
			break;
		nn_judge_samples(s->before, s->nbefore, s->after, s->nafter, i == v->nnics && v->o.lower_better,
				 v->o.margin_pct, &s->j);
		if (i < v->nnics)
			snprintf(what, sizeof(what), "%s: share of work on its node", v->nics[i].name);
		else
			snprintf(what, sizeof(what), "the command's number (%s is better)",
				 v->o.lower_better ? "lower" : "higher");
		say(&sb, what, &s->j, i < v->nnics ? "%" : "");
		worse |= s->j.verdict == NN_VERDICT_WORSE;
		noisy |= s->j.verdict == NN_VERDICT_NOISY;
		better |= s->j.verdict == NN_VERDICT_BETTER;
		same |= s->j.verdict == NN_VERDICT_SAME;
	}
	if (!v->measured_after) {
		nn_sb_free(&sb);
		v->verdict = "already_as_planned";
		snprintf(v->reason, sizeof(v->reason), "already as planned: nothing changed, nothing to verify");
		return;
	}
	v->verdict = worse ? "worse" : noisy ? "too_noisy" : better ? "better" : same ? "same" : "not_judged";
	v->worse = worse || (noisy && v->o.strict);
	if (worse)
		nn_sb_printf(&sb, "worse beyond the noise: rolled back");
	else if (noisy)
		nn_sb_printf(&sb, "worse by more than the %g%% margin but within the noise: too noisy to tell: %s",
			     v->o.margin_pct, v->o.strict ? "rolled back (--verify-strict)" : "kept");
	else
		nn_sb_printf(&sb, "kept");
	t = nn_sb_str(&sb);
	snprintf(v->reason, sizeof(v->reason), "%s", t ? t : "?");
	nn_sb_free(&sb);
}

/* A median or a sample: null when unknown. */
static void print_num(struct nn_out *o, const char *key, double d)
{
	if (isnan(d))
		nn_print_null(o, PRINT_JSON, key, NULL);
	else
		nn_print_double(o, PRINT_JSON, key, NULL, d);
}

static void print_samples(struct nn_out *o, const struct nn_verify_series *s)
{
	size_t i;

	nn_open_array(o, "before");
	for (i = 0; i < s->nbefore; i++)
		print_num(o, NULL, s->before[i]);
	nn_close_array(o);
	nn_open_array(o, "after");
	for (i = 0; i < s->nafter; i++)
		print_num(o, NULL, s->after[i]);
	nn_close_array(o);
}

static void print_judgement(struct nn_out *o, const char *prefix, const struct nn_judgement *j)
{
	char key[48];

	snprintf(key, sizeof(key), "%schange_pct", prefix);
	print_num(o, key, j->change_pct);
	snprintf(key, sizeof(key), "%snoise_pct", prefix);
	print_num(o, key, j->noise_pct);
	snprintf(key, sizeof(key), "%sverdict", prefix);
	nn_print_string(o, PRINT_JSON, key, NULL, nn_verdict_name(j->verdict));
}

void nn_verify_print(struct nn_ctx *ctx, const struct nn_verify *v)
{
	struct nn_out *o = &ctx->out;
	size_t i;

	nn_open_object(o, "verify");
	nn_print_double(o, PRINT_JSON, "seconds", NULL, v->o.seconds);
	nn_print_uint(o, PRINT_JSON, "runs", NULL, v->o.runs);
	nn_print_double(o, PRINT_JSON, "margin_pct", NULL, v->o.margin_pct);
	nn_print_bool(o, PRINT_JSON, "strict", NULL, v->o.strict);
	if (v->o.cmd)
		nn_print_string(o, PRINT_JSON, "command", NULL, v->o.cmd);
	else
		nn_print_null(o, PRINT_JSON, "command", NULL);
	nn_print_string(o, PRINT_JSON, "better", NULL, v->o.lower_better ? "lower" : "higher");
	nn_open_array(o, "nics");
	for (i = 0; i < v->nnics; i++) {
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_JSON, "nic", NULL, v->nics[i].name);
		print_num(o, "local_share_before", v->nics[i].s.j.med_before);
		print_num(o, "local_share_after", v->nics[i].s.j.med_after);
		print_judgement(o, "", &v->nics[i].s.j);
		nn_close_object(o);
	}
	nn_close_array(o);
	print_num(o, "command_before", v->cmd.j.med_before);
	print_num(o, "command_after", v->cmd.j.med_after);
	print_judgement(o, "command_", &v->cmd.j);
	nn_open_object(o, "samples");
	if (v->o.cmd) {
		nn_open_object(o, "command");
		print_samples(o, &v->cmd);
		nn_close_object(o);
	} else {
		nn_print_null(o, PRINT_JSON, "command", NULL);
	}
	nn_open_array(o, "nics");
	for (i = 0; i < v->nnics; i++) {
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_JSON, "nic", NULL, v->nics[i].name);
		print_samples(o, &v->nics[i].s);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_close_object(o);
	nn_print_bool(o, PRINT_JSON, "measured_after", NULL, v->measured_after);
	nn_print_bool(o, PRINT_JSON, "worse", NULL, v->worse);
	nn_print_bool(o, PRINT_JSON, "rolled_back", NULL, v->rolled_back);
	nn_print_string(o, PRINT_JSON, "verdict", NULL, v->verdict ? v->verdict : "not_judged");
	nn_print_string(o, PRINT_ANY, "reason", "verify: %s\n", v->reason);
	nn_close_object(o);
}
