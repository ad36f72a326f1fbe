// SPDX-License-Identifier: GPL-2.0-or-later
/* claim_sched.c - the claimer's scheduling class over its critical section (design in claim_sched.h) */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "nicnuma/service/claim_sched.h"

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

#define CLAIM_SCHED_NICE (-20)	/* where FIFO is refused: the most CFS gives */

void nn_claim_sched_raise(enum nn_watch_sched s, bool live, struct nn_claim_sched *saved)
{
	struct sched_param sp = { .sched_priority = NN_WATCH_SCHED_PRIO };
	struct sched_param none = { 0 };
	int pol;

	memset(saved, 0, sizeof(*saved));
	if (s == NN_WATCH_SCHED_OTHER || (s == NN_WATCH_SCHED_DEFAULT && (!live || geteuid() != 0)))
		return;
	pol = sched_getscheduler(0);
	if (pol < 0 || sched_getparam(0, &saved->sp))
		return;
	saved->policy = pol;
	pol &= ~SCHED_RESET_ON_FORK;
	if (pol == SCHED_FIFO || pol == SCHED_RR)
		return;
	errno = 0;
	saved->nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		return;
	if (!sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp)) {
		saved->raised = true;
		return;
	}
	/* reset-on-fork gives a child nice 0 too; the flag alone needs no privilege */
	if (saved->nice > CLAIM_SCHED_NICE && !setpriority(PRIO_PROCESS, 0, CLAIM_SCHED_NICE)) {
		saved->reniced = true;
		if (!sched_setscheduler(0, pol | SCHED_RESET_ON_FORK, &none))
			saved->raised = true;
	}
}

void nn_claim_sched_drop(struct nn_claim_sched *saved)
{
	if (saved->raised)
		sched_setscheduler(0, saved->policy, &saved->sp);
	if (saved->reniced)
		setpriority(PRIO_PROCESS, 0, saved->nice);
	saved->raised = saved->reniced = false;
}
