// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_opts.c - what a command says of its plan */
#include "cli.h"
#include "plan_opts.h"

void nn_cli_plan_findings(struct nn_ctx *ctx, const struct nn_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nwarnings; i++)
		nn_warn(ctx, NULL, "plan: %s", plan->warnings[i]);
	for (i = 0; i < plan->nnotes; i++)
		nn_note(ctx, NULL, "plan: %s", plan->notes[i]);
}
