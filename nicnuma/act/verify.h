/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verify.h - apply --verify: the same window measured before and after
 * apply, and the whole transaction rolled back where the host got worse
 *
 * A window is --verify-runs samples; a sample is SECONDS of the observe
 * engine (nn_obs_once) over the plan's NICs, then the user's command when
 * given (run bounded with /bin/sh -c, core/cmd_exec.h; its stdout one
 * number). Each NIC's share of work on its node (100 - the worst off-node
 * share of its interrupts, softirqs and NAPI threads, observe's remote_pct)
 * and the command's number are judged over the two windows' samples by
 * plan/verify_judge.h: medians compared with --verify-margin and the noise
 * of the samples. Worse beyond the noise anywhere rolls the transaction
 * back; too noisy to tell is kept and said (--verify-strict rolls it back).
 * A figure unknown on either side (no traffic, a command that printed no
 * number) is not judged, and the report says so.
 */
#ifndef NICNUMA_ACT_VERIFY_H
#define NICNUMA_ACT_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_host;
struct nn_plan;

#include "nicnuma/plan/verify_judge.h"

#define NN_VERIFY_NICS_MAX 64
#define NN_VERIFY_RUNS_MAX 25
#define NN_VERIFY_RUNS_DEFAULT 5
#define NN_VERIFY_MARGIN_DEFAULT 10.0	/* percent of the before median */

struct nn_verify_opts {
	double seconds;			/* one sample's observation; 0: no verification */
	const char *cmd;		/* NULL: the observed share alone */
	bool lower_better;		/* --verify-better lower */
	unsigned int runs;		/* samples a window */
	double margin_pct;		/* a move within it is "same" */
	bool strict;			/* too noisy to tell: rolled back */
};

/* One figure's samples of both windows (NAN unknown) and their judgement. */
struct nn_verify_series {
	double before[NN_VERIFY_RUNS_MAX], after[NN_VERIFY_RUNS_MAX];
	size_t nbefore, nafter;
	struct nn_judgement j;
};

struct nn_verify_nic {
	char name[16];
	struct nn_verify_series s;	/* local share in percent */
};

struct nn_verify {
	struct nn_verify_opts o;
	struct nn_verify_nic nics[NN_VERIFY_NICS_MAX];
	size_t nnics;
	struct nn_verify_series cmd;	/* the command's number */
	bool measured_after;		/* false: nothing changed, nothing to compare */
	bool worse;			/* rolled back for it (worse, or too noisy with strict) */
	const char *verdict;		/* better, same, too_noisy, worse, not_judged, already_as_planned */
	bool rolled_back;
	char reason[640];
};

/* Sets @o's defaults (runs, margin). */
void nn_verify_opts_init(struct nn_verify_opts *o);
/* The window before apply, for the plan's NICs on @host (@v->o set). 0, or
 * a negative errno with the message printed (the observe engine, or a
 * command that could not run). */
int nn_verify_before(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		     struct nn_verify *v);
/* The same window after apply. */
int nn_verify_after(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		    struct nn_verify *v);
/* After the apply of @pl (@rep its report): the window after when the run
 * changed something, the judgement, and a worse host put back through the
 * pipeline's transaction (nn_pipeline_abort), after which @rep says so
 * (nn_apply_report_rolled_back: its values "rolled_back", rolled_back true,
 * rolled_back_by NN_ROLLBACK_VERIFY). Prints nothing: the caller prints @rep, then
 * the "verify" object (nn_verify_print). 0 kept, 1 rolled back, or a
 * negative errno (the window could not be measured, or the rollback failed:
 * then 'nicnuma rollback' is named). */
struct nn_pipeline;
struct nn_apply_report;
int nn_verify_finish(struct nn_ctx *ctx, struct nn_pipeline *pl, struct nn_apply_report *rep,
		     struct nn_verify *v);
/* Pure: judges every series and sets v->worse, v->verdict and v->reason. */
void nn_verify_judge(struct nn_verify *v);
/* Parses a command's stdout: one number (leading/trailing blanks allowed). 0 or -EINVAL. */
int nn_verify_parse_number(const char *s, double *val);
/* {"verify":{"seconds","runs","margin_pct","strict","command","better",
 * "nics":[{"nic","local_share_before","local_share_after","change_pct",
 * "noise_pct","verdict"}],"command_before","command_after",
 * "command_change_pct","command_noise_pct","command_verdict",
 * "samples":{"command":{"before":[..],"after":[..]}|null,"nics":[{"nic",
 * "before":[..],"after":[..]}]},"measured_after","worse","rolled_back",
 * "verdict","reason"}} (medians; null for unknown figures). */
void nn_verify_print(struct nn_ctx *ctx, const struct nn_verify *v);

#endif
