// SPDX-License-Identifier: GPL-2.0-or-later
/* profile.c - what each --profile sets and why (one table per profile),
 * the per-value options it stands for, and its coalescing and ring entries
 *
 * The tables are pure data: plan --json's reasons and the man page's
 * tables (man/nicnuma-plan.8.scd) say the same. Queue IRQ placement is
 * today's in every profile (local node, one core per queue); a profile adds
 * to it, and an option the user gave wins over the profile's value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"
#include "nicnuma/plan/plan_state.h"

static const struct nn_profile_row throughput[] = {
	{ "queue IRQs", "local node, one core per queue",
	  "each queue's interrupt on its own core of the NIC's node: the work spreads" },
	{ "adaptive-rx", "1", "the driver moderates rx interrupts by load: fewer per packet at high rates" },
	{ "adaptive-tx", "1", "the same for tx completions" },
	{ "rx", "driver max", "a full rx ring absorbs bursts without drops, at some cache footprint" },
	{ "tx", "driver max", "a full tx ring keeps the queue fed under load" },
	{ "rps", "auto", "where rx queues < usable local CPUs, receive work spreads over the node" },
	{ NULL, NULL, NULL },
};

static const struct nn_profile_row latency[] = {
	{ "queue IRQs", "local node, one core per queue",
	  "each queue's interrupt alone on its core: no other queue's work ahead of it" },
	{ "adaptive-rx", "0", "adaptive moderation delays interrupts as the rate rises: off" },
	{ "adaptive-tx", "0", "the same for tx completions" },
	{ "rx-usecs", "0", "no deliberate delay between a packet and its interrupt" },
	{ "napi defer-hard-irqs", "0", "the interrupt is re-armed after every poll (napi.rst)" },
	{ "napi threaded", "1", "each NAPI polls in its own kthread, placed with its IRQ (napi.rst: threaded NAPI)" },
	{ "napi gro-flush-timeout", "--busy-poll USECS",
	  "only with --busy-poll: the timer that re-arms interrupts when the application stops polling (napi.rst: IRQ suspension)" },
	{ "napi defer-hard-irqs (busy-poll)", "100 with --busy-poll", "only with --busy-poll: interrupts stay masked while the application busy-polls" },
	{ "napi irq-suspend-timeout", "10 x --busy-poll", "only with --busy-poll: how long a busy-polling application may hold interrupts off" },
	{ "net.core.busy_poll", "--busy-poll USECS",
	  "only with --busy-poll: poll() and select() spin on the device queue that long before they sleep "
	  "(net.rst: busy_poll; tuned's network-latency sets 50)" },
	{ "net.core.busy_read", "--busy-poll USECS",
	  "only with --busy-poll: a blocking read spins that long on the device queue (net.rst: busy_read)" },
	{ NULL, NULL, NULL },
};

/* A DPDK host: the poll-mode threads own their lcores; the kernel's NIC
 * work (its management and control NICs) stays on the other CPUs, as
 * tuned's cpu-partitioning profile keeps IRQs on the housekeeping CPUs. */
static const struct nn_profile_row dpdk[] = {
	{ "lcores", "what layout --dpdk hands out",
	  "per node holding a NIC its CPUs outside housekeeping, its isolated CPUs only when it has some: "
	  "a PMD thread polls there and any interrupt or softirq costs it a poll" },
	{ "queue IRQs", "off the lcores",
	  "the node's other CPUs, its housekeeping CPUs when no other is left (never across the interconnect)" },
	{ "napi threads", "with their IRQs", "a threaded NAPI's kthread follows its IRQ: off the lcores too" },
	{ "rps", "off the lcores",
	  "RPS hands packets to any CPU of the mask: --rps auto steers only to the CPUs outside the lcores" },
	{ "coalescing, rings, napi settings", "left as they are",
	  "the kernel NICs of a DPDK host carry its control traffic; the ports the PMDs drive are not the kernel's" },
	{ NULL, NULL, NULL },
};

static const struct nn_profile_row none[] = { { NULL, NULL, NULL } };

const struct nn_profile_row *nn_profile_table(enum nn_profile p)
{
	switch (p) {
	case NN_PROFILE_THROUGHPUT: return throughput;
	case NN_PROFILE_LATENCY: return latency;
	case NN_PROFILE_DPDK: return dpdk;
	case NN_PROFILE_NONE: break;
	}
	return none;
}

const char *nn_profile_name(enum nn_profile p)
{
	switch (p) {
	case NN_PROFILE_THROUGHPUT: return "throughput";
	case NN_PROFILE_LATENCY: return "latency";
	case NN_PROFILE_DPDK: return "dpdk";
	case NN_PROFILE_NONE: break;
	}
	return "none";
}

int nn_profile_parse(const char *s, enum nn_profile *p)
{
	if (!s)
		return -EINVAL;
	if (!strcmp(s, "throughput"))
		*p = NN_PROFILE_THROUGHPUT;
	else if (!strcmp(s, "latency"))
		*p = NN_PROFILE_LATENCY;
	else if (!strcmp(s, "dpdk"))
		*p = NN_PROFILE_DPDK;
	else if (!strcmp(s, "none"))
		*p = NN_PROFILE_NONE;
	else
		return -EINVAL;
	return 0;
}

static void napi_default(struct nn_plan_opts *o, enum nn_napi_attr a, long long v)
{
	if (o->napi_set & (1u << a))
		return;		/* the user's option wins */
	o->napi_set |= 1u << a;
	o->napi_profile |= 1u << a;
	o->napi_value[a] = v;
}

void nn_profile_opts(struct nn_plan_opts *o, bool rps_given)
{
	if (o->profile == NN_PROFILE_THROUGHPUT && !rps_given)
		o->rps = NN_RPS_AUTO;
	if (o->profile != NN_PROFILE_LATENCY)
		return;
	if (o->busy_poll_us > 0) {
		napi_default(o, NN_NAPI_DEFER_HARD_IRQS, 100);
		napi_default(o, NN_NAPI_GRO_FLUSH_TIMEOUT, o->busy_poll_us * 1000);
		napi_default(o, NN_NAPI_IRQ_SUSPEND_TIMEOUT, o->busy_poll_us * 10000);
	} else {
		napi_default(o, NN_NAPI_DEFER_HARD_IRQS, 0);
	}
	napi_default(o, NN_NAPI_THREADED, 1);
}

static int add_eth(struct nn_plan *plan, const char *nic, enum nn_eth_setting s, long long v,
		   const char *reason)
{
	struct nn_plan_eth *e;
	void *p = realloc(plan->eth, (plan->neth + 1) * sizeof(*plan->eth));

	if (!p)
		return -ENOMEM;
	plan->eth = p;
	e = &plan->eth[plan->neth++];
	memset(e, 0, sizeof(*e));
	e->nic = strdup(nic);
	e->reason = strdup(reason);
	e->setting = s;
	e->value = v;
	return !e->nic || !e->reason ? -ENOMEM : 0;
}

int nn__plan_emit_busy(struct plan_state *st)
{
	struct nn_plan *plan = st->plan;
	char reason[256];
	unsigned int i;

	plan->sysctls = calloc(NN_BUSY_NSYSCTL, sizeof(*plan->sysctls));
	if (!plan->sysctls)
		return -ENOMEM;
	for (i = 0; i < NN_BUSY_NSYSCTL; i++) {
		struct nn_plan_sysctl *s = &plan->sysctls[plan->nsysctls++];
		const char *name = nn_busy_name((enum nn_busy_sysctl)i);

		s->which = (enum nn_busy_sysctl)i;
		s->value = st->opts->busy_poll_us;
		snprintf(reason, sizeof(reason), "profile %s: %s", nn_profile_name(st->opts->profile),
			 nn_profile_why(st->opts->profile, name));
		s->reason = strdup(reason);
		if (!s->reason)
			return -ENOMEM;
	}
	return 0;
}

const char *nn_profile_why(enum nn_profile p, const char *what)
{
	const struct nn_profile_row *r;

	for (r = nn_profile_table(p); r->what; r++)
		if (!strcmp(r->what, what))
			return r->why;
	return "";
}

int nn__plan_emit_eth(struct plan_state *st, struct nic_state *ns)
{
	enum nn_profile p = st->opts->profile;
	const struct nn_eth_conf *c = &ns->nic->eth;
	const char *nic = ns->nic->name;
	struct {
		enum nn_eth_setting s;
		long long v;
	} want[4];
	char reason[224];
	size_t n = 0, i;

	if (p == NN_PROFILE_THROUGHPUT) {
		want[n].s = NN_ETH_ADAPTIVE_RX, want[n++].v = 1;
		want[n].s = NN_ETH_ADAPTIVE_TX, want[n++].v = 1;
		want[n].s = NN_ETH_RING_RX, want[n++].v = c->rx_max;
		want[n].s = NN_ETH_RING_TX, want[n++].v = c->tx_max;
	} else if (p == NN_PROFILE_LATENCY) {
		want[n].s = NN_ETH_ADAPTIVE_RX, want[n++].v = 0;
		want[n].s = NN_ETH_ADAPTIVE_TX, want[n++].v = 0;
		want[n].s = NN_ETH_RX_USECS, want[n++].v = 0;
	}
	if (n && c->coalesce_err && c->rings_err &&
	    nn__plan_warn(st, "%s: coalescing and ring sizes unknown (%s): the profile's are not planned", nic,
			  strerror(-c->coalesce_err)))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const char *name = nn_eth_setting_name(want[i].s);
		bool ring = nn_eth_setting_is_ring(want[i].s);

		if ((ring ? c->rings_err : c->coalesce_err) || c->v[want[i].s] < 0 || want[i].v < 0)
			continue;	/* the driver reports none: nothing to set or put back */
		snprintf(reason, sizeof(reason), "profile %s: %s (now %lld)", nn_profile_name(p),
			 nn_profile_why(p, name), c->v[want[i].s]);
		if (add_eth(st->plan, nic, want[i].s, want[i].v, reason))
			return -ENOMEM;
	}
	return 0;
}
