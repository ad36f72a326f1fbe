// SPDX-License-Identifier: GPL-2.0-or-later
/* check.c - the plan's values read, never written: drift, and whether irqbalance is fenced */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "irq/affinity.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/act/apply_internal.h"

/* irqbalance started with --banirq for every planned IRQ (how `nicnuma
 * script` fences it) leaves them alone as surely as our policy script. */
static bool banned_by_args(const struct nn_irqb_proc *p, const struct nn_plan *plan)
{
	size_t i, k;

	for (i = 0; i < plan->nirqs; i++) {
		bool found = false;

		for (k = 0; k < p->argc && !found; k++) {
			const char *a = p->argv[k], *v = NULL;
			long n;

			if (!strncmp(a, "--banirq=", 9))
				v = a + 9;
			else if ((!strcmp(a, "--banirq") || !strcmp(a, "-i")) && k + 1 < p->argc)
				v = p->argv[k + 1];
			else if (!strncmp(a, "-i", 2) && a[2])
				v = a + 2;
			found = v && !nn_parse_long(v, &n) && n == plan->irqs[i].irq;
		}
		if (!found)
			return false;
	}
	return plan->nirqs > 0;
}

/* Whether an affinity list read from the host touches the plan's claimed CPUs. */
static bool on_claimed(const struct nn_plan *plan, const char *list)
{
	struct nn_cpuset cur = NN_CPUSET_INIT;
	bool hit;

	if (nn_cpuset_empty(&plan->claimed) || nn_cpuset_parse_list(list, &cur))
		return false;
	hit = nn_cpuset_intersects(&cur, &plan->claimed);
	nn_cpuset_free(&cur);
	return hit;
}

int nn_check_run(struct nn_ctx *ctx, const struct nn_plan *plan, struct nn_check_report *rep)
{
	struct nn_cpuset online = NN_CPUSET_INIT;
	bool pending;
	size_t i;
	int err;

	memset(rep, 0, sizeof(*rep));
	rep->irqb.pid = -1;
	nn_apply_read_online(ctx, &online);
	err = nn_apply_collect(ctx, plan, &online, NULL, true, &rep->vals, &rep->nvals);
	nn_cpuset_free(&online);
	if (err)
		return err;
	for (i = 0; i < rep->nvals; i++) {
		struct nn_apply_val *v = &rep->vals[i];

		if (v->kind == NN_VAL_CHANNELS) {
			v->status = v->status == NN_VAL_UNCHANGED ? NN_VAL_ALIGNED : NN_VAL_DRIFT;
			if (!v->before) {
				v->status = NN_VAL_SKIPPED;
				snprintf(v->note, sizeof(v->note), "channel count unknown here");
			}
		}
		/* A managed IRQ never follows a plan; the kernel places it. */
		if (v->kind == NN_VAL_IRQ && v->status == NN_VAL_DRIFT && v->before &&
		    nn_irq_managed_debugfs(&ctx->root, v->irq) == 1) {
			v->status = NN_VAL_MANAGED;
			snprintf(v->note, sizeof(v->note), "managed, left to the kernel");
		}
		/* A queue IRQ on a claimed CPU is drift even where a plan (an
		 * older --plan FILE) put it there: a claim outranks a plan. */
		if (v->kind == NN_VAL_IRQ && v->before && on_claimed(plan, v->before)) {
			int *irqs = realloc(rep->claimed_irqs, (rep->on_claimed + 1) * sizeof(*irqs));

			if (!irqs)
				return -ENOMEM;
			rep->claimed_irqs = irqs;
			irqs[rep->on_claimed++] = v->irq;
			if (v->status != NN_VAL_MANAGED) {
				v->status = NN_VAL_DRIFT;
				snprintf(v->note, sizeof(v->note), "on claimed CPUs");
			}
		}
		if (v->status == NN_VAL_DRIFT)
			rep->ndrift++;
	}
	err = nn_apply_ports_read(ctx, plan, &rep->ports, &rep->nports, &pending);
	for (i = 0; i < rep->nports; i++)
		rep->ports_drift += !!strcmp(rep->ports[i].status, "unchanged");
	rep->ndrift += rep->ports_drift;
	if (!err)
		err = nn_irqb_inspect(ctx, &rep->irqb);
	if (err)
		return err;
	rep->irqb_fenced = nn_irqb_is_fenced(&rep->irqb) || banned_by_args(&rep->irqb, plan);
	if (rep->irqb.pid > 0 && !rep->irqb_fenced && plan->nirqs) {
		/* Planned with irqbalance running and left alone (--irqbalance
		 * ignore, the desired state's irqbalance = ignore): its presence
		 * is the plan's choice, a note, not drift. A plan made while it
		 * did not run has action none too, but chose nothing. */
		if (plan->irqbalance.running && plan->irqbalance.action == NN_IRQB_NONE) {
			rep->irqb_left = true;
		} else {
			rep->irqb_drift = true;
			rep->ndrift++;
		}
	}
	return (int)rep->ndrift;
}