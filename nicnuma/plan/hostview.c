// SPDX-License-Identifier: GPL-2.0-or-later
/* hostview.c - the host drawn as one SVG picture and one HTML page (see
 * hostview.h). Every name that goes in is escaped by nn_xml_escape; numbers
 * are printed as integers or %.1f, so the same input gives the same bytes
 * (the unit tests compare parts of it). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/obs/obs.h"
#include "nicnuma/discover/pcie.h"
#include "nicnuma/plan/bench_html.h"
#include "nicnuma/plan/bench_svg.h"
#include "nicnuma/plan/hostview_internal.h"

#define MAXMOVES 64		/* moves drawn one by one; more: per node */
#define SIDELIST 30		/* IRQs listed beside the picture per list */
#define SIDEW 400		/* the text column beside the panels, at least */

#define C_CLAIM "#7b3294"	/* a claimed CPU's outline */
#define C_RED "#c8102e"
#define C_BLUE "#1f5fa8"
#define C_AMBER "#b36b00"	/* a planned spill: off the node, by the plan's choice */

/* ---- the model ---- */

static bool nic_planned(const struct nn_plan *p, const char *name)
{
	size_t i;

	for (i = 0; p && i < p->nnics; i++)
		if (!strcmp(p->nics[i].nic, name))
			return true;
	return false;
}

/* Where a mark for CPU set @s goes: its first CPU off @home (the mark that
 * must be seen), else its first CPU. */
static int place(const struct nn_topo *t, const struct nn_cpuset *s, int home)
{
	int c, first = nn_cpuset_first(s);

	if (home < 0)
		return first;
	for (c = first; c >= 0; c = nn_cpuset_next(s, c)) {
		int n = nn_topo_cpu_node(t, c);

		if (n >= 0 && n != home)
			return c;
	}
	return first;
}

int nn_hostview_make(const struct nn_host *host, const struct nn_plan *plan,
		     const struct nn_hv_traffic *traffic, struct nn_hostview *v)
{
	const struct nn_topo *t = &host->topo;
	size_t i, k, n = 0;

	memset(v, 0, sizeof(*v));
	v->host = host;
	v->plan = plan;
	v->traffic = traffic;
	v->nics = calloc(host->nnics ? host->nnics : 1, sizeof(*v->nics));
	for (i = 0; i < host->nnics; i++)
		for (k = 0; k < host->nics[i].nirqs; k++)
			n += host->nics[i].irqs[k].queue >= 0;
	v->irqs = calloc(n ? n : 1, sizeof(*v->irqs));
	if (!v->nics || !v->irqs) {
		nn_hostview_free(v);
		return -ENOMEM;
	}
	for (i = 0; i < host->nnics; i++) {
		const struct nn_nic *nic = &host->nics[i];
		int home;

		if (nic->is_virtual && !nic_planned(plan, nic->name))
			continue;
		v->nics[v->nnics++] = nic;
		home = nn_hostview_nic_node(t, nic);
		v->unknown_nics += home < 0;
		for (k = 0; k < nic->nirqs; k++) {
			const struct nn_irq *q = &nic->irqs[k];
			const struct nn_plan_irq *pq = nn_plan_irq_find(plan, q->irq);
			const struct nn_cpuset *planned;
			enum nn_irq_place now, later;
			struct nn_hv_irq *m;

			if (q->queue < 0)
				continue;
			m = &v->irqs[v->nirqs++];
			m->nic = nic->name;
			m->irq = q->irq;
			m->queue = q->queue;
			m->nic_node = home;
			m->now_cpu = m->plan_cpu = -1;
			if (q->has_effective && !nn_cpuset_empty(&q->effective))
				m->now_cpu = place(t, &q->effective, home);
			else if (q->has_affinity && nn_cpuset_count(&q->affinity) == 1)
				m->now_cpu = place(t, &q->affinity, home);
			planned = pq && !nn_cpuset_empty(&pq->cpus) ? &pq->cpus : NULL;
			if (planned)
				m->plan_cpu = place(t, planned, home);
			now = nn_irq_place(t, home, nn_irq_where(q), planned);
			later = nn_irq_place(t, home, planned, planned);
			m->now_off = now == NN_PLACE_OFF;
			m->now_spill = now == NN_PLACE_SPILL;
			m->plan_off = later == NN_PLACE_OFF;
			m->plan_spill = later == NN_PLACE_SPILL;
			m->now_node = m->now_cpu >= 0 ? nn_topo_cpu_node(t, m->now_cpu) : -1;
			m->plan_node = m->plan_cpu >= 0 ? nn_topo_cpu_node(t, m->plan_cpu) : -1;
			m->moved = m->plan_cpu >= 0 && m->plan_cpu != m->now_cpu;
			v->now_off += m->now_off;
			v->plan_off += m->plan_off;
			v->now_spill += m->now_spill;
			v->plan_spill += m->plan_spill;
			v->now_unplaced += m->now_cpu < 0;
			v->moves += m->moved;
		}
	}
	return 0;
}

void nn_hostview_free(struct nn_hostview *v)
{
	free(v->irqs);
	free(v->nics);
	memset(v, 0, sizeof(*v));
}

int nn_hv_traffic_from_obs(const struct nn_obs_report *r, struct nn_hv_traffic *out)
{
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < r->ncpus; i++)
		if (r->cpus[i].cpu >= 0 && (size_t)r->cpus[i].cpu + 1 > n)
			n = (size_t)r->cpus[i].cpu + 1;
	out->irq = calloc(n ? n : 1, sizeof(double));
	out->softirq = calloc(n ? n : 1, sizeof(double));
	if (!out->irq || !out->softirq) {
		nn_hv_traffic_free(out);
		return -ENOMEM;
	}
	out->ncpus = n;
	out->seconds = r->interval;
	for (i = 0; i < r->ncpus && r->interval > 0; i++) {
		const struct nn_obs_cpu *c = &r->cpus[i];

		if (c->cpu < 0)
			continue;
		out->irq[c->cpu] = c->nic_irqs / r->interval;
		out->softirq[c->cpu] = (c->net_rx + c->net_tx) / r->interval;
	}
	return 0;
}

void nn_hv_traffic_free(struct nn_hv_traffic *t)
{
	free(t->irq);
	free(t->softirq);
	memset(t, 0, sizeof(*t));
}

/* ---- drawing ---- */

static const char *pcie_text(const struct nn_nic *n)
{
	if (!n->pcie)
		return n->is_virtual ? "virtual" : "not a PCIe function";
	return n->pcie->v.text[0] ? n->pcie->v.text : "link unknown";
}

/* The header of node box @bx at @x, @y (recorded under @box). */
static void box_header(struct nn_sb *sb, const struct nn_hostview *v, const struct box *bx, int x, int y,
		       bool planned, struct hv_rects *R, int box)
{
	struct hv_head hd;
	int x1;

	nn__hv_head(v, bx, &hd);
	x1 = x + PAD + nn__hv_text_w(hd.label, 13, true) + 8;
	nn_sb_printf(sb, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\" font-size=\"13\">%s</text>\n", x + PAD,
		     y + LINE, hd.label);
	nn__hv_rec_text(R, box, "text", x + PAD, y + LINE, hd.label, 13, true);
	if (hd.l1[0]) {
		nn_sb_printf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n", x1, y + LINE, hd.l1);
		nn__hv_rec_text(R, box, "text", x1, y + LINE, hd.l1, 11, false);
	}
	nn_sb_printf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555555\">%s</text>\n", x + PAD,
		     y + 2 * LINE, hd.l2);
	nn__hv_rec_text(R, box, "text", x + PAD, y + 2 * LINE, hd.l2, 11, false);
	if (!planned)
		return;
	nn_sb_printf(sb, "<text class=\"flow\" x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555555\">%s</text>\n",
		     x + PAD, y + 3 * LINE, hd.flow);
	nn__hv_rec_text(R, box, "text", x + PAD, y + 3 * LINE, hd.flow, 11, false);
}

/* Per CPU of this panel: how many queue IRQs, and of which kind. */
struct tally {
	int n, off, unknown;
};

static void draw_panel(struct nn_sb *sb, const struct nn_hostview *v, const struct layout *L, int ox, int oy,
		       bool planned, struct hv_rects *R)
{
	const struct nn_topo *t = &v->host->topo;
	struct tally *ta = calloc((size_t)L->maxcpu, sizeof(*ta));
	double maxirq = 0, maxsoft = 0;
	char title[160];
	size_t i, b;

	if (!ta) {
		if (!sb->err)
			sb->err = -ENOMEM;
		return;
	}
	nn__hv_title(v, planned, title, sizeof(title));
	nn_sb_printf(sb, "<g class=\"panel %s\">\n<text x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"bold\">"
		     "%s</text>\n", planned ? "planned" : "now", ox, oy + LINE, TITLE_SIZE, title);
	nn__hv_rec_text(R, -1, "title", ox, oy + LINE, title, TITLE_SIZE, true);
	for (i = 0; i < v->nirqs; i++) {
		const struct nn_hv_irq *m = &v->irqs[i];
		int c = planned ? m->plan_cpu : m->now_cpu;

		if (c < 0 || c >= L->maxcpu)
			continue;
		ta[c].n++;
		ta[c].off += planned ? m->plan_off : m->now_off;
		ta[c].unknown += m->nic_node < 0;
	}
	if (v->traffic && !planned)
		for (i = 0; i < v->traffic->ncpus; i++) {
			if (v->traffic->irq && v->traffic->irq[i] > maxirq)
				maxirq = v->traffic->irq[i];
			if (v->traffic->softirq && v->traffic->softirq[i] > maxsoft)
				maxsoft = v->traffic->softirq[i];
		}
	for (b = 0; b < L->nboxes; b++) {
		const struct box *bx = &L->boxes[b];
		int x = ox + bx->x, y = oy + bx->y, ny = 0, rb;

		nn_sb_printf(sb, "<g class=\"node\" data-node=\"%d\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" "
			     "height=\"%d\" rx=\"6\" fill=\"#f6f7f9\" stroke=\"#8a8f98\"/>\n", bx->node, x, y,
			     L->boxw, L->boxh);
		rb = nn__hv_rec(R, -1, "node", x, y, L->boxw, L->boxh);
		box_header(sb, v, bx, x, y, planned, R, rb);
		/* cells */
		for (i = 0; i < t->ncpus; i++) {
			int id = t->cpus[i].id, cx, cy;
			const struct tally *a = &ta[id];
			const char *fill = "#ffffff", *stroke = "#c4c8ce", *cls = "cpu";
			bool hk = planned && v->plan && nn_cpuset_test(&v->plan->housekeeping, (unsigned)id);
			/* a run-time claim's CPU (docs/claims.md): no NIC work may use it */
			bool cl = nn_cpuset_test(nn_host_claimed_cpus(v->host), (unsigned)id);

			if (L->cbox[id] != (int)b)
				continue;
			cx = x + L->cx[id];
			cy = y + L->cy[id];
			if (a->off) {
				fill = "#f6c9c4";
				stroke = C_RED;
				cls = "cpu off";
			} else if (a->n && a->unknown == a->n) {
				fill = "#dddddd";
				stroke = "#777777";
				cls = "cpu unknown";
			} else if (a->n) {
				fill = "#cfe2f6";
				stroke = C_BLUE;
				cls = "cpu local";
			}
			if (cl)
				stroke = C_CLAIM;
			nn_sb_printf(sb, "<rect class=\"%s%s\" data-cpu=\"%d\" x=\"%d\" y=\"%d\" width=\"%d\" "
				     "height=\"%d\" fill=\"%s\" stroke=\"%s\"%s%s><title>CPU %d: %d queue IRQ%s"
				     "%s%s</title></rect>\n", cls, cl ? " claimed" : "", id, cx, cy, L->cell, L->cell,
				     fill, stroke, hk ? " stroke-dasharray=\"3 2\"" : "",
				     cl ? " stroke-width=\"2.5\"" : "", id, a->n, a->n == 1 ? "" : "s",
				     hk ? ", housekeeping" : "", cl ? ", claimed (no NIC work while it lasts)" : "");
			nn__hv_rec(R, rb, "cell", cx, cy, L->cell, L->cell + (v->traffic ? L->strip - 1 : 0));
			if (a->n > 1)
				nn_sb_printf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" "
					     "fill=\"#222222\">%d</text>\n", cx + L->cell / 2, cy + L->cell / 2 + 1,
					     L->cell * 9 / 16, a->n);
			if (v->traffic && !planned && (size_t)id < v->traffic->ncpus) {
				double wi = v->traffic->irq && maxirq > 0 ? v->traffic->irq[id] / maxirq : 0;
				double ws = v->traffic->softirq && maxsoft > 0 ? v->traffic->softirq[id] / maxsoft : 0;

				wi = wi > 0 ? sqrt(wi) : 0;
				ws = ws > 0 ? sqrt(ws) : 0;
				nn_sb_printf(sb, "<rect class=\"heat irq\" data-cpu=\"%d\" data-rate=\"%.0f\" x=\"%d\" "
					     "y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#d95f02\" fill-opacity=\"%.2f\">"
					     "<title>CPU %d: %.0f interrupts/s</title></rect>\n", id,
					     v->traffic->irq ? v->traffic->irq[id] : 0, cx, cy + L->cell + 1, L->cell / 2,
					     L->strip - 2, wi, id, v->traffic->irq ? v->traffic->irq[id] : 0);
				nn_sb_printf(sb, "<rect class=\"heat softirq\" data-cpu=\"%d\" data-rate=\"%.0f\" x=\"%d\" "
					     "y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#6a3d9a\" fill-opacity=\"%.2f\">"
					     "<title>CPU %d: %.0f NET softirqs/s</title></rect>\n", id,
					     v->traffic->softirq ? v->traffic->softirq[id] : 0, cx + L->cell / 2,
					     cy + L->cell + 1, L->cell / 2, L->strip - 2, ws, id,
					     v->traffic->softirq ? v->traffic->softirq[id] : 0);
			}
		}
		/* NICs, two lines each, below the cells */
		for (i = 0; i < v->nnics; i++) {
			const struct nn_nic *n = v->nics[i];
			const struct nn_pcie *pc = n->pcie;
			int ty = y + L->boxh - PAD - (bx->nnics - ny) * 2 * LINE + LINE - 2, tx = x + PAD + NICMARK;
			char name[64], rest[128], pcie[160];
			size_t room;

			if (nn__hv_nic_box(L, v, n) != b)
				continue;
			ny++;
			nn__hv_nic_texts(n, name, sizeof(name), rest, sizeof(rest));
			/* the PCIe line cut to the box: "PCIe: " and what fits */
			room = (size_t)(x + L->boxw - PAD - tx) / (size_t)nn__hv_text_w("x", 11, false);
			nn__hv_cut(pcie, sizeof(pcie), pcie_text(n), room > 12 ? room - 6 : 6);
			nn_sb_puts(sb, "<g class=\"nic\" data-nic=\"");
			nn_xml_escape(sb, n->name);
			nn_sb_printf(sb, "\">\n<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#2a7d4f\"/>\n"
				     "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-weight=\"bold\">", x + PAD,
				     ty - 9, tx, ty);
			nn_xml_escape(sb, name);
			nn_sb_puts(sb, "<tspan font-weight=\"normal\" font-size=\"11\">");
			nn_xml_escape(sb, rest);
			nn_sb_puts(sb, "</tspan></text>\n");
			nn__hv_rec(R, rb, "text", x + PAD, ty - nn__hv_ascent(12),
				   NICMARK + nn__hv_text_w(name, 12, true) + nn__hv_text_w(rest, 11, false),
				   nn__hv_ascent(12) + nn__hv_descent(12));
			nn_sb_printf(sb, "<text class=\"pcie%s\" x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">PCIe: ",
				     pc && pc->v.state == NN_PCIE_BAD ? " bad" : "", tx, ty + LINE - 1,
				     pc && pc->v.state == NN_PCIE_BAD ? C_RED : "#555555");
			nn_xml_escape(sb, pcie);
			nn_sb_puts(sb, "<title>");
			nn_xml_escape(sb, pcie_text(n));
			nn_sb_puts(sb, "</title></text>\n</g>\n");
			nn__hv_rec(R, rb, "text", tx, ty + LINE - 1 - nn__hv_ascent(11),
				   nn__hv_text_w("PCIe: ", 11, false) + nn__hv_text_w(pcie, 11, false),
				   nn__hv_ascent(11) + nn__hv_descent(11));
		}
		nn_sb_puts(sb, "</g>\n");
	}
	/* moves: one by one when few, else the per-node counts in the headers say it */
	if (planned && v->moves <= MAXMOVES)
		for (i = 0; i < v->nirqs; i++) {
			const struct nn_hv_irq *m = &v->irqs[i];
			double x1, y1, x2, y2, mx, my, dx, dy, len;

			if (!m->moved || m->now_cpu < 0 || L->cbox[m->now_cpu] < 0 || L->cbox[m->plan_cpu] < 0)
				continue;
			x1 = ox + L->boxes[L->cbox[m->now_cpu]].x + L->cx[m->now_cpu] + L->cell / 2.0;
			y1 = oy + L->boxes[L->cbox[m->now_cpu]].y + L->cy[m->now_cpu] + L->cell / 2.0;
			x2 = ox + L->boxes[L->cbox[m->plan_cpu]].x + L->cx[m->plan_cpu] + L->cell / 2.0;
			y2 = oy + L->boxes[L->cbox[m->plan_cpu]].y + L->cy[m->plan_cpu] + L->cell / 2.0;
			dx = x2 - x1;
			dy = y2 - y1;
			len = sqrt(dx * dx + dy * dy);
			if (len < 1)
				len = 1;
			/* an arc over the cells, bulging up */
			mx = (x1 + x2) / 2;
			my = (y1 < y2 ? y1 : y2) - 14 - len / 5;
			nn_sb_printf(sb, "<path class=\"move\" data-irq=\"%d\" d=\"M%.1f %.1fQ%.1f %.1f %.1f %.1f\" "
				     "fill=\"none\" stroke=\"%s\" stroke-width=\"1.4\" stroke-opacity=\"0.7\" "
				     "marker-end=\"url(#arrow%s)\"/>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				     "fill=\"none\" stroke=\"#444444\"/>\n", m->irq, x1, y1, mx, my, x2, y2,
				     m->plan_off ? C_RED : "#444444", m->plan_off ? "-red" : "", x1, y1);
		}
	/* the marks: one per queue IRQ, dots along the bottom of its CPU's cell */
	memset(ta, 0, (size_t)L->maxcpu * sizeof(*ta));
	for (i = 0; i < v->nirqs; i++) {
		const struct nn_hv_irq *m = &v->irqs[i];
		int c = planned ? m->plan_cpu : m->now_cpu, slot;
		bool off = planned ? m->plan_off : m->now_off;
		bool spill = planned ? m->plan_spill : m->now_spill;
		double x, y;

		if (c < 0 || c >= L->maxcpu || L->cbox[c] < 0)
			continue;
		slot = ta[c].n++ % 4;
		x = ox + L->boxes[L->cbox[c]].x + L->cx[c] + L->cell / 6.0 + slot * (L->cell / 4.6);
		y = oy + L->boxes[L->cbox[c]].y + L->cy[c] + L->cell * 0.8;
		nn_sb_printf(sb, "<circle class=\"irq %s\" data-irq=\"%d\" data-nic=\"",
			     off ? "off" : spill ? "spill" : m->nic_node < 0 ? "unknown" : "local", m->irq);
		nn_xml_escape(sb, m->nic);
		nn_sb_printf(sb, "\" data-queue=\"%d\" data-cpu=\"%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
			     m->queue, c, x, y, L->cell / 9.0,
			     off ? C_RED : spill ? C_AMBER : m->nic_node < 0 ? "#555555" : C_BLUE);
	}
	/* red cells outlined last, large, so they show at any size */
	for (i = 0; i < t->ncpus; i++) {
		int id = t->cpus[i].id;
		bool off = false;
		size_t k;

		if (L->cbox[id] < 0)
			continue;
		for (k = 0; k < v->nirqs && !off; k++)
			off = (planned ? v->irqs[k].plan_cpu : v->irqs[k].now_cpu) == id &&
			      (planned ? v->irqs[k].plan_off : v->irqs[k].now_off);
		if (off)
			nn_sb_printf(sb, "<rect class=\"offmark\" data-cpu=\"%d\" x=\"%d\" y=\"%d\" width=\"%d\" "
				     "height=\"%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", id,
				     ox + L->boxes[L->cbox[id]].x + L->cx[id] - 3,
				     oy + L->boxes[L->cbox[id]].y + L->cy[id] - 3, L->cell + 6, L->cell + 6, C_RED);
	}
	nn_sb_puts(sb, "</g>\n");
	free(ta);
}

/* The text column: legend, distances, off-node IRQs, unknown locality. */
struct side {
	struct nn_sb *sb;
	int x, y;
	int right;			/* the column's right edge so far */
	struct hv_rects *R;
};

/* Records one item of the column and widens it. */
static void side_rec(struct side *s, int x, int y, int w, int h)
{
	if (x + w > s->right)
		s->right = x + w;
	nn__hv_rec(s->R, -1, "side", x, y, w, h);
}

/* A legend row at s->y: its sample (drawn by the caller, up to 3 units
 * around the LEGCELL square) and @text beside it. */
static void legend_text(struct side *s, const char *text)
{
	nn_sb_printf(s->sb, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", s->x + 24, s->y + 12);
	nn_xml_escape(s->sb, text);
	nn_sb_puts(s->sb, "</text>\n");
	side_rec(s, s->x - 3, s->y - 3, 27 + nn__hv_text_w(text, 11, false), LEGCELL + 6);
}

static void side_line(struct side *s, const char *cls, const char *fill, int size, bool bold, const char *text)
{
	s->y += size >= 13 ? LINE + 6 : LINE;
	nn_sb_puts(s->sb, "<text");
	if (cls)
		nn_sb_printf(s->sb, " class=\"%s\"", cls);
	nn_sb_printf(s->sb, " x=\"%d\" y=\"%d\" font-size=\"%d\"", s->x, s->y, size);
	if (bold)
		nn_sb_puts(s->sb, " font-weight=\"bold\"");
	if (fill)
		nn_sb_printf(s->sb, " fill=\"%s\"", fill);
	nn_sb_puts(s->sb, ">");
	nn_xml_escape(s->sb, text);
	nn_sb_puts(s->sb, "</text>\n");
	side_rec(s, s->x, s->y - nn__hv_ascent(size), nn__hv_text_w(text, size, bold),
		 nn__hv_ascent(size) + nn__hv_descent(size));
}

static void fmt_irq(char *buf, size_t size, const struct nn_hv_irq *m, bool planned)
{
	int c = planned ? m->plan_cpu : m->now_cpu, n = planned ? m->plan_node : m->now_node;

	snprintf(buf, size, "IRQ %d  %s q%d: CPU %d (node %d), NIC on node %d", m->irq, m->nic, m->queue, c, n,
		 m->nic_node);
}

static void side_list(struct side *s, const struct nn_hostview *v, bool planned)
{
	size_t i, shown = 0, total = planned ? v->plan_off : v->now_off;
	char buf[192];

	snprintf(buf, sizeof(buf), "Off the NIC's node %s: %zu", planned ? "as planned" : "today", total);
	side_line(s, NULL, total ? C_RED : NULL, 13, true, buf);
	if (!total)
		side_line(s, NULL, "#555555", 11, false, "none");
	for (i = 0; i < v->nirqs && shown < SIDELIST; i++)
		if (planned ? v->irqs[i].plan_off : v->irqs[i].now_off) {
			fmt_irq(buf, sizeof(buf), &v->irqs[i], planned);
			side_line(s, planned ? "offlist planned" : "offlist now", C_RED, 11, false, buf);
			shown++;
		}
	if (total > shown) {
		snprintf(buf, sizeof(buf), "... and %zu more (the HTML page lists them all)", total - shown);
		side_line(s, NULL, "#555555", 11, false, buf);
	}
	total = planned ? v->plan_spill : v->now_spill;
	if (total) {
		snprintf(buf, sizeof(buf), "Spilled to a near node %s, as the plan puts them: %zu",
			 planned ? "as planned" : "today", total);
		side_line(s, "spilllist", C_AMBER, 11, false, buf);
	}
}

/* The column at @x, @y; returns its height, *@right its right edge. */
static int draw_side(struct nn_sb *sb, const struct nn_hostview *v, int x, int y, struct hv_rects *R, int *right)
{
	const struct nn_topo *t = &v->host->topo;
	struct side s = { sb, x, y, x, R };
	size_t i, j;
	char buf[256];

	side_line(&s, NULL, NULL, 13, true, "Legend");
	s.y += 8;	/* clear of the heading's descent and a sample's outline */
	nn_sb_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#cfe2f6\" stroke=\"%s\"/>\n"
		     "<circle cx=\"%.1f\" cy=\"%d\" r=\"1.7\" fill=\"%s\"/>\n", x, s.y, LEGCELL, LEGCELL, C_BLUE,
		     x + 2.5, s.y + LEGCELL - 3, C_BLUE);
	legend_text(&s, "CPU with queue IRQs of its node's NICs (a dot each, 2+ counted)");
	s.y += 22;
	nn_sb_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f6c9c4\" stroke=\"%s\"/>\n"
		     "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"%s\" "
		     "stroke-width=\"2.5\"/>\n", x, s.y, LEGCELL, LEGCELL, C_RED, x - 3, s.y - 3, LEGCELL + 6, LEGCELL + 6, C_RED);
	legend_text(&s, "a queue IRQ on a CPU off its NIC's node");
	s.y += 22;
	nn_sb_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#dddddd\" stroke=\"#777777\"/>\n",
		     x, s.y, LEGCELL, LEGCELL);
	legend_text(&s, "queue IRQs of a NIC of unknown node (no judgement)");
	s.y += 22;
	nn_sb_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ffffff\" stroke=\"#c4c8ce\" "
		     "stroke-dasharray=\"3 2\"/>\n", x, s.y, LEGCELL, LEGCELL);
	legend_text(&s, "dashed: housekeeping CPU (as planned)");
	s.y += 22;
	if (!nn_cpuset_empty(nn_host_claimed_cpus(v->host))) {
		nn_sb_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ffffff\" "
			     "stroke=\"%s\" stroke-width=\"2.5\"/>\n", x, s.y, LEGCELL, LEGCELL, C_CLAIM);
		legend_text(&s, "claimed CPU: a workload's while its claim lasts (nicnuma claims)");
		s.y += 22;
	}
	nn_sb_printf(sb, "<path d=\"M%d %dQ%d %d %d %d\" fill=\"none\" stroke=\"#444444\" stroke-width=\"1.4\" "
		     "marker-end=\"url(#arrow)\"/>\n", x, s.y + 10, x + 10, s.y - 2, x + 20, s.y + 10);
	snprintf(buf, sizeof(buf), "a move apply makes (drawn when %d or fewer)", MAXMOVES);
	legend_text(&s, buf);
	s.y += 18;
	side_line(&s, NULL, "#555555", 11, false, "Rows: one L3 group each; SMT siblings under their core.");
	if (v->traffic) {
		s.y += 4;
		nn_sb_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"8\" height=\"4\" fill=\"#d95f02\"/>"
			     "<rect x=\"%d\" y=\"%d\" width=\"8\" height=\"4\" fill=\"#6a3d9a\"/>\n",
			     x, s.y + 6, x + 8, s.y + 6);
		snprintf(buf, sizeof(buf), "heat strip: interrupts (left), NET softirqs (right) in %.0f s",
			 v->traffic->seconds);
		nn_sb_printf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x + 24, s.y + 11);
		nn_xml_escape(sb, buf);
		nn_sb_puts(sb, "</text>\n");
		side_rec(&s, x, s.y + 11 - nn__hv_ascent(11), 24 + nn__hv_text_w(buf, 11, false),
			 nn__hv_ascent(11) + nn__hv_descent(11));
		s.y += 14;
	}
	if (v->traffic) {
		double ti = 0, ts = 0, bi = -1;
		int busy = -1;

		for (i = 0; i < v->traffic->ncpus; i++) {
			ti += v->traffic->irq[i];
			ts += v->traffic->softirq[i];
			double w = v->traffic->irq[i] + v->traffic->softirq[i];

			if (w > bi && w > 0) {
				bi = w;
				busy = (int)i;
			}
		}
		s.y += 6;
		side_line(&s, NULL, NULL, 13, true, "Observed work");
		snprintf(buf, sizeof(buf), "%.0f interrupts/s of the NICs, %.0f NET softirqs/s", ti, ts);
		side_line(&s, "observed", NULL, 11, false, buf);
		if (busy >= 0)
			snprintf(buf, sizeof(buf), "busiest: CPU %d (node %d), %.0f interrupts/s, %.0f softirqs/s", busy,
				 nn_topo_cpu_node(t, busy), v->traffic->irq[busy], v->traffic->softirq[busy]);
		else
			snprintf(buf, sizeof(buf), "no interrupt or NET softirq in the interval");
		side_line(&s, "observed", NULL, 11, false, buf);
	}
	s.y += 6;
	if (t->nnodes > 1 && t->nnodes <= 16) {
		struct nn_sb row = NN_SB_INIT;

		side_line(&s, NULL, NULL, 13, true, "Node distances");
		for (i = 0; i < t->nnodes; i++) {
			nn_sb_printf(&row, "node %-2d", t->nodes[i].id);
			for (j = 0; j < t->nnodes; j++)
				nn_sb_printf(&row, " %3d", nn_topo_distance(t, t->nodes[i].id, t->nodes[j].id));
			nn_sb_printf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"11\" font-family=\"monospace\" "
				     "xml:space=\"preserve\">", x, s.y += LINE);
			nn_xml_escape(sb, nn_sb_str(&row));
			nn_sb_puts(sb, "</text>\n");
			side_rec(&s, x, s.y - nn__hv_ascent(11), nn__hv_text_w(nn_sb_str(&row) ? nn_sb_str(&row) : "", 11, false),
				 nn__hv_ascent(11) + nn__hv_descent(11));
			nn_sb_reset(&row);
		}
		nn_sb_free(&row);
		s.y += 6;
	}
	side_list(&s, v, false);
	if (v->plan) {
		s.y += 6;
		side_list(&s, v, true);
	}
	if (v->now_unplaced) {
		s.y += 6;
		snprintf(buf, sizeof(buf), "%zu queue IRQ%s without one known CPU today (not drawn)",
			 v->now_unplaced, v->now_unplaced == 1 ? "" : "s");
		side_line(&s, NULL, "#555555", 11, false, buf);
	}
	if (v->unknown_nics) {
		s.y += 6;
		side_line(&s, NULL, NULL, 13, true, "Unknown locality");
		for (i = 0; i < v->nnics; i++) {
			if (nn_hostview_nic_node(t, v->nics[i]) >= 0)
				continue;
			snprintf(buf, sizeof(buf), "%s: the kernel does not say its NUMA node (numa_node -1)",
				 v->nics[i]->name);
			side_line(&s, "unknown-nic", "#555555", 11, false, buf);
		}
	}
	*right = s.right;
	return s.y - y;
}

/* The layout, or -ENOMEM also recorded in @sb. */
static int make_layout_or_fail(const struct nn_hostview *v, struct layout *L, struct nn_sb *sb)
{
	if (!nn__hv_layout_make(v, L))
		return 0;
	if (!sb->err)
		sb->err = -ENOMEM;
	return -ENOMEM;
}

/* The picture; @heading: the title drawn on it too (standalone SVG; the
 * page has it as its <h1>). Its boxes recorded into @R when given. */
void nn__hv_draw_svg(const struct nn_hostview *v, const char *title, bool heading, struct nn_sb *sb,
		     struct hv_rects *R, int *pw, int *ph)
{
	struct layout L;
	struct nn_sb side = NN_SB_INIT;
	int panels, w, h, sideh, sx, right, top = MARGIN + (heading ? 2 * LINE + 8 : 0);

	if (make_layout_or_fail(v, &L, sb))
		return;
	panels = v->plan ? 2 : 1;
	sx = MARGIN + L.panelw + 2 * MARGIN;
	sideh = draw_side(&side, v, sx, top, R, &right);
	w = right + MARGIN > sx + SIDEW ? right + MARGIN : sx + SIDEW;
	if (heading && MARGIN + nn__hv_text_w(title, HEAD_SIZE, true) + MARGIN > w)
		w = MARGIN + nn__hv_text_w(title, HEAD_SIZE, true) + MARGIN;
	h = top + panels * (L.panelh + MARGIN);
	if (top + sideh + MARGIN > h)
		h = top + sideh + MARGIN;
	nn_svg_open(sb, "hostview", title, w, h);
	nn_sb_printf(sb, "<defs><marker id=\"arrow\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"6\" "
		     "markerHeight=\"6\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\" fill=\"#444444\"/></marker>"
		     "<marker id=\"arrow-red\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"6\" "
		     "markerHeight=\"6\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\" fill=\"%s\"/></marker></defs>\n",
		     C_RED);
	if (heading) {
		nn_sb_printf(sb, "<text class=\"heading\" x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"bold\">",
			     MARGIN, MARGIN + LINE + 4, HEAD_SIZE);
		nn_xml_escape(sb, title);
		nn_sb_puts(sb, "</text>\n");
		nn__hv_rec_text(R, -1, "heading", MARGIN, MARGIN + LINE + 4, title, HEAD_SIZE, true);
	}
	draw_panel(sb, v, &L, MARGIN, top, false, R);
	if (v->plan)
		draw_panel(sb, v, &L, MARGIN, top + L.panelh + MARGIN, true, R);
	nn_sb_printf(sb, "<g class=\"side\">\n%s</g>\n</svg>\n", nn_sb_str(&side));
	if (nn_sb_error(&side))
		sb->err = sb->err ? sb->err : nn_sb_error(&side);
	nn_sb_free(&side);
	nn__hv_layout_free(&L);
	if (pw)
		*pw = w;
	if (ph)
		*ph = h;
}

void nn_hostview_svg(const struct nn_hostview *v, const char *title, struct nn_sb *sb)
{
	nn__hv_draw_svg(v, title, true, sb, NULL, NULL, NULL);
}

/* ---- the page ---- */

static const char style[] =
	"body{font-family:sans-serif;margin:1em;color:#222}h1{font-size:1.4em}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.85em}td,th{border:1px solid #ccc;"
	"padding:.2em .5em;text-align:left;vertical-align:top}th{background:#f0f0f0}td.n{text-align:right}"
	".off{color:#c8102e;font-weight:bold}.spill{color:#b36b00}.bad{color:#c8102e}.muted{color:#666}.pic{overflow-x:auto}"
	"svg{display:block;margin:.5em 0}";

static void td_node(struct nn_sb *sb, int node)
{
	if (node >= 0)
		nn_sb_printf(sb, "<td class=\"n\">%d</td>", node);
	else
		nn_sb_puts(sb, "<td class=\"n muted\">unknown</td>");
}

static void html_nics(struct nn_sb *sb, const struct nn_hostview *v)
{
	size_t i, k;

	nn_sb_puts(sb, "<h2>NICs</h2>\n<table class=\"nics\">\n<tr><th>NIC</th><th>driver</th><th>PCI</th>"
		   "<th>node</th><th>speed</th><th>PCIe</th><th>queue IRQs</th><th>off node today</th>"
		   "<th>off node as planned</th></tr>\n");
	for (i = 0; i < v->nnics; i++) {
		const struct nn_nic *n = v->nics[i];
		size_t nq = 0, on = 0, op = 0;
		char sp[32];

		for (k = 0; k < v->nirqs; k++)
			if (!strcmp(v->irqs[k].nic, n->name)) {
				nq++;
				on += v->irqs[k].now_off;
				op += v->irqs[k].plan_off;
			}
		nn__hv_speed_text(sp, sizeof(sp), n->speed_mbps);
		nn_sb_puts(sb, "<tr class=\"nic\"><td>");
		nn_xml_escape(sb, n->name);
		nn_sb_puts(sb, "</td><td>");
		nn_xml_escape(sb, n->driver ? n->driver : (n->kind ? n->kind : "-"));
		nn_sb_puts(sb, "</td><td>");
		nn_xml_escape(sb, n->pci ? n->pci : "-");
		nn_sb_puts(sb, "</td>");
		td_node(sb, nn_hostview_nic_node(&v->host->topo, n));
		nn_sb_printf(sb, "<td>%s</td><td%s>", sp,
			     n->pcie && n->pcie->v.state == NN_PCIE_BAD ? " class=\"bad\"" : "");
		nn_xml_escape(sb, pcie_text(n));
		nn_sb_printf(sb, "</td><td class=\"n\">%zu</td><td class=\"n%s\">%zu</td>", nq, on ? " off" : "", on);
		if (v->plan)
			nn_sb_printf(sb, "<td class=\"n%s\">%zu</td></tr>\n", op ? " off" : "", op);
		else
			nn_sb_puts(sb, "<td class=\"muted\">no plan</td></tr>\n");
	}
	nn_sb_puts(sb, "</table>\n");
}

static bool listed(const struct nn_hv_irq *m)
{
	return m->now_off || m->plan_off || m->now_spill || m->plan_spill || m->moved;
}

static const char *cell_class(bool off, bool spill)
{
	return off ? " off" : spill ? " spill" : "";
}

static void html_irqs(struct nn_sb *sb, const struct nn_hostview *v)
{
	size_t i, n = 0;

	nn_sb_puts(sb, "<h2>Queue IRQs off their NIC's node (misplaced, or spilled as planned) or moved by "
		   "the plan</h2>\n");
	for (i = 0; i < v->nirqs; i++)
		n += listed(&v->irqs[i]);
	if (!n) {
		nn_sb_puts(sb, "<p>None: every queue IRQ is on its NIC's node and stays where it is.</p>\n");
		return;
	}
	nn_sb_puts(sb, "<table class=\"irqs\">\n<tr><th>IRQ</th><th>NIC</th><th>queue</th><th>NIC node</th>"
		   "<th>CPU today</th><th>node today</th><th>planned CPU</th><th>planned node</th></tr>\n");
	for (i = 0; i < v->nirqs; i++) {
		const struct nn_hv_irq *m = &v->irqs[i];

		if (!listed(m))
			continue;
		nn_sb_printf(sb, "<tr class=\"irq\" data-irq=\"%d\"><td class=\"n\">%d</td><td>", m->irq, m->irq);
		nn_xml_escape(sb, m->nic);
		nn_sb_printf(sb, "</td><td class=\"n\">%d</td>", m->queue);
		td_node(sb, m->nic_node);
		if (m->now_cpu >= 0)
			nn_sb_printf(sb, "<td class=\"n%s\">%d</td>", cell_class(m->now_off, m->now_spill), m->now_cpu);
		else
			nn_sb_puts(sb, "<td class=\"muted\">no single CPU</td>");
		td_node(sb, m->now_node);
		if (m->plan_cpu >= 0)
			nn_sb_printf(sb, "<td class=\"n%s\">%d</td>", cell_class(m->plan_off, m->plan_spill),
				     m->plan_cpu);
		else
			nn_sb_puts(sb, "<td class=\"muted\">not planned</td>");
		td_node(sb, m->plan_node);
		nn_sb_puts(sb, "</tr>\n");
	}
	nn_sb_puts(sb, "</table>\n");
}

/* A heading and its items, none when there are none. */
static void html_list(struct nn_sb *sb, const char *title, char *const *items, size_t n)
{
	size_t i;

	if (!n)
		return;
	nn_sb_puts(sb, "<h2>");
	nn_sb_puts(sb, title);
	nn_sb_puts(sb, "</h2>\n<ul>\n");
	for (i = 0; i < n; i++) {
		nn_sb_puts(sb, "<li>");
		nn_xml_escape(sb, items[i]);
		nn_sb_puts(sb, "</li>\n");
	}
	nn_sb_puts(sb, "</ul>\n");
}

void nn_hostview_html(const struct nn_hostview *v, const char *title, struct nn_sb *sb)
{
	const struct nn_topo *t = &v->host->topo;

	nn_html_head(sb, title, style);
	nn_sb_puts(sb, "<h1>");
	nn_xml_escape(sb, title);
	nn_sb_printf(sb, "</h1>\n<p>%zu NUMA node%s, %zu online CPUs, %zu NIC%s, %zu queue IRQs. Today %zu of "
		     "them run on a CPU off their NIC's node where no plan puts them, %zu on a near node where "
		     "the plan spills them", t->nnodes, t->nnodes == 1 ? "" : "s", t->ncpus,
		     v->nnics, v->nnics == 1 ? "" : "s", v->nirqs, v->now_off, v->now_spill);
	if (v->plan)
		nn_sb_printf(sb, "; the plan moves %zu and spills %zu to a near node", v->moves, v->plan_spill);
	nn_sb_puts(sb, ".");
	if (v->unknown_nics)
		nn_sb_printf(sb, " %zu NIC%s of unknown locality: the kernel does not say which node, so "
			     "none of their IRQs is judged.", v->unknown_nics, v->unknown_nics == 1 ? "" : "s");
	if (t->knobs.cpu_model[0]) {
		nn_sb_puts(sb, " CPU: ");
		nn_xml_escape(sb, t->knobs.cpu_model);
		nn_sb_puts(sb, ".");
	}
	nn_sb_puts(sb, "</p>\n<div class=\"pic\">\n");
	nn__hv_draw_svg(v, title, false, sb, NULL, NULL, NULL);
	nn_sb_puts(sb, "</div>\n");
	html_nics(sb, v);
	html_irqs(sb, v);
	if (v->plan) {
		html_list(sb, "Plan warnings", v->plan->warnings, v->plan->nwarnings);
		html_list(sb, "Plan notes", v->plan->notes, v->plan->nnotes);
	}
	nn_sb_puts(sb, "</body>\n</html>\n");
}
