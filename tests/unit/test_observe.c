// SPDX-License-Identifier: GPL-2.0-or-later
/* test_observe.c - observe's parsers (per-CPU /proc/interrupts rows,
 * /proc/softirqs, /proc/PID/stat, NAPI thread names), the attribution over
 * an in-memory host, and the sampler over a scratch tree (/.observe/K). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/obs/obs.h"
#include "tmptree.h"

/* ---- parsers ------------------------------------------------------------ */

static const char *intr4 =
"           CPU0       CPU1       CPU2       CPU3       \n"
"  0:         44          0          0          0  IO-APIC   2-edge      timer\n"
" 40:          0        100          0          7  PCI-MSIX-0000:3b:00.0   0-edge      eth0-TxRx-0\n"
" 41:          3          0          0        200  PCI-MSIX-0000:3b:00.0   1-edge      eth0-TxRx-1\n"
" 42:         xx          0          0          0  PCI-MSIX-0000:3b:00.0   2-edge      eth0-TxRx-2\n"
"NMI:          0          0          0          0   Non-maskable interrupts\n"
"ERR:          0\n";

static void intr_rows(void **state)
{
	struct nn_obs_counts c = { 0 };
	const int want[] = { 40, 41, 42, 99 };

	(void)state;
	assert_int_equal(nn_obs_parse_interrupts(intr4, &c, want, 4), 0);
	assert_int_equal(c.ncols, 4);
	assert_int_equal(c.nrows, 4);
	assert_int_equal(c.cpu[3], 3);
	assert_true(c.seen[0] && c.seen[1]);
	assert_false(c.seen[2]);	/* garbage counts: not seen, counted bad */
	assert_false(c.seen[3]);	/* not in the file */
	assert_int_equal(c.nbad, 1);
	assert_int_equal(nn_obs_row(&c, 0)[1], 100);
	assert_int_equal(nn_obs_row(&c, 0)[3], 7);
	assert_int_equal(nn_obs_row(&c, 1)[3], 200);
	/* parse again into the same memory: reused, reset */
	assert_int_equal(nn_obs_parse_interrupts(intr4, &c, want, 1), 0);
	assert_int_equal(c.nrows, 1);
	assert_int_equal(nn_obs_row(&c, 0)[1], 100);
	nn_obs_counts_free(&c);
}

static void intr_header_gaps(void **state)
{
	/* CPU1 offline: no column; the ids, not the positions, name CPUs */
	const char *t = "       CPU0   CPU2   CPU5\n 7:  1  2  3  chip 1-edge x\n";
	const char *bad[] = {
		"",
		"   CPU1  CPU0\n 7: 1 2 c\n",		/* not ascending */
		"   CPU0  GPU1\n",
		"   CPU99999999\n",
	};
	struct nn_obs_counts c = { 0 };
	const int want[] = { 7 };

	(void)state;
	assert_int_equal(nn_obs_parse_interrupts(t, &c, want, 1), 0);
	assert_int_equal(c.ncols, 3);
	assert_int_equal(c.cpu[1], 2);
	assert_int_equal(c.cpu[2], 5);
	assert_int_equal(nn_obs_row(&c, 0)[2], 3);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(nn_obs_parse_interrupts(bad[i], &c, want, 1), -EINVAL);
	/* too few counts for the header: not seen */
	assert_int_equal(nn_obs_parse_interrupts("  CPU0 CPU1\n 7: 5\n", &c, want, 1), 0);
	assert_false(c.seen[0]);
	nn_obs_counts_free(&c);
}

static const char *soft2 =
"                    CPU0       CPU1\n"
"          HI:          0          1\n"
"       TIMER:     111371     109850\n"
"      NET_TX:         10        102\n"
"      NET_RX:       3000      53040\n"
"       BLOCK:      13283      10658\n";

static void softirqs(void **state)
{
	struct nn_obs_counts c = { 0 };

	(void)state;
	assert_int_equal(nn_obs_parse_softirqs(soft2, &c), 0);
	assert_int_equal(c.ncols, 2);
	assert_true(c.seen[NN_OBS_NET_RX] && c.seen[NN_OBS_NET_TX]);
	assert_int_equal(nn_obs_row(&c, NN_OBS_NET_RX)[1], 53040);
	assert_int_equal(nn_obs_row(&c, NN_OBS_NET_TX)[0], 10);
	assert_int_equal(nn_obs_parse_softirqs("      NET_RX: 1 2\n", &c), -EINVAL);
	assert_int_equal(nn_obs_parse_softirqs("  CPU0\n NET_RX: x\n", &c), 0);
	assert_false(c.seen[NN_OBS_NET_RX]);
	assert_int_equal(c.nbad, 1);
	nn_obs_counts_free(&c);
}

static void ethtool_names(void **state)
{
	static const struct { const char *name; int ok, queue; bool rx; } t[] = {
		{ "rx_queue_0_packets", 1, 0, true },		/* virtio_net, ice, ixgbe */
		{ "tx_queue_15_packets", 1, 15, false },
		{ "rx-3.packets", 1, 3, true },			/* i40e */
		{ "tx-12.packets", 1, 12, false },
		{ "rx7_packets", 1, 7, true },			/* mlx5 */
		{ "tx0_packets", 1, 0, false },
		{ "rx0_xdp_packets", 0, 0, false },		/* not the queue's packets */
		{ "rx_queue_0_bytes", 0, 0, false },
		{ "rx_packets", 0, 0, false },			/* the device's total */
		{ "rx_queue_99999_packets", 0, 0, false },
		{ "rx_queue_1_packets_x", 0, 0, false },
		{ "vport_rx_packets", 0, 0, false },
		{ "", 0, 0, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int q = -1;
		bool rx = !t[i].rx;

		assert_int_equal(nn_obs_ethtool_queue_stat(t[i].name, &q, &rx), t[i].ok);
		if (t[i].ok) {
			assert_int_equal(q, t[i].queue);
			assert_true(rx == t[i].rx);
		}
	}
	assert_int_equal(nn_obs_ethtool_queue_stat(NULL, &(int){ 0 }, &(bool){ false }), 0);
}

/* ---- attribution over an in-memory host ---------------------------------- */

/* 2 nodes x 2 CPUs (0-1 node 0, 2-3 node 1); eth0 on node 1 with a config
 * IRQ 39 and queue IRQs 40, 41; CPU 1 isolated. */
static void host_make(struct nn_host *h)
{
	struct nn_topo *t = &h->topo;
	struct nn_nic *n;

	memset(h, 0, sizeof(*h));
	t->cpus = calloc(4, sizeof(*t->cpus));
	t->nodes = calloc(2, sizeof(*t->nodes));
	assert_non_null(t->cpus);
	assert_non_null(t->nodes);
	t->ncpus = 4;
	t->nnodes = 2;
	for (int i = 0; i < 4; i++) {
		t->cpus[i].id = i;
		t->cpus[i].node = i / 2;
		assert_int_equal(nn_cpuset_set(&t->online, (unsigned)i), 0);
		assert_int_equal(nn_cpuset_set(&t->nodes[i / 2].cpus, (unsigned)i), 0);
	}
	t->nodes[0].id = 0;
	t->nodes[1].id = 1;
	h->nics = calloc(1, sizeof(*h->nics));
	assert_non_null(h->nics);
	h->nnics = 1;
	n = &h->nics[0];
	n->name = strdup("eth0");
	n->ifindex = 2;
	n->numa_node = 1;
	n->irqs = calloc(3, sizeof(*n->irqs));
	assert_non_null(n->irqs);
	n->nirqs = 3;
	n->irqs[0] = (struct nn_irq){ .irq = 39, .queue = -1, .name = strdup("eth0-misc") };
	n->irqs[1] = (struct nn_irq){ .irq = 40, .queue = 0, .dir = NN_QDIR_RXTX, .name = strdup("eth0-TxRx-0") };
	n->irqs[2] = (struct nn_irq){ .irq = 41, .queue = 1, .dir = NN_QDIR_RXTX, .name = strdup("eth0-TxRx-1") };
	/* napi-get: NAPI 9 threaded as pid 77; NAPI 11 names pid 80 */
	n->genl_read = true;
	n->gnapis = calloc(2, sizeof(*n->gnapis));
	assert_non_null(n->gnapis);
	n->ngnapis = 2;
	n->gnapis[0] = (struct nn_genl_napi){ .ifindex = 2, .id = 9, .irq = -1, .pid = 77, .threaded = 1 };
	n->gnapis[1] = (struct nn_genl_napi){ .ifindex = 2, .id = 11, .irq = -1, .pid = 80, .threaded = 1 };
	h->irqbalance.pid = -1;
}

static void host_drop(struct nn_host *h)
{
	for (size_t i = 0; i < h->nnics; i++)
		for (size_t j = 0; j < h->nics[i].nirqs; j++)
			free(h->nics[i].irqs[j].name);
	for (size_t i = 0; i < h->nnics; i++) {
		free(h->nics[i].name);
		free(h->nics[i].irqs);
		free(h->nics[i].gnapis);
	}
	free(h->nics);
	for (size_t i = 0; i < h->topo.nnodes; i++)
		nn_cpuset_free(&h->topo.nodes[i].cpus);
	free(h->topo.nodes);
	free(h->topo.cpus);
	nn_cpuset_free(&h->topo.online);
}

static const char *intr_a =
"  CPU0 CPU1 CPU2 CPU3\n"
" 39: 1 0 0 0 c 0-edge eth0-misc\n"
" 40: 0 0 100 0 c 1-edge eth0-TxRx-0\n"
" 41: 0 0 0 4294967200 c 2-edge eth0-TxRx-1\n";
/* queue 0: 300 on CPU 2 (node 1) and 100 on CPU 0 (node 0); queue 1: 100
 * on CPU 3 across the 32-bit wrap and 10 on isolated CPU 1 */
static const char *intr_b =
"  CPU0 CPU1 CPU2 CPU3\n"
" 39: 1 0 0 0 c 0-edge eth0-misc\n"
" 40: 100 0 400 0 c 1-edge eth0-TxRx-0\n"
" 41: 0 10 0 4 c 2-edge eth0-TxRx-1\n";
static const char *soft_a = "  CPU0 CPU1 CPU2 CPU3\nNET_TX: 0 0 0 0\nNET_RX: 0 0 0 0\n";
/* CPU 0: 200 (all eth0's: it took only eth0 interrupts); CPU 1: 40; CPU 2:
 * 600; CPU 3: 50 + 50 TX */
static const char *soft_b = "  CPU0 CPU1 CPU2 CPU3\nNET_TX: 0 0 0 50\nNET_RX: 200 40 600 50\n";

static void attribution(void **state)
{
	struct nn_host h;
	struct nn_obs_sampler sp;
	struct nn_obs_sample a = { 0 }, b = { 0 };
	struct nn_obs_opts o;
	struct nn_obs_report r;
	struct nn_cpuset iso = NN_CPUSET_INIT;
	const struct nn_obs_nic *n;

	(void)state;
	host_make(&h);
	assert_int_equal(nn_obs_sampler_init(&sp, &h, 2.0), 0);
	assert_int_equal(sp.nirqs, 3);
	assert_int_equal(nn_obs_parse_interrupts(intr_a, &a.intr, sp.irqs, sp.nirqs), 0);
	assert_int_equal(nn_obs_parse_interrupts(intr_b, &b.intr, sp.irqs, sp.nirqs), 0);
	assert_int_equal(nn_obs_parse_softirqs(soft_a, &a.soft), 0);
	assert_int_equal(nn_obs_parse_softirqs(soft_b, &b.soft), 0);
	a.have_intr = b.have_intr = a.have_soft = b.have_soft = true;
	a.t = 10;
	b.t = 12;
	/* a NAPI thread of eth0 on CPU 0 (node 0): 50 ticks = half a CPU at 100 Hz */
	struct nn_obs_thread ta = { .pid = 900, .comm = "napi/eth0-1", .nic = 0, .cpu = 0, .ticks = 100 };
	struct nn_obs_thread tb = ta;

	tb.ticks = 100 + (unsigned long long)sysconf(_SC_CLK_TCK);
	a.threads = &ta;
	b.threads = &tb;
	a.nthreads = b.nthreads = 1;
	assert_int_equal(nn_cpuset_set(&iso, 1), 0);
	nn_obs_opts_default(&o);
	o.isolated = &iso;
	assert_int_equal(nn_obs_attribute(&h, &sp, &a, &b, &o, &r), 0);
	assert_int_equal(r.nnics, 1);
	n = &r.nics[0];
	assert_true(r.interval == 2.0);
	/* 400 + 110 interrupts, 400 + 100 on node 1 */
	assert_true(n->irqs == 510);
	assert_true(n->irq_rate == 255);
	assert_true(n->irq_local_ratio > 0.784 && n->irq_local_ratio < 0.785);
	assert_int_equal(n->top_cpu, 2);
	/* all softirqs attributed: 200 + 40 + 600 + 100 = 940, 700 on node 1 */
	assert_true(n->softirq == 940);
	assert_true(n->softirq_local_ratio > 0.744 && n->softirq_local_ratio < 0.745);
	assert_true(r.unattributed_softirq == 0);
	/* the queues */
	assert_int_equal(n->nqueues, 3);
	assert_true(n->queues[0].irqs == 0);
	assert_true(n->queues[0].local_ratio == -1);
	assert_true(n->queues[1].irqs == 400);
	assert_int_equal(n->queues[1].cpus[0].cpu, 2);	/* most first */
	assert_true(n->queues[1].local_ratio == 0.75);
	assert_true(n->queues[1].flags & NN_OBS_F_IRQ_OFF_NODE);
	assert_true(n->queues[2].irqs == 110);
	assert_true(n->queues[2].flags & NN_OBS_F_IRQ_ISOLATED);
	assert_true(n->queues[1].rx_pps == -1);	/* no qstats */
	/* NAPI: one CPU busy for 2 s -> 0.5, off node */
	assert_int_equal(n->nnapis, 1);
	assert_true(n->napis[0].busy == 0.5);
	assert_true(n->napis[0].off_node);
	assert_true(n->napi_local_ratio == 0);
	assert_true(n->flags & NN_OBS_F_NAPI_OFF_NODE);
	assert_false(n->flags & NN_OBS_F_IRQ_ONE_CPU);
	/* the worst kind: NAPI, all remote */
	assert_true(n->remote_pct == 100);
	assert_true(r.remote_pct == 100);
	assert_int_equal(r.ncpus, 4);
	assert_true(r.cpus[1].isolated);
	assert_true(r.cpus[0].napi_busy == 0.5);
	nn_obs_report_free(&r);

	/* one CPU takes them all: flagged; an unknown node: no ratio */
	b.threads = a.threads = NULL;
	a.nthreads = b.nthreads = 0;
	assert_int_equal(nn_obs_parse_interrupts(
		"  CPU0 CPU1 CPU2 CPU3\n 40: 0 0 1100 0 c x\n 41: 0 0 200 4294967200 c x\n",
		&b.intr, sp.irqs, sp.nirqs), 0);
	h.nics[0].numa_node = -1;
	/* RPS to CPU 1 (as the sampler reads rps_cpus): its 40 NET_RX took no
	 * NIC interrupt now, so they are the steered work */
	assert_null(sp.rps);
	sp.rps = calloc(1, sizeof(*sp.rps));
	assert_non_null(sp.rps);
	sp.nrps = 1;
	assert_int_equal(nn_cpuset_set(&sp.rps[0], 1), 0);
	assert_int_equal(nn_obs_attribute(&h, &sp, &a, &b, &o, &r), 0);
	n = &r.nics[0];
	assert_string_equal(n->rps_cpus, "1");
	assert_true(n->rps_net_rx == 40);
	assert_true(n->softirq == 600);	/* CPU 2 alone took its interrupts */
	assert_true(n->rps_share > 40.0 / 641 && n->rps_share < 40.0 / 639);
	assert_true(n->flags & NN_OBS_F_IRQ_ONE_CPU);
	assert_false(n->flags & NN_OBS_F_IRQ_OFF_NODE);
	assert_true(n->irq_local_ratio == -1);
	assert_true(n->remote_pct == -1);
	nn_obs_report_free(&r);

	/* a filter that names no NIC: none reported, the CPUs still are */
	char *only[] = { "eth9", NULL };

	o.only = only;
	assert_int_equal(nn_obs_attribute(&h, &sp, &a, &b, &o, &r), 0);
	assert_int_equal(r.nnics, 0);
	assert_true(r.ncpus > 0);
	nn_obs_report_free(&r);

	a.threads = b.threads = NULL;
	nn_obs_sample_free(&a);
	nn_obs_sample_free(&b);
	nn_obs_sampler_free(&sp);
	nn_cpuset_free(&iso);
	host_drop(&h);
}

/* ---- the sampler over a scratch tree ------------------------------------- */

static void put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX + 64], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void sampler_tree(void **state)
{
	char dir[PATH_MAX];
	struct nn_ctx ctx;
	struct nn_host h;
	struct nn_obs_sampler sp;
	struct nn_obs_sample s[2] = { { 0 } };
	struct nn_obs_opts o;
	struct nn_obs_report r;
	struct nn_cpuset iso = NN_CPUSET_INIT;
	/* PF_KTHREAD (0x00200000) in the flags */
	const char *stat0 = "77 (napi/eth0-9) S 2 0 0 0 -1 2097152 0 0 0 0 10 0 0 0 20 0 1 0 5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 17 2 0 0 0 0 0\n";
	const char *stat1 = "77 (napi/eth0-9) S 2 0 0 0 -1 2097152 0 0 0 0 30 20 0 0 20 0 1 0 5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n";

	(void)state;
	assert_int_equal(tmptree_make(dir, sizeof(dir), "observe"), 0);
	put(dir, "proc/interrupts", intr_a);
	put(dir, "proc/softirqs", soft_a);
	put(dir, "proc/77/comm", "napi/eth0-9\n");
	put(dir, "proc/77/stat", stat0);
	put(dir, "proc/88/comm", "kworker/0:1\n");
	/* 79: a kernel thread named like eth0's (a same-named device in another
	 * network namespace) that napi-get does not name; 80: named by it (a
	 * recycled pid) but a user task. Neither is eth0's. */
	put(dir, "proc/79/comm", "napi/eth0-10\n");
	put(dir, "proc/79/stat", "79 (napi/eth0-10) S 2 0 0 0 -1 2097152 0 0 0 0 500 0 0 0 20 0 1 0 5 0 0 0 0 0 0 "
	    "0 0 0 0 0 0 0 0 0 17 2 0 0 0 0 0\n");
	put(dir, ".observe/1/proc/79/stat", "79 (napi/eth0-10) S 2 0 0 0 -1 2097152 0 0 0 0 900 0 0 0 20 0 1 0 5 0 "
	    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 17 2 0 0 0 0 0\n");
	put(dir, "proc/80/comm", "napi/eth0-11\n");
	put(dir, "proc/80/stat", "80 (napi/eth0-11) S 1 0 0 0 -1 4194560 0 0 0 0 500 0 0 0 20 0 1 0 5 0 0 0 0 0 0 "
	    "0 0 0 0 0 0 0 0 0 17 2 0 0 0 0 0\n");
	put(dir, "proc/2/task/2/children", "77 79 80 88\n");
	put(dir, ".observe/1/proc/interrupts", intr_b);
	put(dir, ".observe/1/proc/softirqs", soft_b);
	put(dir, ".observe/1/proc/77/stat", stat1);
	put(dir, "sys/devices/system/cpu/isolated", "1\n");
	assert_int_equal(nn_ctx_init(&ctx, dir, true), 0);
	host_make(&h);
	assert_int_equal(nn_obs_sampler_init(&sp, &h, 2.0), 0);
	assert_int_equal(nn_obs_sample_take(&ctx, &sp, &h, &s[0]), 0);
	assert_int_equal(nn_obs_sample_take(&ctx, &sp, &h, &s[1]), 0);
	assert_int_equal(ctx.nwarns, 0);
	assert_true(s[0].have_intr && s[1].have_soft);
	assert_int_equal(s[0].nthreads, 1);	/* only napi-get's kernel thread 77 */
	assert_int_equal(s[0].threads[0].pid, 77);
	assert_int_equal(s[0].threads[0].napi_id, 9);
	assert_int_equal(s[1].threads[0].ticks, 50);
	assert_int_equal(s[1].threads[0].cpu, 3);
	assert_true(s[1].t - s[0].t == 2.0);	/* fake root: the nominal clock */
	assert_int_equal(nn_obs_isolated_read(&ctx.root, &iso), 0);
	assert_true(nn_cpuset_test(&iso, 1));
	nn_obs_opts_default(&o);
	o.isolated = &iso;
	assert_int_equal(nn_obs_attribute(&h, &sp, &s[0], &s[1], &o, &r), 0);
	assert_true(r.nics[0].irqs == 510);
	assert_int_equal(r.nics[0].nnapis, 1);
	assert_false(r.nics[0].napis[0].off_node);	/* CPU 3: node 1 */
	nn_obs_report_free(&r);

	/* a third sample: no /.observe/2, so the base files; the thread's stat
	 * unreadable there (removed) -> rescanned, gone */
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/proc/77/stat", dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(nn_obs_sample_take(&ctx, &sp, &h, &s[0]), 0);
	assert_int_equal(s[0].nthreads, 0);
	/* a tree without softirqs: a warning, once */
	snprintf(p, sizeof(p), "%s/proc/softirqs", dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(nn_obs_sample_take(&ctx, &sp, &h, &s[0]), 0);
	assert_int_equal(nn_obs_sample_take(&ctx, &sp, &h, &s[0]), 0);
	assert_false(s[0].have_soft);
	assert_int_equal(ctx.nwarns, 1);
	assert_non_null(strstr(ctx.warns[0].file, "softirqs"));

	nn_obs_sample_free(&s[0]);
	nn_obs_sample_free(&s[1]);
	nn_obs_sampler_free(&sp);
	nn_cpuset_free(&iso);
	host_drop(&h);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intr_rows),
		cmocka_unit_test(intr_header_gaps),
		cmocka_unit_test(softirqs),
		cmocka_unit_test(ethtool_names),
		cmocka_unit_test(attribution),
		cmocka_unit_test(sampler_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
