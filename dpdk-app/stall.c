// SPDX-License-Identifier: GPL-2.0-or-later
/* stall.c - the host's own scheduling stalls, measured beside the traffic
 *
 * A lcore that does nothing but read the TSC sees gaps of a few ns; every
 * longer gap is time the vCPU or core was taken away (hypervisor steal,
 * interrupts, SMIs, other tasks). The gap histogram is the floor under any
 * latency percentile measured on this host in the same run: a p99.9 of 2 ms
 * means nothing if the stall meter's max is 2 ms too.
 */
#include <rte_cycles.h>

#include "app.h"

void stall_loop(struct fwd_app *app, unsigned int lcore, uint64_t until, bool report)
{
	struct nn_hist *h = lcore_state[lcore].stall;
	uint64_t prev, now;

	if (!until)
		until = app->cfg.duration > 0
			? app->tsc_start + (uint64_t)(app->cfg.duration * (double)app->hz)
			: UINT64_MAX;
	prev = rte_rdtsc();
	while (!force_quit) {
		now = rte_rdtsc();
		nn_hist_record(h, now - prev);
		prev = now;
		if (now >= until)
			break;
		if (report && report_due(app, now)) {
			report_live(app, now);
			/* Printing is our own gap, not the host's. */
			prev = rte_rdtsc();
		}
	}
}
