// SPDX-License-Identifier: GPL-2.0-or-later
/* test_hostview_layout.c - the report's picture lays nothing over anything
 * (issue 26.7): the boxes the renderer computes (nn_hostview_rects) lie in
 * their parents and in the picture, and no two of one parent overlap, on
 * this machine's shape (the thishost capture: one node, two CPUs, eth0 with
 * numa_node -1), the guest-2node capture and a 512-CPU host shaped like the
 * `large` fixture (8 nodes, SMT, 16 NICs of 64 queues; built in memory, as
 * mkhost.py takes seconds and 140 MB for it), each with and without a plan,
 * heading and traffic. And the page's NIC table gives eth0's node as unknown,
 * as `nics` and the plan do. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/hostview.h"
#include "nicnuma/plan/plan_opts.h"
#include "tmptree.h"

#ifndef FIXTURE_DIR
#error "FIXTURE_DIR must name tests/fixtures"
#endif

static bool overlap(const struct nn_hv_rect *a, const struct nn_hv_rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static bool inside(const struct nn_hv_rect *a, int x, int y, int w, int h)
{
	return a->x >= x && a->y >= y && a->x + a->w <= x + w && a->y + a->h <= y + h;
}

static void print_rect(const char *tag, const struct nn_hv_rect *r, size_t i)
{
	print_error("%s: #%zu %s x=%d y=%d w=%d h=%d parent %d\n", tag, i, r->what, r->x, r->y, r->w, r->h,
		    r->parent);
}

/* Every promise of nn_hostview_rects() on @v (@title: the standalone
 * picture's heading, NULL the page's picture); @what names the case. */
static void check_layout(const struct nn_hostview *v, const char *title, const char *what)
{
	struct nn_hv_rect *r = NULL;
	size_t n = 0, i, j, texts = 0;
	int w = 0, h = 0, bad = 0;

	assert_int_equal(nn_hostview_rects(v, title, &r, &n, &w, &h), 0);
	assert_true(n > 0 && w > 0 && h > 0);
	for (i = 0; i < n; i++) {
		const struct nn_hv_rect *a = &r[i];

		texts += !strcmp(a->what, "title") || !strcmp(a->what, "side");
		assert_true(a->w > 0 && a->h > 0);
		if (!inside(a, 0, 0, w, h)) {
			print_rect(what, a, i);
			print_error("%s: outside the %dx%d picture\n", what, w, h);
			bad++;
		}
		if (a->parent >= 0) {
			const struct nn_hv_rect *p = &r[a->parent];

			assert_true((size_t)a->parent < i);
			if (!inside(a, p->x, p->y, p->w, p->h)) {
				print_rect(what, a, i);
				print_rect("  not inside", p, (size_t)a->parent);
				bad++;
			}
		}
	}
	/* every pair of one parent: O(n^2), a few million pairs at 512 CPUs */
	for (i = 0; i < n && bad < 10; i++)
		for (j = i + 1; j < n && bad < 10; j++)
			if (r[i].parent == r[j].parent && overlap(&r[i], &r[j])) {
				print_rect(what, &r[i], i);
				print_rect("  overlaps", &r[j], j);
				bad++;
			}
	assert_true(texts >= 3);	/* the title(s) and the side column were laid out */
	free(r);
	assert_int_equal(bad, 0);
}

static void check_all(const struct nn_host *h, const struct nn_plan *p, const char *what)
{
	struct nn_hv_traffic tr = { 0 };
	struct nn_hostview v;
	size_t i;

	assert_int_equal(nn_hostview_make(h, NULL, NULL, &v), 0);
	check_layout(&v, "nicnuma report", what);
	nn_hostview_free(&v);
	assert_int_equal(nn_hostview_make(h, p, NULL, &v), 0);
	check_layout(&v, "a title longer than the picture would be without it, as the README's are: "
		     "guest-2node capture, today = captured before apply", what);
	check_layout(&v, NULL, what);
	nn_hostview_free(&v);
	/* traffic: heat strips under the cells and the observed lines beside */
	tr.ncpus = (size_t)h->topo.cpus[h->topo.ncpus - 1].id + 1;
	tr.irq = calloc(tr.ncpus, sizeof(double));
	tr.softirq = calloc(tr.ncpus, sizeof(double));
	assert_non_null(tr.irq);
	assert_non_null(tr.softirq);
	for (i = 0; i < tr.ncpus; i++) {
		tr.irq[i] = (double)(i * 1000);
		tr.softirq[i] = (double)(i * 77);
	}
	tr.seconds = 5;
	assert_int_equal(nn_hostview_make(h, p, &tr, &v), 0);
	check_layout(&v, NULL, what);
	nn_hostview_free(&v);
	nn_hv_traffic_free(&tr);
}

struct capture {
	char dir[512];
	struct nn_ctx ctx;
	struct nn_host h;
	struct nn_plan p;
};

/* The capture @tarball extracted and discovered, planned with defaults. */
static void capture_open(struct capture *c, const char *tarball)
{
	struct nn_plan_opts po;
	char cmd[1536];

	memset(c, 0, sizeof(*c));
	memset(&po, 0, sizeof(po));
	assert_int_equal(tmptree_make(c->dir, sizeof(c->dir), "hvlayout"), 0);
	snprintf(cmd, sizeof(cmd), "tar -xzf '%s/%s' -C '%s'", FIXTURE_DIR, tarball, c->dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(nn_ctx_init(&c->ctx, c->dir, true), 0);
	assert_int_equal(nn_host_discover(&c->ctx, &c->h), 0);
	assert_int_equal(nn_plan_opts_check(&c->ctx, &c->h, &po), 0);
	assert_int_equal(nn_plan_make(&c->h, &po, &c->p), 0);
	nn_plan_opts_free(&po);
}

static void capture_close(struct capture *c)
{
	nn_plan_free(&c->p);
	nn_host_free(&c->h);
	nn_ctx_free(&c->ctx);
	assert_int_equal(tmptree_remove(c->dir), 0);
}

/* This machine's shape: the legend column and the "Observed work" lines
 * were drawn over the panels' titles; the NIC table said node 0. */
static void test_one_node(void **state)
{
	struct nn_sb sb = NN_SB_INIT;
	struct capture c;
	struct nn_hostview v;

	(void)state;
	capture_open(&c, "thishost.tar.gz");
	assert_int_equal(c.h.topo.nnodes, 1);
	check_all(&c.h, &c.p, "thishost");
	assert_int_equal(nn_hostview_make(&c.h, &c.p, NULL, &v), 0);
	assert_int_equal(v.unknown_nics, 1);
	nn_hostview_html(&v, "t", &sb);
	assert_int_equal(nn_sb_error(&sb), 0);
	assert_contains(nn_sb_str(&sb), "<tr class=\"nic\"><td>eth0</td><td>virtio_net</td>"
			"<td>0000:00:03.0</td><td class=\"n muted\">unknown</td>");
	nn_sb_free(&sb);
	nn_hostview_free(&v);
	capture_close(&c);
}

static void test_two_nodes(void **state)
{
	struct capture c;

	(void)state;
	capture_open(&c, "guest-2node.tar.gz");
	assert_int_equal(c.h.topo.nnodes, 2);
	check_all(&c.h, &c.p, "guest-2node");
	capture_close(&c);
}

/* The `large` fixture's shape (tests/fixtures/mkhost.py shape_large): two
 * packages of 4 nodes, 32 cores a node, 2 threads (sibling id + 256), an L3
 * per 8 cores; NIC card k (two ports, 64 queue IRQs each) on node k, today
 * on its node's CPUs, the plan's moves from the real planner. */
static void make_large(struct nn_host *h)
{
	struct nn_topo *t = &h->topo;
	int i, j, k;

	t->ncpus = 512;
	t->cpus = calloc(512, sizeof(*t->cpus));
	t->nnodes = 8;
	t->nodes = calloc(8, sizeof(*t->nodes));
	assert_non_null(t->cpus);
	assert_non_null(t->nodes);
	for (i = 0; i < 512; i++) {
		struct nn_cpu *c = &t->cpus[i];
		int core = i % 256;

		c->id = i;
		c->node = core / 32;
		c->package = core / 128;
		c->core = core;
		c->l3 = (core / 8) * 8;
		assert_int_equal(nn_cpuset_set(&c->siblings, (unsigned)core), 0);
		assert_int_equal(nn_cpuset_set(&c->siblings, (unsigned)core + 256), 0);
		for (j = 0; j < 8; j++) {
			assert_int_equal(nn_cpuset_set(&c->l3_cpus, (unsigned)(c->l3 + j)), 0);
			assert_int_equal(nn_cpuset_set(&c->l3_cpus, (unsigned)(c->l3 + j + 256)), 0);
		}
		assert_int_equal(nn_cpuset_set(&t->online, (unsigned)i), 0);
		assert_int_equal(nn_cpuset_set(&t->nodes[c->node].cpus, (unsigned)i), 0);
	}
	for (i = 0; i < 8; i++) {
		struct nn_node *n = &t->nodes[i];

		n->id = i;
		n->mem_total_kb = (192L << 20) - i * 8192L;
		n->mem_free_kb = n->mem_total_kb * 8 / 10;
		n->distances = calloc(8, sizeof(int));
		assert_non_null(n->distances);
		n->ndistances = 8;
		for (j = 0; j < 8; j++)
			n->distances[j] = i == j ? 10 : i / 4 != j / 4 ? 32 : ((i % 4) ^ (j % 4)) == 3 ? 12 : 11;
	}
	h->irqbalance.pid = -1;
	h->nics = calloc(16, sizeof(*h->nics));
	assert_non_null(h->nics);
	for (k = 0; k < 16; k++) {
		struct nn_nic *n = &h->nics[h->nnics++];
		int card = k / 2, port = k % 2;
		char name[32];

		if (card % 2 == 0)
			snprintf(name, sizeof(name), "ens%df%dnp%d", 10 + card, port, port);
		else
			snprintf(name, sizeof(name), "ens%df%d", 10 + card, port);
		n->name = strdup(name);
		n->driver = strdup(card % 2 ? "ice" : "mlx5_core");
		n->numa_node = card;
		n->locality_known = true;
		assert_int_equal(nn_cpuset_copy(&n->local_cpus, &t->nodes[card].cpus), 0);
		n->speed_mbps = card % 2 ? 25000 : 100000;
		n->ifindex = k + 2;
		n->rx_queues = n->tx_queues = 64;
		n->nirqs = 64;
		n->irqs = calloc(64, sizeof(*n->irqs));
		assert_non_null(n->irqs);
		for (j = 0; j < 64; j++) {
			struct nn_irq *q = &n->irqs[j];
			int cpu = card * 32 + j % 32 + (j >= 32 ? 256 : 0);

			q->irq = 100 + k * 67 + j;
			q->queue = j;
			q->dir = NN_QDIR_RXTX;
			q->has_affinity = q->has_effective = true;
			/* port 1 of every card starts on the next node: red marks, moves */
			if (port)
				cpu = (cpu + 32) % 512;
			assert_int_equal(nn_cpuset_set(&q->affinity, (unsigned)cpu), 0);
			assert_int_equal(nn_cpuset_set(&q->effective, (unsigned)cpu), 0);
		}
	}
}

static void test_512_cpus(void **state)
{
	struct nn_plan_opts po;
	struct nn_host h;
	struct nn_plan p;

	(void)state;
	memset(&h, 0, sizeof(h));
	memset(&p, 0, sizeof(p));
	memset(&po, 0, sizeof(po));
	make_large(&h);
	assert_int_equal(nn_plan_make(&h, &po, &p), 0);
	assert_true(p.nirqs >= 16 * 64);
	check_all(&h, &p, "512 CPUs");
	nn_plan_free(&p);
	nn_plan_opts_free(&po);
	nn_host_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_node),
		cmocka_unit_test(test_two_nodes),
		cmocka_unit_test(test_512_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
