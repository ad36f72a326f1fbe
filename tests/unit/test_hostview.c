// SPDX-License-Identifier: GPL-2.0-or-later
/* test_hostview.c - the host picture (plan/hostview.c) on an in-memory host:
 * what is counted, which marks are red, every NIC and queue IRQ in the
 * drawing, hostile names escaped, the page's policy. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/bench_html.h"
#include "nicnuma/plan/hostview.h"

#define HOSTILE "e<&\"$1"
#define HOSTILE_ESC "e&lt;&amp;&quot;$1"

static void set_list(struct nn_cpuset *s, const char *list)
{
	assert_int_equal(nn_cpuset_parse_list(list, s), 0);
}

/* Nodes 0 (CPUs 0-3) and 1 (CPUs 4-7), distance 10/21; SMT pairs 0+2, 1+3,
 * 4+6, 5+7; one L3 per node. */
static void make_topo(struct nn_host *h)
{
	struct nn_topo *t = &h->topo;
	int i, j;

	t->ncpus = 8;
	t->cpus = calloc(8, sizeof(*t->cpus));
	t->nnodes = 2;
	t->nodes = calloc(2, sizeof(*t->nodes));
	assert_non_null(t->cpus);
	assert_non_null(t->nodes);
	for (i = 0; i < 8; i++) {
		struct nn_cpu *c = &t->cpus[i];

		c->id = i;
		c->node = i / 4;
		c->package = i / 4;
		c->die = 0;
		c->core = i % 2;
		c->l3 = (i / 4) * 4;
		assert_int_equal(nn_cpuset_set(&c->siblings, (unsigned)i), 0);
		assert_int_equal(nn_cpuset_set(&c->siblings, (unsigned)(i % 4 < 2 ? i + 2 : i - 2)), 0);
		set_list(&c->l3_cpus, i < 4 ? "0-3" : "4-7");
		assert_int_equal(nn_cpuset_set(&t->online, (unsigned)i), 0);
	}
	for (i = 0; i < 2; i++) {
		struct nn_node *n = &t->nodes[i];

		n->id = i;
		set_list(&n->cpus, i ? "4-7" : "0-3");
		n->mem_total_kb = 4L << 20;
		n->mem_free_kb = 3L << 20;
		n->distances = calloc(2, sizeof(int));
		assert_non_null(n->distances);
		n->ndistances = 2;
		for (j = 0; j < 2; j++)
			n->distances[j] = i == j ? 10 : 21;
	}
	h->irqbalance.pid = -1;
}

/* A NIC with one misc IRQ (@irq0) and queue IRQs @irq0+1.. whose effective
 * CPUs are @eff (one per queue). */
static void add_nic(struct nn_host *h, const char *name, int node, bool virt, int irq0, const int *eff, int nq)
{
	struct nn_nic *n;
	int q;

	h->nics = realloc(h->nics, (h->nnics + 1) * sizeof(*h->nics));
	assert_non_null(h->nics);
	n = &h->nics[h->nnics++];
	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	n->driver = virt ? NULL : strdup("mlx5_core");
	n->is_virtual = virt;
	n->numa_node = node;
	n->locality_known = node >= 0;
	n->speed_mbps = 25000;
	n->ifindex = (int)h->nnics;
	n->rx_queues = n->tx_queues = nq;
	n->nirqs = (size_t)nq + 1;
	n->irqs = calloc(n->nirqs, sizeof(*n->irqs));
	assert_non_null(n->irqs);
	n->irqs[0].irq = irq0;
	n->irqs[0].queue = -1;
	n->irqs[0].has_affinity = true;
	set_list(&n->irqs[0].affinity, "0-7");
	for (q = 0; q < nq; q++) {
		struct nn_irq *i = &n->irqs[q + 1];

		i->irq = irq0 + 1 + q;
		i->queue = q;
		i->dir = NN_QDIR_RXTX;
		i->has_affinity = i->has_effective = true;
		set_list(&i->affinity, "0-7");
		assert_int_equal(nn_cpuset_set(&i->effective, (unsigned)eff[q]), 0);
	}
}

static void add_pirq(struct nn_plan *p, const char *nic, int irq, int queue, int cpu)
{
	struct nn_plan_irq *q;

	p->irqs = realloc(p->irqs, (p->nirqs + 1) * sizeof(*p->irqs));
	assert_non_null(p->irqs);
	q = &p->irqs[p->nirqs++];
	memset(q, 0, sizeof(*q));
	q->irq = irq;
	q->nic = strdup(nic);
	q->queue = queue;
	q->node = cpu / 4;
	assert_int_equal(nn_cpuset_set(&q->cpus, (unsigned)cpu), 0);
}

static void add_pnic(struct nn_plan *p, const char *nic, int node)
{
	p->nics = realloc(p->nics, (p->nnics + 1) * sizeof(*p->nics));
	assert_non_null(p->nics);
	memset(&p->nics[p->nnics], 0, sizeof(*p->nics));
	p->nics[p->nnics].nic = strdup(nic);
	p->nics[p->nnics].numa_node = node;
	p->nics[p->nnics].node = node;
	p->nnics++;
}

/* The hostile NIC on node 1: queue IRQs 100-103 today on CPUs 0, 5, 1, 6
 * (100 and 102 off node), planned on 4, 5, 1, 0 (102 and 103 off node).
 * So 100 is misplaced (off the node where the plan does not put it), 102 a
 * planned spill today and as planned, 103 a planned spill as planned.
 * unk0 (numa_node -1): 201, 202 today on 2 and 7, planned on 3 and 7.
 * veth0: virtual, not planned, not drawn. */
struct fx {
	struct nn_host h;
	struct nn_plan p;
};

static int setup(void **state)
{
	static const int eff_h[] = { 0, 5, 1, 6 }, eff_u[] = { 2, 7 }, eff_v[] = { 3 };
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	make_topo(&f->h);
	add_nic(&f->h, HOSTILE, 1, false, 99, eff_h, 4);
	add_nic(&f->h, "unk0", -1, false, 200, eff_u, 2);
	add_nic(&f->h, "veth0", -1, true, 300, eff_v, 1);
	add_pnic(&f->p, HOSTILE, 1);
	add_pnic(&f->p, "unk0", -1);
	add_pirq(&f->p, HOSTILE, 99, -1, 0);
	add_pirq(&f->p, HOSTILE, 100, 0, 4);
	add_pirq(&f->p, HOSTILE, 101, 1, 5);
	add_pirq(&f->p, HOSTILE, 102, 2, 1);
	add_pirq(&f->p, HOSTILE, 103, 3, 0);
	add_pirq(&f->p, "unk0", 201, 0, 3);
	add_pirq(&f->p, "unk0", 202, 1, 7);
	assert_int_equal(nn_cpuset_set(&f->p.housekeeping, 0), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	nn_plan_free(&f->p);
	nn_host_free(&f->h);
	free(f);
	return 0;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	const char *p = hay;

	while ((p = strstr(p, needle))) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* The attribute list of each <circle class="irq ..."> of @part, and whether
 * the IRQ @irq has a mark of @cls in it. */
static bool has_mark(const char *part, const char *cls, int irq)
{
	char want[96];

	snprintf(want, sizeof(want), "<circle class=\"irq %s\" data-irq=\"%d\"", cls, irq);
	return strstr(part, want) != NULL;
}

static void test_model(void **state)
{
	struct fx *f = *state;
	struct nn_hostview v;
	size_t i;

	assert_int_equal(nn_hostview_make(&f->h, &f->p, NULL, &v), 0);
	assert_int_equal(v.nnics, 2);		/* veth0 is virtual and not planned */
	assert_int_equal(v.nirqs, 6);		/* queue IRQs only: not 99, not veth0's */
	assert_int_equal(v.now_off, 1);
	assert_int_equal(v.now_spill, 1);
	assert_int_equal(v.plan_off, 0);
	assert_int_equal(v.plan_spill, 2);
	assert_int_equal(v.moves, 3);		/* 100: 0->4, 103: 6->0, 201: 2->3 */
	assert_int_equal(v.unknown_nics, 1);
	for (i = 0; i < v.nirqs; i++) {
		const struct nn_hv_irq *m = &v.irqs[i];

		assert_int_equal(m->now_off, m->irq == 100);
		assert_int_equal(m->now_spill, m->irq == 102);
		assert_false(m->plan_off);
		assert_int_equal(m->plan_spill, m->irq == 102 || m->irq == 103);
		if (m->irq >= 200) {
			assert_int_equal(m->nic_node, -1);	/* unknown: never red */
			assert_false(m->now_off || m->plan_off || m->now_spill || m->plan_spill);
		}
	}
	nn_hostview_free(&v);
	/* without a plan: today only, every IRQ off the node misplaced */
	assert_int_equal(nn_hostview_make(&f->h, NULL, NULL, &v), 0);
	assert_int_equal(v.nnics, 2);
	assert_int_equal(v.now_off, 2);
	assert_int_equal(v.now_spill, 0);
	assert_int_equal(v.plan_off, 0);
	assert_int_equal(v.moves, 0);
	nn_hostview_free(&v);
}

static void test_svg_marks(void **state)
{
	struct fx *f = *state;
	struct nn_sb sb = NN_SB_INIT;
	struct nn_hostview v;
	const char *svg, *planned;
	char *now;
	static const int irqs[] = { 100, 101, 102, 103, 201, 202 };
	size_t i;

	assert_int_equal(nn_hostview_make(&f->h, &f->p, NULL, &v), 0);
	nn_hostview_svg(&v, "t<itle", &sb);
	assert_int_equal(nn_sb_error(&sb), 0);
	svg = nn_sb_str(&sb);
	planned = strstr(svg, "<g class=\"panel planned\">");
	assert_non_null(planned);
	now = strndup(svg, (size_t)(planned - svg));
	assert_non_null(strstr(now, "<g class=\"panel now\">"));
	/* every queue IRQ once in each panel, the misc IRQ and veth0's never */
	for (i = 0; i < sizeof(irqs) / sizeof(irqs[0]); i++) {
		char want[64];

		snprintf(want, sizeof(want), "data-irq=\"%d\" data-nic=", irqs[i]);
		assert_int_equal(count(now, want), 1);
		assert_int_equal(count(planned, want), 1);
	}
	assert_null(strstr(svg, "data-irq=\"99\""));
	assert_null(strstr(svg, "data-irq=\"301\""));
	/* red exactly where an IRQ is off the NIC's node against the plan,
	 * amber where the plan spills it */
	assert_int_equal(count(now, "<circle class=\"irq off\""), 1);
	assert_true(has_mark(now, "off", 100) && has_mark(now, "spill", 102));
	assert_int_equal(count(planned, "<circle class=\"irq off\""), 0);
	assert_true(has_mark(planned, "spill", 102) && has_mark(planned, "spill", 103));
	assert_true(has_mark(planned, "local", 100) && has_mark(planned, "local", 101));
	/* the red cell outlined: today CPU 0; none as planned */
	assert_int_equal(count(now, "class=\"offmark\""), 1);
	assert_non_null(strstr(now, "class=\"offmark\" data-cpu=\"0\""));
	assert_int_equal(count(planned, "class=\"offmark\""), 0);
	/* the NIC of unknown node: grey marks, said in words */
	assert_int_equal(count(svg, "<circle class=\"irq unknown\""), 4);
	assert_non_null(strstr(svg, "unk0: the kernel does not say its NUMA node"));
	/* every drawn NIC in both panels; hostile names escaped, never raw */
	assert_int_equal(count(svg, "<g class=\"nic\" data-nic=\"" HOSTILE_ESC "\">"), 2);
	assert_int_equal(count(svg, "<g class=\"nic\" data-nic=\"unk0\">"), 2);
	assert_null(strstr(svg, "veth0"));
	assert_null(strstr(svg, HOSTILE));
	assert_null(strstr(svg, "t<itle"));
	assert_non_null(strstr(svg, "<title>t&lt;itle</title>"));
	assert_non_null(strstr(svg, "font-weight=\"bold\">t&lt;itle</text>"));
	/* the moves: three, drawn one by one */
	assert_int_equal(count(planned, "<path class=\"move\""), 3);
	assert_int_equal(count(now, "<path class=\"move\""), 0);
	/* 8 CPU cells per panel */
	assert_int_equal(count(now, "<rect class=\"cpu"), 8);
	assert_int_equal(count(planned, "<rect class=\"cpu"), 8);
	free(now);
	nn_sb_free(&sb);
	nn_hostview_free(&v);
}

static void test_html_page(void **state)
{
	struct fx *f = *state;
	struct nn_sb sb = NN_SB_INIT;
	struct nn_hostview v;
	const char *html;

	assert_int_equal(nn_hostview_make(&f->h, &f->p, NULL, &v), 0);
	nn_hostview_html(&v, "host \"x\" & <y>", &sb);
	assert_int_equal(nn_sb_error(&sb), 0);
	html = nn_sb_str(&sb);
	assert_non_null(strstr(html, "content=\"" NN_HTML_CSP "\""));
	assert_non_null(strstr(html, "<title>host &quot;x&quot; &amp; &lt;y&gt;</title>"));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "href="));
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, HOSTILE));
	assert_int_equal(count(html, "<svg "), 1);
	/* the text lists: both NICs, and the four IRQs off node (misplaced or spilled) or moved */
	assert_int_equal(count(html, "<tr class=\"nic\">"), 2);
	assert_int_equal(count(html, "<tr class=\"irq\""), 4);	/* 100, 102, 103, 201 */
	assert_non_null(strstr(html, "<td>" HOSTILE_ESC "</td>"));
	nn_sb_free(&sb);
	nn_hostview_free(&v);
}

static void test_traffic_strip(void **state)
{
	struct fx *f = *state;
	double irq[8] = { 0, 0, 0, 0, 400, 100, 0, 0 }, soft[8] = { 5, 0, 0, 0, 800, 0, 0, 0 };
	struct nn_hv_traffic tr = { 8, irq, soft, 2.0 };
	struct nn_sb sb = NN_SB_INIT;
	struct nn_hostview v;
	const char *svg;

	assert_int_equal(nn_hostview_make(&f->h, &f->p, &tr, &v), 0);
	nn_hostview_svg(&v, "t", &sb);
	svg = nn_sb_str(&sb);
	/* one interrupt and one softirq strip per CPU, today's panel only */
	assert_int_equal(count(svg, "<rect class=\"heat irq\""), 8);
	assert_int_equal(count(svg, "<rect class=\"heat softirq\""), 8);
	assert_true(strstr(svg, "<rect class=\"heat irq\"") < strstr(svg, "<g class=\"panel planned\">"));
	assert_non_null(strstr(svg, "data-cpu=\"4\" data-rate=\"400\""));
	assert_non_null(strstr(svg, "fill-opacity=\"1.00\""));
	assert_non_null(strstr(svg, "busiest: CPU 4 (node 1)"));
	nn_sb_free(&sb);
	nn_hostview_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_model, setup, teardown),
		cmocka_unit_test_setup_teardown(test_svg_marks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_traffic_strip, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
