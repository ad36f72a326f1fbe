// SPDX-License-Identifier: GPL-2.0-or-later
/* watch_sched.h - the watcher's CPU scheduling: a claim's reconcile must not
 * wait behind a loaded host's nice-0 threads (docs/claims.md, "Latency") */
#ifndef NICNUMA_SERVICE_WATCH_SCHED_H
#define NICNUMA_SERVICE_WATCH_SCHED_H

#include <stddef.h>

enum nn_watch_sched {
	NN_WATCH_SCHED_DEFAULT = 0,	/* live: FIFO; a fake root: OTHER (tests) */
	NN_WATCH_SCHED_FIFO,		/* SCHED_FIFO priority 1, reset on fork */
	NN_WATCH_SCHED_OTHER,		/* --sched other: left as started */
};

#define NN_WATCH_SCHED_PRIO 1	/* the lowest real-time priority: below every RT thread */

/* "fifo" / "other" -> @out; -EINVAL for anything else. */
int nn_watch_sched_parse(const char *s, enum nn_watch_sched *out);

/* Applies @s to this process. Leaves a process already in a real-time
 * class alone (the unit's CPUSchedulingPolicy=, chrt), and one that systemd
 * started (the unit's keys decide there; RestrictRealtime= refuses the
 * call). Returns a short description of what it runs at, for the
 * watcher's start line; a refusal is said there, never an error. */
const char *nn_watch_sched_apply(enum nn_watch_sched s, char *buf, size_t size);

#endif
