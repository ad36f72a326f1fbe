// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_napi_conf.c - the NAPI settings asked for: per NAPI where the
 * kernel's napi-set takes that setting (its policy, when discovery could ask:
 * CTRL_CMD_GETPOLICY) and napi-get reports it for the NIC's NAPIs (6.13+;
 * threaded 6.17+), else the device-wide sysfs file with a warning that says so */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"
#include "nicnuma/plan/plan_state.h"

static long long reported(const struct nn_genl_napi *g, enum nn_napi_attr a)
{
	switch (a) {
	case NN_NAPI_DEFER_HARD_IRQS: return g->defer_hard_irqs;
	case NN_NAPI_GRO_FLUSH_TIMEOUT: return g->gro_flush_timeout;
	case NN_NAPI_IRQ_SUSPEND_TIMEOUT: return g->irq_suspend_timeout;
	case NN_NAPI_THREADED: return g->threaded;
	case NN_NAPI_NATTR: break;
	}
	return -1;
}

/* Whether the kernel's napi-set takes @a, as far as discovery could ask. */
static bool napi_set_takes(const struct nn_nic *n, enum nn_napi_attr a)
{
	static const int genl[NN_NAPI_NATTR] = {
		[NN_NAPI_DEFER_HARD_IRQS] = NN_NETDEV_A_NAPI_DEFER_HARD_IRQS,
		[NN_NAPI_GRO_FLUSH_TIMEOUT] = NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT,
		[NN_NAPI_IRQ_SUSPEND_TIMEOUT] = NN_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT,
		[NN_NAPI_THREADED] = NN_NETDEV_A_NAPI_THREADED,
	};

	return !n->napi_set_known || (n->napi_set_attrs & (1u << genl[a]));
}

static int add_entry(struct nn_plan *plan, const struct nn_nic *n, long long id, enum nn_napi_attr a,
		     long long value, const char *reason)
{
	struct nn_plan_napi_conf *c;
	void *p = realloc(plan->napi_conf, (plan->nnapi_conf + 1) * sizeof(*plan->napi_conf));

	if (!p)
		return -ENOMEM;
	plan->napi_conf = p;
	c = &plan->napi_conf[plan->nnapi_conf];
	memset(c, 0, sizeof(*c));
	plan->nnapi_conf++;
	c->nic = strdup(n->name);
	c->reason = strdup(reason);
	c->ifindex = n->ifindex;
	c->napi_id = id;
	c->attr = a;
	c->value = value;
	return !c->nic || !c->reason ? -ENOMEM : 0;
}

int nn__plan_emit_napi_conf(struct plan_state *st, struct nic_state *ns)
{
	const struct nn_nic *n = ns->nic;
	const struct nn_plan_opts *o = st->opts;
	char reason[224], asked[160];
	unsigned int a;
	size_t i, per;

	for (a = 0; a < NN_NAPI_NATTR; a++) {
		enum nn_napi_attr at = (enum nn_napi_attr)a;
		long long v = o->napi_value[a];

		if (!(o->napi_set & (1u << a)))
			continue;
		/* a profile's value says which profile and why; an option's "asked" */
		if (o->napi_profile & (1u << a)) {
			char what[48];

			snprintf(what, sizeof(what), "napi %s%s", nn_napi_attr_name(at),
				 at == NN_NAPI_DEFER_HARD_IRQS && o->busy_poll_us > 0 ? " (busy-poll)" : "");
			snprintf(asked, sizeof(asked), "profile %s: %s:", nn_profile_name(o->profile),
				 nn_profile_why(o->profile, what));
		} else {
			snprintf(asked, sizeof(asked), "asked:");
		}
		for (i = 0, per = 0; n->genl_read && n->ifindex > 0 && napi_set_takes(n, at) && i < n->ngnapis; i++) {
			long long now = reported(&n->gnapis[i], at);

			if (now < 0)
				continue;
			snprintf(reason, sizeof(reason), "%s %s %lld (per NAPI%s, now %lld)", asked,
				 nn_napi_attr_name(at), v, n->napi_set_known ? ": napi-set takes it" : "", now);
			if (add_entry(st->plan, n, n->gnapis[i].id, at, v, reason))
				return -ENOMEM;
			per++;
		}
		if (per)
			continue;
		if (!nn_napi_attr_sysfs(at)) {
			if (nn__plan_warn(st, "%s: %s: the kernel reports no per-NAPI setting and there is no device-wide "
					  "file: not set", n->name, nn_napi_attr_name(at)))
				return -ENOMEM;
			continue;
		}
		if (nn__plan_note(st, "%s: %s: the kernel reports no per-NAPI setting: the device-wide file %s",
				  n->name, nn_napi_attr_name(at), nn_napi_attr_sysfs(at)))
			return -ENOMEM;
		snprintf(reason, sizeof(reason), "%s %s %lld (device-wide: no per-NAPI setting reported)",
			 asked, nn_napi_attr_name(at), v);
		if (add_entry(st->plan, n, -1, at, v, reason))
			return -ENOMEM;
	}
	return 0;
}
