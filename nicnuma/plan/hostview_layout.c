// SPDX-License-Identifier: GPL-2.0-or-later
/* hostview_layout.c - where the host picture puts things: node boxes of CPU
 * cells, sized by what they hold (cells and text alike), panels as wide as
 * their titles, and the boxes the drawing records (nn_hostview_rects), so
 * that "nothing overlaps" is a property the tests can check. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/pcie.h"
#include "nicnuma/plan/hostview_internal.h"

int nn_hostview_nic_node(const struct nn_topo *t, const struct nn_nic *nic)
{
	return nn_irq_place_home(t, nic);
}

/* ---- text extents ---- */

int nn__hv_text_w(const char *s, int size, bool bold)
{
	return (int)((strlen(s) * (size_t)size * (bold ? 64 : 60) + 99) / 100);
}

int nn__hv_ascent(int size)
{
	return (size * 8 + 9) / 10;
}

int nn__hv_descent(int size)
{
	return (size + 3) / 4;
}

void nn__hv_cut(char *buf, size_t size, const char *s, size_t max)
{
	size_t n;

	if (!s)
		s = "";
	n = strlen(s);
	if (max >= size)
		max = size - 1;
	if (n <= max) {
		memcpy(buf, s, n + 1);
		return;
	}
	memcpy(buf, s, max - 3);
	strcpy(buf + max - 3, "...");
}

static void fmt_mem(char *buf, size_t size, long kb)
{
	if (kb < 0)
		snprintf(buf, size, "memory unknown");
	else if (kb == 0)
		snprintf(buf, size, "no memory");
	else if (kb >= 1024L * 1024)
		snprintf(buf, size, "%.0f GiB", kb / 1048576.0);
	else
		snprintf(buf, size, "%.0f MiB", kb / 1024.0);
}

void nn__hv_head(const struct nn_hostview *v, const struct box *bx, struct hv_head *hd)
{
	const struct nn_topo *t = &v->host->topo;
	const struct nn_node *nd = bx->node >= 0 ? nn_topo_node(t, bx->node) : NULL;
	struct nn_sb sb = NN_SB_INIT;
	size_t i, in = 0, out = 0;
	char mem[32], fr[32];

	memset(hd, 0, sizeof(*hd));
	if (nd) {
		unsigned int nc = nn_cpuset_count(&nd->cpus);

		snprintf(hd->label, sizeof(hd->label), "node %d", nd->id);
		fmt_mem(mem, sizeof(mem), nd->mem_total_kb);
		fmt_mem(fr, sizeof(fr), nd->mem_free_kb);
		snprintf(hd->l1, sizeof(hd->l1), "%u CPU%s, %s%s%s%s", nc, nc == 1 ? "" : "s", mem,
			 nd->mem_free_kb >= 0 && nd->mem_total_kb > 0 ? " (" : "",
			 nd->mem_free_kb >= 0 && nd->mem_total_kb > 0 ? fr : "",
			 nd->mem_free_kb >= 0 && nd->mem_total_kb > 0 ? " free)" : "");
		nn_sb_puts(&sb, "distances:");
		for (i = 0; i < nd->ndistances && i < 16; i++)
			nn_sb_printf(&sb, i == (size_t)nn_topo_node_index(t, nd->id) ? " [%d]" : " %d",
				     nd->distances[i]);
		if (!nd->ndistances)
			nn_sb_puts(&sb, " unknown");
		else if (nd->ndistances > 16)
			nn_sb_puts(&sb, " ...");
		snprintf(hd->l2, sizeof(hd->l2), "%s", nn_sb_str(&sb) ? nn_sb_str(&sb) : "distances: ?");
		nn_sb_free(&sb);
	} else {
		snprintf(hd->label, sizeof(hd->label), "node unknown");
		snprintf(hd->l2, sizeof(hd->l2), "numa_node -1: the kernel does not say");
	}
	for (i = 0; i < v->nirqs; i++) {
		const struct nn_hv_irq *m = &v->irqs[i];

		if (!m->moved)
			continue;
		in += m->plan_node == bx->node && m->now_node != bx->node;
		out += m->now_node == bx->node && m->plan_node != bx->node;
	}
	snprintf(hd->flow, sizeof(hd->flow), "moves from other nodes: %zu in, %zu out", in, out);
}

void nn__hv_speed_text(char *buf, size_t size, long mbps)
{
	if (mbps <= 0)
		snprintf(buf, size, "speed unknown");
	else if (mbps % 1000 == 0)
		snprintf(buf, size, "%ldG", mbps / 1000);
	else
		snprintf(buf, size, "%ldM", mbps);
}

void nn__hv_nic_texts(const struct nn_nic *n, char *name, size_t nsize, char *rest, size_t rsize)
{
	char drv[32], sp[32];
	size_t q, nq = 0;

	for (q = 0; q < n->nirqs; q++)
		nq += n->irqs[q].queue >= 0;
	nn__hv_speed_text(sp, sizeof(sp), n->speed_mbps);
	nn__hv_cut(name, nsize, n->name, 24);
	nn__hv_cut(drv, sizeof(drv), n->driver ? n->driver : (n->kind ? n->kind : "-"), 14);
	snprintf(rest, rsize, " %s %s, %zu queue IRQ%s", drv, sp, nq, nq == 1 ? "" : "s");
}

void nn__hv_title(const struct nn_hostview *v, bool planned, char *buf, size_t size)
{
	if (planned)
		snprintf(buf, size, "As planned: %zu queue IRQ%s move, %zu off the NIC's node, %zu spilled "
			 "to a near node", v->moves, v->moves == 1 ? "" : "s", v->plan_off, v->plan_spill);
	else
		snprintf(buf, size, "Today: %zu queue IRQ%s (effective affinity), %zu off the NIC's node "
			 "against the plan, %zu spilled as planned", v->nirqs, v->nirqs == 1 ? "" : "s",
			 v->now_off, v->now_spill);
}

/* ---- the boxes drawn ---- */

int nn__hv_rec(struct hv_rects *R, int parent, const char *what, int x, int y, int w, int h)
{
	if (!R)
		return -1;
	if (R->n == R->cap) {
		size_t cap = R->cap ? 2 * R->cap : 256;
		struct nn_hv_rect *nv = realloc(R->v, cap * sizeof(*nv));

		if (!nv) {
			R->err = -ENOMEM;
			return -1;
		}
		R->v = nv;
		R->cap = cap;
	}
	R->v[R->n] = (struct nn_hv_rect){ .x = x, .y = y, .w = w, .h = h, .parent = parent, .what = what };
	return (int)R->n++;
}

int nn__hv_rec_text(struct hv_rects *R, int parent, const char *what, int x, int y, const char *s, int size,
		    bool bold)
{
	if (!R)
		return -1;
	return nn__hv_rec(R, parent, what, x, y - nn__hv_ascent(size), nn__hv_text_w(s, size, bold),
			  nn__hv_ascent(size) + nn__hv_descent(size));
}

int nn_hostview_rects(const struct nn_hostview *v, const char *title, struct nn_hv_rect **out, size_t *n,
		      int *w, int *h)
{
	struct hv_rects R = { 0 };
	struct nn_sb sb = NN_SB_INIT;
	int err;

	nn__hv_draw_svg(v, title ? title : "", title != NULL, &sb, &R, w, h);
	err = nn_sb_error(&sb) ? nn_sb_error(&sb) : R.err;
	nn_sb_free(&sb);
	if (err) {
		free(R.v);
		return err;
	}
	*out = R.v;
	*n = R.n;
	return 0;
}

/* ---- the layout: node boxes of CPU cells ---- */

void nn__hv_layout_free(struct layout *L)
{
	free(L->boxes);
	free(L->cx);
	free(L->cy);
	free(L->cbox);
}

/* The NIC's box: its node's, or the unknown box (last) when its node is unknown or not drawn. */
size_t nn__hv_nic_box(const struct layout *L, const struct nn_hostview *v, const struct nn_nic *nic)
{
	int home = nn_hostview_nic_node(&v->host->topo, nic);
	size_t b;

	for (b = 0; b < L->nboxes; b++)
		if (L->boxes[b].node == home)
			return b;
	return L->nboxes - 1;
}

/* Lays the CPUs of box @b out from @y0 (relative to the box): a row of cores
 * per L3 group (wrapping past MAXCOLS), each core's SMT siblings in the rows
 * under it. Returns the height used; *@maxcols the widest row. */
static int layout_cpus(const struct nn_topo *t, struct layout *L, size_t b, int y0, int *maxcols)
{
	int node = L->boxes[b].node, y = y0;
	size_t i, j, k;
	bool *done = calloc(t->ncpus ? t->ncpus : 1, sizeof(bool));

	if (!done)
		return -1;
	for (i = 0; i < t->ncpus; i++) {
		const struct nn_cpu *g = &t->cpus[i];
		int ncores = 0, smt = 1, nwrap, cols, col;

		if (done[i] || g->node != node)
			continue;
		/* the group of @g: same node, same L3 (unknown L3: one group per node) */
		for (j = i; j < t->ncpus; j++) {
			const struct nn_cpu *c = &t->cpus[j];
			int rank = 0;
			bool primary = true;

			if (done[j] || c->node != node || c->l3 != g->l3)
				continue;
			for (k = i; k < j; k++) {
				const struct nn_cpu *s = &t->cpus[k];

				if (!done[k] && s->node == node && s->l3 == g->l3 &&
				    nn_cpuset_test(&c->siblings, (unsigned)s->id)) {
					primary = false;
					rank++;
				}
			}
			ncores += primary;
			if (rank + 1 > smt)
				smt = rank + 1;
		}
		nwrap = (ncores + MAXCOLS - 1) / MAXCOLS;
		cols = (ncores + nwrap - 1) / nwrap;
		if (cols > *maxcols)
			*maxcols = cols;
		col = 0;
		for (j = i; j < t->ncpus; j++) {
			const struct nn_cpu *c = &t->cpus[j];
			int rank = 0, pcol = -1;

			if (done[j] || c->node != node || c->l3 != g->l3)
				continue;
			for (k = i; k < j; k++) {
				const struct nn_cpu *s = &t->cpus[k];

				if (!done[k] && s->node == node && s->l3 == g->l3 &&
				    nn_cpuset_test(&c->siblings, (unsigned)s->id)) {
					if (!rank)
						pcol = L->cx[s->id];	/* the core's column index, stored below */
					rank++;
				}
			}
			if (!rank)
				pcol = col++;
			L->cx[c->id] = pcol;	/* column index for now */
			L->cy[c->id] = y + ((pcol / cols) * smt + rank) * L->rowpitch;
			L->cbox[c->id] = (int)b;
		}
		/* columns to x now that the group is complete (siblings read the index above) */
		for (j = i; j < t->ncpus; j++) {
			const struct nn_cpu *c = &t->cpus[j];

			if (done[j] || c->node != node || c->l3 != g->l3)
				continue;
			L->cx[c->id] = PAD + (L->cx[c->id] % cols) * L->pitch;
			done[j] = true;
		}
		y += nwrap * smt * L->rowpitch + GGAP;
		L->boxes[b].ncpus += 0;
	}
	free(done);
	return y - y0;
}

/* The widest text of box @b: its header and its NICs' first lines (their
 * PCIe lines are cut to the box). */
static int box_text_w(const struct nn_hostview *v, const struct layout *L, const struct box *bx, size_t b)
{
	struct hv_head hd;
	char name[64], rest[128];
	int w, m;
	size_t i;

	nn__hv_head(v, bx, &hd);
	w = nn__hv_text_w(hd.label, 13, true) + 8 + nn__hv_text_w(hd.l1, 11, false);
	m = nn__hv_text_w(hd.l2, 11, false);
	w = m > w ? m : w;
	m = v->plan ? nn__hv_text_w(hd.flow, 11, false) : 0;
	w = m > w ? m : w;
	for (i = 0; i < v->nnics; i++) {
		if (nn__hv_nic_box(L, v, v->nics[i]) != b)
			continue;
		nn__hv_nic_texts(v->nics[i], name, sizeof(name), rest, sizeof(rest));
		m = NICMARK + nn__hv_text_w(name, 12, true) + nn__hv_text_w(rest, 11, false);
		w = m > w ? m : w;
	}
	return 2 * PAD + w;
}

int nn__hv_layout_make(const struct nn_hostview *v, struct layout *L)
{
	const struct nn_topo *t = &v->host->topo;
	bool orphans = v->unknown_nics > 0;
	int *cpuh = NULL, maxh = 0, maxcols = 0, tw;
	char title[160];
	size_t i, b;

	memset(L, 0, sizeof(*L));
	L->cell = CELL;
	for (i = 0; i < t->nnodes; i++)
		if (nn_cpuset_count(&t->nodes[i].cpus) > 16)
			break;
	if (i == t->nnodes && t->ncpus <= 64)
		L->cell = BIGCELL;
	L->pitch = L->cell + (L->cell == BIGCELL ? 8 : 3);
	L->strip = L->cell == BIGCELL ? 2 * STRIP : STRIP;
	L->rowpitch = L->pitch + (v->traffic ? L->strip : 0);
	L->maxcpu = 1;
	for (i = 0; i < t->ncpus; i++) {
		if (t->cpus[i].id + 1 > L->maxcpu)
			L->maxcpu = t->cpus[i].id + 1;
		orphans |= t->cpus[i].node < 0 || !nn_topo_node(t, t->cpus[i].node);
	}
	L->boxes = calloc(t->nnodes + 1, sizeof(*L->boxes));
	L->cx = malloc((size_t)L->maxcpu * sizeof(int));
	L->cy = malloc((size_t)L->maxcpu * sizeof(int));
	L->cbox = malloc((size_t)L->maxcpu * sizeof(int));
	cpuh = calloc(t->nnodes + 1, sizeof(int));
	if (!L->boxes || !L->cx || !L->cy || !L->cbox || !cpuh)
		goto nomem;
	for (i = 0; i < (size_t)L->maxcpu; i++)
		L->cx[i] = L->cy[i] = L->cbox[i] = -1;
	for (i = 0; i < t->nnodes; i++)
		L->boxes[L->nboxes++].node = t->nodes[i].id;
	if (orphans)
		L->boxes[L->nboxes++].node = -1;
	for (b = 0; b < L->nboxes; b++) {
		int h = layout_cpus(t, L, b, HEADL * LINE + PAD, &maxcols);

		if (h < 0)
			goto nomem;
		cpuh[b] = h;
	}
	for (i = 0; i < v->nnics; i++)
		L->boxes[nn__hv_nic_box(L, v, v->nics[i])].nnics++;
	for (b = 0; b < L->nboxes; b++) {
		int h = HEADL * LINE + PAD + cpuh[b] + L->boxes[b].nnics * 2 * LINE + PAD;

		if (h > maxh)
			maxh = h;
	}
	L->boxw = 2 * PAD + maxcols * L->pitch;
	if (L->boxw < MINBOXW)
		L->boxw = MINBOXW;
	for (b = 0; b < L->nboxes; b++) {	/* no text past its box */
		tw = box_text_w(v, L, &L->boxes[b], b);
		if (tw > L->boxw)
			L->boxw = tw;
	}
	L->boxh = maxh;
	L->ncol = GRIDW / (L->boxw + BOXGAP);
	if (L->ncol < 1)
		L->ncol = 1;
	if ((size_t)L->ncol > L->nboxes)
		L->ncol = (int)L->nboxes;
	for (b = 0; b < L->nboxes; b++) {
		L->boxes[b].x = (int)(b % (size_t)L->ncol) * (L->boxw + BOXGAP);
		L->boxes[b].y = 2 * LINE + (int)(b / (size_t)L->ncol) * (L->boxh + BOXGAP);
	}
	L->panelw = L->ncol * (L->boxw + BOXGAP) - BOXGAP;
	for (i = 0; i < 2; i++) {	/* a title wider than the boxes: the panel is as wide */
		nn__hv_title(v, i, title, sizeof(title));
		tw = nn__hv_text_w(title, TITLE_SIZE, true);
		if (tw > L->panelw)
			L->panelw = tw;
	}
	L->panelh = 2 * LINE + (int)((L->nboxes + (size_t)L->ncol - 1) / (size_t)L->ncol) * (L->boxh + BOXGAP);
	free(cpuh);
	return 0;
nomem:
	free(cpuh);
	nn__hv_layout_free(L);
	return -ENOMEM;
}

