/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostview_internal.h - the picture's layout, shared by the layout
 * (hostview_layout.c: sizes from what will be written, the boxes it gives)
 * and the drawing (hostview.c) */
#ifndef NICNUMA_PLAN_HOSTVIEW_INTERNAL_H
#define NICNUMA_PLAN_HOSTVIEW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/plan/hostview.h"

#define CELL 16			/* a CPU cell (hosts with more than 16 CPUs in a node) */
#define BIGCELL 30		/* a CPU cell of a small host */
#define LEGCELL 16		/* the legend's sample cells */
#define STRIP 6			/* heat strip under a cell (with traffic; more for big cells) */
#define MAXCOLS 16		/* cores in one row of an L3 group before it wraps */
#define PAD 8			/* inside a node box */
#define LINE 14			/* a text line */
#define HEADL 3			/* header lines of a node box */
#define GGAP 6			/* between L3 groups */
#define BOXGAP 14		/* between node boxes */
#define MARGIN 16
#define MINBOXW 310
#define GRIDW 1000		/* node boxes per panel row: as many as fit */
#define NICMARK 14		/* the NIC's square and its gap, before its name */
#define TITLE_SIZE 15		/* a panel's title */
#define HEAD_SIZE 18		/* the standalone picture's heading */

struct box {
	int node;			/* node id; -1: CPUs of no known node and NICs of unknown locality */
	int x, y;			/* within a panel */
	int ncpus;
	int nnics;
};

struct layout {
	struct box *boxes;
	size_t nboxes;
	int boxw, boxh, ncol;
	int panelw, panelh;		/* one panel: its title and the grid */
	int maxcpu;			/* cells[] size */
	int *cx, *cy;			/* cell top-left of CPU id within a panel; -1 not drawn */
	int *cbox;			/* box index of each CPU */
	int rowpitch;
	int cell, pitch;		/* cell size and cell plus gap */
	int strip;			/* heat strip height plus gap */
};

int nn__hv_layout_make(const struct nn_hostview *v, struct layout *L);
void nn__hv_layout_free(struct layout *L);
/* The box index of @nic: its node's, or the unknown box (last). */
size_t nn__hv_nic_box(const struct layout *L, const struct nn_hostview *v, const struct nn_nic *nic);

/* Text extents: an estimate wide enough for the sans-serif faces a browser
 * picks (DejaVu Sans averages under 0.56 em a character; bold titles
 * measured 0.54 em in chromium): 0.60 em a byte, 0.64 em bold, and
 * monospace 0.60 em. A text at baseline y spans y - ascent .. y + descent. */
int nn__hv_text_w(const char *s, int size, bool bold);
int nn__hv_ascent(int size);
int nn__hv_descent(int size);

/* What a node box's header says: "node 3" (bold), "64 CPUs, 192 GiB (..
 * free)" beside it, the distances line; the planned panel's moves line. */
struct hv_head {
	char label[24], l1[96], l2[160], flow[96];
};
void nn__hv_head(const struct nn_hostview *v, const struct box *bx, struct hv_head *hd);
/* A NIC's first line: its name (cut, bold) and " driver speed, N queue IRQs". */
void nn__hv_nic_texts(const struct nn_nic *n, char *name, size_t nsize, char *rest, size_t rsize);
/* "25G", "100M", "speed unknown". */
void nn__hv_speed_text(char *buf, size_t size, long mbps);
/* A panel's title ("Today: ..." / "As planned: ..."). */
void nn__hv_title(const struct nn_hostview *v, bool planned, char *buf, size_t size);
/* @s cut to @max bytes with "..." (unescaped) into @buf. */
void nn__hv_cut(char *buf, size_t size, const char *s, size_t max);

/* The boxes drawn, when asked (nn_hostview_rects); NULL draws only. */
struct hv_rects {
	struct nn_hv_rect *v;
	size_t n, cap;
	int err;
};
/* Records a box; its index, or -1 (no recorder, no memory). */
int nn__hv_rec(struct hv_rects *R, int parent, const char *what, int x, int y, int w, int h);
/* Records the box of text @s (@size, @bold) at @x, baseline @y; its index. */
int nn__hv_rec_text(struct hv_rects *R, int parent, const char *what, int x, int y, const char *s, int size,
		    bool bold);

/* hostview.c's picture, with its boxes recorded into @R (may be NULL);
 * *@w, *@h the picture's size (may be NULL). */
void nn__hv_draw_svg(const struct nn_hostview *v, const char *title, bool heading, struct nn_sb *sb,
		     struct hv_rects *R, int *w, int *h);

#endif
