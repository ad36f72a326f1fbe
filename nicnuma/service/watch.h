/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watch.h - `nicnuma watch`: keep the host at its desired state
 *
 * The kernel resets a queue IRQ's affinity when the driver requests it again
 * (link up, reload, rebind, ethtool -L, hotplug) and IRQ numbers change. The
 * watcher listens (watch_nl.h), lets bursts settle and caps its rate
 * (watch_decide.h), then reconciles: rediscovers the host, finds the desired
 * NICs by PCI address, re-plans and applies only what differs, with the
 * same snapshot, readback and errno rules as apply, into ONE undo log (the
 * before-enable one, enabled.h) so events never pile up snapshots. It also
 * re-checks every interval (drift someone else made is re-applied, logged).
 * One stderr line per action; the state in /run/nicnuma/watch.json.
 * Under a fake root nothing live is opened: only the interval timer and
 * signals run (how the tests drive the apply path).
 */
#ifndef NICNUMA_WATCH_H
#define NICNUMA_WATCH_H

#include <stdbool.h>

#include "nicnuma/service/watch_sched.h"

struct nn_ctx;
struct nn_desired;
struct nn_topo;

struct nn_watch_opts {
	const char *config;		/* NULL: NN_DESIRED_PATH */
	unsigned int interval_s;	/* 0: the desired state's */
	unsigned int settle_ms;		/* 0: the desired state's */
	bool once;			/* one reconcile, then exit */
	const char *trigger;		/* the first reconcile's name in its line; NULL "start" */
	bool coexist;			/* go on beside other owners (warnings) */
	enum nn_watch_sched sched;	/* the service's scheduling (watch_sched.h) */
	/* The cap on inotify watches on the cgroup tree (watch_claims.h):
	 * 0 NN_CGROUP_WATCHES_DEFAULT; < 0 none (partitions by poll only). */
	long cgroup_watches;
	/* Live only, writes nothing: print each decoded event and whether it
	 * would trigger a reconcile, one line each; stop after @count events
	 * or @timeout_s seconds. Tests decode real netlink in a netns with it. */
	bool events_only;
	unsigned long count;
	unsigned int timeout_s;
};

/* 0 clean (SIGTERM/SIGINT, or --once with nothing failed), 1 --once with
 * failed values or warnings, negative errno on an error (printed). */
int nn_watch_run(struct nn_ctx *ctx, const struct nn_watch_opts *o);

/* One reconcile for a claimer with no watcher running (claim, release, the
 * OCI hook): desired state @d, read once by the caller, is taken over (*@d
 * is left empty), and so is the full topology @topo the caller read for
 * its own checks (NULL: read here; its memory left empty once the state
 * lock is taken); the state lock for the reconcile alone - no watcher
 * lock, no watch.json, no event loop. Values as nn_watch_run's --once:
 * 0, 1 failed values or refused ports, negative errno (-EBUSY: the state
 * lock is held, or another owner at the gate). */
int nn_watch_reconcile_once(struct nn_ctx *ctx, struct nn_desired *d, struct nn_topo *topo, const char *trigger,
			    bool coexist);

/* Takes the watcher lock, /run/nicnuma/watch.lock inside the root (created
 * 0600 and owned by the euid, so nobody else can open it to hold it;
 * opened O_NOFOLLOW without O_TRUNC, must be a regular file with one link),
 * flock'd exclusively, the pid written after. Returns the fd, or -EBUSY with
 * *@holder the pid holding it (nn_watch_lock_holder; 0 unknown). Looking at it without
 * taking it: nn_watch_lock_held() (discover/coexist.h). */
int nn_watch_lock(struct nn_ctx *ctx, int *holder);

#define NN_WATCH_JSON NN_WATCH_RUNDIR_JSON
#define NN_WATCH_RUNDIR_JSON "/run/nicnuma/watch.json"

#endif
