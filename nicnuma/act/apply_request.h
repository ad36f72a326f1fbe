/* SPDX-License-Identifier: GPL-2.0-or-later */
/* apply_request.h - one `apply` request run straight down under one state lock
 *
 * The command fills the request and the pipeline's inputs, calls
 * nn_apply_request_prepare, prints the plan's head (its warnings and
 * notes: a rollback inside the apply prints its table after them, into the
 * command's document), calls nn_apply_request_apply and prints what comes
 * back (@rep, the verify report); nothing here calls back into the command.
 */
#ifndef NICNUMA_ACT_APPLY_REQUEST_H
#define NICNUMA_ACT_APPLY_REQUEST_H

#include <stdbool.h>

#include "nicnuma/act/pipeline.h"
#include "nicnuma/act/verify.h"
#include "nicnuma/plan/plan_opts.h"

struct nn_apply_request {
	/* The plan file pl->plan was read from (nn_plan_load), checked here
	 * against the host; NULL: the plan is made here from @popts. */
	const char *plan_file;
	struct nn_plan_opts *popts;	/* the gate looks at the NICs it names */
	bool irqb_given;		/* --irqbalance beats a plan file's choice */
	struct nn_verify *verify;	/* NULL: no --verify */
};

/* In order, the lock taken here and held until nn_pipeline_free: lock and
 * discover, the plan, the gates, irqbalance's action settled, --verify's
 * window before. 0, or the failed stage's negative errno with its message
 * printed (pl->stage says which). */
int nn_apply_request_prepare(struct nn_ctx *ctx, const struct nn_apply_request *req, struct nn_pipeline *pl);
/* After a prepare that returned 0: the apply, --verify's window after and
 * judgement (rolled back when worse). At NN_PIPE_APPLIED @rep is filled
 * and the value is 0, 1 (failed values, or rolled back by --verify) or a
 * negative errno. */
int nn_apply_request_apply(struct nn_ctx *ctx, const struct nn_apply_request *req, struct nn_pipeline *pl,
			   struct nn_apply_report *rep);
#endif
