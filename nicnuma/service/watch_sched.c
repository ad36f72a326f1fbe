// SPDX-License-Identifier: GPL-2.0-or-later
/* watch_sched.c - the watcher's scheduling class (design in watch_sched.h) */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/service/watch_sched.h"

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

int nn_watch_sched_parse(const char *s, enum nn_watch_sched *out)
{
	if (!strcmp(s, "fifo"))
		*out = NN_WATCH_SCHED_FIFO;
	else if (!strcmp(s, "other"))
		*out = NN_WATCH_SCHED_OTHER;
	else
		return -EINVAL;
	return 0;
}

static const char *say(char *buf, size_t size, const char *why)
{
	int pol = sched_getscheduler(0);
	struct sched_param sp = { 0 };

	pol &= ~SCHED_RESET_ON_FORK;
	if ((pol == SCHED_FIFO || pol == SCHED_RR) && !sched_getparam(0, &sp))
		snprintf(buf, size, "%s %d%s", pol == SCHED_FIFO ? "fifo" : "rr", sp.sched_priority, why);
	else
		snprintf(buf, size, "other%s", why);
	return buf;
}

const char *nn_watch_sched_apply(enum nn_watch_sched s, char *buf, size_t size)
{
	struct sched_param sp = { .sched_priority = NN_WATCH_SCHED_PRIO };
	int pol = sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;

	if (s == NN_WATCH_SCHED_OTHER)
		return say(buf, size, " (--sched other)");
	if (pol == SCHED_FIFO || pol == SCHED_RR)
		return say(buf, size, "");
	/* systemd sets INVOCATION_ID for a unit's processes: the unit's
	 * CPUSchedulingPolicy= is its administrator's choice */
	if (getenv("INVOCATION_ID"))
		return say(buf, size, " (the unit's CPUSchedulingPolicy=)");
	/* reset on fork: no child (ethtool, a script) inherits the class */
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp)) {
		char why[96];

		snprintf(why, sizeof(why), " (fifo refused: %s)", strerror(errno));
		return say(buf, size, why);
	}
	return say(buf, size, "");
}
