// SPDX-License-Identifier: GPL-2.0-or-later
/* claim_sched.h - the claimer's CPU scheduling over its critical section:
 * on a loaded host a nice-0 `claim`, `release` or hook waits a slice
 * behind every busy thread before it writes the record the watcher acts
 * on (docs/claims.md, "Latency") */
#ifndef NICNUMA_SERVICE_CLAIM_SCHED_H
#define NICNUMA_SERVICE_CLAIM_SCHED_H

#include <sched.h>
#include <stdbool.h>

#include "nicnuma/service/watch_sched.h"

/* What this process ran at before the raise, to go back to. */
struct nn_claim_sched {
	bool raised;		/* policy changed: FIFO taken */
	bool reniced;		/* nice changed: -20 taken where FIFO was refused */
	int policy;		/* sched_getscheduler(), reset-on-fork included */
	struct sched_param sp;
	int nice;
};

/* Raises this process for the claim's critical section when @s asks it:
 * DEFAULT on a live root as root, FIFO always (--sched fifo), OTHER never.
 * SCHED_FIFO priority 1 with reset-on-fork (no child - ethtool, the
 * hook's re-apply - inherits it), else nice -20 where FIFO is refused
 * (RestrictRealtime=, no real-time budget). A process already real-time
 * is left alone. Never an error: a refusal leaves it as it was. */
void nn_claim_sched_raise(enum nn_watch_sched s, bool live, struct nn_claim_sched *saved);

/* Back to what nn_claim_sched_raise found; nothing when it changed nothing. */
void nn_claim_sched_drop(struct nn_claim_sched *saved);

#endif
