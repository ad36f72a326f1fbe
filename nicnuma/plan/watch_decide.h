/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watch_decide.h - the watcher's decisions: events in, "reconcile now" out (pure)
 *
 * The event loop (watch.c) decodes netlink into struct nn_wev and asks this
 * module what to do; no I/O, no clock of its own (times are passed in ms),
 * so a storm of events is unit-tested in microseconds. Rules:
 *  - relevant: a link that appears (new ifindex), a link gaining IFF_UP or
 *    IFF_LOWER_UP, a link removed, a channels notification, a PCI or net
 *    device added/removed/bound/unbound or its queues added/removed — for a
 *    NIC of the desired state (by PCI address, or by its current name); the
 *    periodic re-check; anything else is counted and dropped;
 *  - settle: the reconcile runs settle_ms after the LAST relevant event, so a
 *    burst (driver reload: ~20 events) costs one rediscovery;
 *  - a storm never starves it: at most max_wait_ms after the FIRST pending
 *    event it runs anyway;
 *  - cap: two reconciles are at least min_gap_ms apart (default 1000: at
 *    most one apply per second whatever the event rate);
 *  - a claim (NN_WEV_CLAIM: a record added or removed, a cpuset partition
 *    changed, a claim's owner gone) waits for neither: a workload that just
 *    claimed CPUs pays for every millisecond NIC work stays there. It runs
 *    at once (NN_WD_CLAIM_RETRY_MS later when the state lock was busy), and
 *    takes whatever else is pending with it.
 */
#ifndef NICNUMA_WATCH_DECIDE_H
#define NICNUMA_WATCH_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nn_wev_type {
	NN_WEV_LINK,		/* rtnetlink RTM_NEWLINK: flags below */
	NN_WEV_LINK_DEL,	/* RTM_DELLINK */
	NN_WEV_CHANNELS,	/* ethtool ETHTOOL_MSG_CHANNELS_NTF */
	NN_WEV_UEVENT,		/* kernel uevent: action/subsystem below */
	NN_WEV_PERIODIC,	/* the --interval re-check */
	NN_WEV_CONFIG,		/* SIGHUP: desired state re-read */
	NN_WEV_CLAIM,		/* the claims changed: ifname holds a short description */
};

struct nn_wev {
	enum nn_wev_type type;
	int ifindex;		/* LINK, LINK_DEL, CHANNELS; 0 unknown */
	unsigned int flags;	/* LINK: IFF_* */
	char ifname[16];
	char pci[20];		/* "" unknown */
	char action[16];	/* UEVENT */
	char subsystem[16];	/* UEVENT: pci, net, queues */
	char what[96];		/* CLAIM: what changed, when longer than a name ("" none) */
};

#define NN_WD_MIN_GAP_MS 1000
#define NN_WD_MAX_WAIT_MS 5000
#define NN_WD_CLAIM_RETRY_MS 20

struct nn_wd_link {
	int ifindex;
	unsigned int flags;
};

struct nn_wd {
	unsigned int settle_ms, min_gap_ms, max_wait_ms;
	/* What the desired state names now (set by the caller after each
	 * discovery): PCI addresses, and the current names of those NICs. */
	char **pcis, **names;
	size_t npcis, nnames;
	/* IFF_UP|IFF_LOWER_UP last seen per ifindex, to see transitions. */
	struct nn_wd_link *links;
	size_t nlinks, links_cap;
	bool pending;
	uint64_t first_ms, last_ms, last_run_ms;
	bool ran;
	bool urgent;			/* a claim is pending: due at urgent_ms */
	uint64_t urgent_ms;
	unsigned int npending;		/* relevant events coalesced into the next run */
	char trigger[160];		/* the first of them, for the log line */
	unsigned long events, relevant, runs;
};

void nn_wd_init(struct nn_wd *wd, unsigned int settle_ms);
void nn_wd_free(struct nn_wd *wd);
/* Replaces the desired PCI addresses / current names (copied). */
int nn_wd_set_targets(struct nn_wd *wd, char *const *pcis, size_t npcis, char *const *names,
		      size_t nnames);
/* Takes one event at @now_ms: 1 when it is relevant (a reconcile is now
 * pending), 0 when dropped, -ENOMEM. */
int nn_wd_event(struct nn_wd *wd, const struct nn_wev *ev, uint64_t now_ms);
/* When the pending reconcile is due (ms), or 0 when none is pending. */
uint64_t nn_wd_deadline(const struct nn_wd *wd);
/* True when a reconcile is pending and due at @now_ms. */
bool nn_wd_due(const struct nn_wd *wd, uint64_t now_ms);
/* The reconcile ran (whatever it found): pending cleared, gap starts. */
void nn_wd_ran(struct nn_wd *wd, uint64_t now_ms);
/* Keeps the event pending (the state lock was busy): retried after the gap. */
void nn_wd_retry(struct nn_wd *wd, uint64_t now_ms);

/* The rate limit of claims checks a cgroup event starts (docs/claims.md):
 * anyone who may mkdir or write a partition file can make cgroup events,
 * so at most one check (and the reconcile it may start) per gap_ms: the
 * first event of a quiet spell runs at once, later ones wait for the gap's
 * end and run then, once (the trailing edge: the last state is never
 * left unread). Records and owner exits do not pass through it. */
#define NN_WD_CGROUP_GAP_MS 250

struct nn_wd_gate {
	unsigned int gap_ms;
	bool pending, ran;
	uint64_t last_ms;		/* when the last check ran */
};

void nn_wd_gate_init(struct nn_wd_gate *g, unsigned int gap_ms);
/* A cgroup event at @now_ms: a check is pending. */
void nn_wd_gate_event(struct nn_wd_gate *g, uint64_t now_ms);
/* When the pending check is due (ms), or 0 when none is pending. */
uint64_t nn_wd_gate_deadline(const struct nn_wd_gate *g);
/* True when a check is pending and due at @now_ms: the caller runs it
 * now (the gap starts). */
bool nn_wd_gate_take(struct nn_wd_gate *g, uint64_t now_ms);

#endif
