/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostview.h - "nicnuma report": the host drawn as one picture
 *
 * Nodes as boxes of CPU cells (a row of cores per L3 group, SMT siblings
 * stacked under their core), memory and distances; each NIC in its node's box
 * with its PCIe verdict; each queue IRQ as a mark on the CPU it runs on today
 * (effective affinity) and on the CPU the plan gives it, red when that CPU is
 * off the NIC's node, grey when the NIC's node is unknown; the moves between
 * the two; with an observation, the interrupt and softirq work per CPU as a
 * heat strip. Pure: a host snapshot and a plan in, SVG or HTML text out (the
 * file is written by act/, the observation made by the caller).
 */
#ifndef NICNUMA_HOSTVIEW_H
#define NICNUMA_HOSTVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/discover/host.h"
#include "nicnuma/discover/irq_place.h"
#include "nicnuma/plan/plan.h"

struct nn_out;
struct nn_sb;

/* Observed work per CPU, indexed by CPU id (ncpus entries; CPUs beyond or
 * negative rates: not observed). Rates are per second over @seconds. */
struct nn_hv_traffic {
	size_t ncpus;
	double *irq;			/* hardware interrupts/s of the NICs' IRQs */
	double *softirq;		/* NET_RX + NET_TX softirqs/s */
	double seconds;			/* length of the observation */
};

struct nn_obs_report;
/* The per-CPU rates of an observation (obs/obs.h's attribution):
 * arrays allocated in @out (free with nn_hv_traffic_free). 0 or -ENOMEM. */
int nn_hv_traffic_from_obs(const struct nn_obs_report *r, struct nn_hv_traffic *out);
void nn_hv_traffic_free(struct nn_hv_traffic *t);

/* One queue IRQ as drawn. CPU and node fields are -1 when unknown. */
struct nn_hv_irq {
	const char *nic;		/* points into the host */
	int irq;
	int queue;
	int nic_node;			/* the NIC's node; -1 unknown locality */
	int now_cpu, now_node;		/* the effective CPU today (-1: no single CPU known) */
	int plan_cpu, plan_node;	/* the first planned CPU (-1: not planned) */
	bool now_off, plan_off;		/* misplaced: off the NIC's node where no plan puts it */
	bool now_spill, plan_spill;	/* off the node where the plan spills it (irq_place.h) */
	bool moved;			/* planned CPU differs from today's */
};

struct nn_hostview {
	const struct nn_host *host;
	const struct nn_plan *plan;	/* may be NULL: today only */
	const struct nn_hv_traffic *traffic;	/* may be NULL */
	struct nn_hv_irq *irqs;		/* sorted by NIC name then IRQ */
	size_t nirqs;
	const struct nn_nic **nics;	/* drawn NICs (non-virtual ones and planned ones) */
	size_t nnics;
	size_t now_off, plan_off;	/* red marks today and as planned */
	size_t now_spill, plan_spill;	/* amber marks: planned spills to a near node */
	size_t now_unplaced;		/* IRQs without a single known CPU today */
	size_t moves;
	size_t unknown_nics;		/* drawn NICs of unknown locality */
};

/* Fills @v from @host and @plan (NULL: no plan) and @traffic (NULL: none);
 * they must outlive @v. 0 or -ENOMEM. */
int nn_hostview_make(const struct nn_host *host, const struct nn_plan *plan,
		     const struct nn_hv_traffic *traffic, struct nn_hostview *v);
void nn_hostview_free(struct nn_hostview *v);

/* The picture as one <svg> element (standalone: it carries its xmlns),
 * @title as its <title> and as a heading drawn on it. */
void nn_hostview_svg(const struct nn_hostview *v, const char *title, struct nn_sb *sb);
/* The page: head with the bench report's CSP, the picture, then as text
 * every NIC, every off-node IRQ, the moves per node pair, the distances.
 * Check nn_sb_error(). */
void nn_hostview_html(const struct nn_hostview *v, const char *title, struct nn_sb *sb);

/* The node the report gives @nic: nn_nic_home_node()'s answer, but unknown
 * (-1) where that is only assumed (one node, and neither numa_node nor
 * local_cpulist says): what `nics` and the plan say of it. */
int nn_hostview_nic_node(const struct nn_topo *t, const struct nn_nic *nic);

/* One box of the picture as the renderer lays it out, in the SVG's units
 * (pixels): the heading, a panel's title, a node box, a text line or CPU
 * cell in it, a line of the text column. Text boxes are the estimate of
 * hostview_layout.c (wide enough for a browser's sans-serif face). */
struct nn_hv_rect {
	int x, y, w, h;
	int parent;		/* index of the box this one lies in; -1: the picture */
	const char *what;	/* "heading", "title", "node", "text", "cell", "side" */
};
/* The boxes of the picture nn_hostview_svg() draws with @title as its
 * heading (NULL: the page's picture, without one), from the same code that
 * draws it: the picture is @w x @h; no two boxes of one parent overlap and
 * each lies in its parent (the layout's promise, checked by
 * tests/unit/test_hostview_layout.c). *@out malloc'd. 0 or -ENOMEM. */
int nn_hostview_rects(const struct nn_hostview *v, const char *title, struct nn_hv_rect **out, size_t *n,
		      int *w, int *h);

/* hostview_print.c: what was drawn into @file (@bytes, HTML or @svg) -
 * nodes, CPUs, NICs, queue IRQs, moves, off-node marks, the traffic, the
 * NICs not judged, each off-node IRQ and the plan's warnings ("report"). */
void nn_hostview_summary_print(struct nn_out *o, const struct nn_hostview *v, const char *file, bool svg,
			       size_t bytes);

#endif
