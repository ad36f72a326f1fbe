// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_dpdk.c - --profile dpdk: the lcores `layout --dpdk` hands out take no
 * kernel NIC work
 *
 * The lcores are asked of the layout itself (nn_layout_make with --dpdk and
 * no plan yet, so no queue IRQ claims a core first): per node holding a NIC,
 * its CPUs outside housekeeping, its isolated CPUs only when it has some.
 * They leave the planner's one usable set (st->allowed), as isolated and
 * claimed CPUs do, so every queue IRQ, NAPI thread, XPS mask and RPS CPU
 * planned after this stays off them. A layout made afterwards from this plan
 * finds the queue IRQs on housekeeping (or on the non-isolated CPUs) and
 * hands out the same lcores, or fewer where an IRQ's SMT sibling is one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/layout.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"
#include "nicnuma/plan/plan_state.h"

/* "node 0: 1-3 (every CPU outside housekeeping); node 1: 9-10 (its isolated CPUs)" */
static int lcores_reason(const struct nn_layout *l, char **out)
{
	struct nn_sb sb = NN_SB_INIT;
	size_t i;

	for (i = 0; i < l->ninst; i++) {
		const struct nn_layout_instance *in = &l->inst[i];
		char *list = nn_cpuset_format_list(&in->cpus);

		if (!list) {
			nn_sb_free(&sb);
			return -ENOMEM;
		}
		nn_sb_printf(&sb, "%snode %d: %s (%s)", i ? "; " : "", in->node, list,
			       !nn_cpuset_empty(&in->isolated) ? "its isolated CPUs" :
			       "every CPU outside housekeeping");
		free(list);
	}
	return nn_sb_steal(&sb, out);
}

int nn__plan_dpdk_lcores(struct plan_state *st)
{
	struct nn_layout_opts lo = { .service = "dpdk", .dpdk = true };
	struct nn_cpuset rest = NN_CPUSET_INIT;
	struct nn_plan *plan = st->plan;
	struct nn_layout l;
	char why[256] = "", *where = NULL;
	size_t i;
	int err;

	if (nn_cpuset_copy(&lo.housekeeping, &st->hk))
		return -ENOMEM;
	err = nn_layout_make(st->host, NULL, &lo, &l, why, sizeof(why));
	nn_cpuset_free(&lo.housekeeping);
	if (err == -ENOMEM)
		return err;
	if (err) {
		if (nn__plan_warn(st, "profile dpdk: layout --dpdk hands out no lcores (%s): the NIC work is placed as "
				  "without the profile", why))
			return -ENOMEM;
		return 0;
	}
	for (i = 0; i < l.ninst && !err; i++)
		err = nn_cpuset_or(&plan->dpdk_lcores, &l.inst[i].cpus);
	if (!err)
		err = lcores_reason(&l, &where);
	nn_layout_free(&l);
	if (!err)
		err = nn_cpuset_copy(&rest, &st->allowed);
	if (err)
		goto out;
	nn_cpuset_andnot(&rest, &plan->dpdk_lcores);
	if (nn_cpuset_empty(&rest)) {
		/* --cpus named only lcores: the kernel's work has nowhere else to go */
		nn_cpuset_free(&plan->dpdk_lcores);
		err = nn__plan_add_warning(plan, "profile dpdk: --cpus leaves no CPU outside the lcores (%s): "
					   "the NIC work is placed as without the profile", where);
		goto out;
	}
	nn_cpuset_andnot(&st->allowed, &plan->dpdk_lcores);
	if (asprintf(&plan->dpdk_reason, "profile dpdk: the lcores layout --dpdk hands out, %s: no kernel "
		     "NIC interrupt, NAPI thread or RPS CPU there (the kernel's NIC work goes to the "
		     "other CPUs, housekeeping when no other is left)", where) < 0) {
		plan->dpdk_reason = NULL;
		err = -ENOMEM;
	}
out:
	free(where);
	nn_cpuset_free(&rest);
	return err;
}
