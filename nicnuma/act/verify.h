/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verify.h - apply --verify: the same window measured before and after
 * apply, and the whole transaction rolled back where the host got worse
 *
 * A window is SECONDS of the observe engine (nn_obs_once) over the plan's
 * NICs, then the user's command when given (run with /bin/sh -c, its
 * stdout one number). Worse is: a NIC's share of work on its node (100 -
 * the worst off-node share of its interrupts, softirqs and NAPI threads,
 * observe's remote_pct) fell by more than NN_VERIFY_SHARE_SLACK points, or
 * the command's number moved the wrong way (--verify-better higher|lower).
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

#define NN_VERIFY_SHARE_SLACK 5.0	/* points of local share: sampling noise on a quiet NIC */
#define NN_VERIFY_NICS_MAX 64

struct nn_verify_opts {
	double seconds;			/* 0: no verification */
	const char *cmd;		/* NULL: the observed share alone */
	bool lower_better;		/* --verify-better lower */
};

struct nn_verify_nic {
	char name[16];
	double before, after;		/* local share in percent; -1 unknown */
};

struct nn_verify {
	struct nn_verify_opts o;
	struct nn_verify_nic nics[NN_VERIFY_NICS_MAX];
	size_t nnics;
	double cmd_before, cmd_after;	/* the command's number; NAN unknown */
	bool measured_after;		/* false: nothing changed, nothing to compare */
	bool worse;
	bool rolled_back;
	char verdict[320];
};

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
 * rolled_back_by "verify"). Prints nothing: the caller prints @rep, then
 * the "verify" object (nn_verify_print). 0 kept, 1 rolled back, or a
 * negative errno (the window could not be measured, or the rollback failed:
 * then 'nicnuma rollback' is named). */
struct nn_pipeline;
struct nn_apply_report;
int nn_verify_finish(struct nn_ctx *ctx, struct nn_pipeline *pl, struct nn_apply_report *rep,
		     struct nn_verify *v);
/* Pure: sets v->worse and v->verdict from the two windows. */
void nn_verify_judge(struct nn_verify *v);
/* Parses a command's stdout: one number (leading/trailing blanks allowed). 0 or -EINVAL. */
int nn_verify_parse_number(const char *s, double *val);
/* {"verify":{"seconds","command","better","nics":[{"nic","local_share_before",
 * "local_share_after"}],"command_before","command_after","measured_after",
 * "worse","rolled_back","verdict"}} (null for unknown figures). */
void nn_verify_print(struct nn_ctx *ctx, const struct nn_verify *v);

#endif
