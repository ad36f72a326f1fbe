// SPDX-License-Identifier: GPL-2.0-or-later
/* obs_attr.c - who did a NIC's packet work between two samples (pure)
 *
 * Interrupts are counted per IRQ per CPU, so a queue's work is exact. Softirqs
 * are counted per CPU for all devices together: a CPU's NET_RX/NET_TX is
 * split between the NICs in proportion to the interrupts each had on that
 * CPU (the softirq runs where its interrupt raised it, unless RPS moves it);
 * softirqs on a CPU that took no observed NIC interrupt (RPS, veth, loopback,
 * a busy-polling socket) stay unattributed and are shown per CPU. A threaded
 * NAPI kthread's CPU time goes to the CPU it last ran on.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/discover/host.h"
#include "nicnuma/obs/obs.h"
#include "nicnuma/discover/topo.h"

static const char *const flag_names[] = {
	"irq_off_node", "napi_off_node", "irq_one_cpu", "irq_on_isolated_cpu",
};

const char *nn_obs_flag_name(unsigned int bit)
{
	return bit < sizeof(flag_names) / sizeof(flag_names[0]) ? flag_names[bit] : NULL;
}

void nn_obs_opts_default(struct nn_obs_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->one_cpu_share = 0.8;
	o->min_irqs = 10;
}

void nn_obs_report_free(struct nn_obs_report *r)
{
	for (size_t i = 0; r->nics && i < r->nnics; i++) {
		struct nn_obs_nic *n = &r->nics[i];

		for (size_t j = 0; j < n->nqueues; j++)
			free(n->queues[j].cpus);
		free(n->queues);
		free(n->napis);
		free(n->rps_cpus);
	}
	free(r->nics);
	free(r->cpus);
	memset(r, 0, sizeof(*r));
}

/* Kernel IRQ counts are unsigned int: a smaller value later wrapped once. */
static double delta(unsigned long long a, unsigned long long b)
{
	if (b >= a)
		return (double)(b - a);
	if (a <= 0xffffffffULL && b <= 0xffffffffULL)
		return (double)(b + 0x100000000ULL - a);
	return 0;	/* reset (a counter that went back): no work known */
}

/* The same CPU in every column (no CPU went on- or offline). No columns:
 * the lists may be NULL, which memcmp must never see, even for 0 bytes. */
static bool same_cols(const struct nn_obs_counts *a, const struct nn_obs_counts *b)
{
	return a->ncols == b->ncols && (!a->ncols || !memcmp(a->cpu, b->cpu, a->ncols * sizeof(*a->cpu)));
}

/* The next column at or after @c whose count changed from @ra to @rb, or
 * @n. With the same columns in both samples (@same, the rule) equal
 * stretches are skipped 32, then 8 counts a compare: a 512-CPU row that
 * counted on one CPU is a few compares, not 512 steps; else through @imap. */
static size_t next_changed(bool same, const long *imap, const unsigned long long *ra,
			   const unsigned long long *rb, size_t c, size_t n)
{
	if (same) {
		while (n - c >= 32 && !memcmp(ra + c, rb + c, 32 * sizeof(*ra)))
			c += 32;
		while (n - c >= 8 && !memcmp(ra + c, rb + c, 8 * sizeof(*ra)))
			c += 8;
		while (c < n && ra[c] == rb[c])
			c++;
		return c;
	}
	while (c < n && (imap[c] < 0 || ra[imap[c]] == rb[c]))
		c++;
	return c;
}

/* For each column of @b, the column of @a with the same CPU, or -1. */
static int col_map(const struct nn_obs_counts *a, const struct nn_obs_counts *b, long **out)
{
	long *m = malloc((b->ncols ? b->ncols : 1) * sizeof(*m));
	size_t i, j = 0;

	if (!m)
		return -ENOMEM;
	for (i = 0; i < b->ncols; i++) {
		while (j < a->ncols && a->cpu[j] < b->cpu[i])
			j++;
		m[i] = j < a->ncols && a->cpu[j] == b->cpu[i] ? (long)j : -1;
	}
	*out = m;
	return 0;
}

static long row_of(const struct nn_obs_sampler *sp, int irq)
{
	size_t lo = 0, hi = sp->nirqs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp->irqs[mid] == irq)
			return (long)mid;
		if (sp->irqs[mid] < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static bool wanted(char *const *only, const char *name)
{
	if (!only)
		return true;
	for (; *only; only++)
		if (!strcmp(*only, name))
			return true;
	return false;
}

static int cmp_share(const void *x, const void *y)
{
	const struct nn_obs_cpu_share *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

static const struct nn_obs_thread *find_thread(const struct nn_obs_sample *s, int pid)
{
	size_t lo = 0, hi = s->nthreads;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->threads[mid].pid == pid)
			return &s->threads[mid];
		if (s->threads[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct nn_obs_qstat *find_qstat(const struct nn_obs_sample *s, int ifindex, int queue, bool rx)
{
	for (size_t i = 0; i < s->nqstats; i++)
		if (s->qstats[i].ifindex == ifindex && s->qstats[i].queue == queue && s->qstats[i].rx == rx)
			return &s->qstats[i];
	return NULL;
}

/* Packets per second of one queue between the samples; -1 not available. */
static double queue_pps(const struct nn_obs_sample *a, const struct nn_obs_sample *b,
			int ifindex, int queue, bool rx, double secs)
{
	const struct nn_obs_qstat *qa, *qb;

	if (ifindex < 0 || queue < 0 || !a->nqstats || !b->nqstats)
		return -1;
	qa = find_qstat(a, ifindex, queue, rx);
	qb = find_qstat(b, ifindex, queue, rx);
	if (!qa || !qb || qb->packets < qa->packets)
		return -1;
	return (double)(qb->packets - qa->packets) / secs;
}

/* Per-CPU work of the whole host, indexed by CPU id. */
struct percpu {
	size_t n;		/* CPU ids below n */
	double *nic_irqs, *net_rx, *net_tx, *napi;
	double *nic;		/* scratch: one NIC's interrupts per CPU */
	bool same_cols;		/* both samples' interrupt columns name the same CPUs */
	/* Per watched row, with same_cols: its first changed column (ncols: the
	 * row did not change), found by the host-wide pass so that the
	 * per-queue pass starts there instead of comparing the row again;
	 * NULL or SIZE_MAX: not known, compare. */
	size_t *first;
};

static void percpu_free(struct percpu *p)
{
	free(p->nic_irqs);
	free(p->net_rx);
	free(p->net_tx);
	free(p->napi);
	free(p->nic);
	free(p->first);
}

static int percpu_alloc(struct percpu *p, const struct nn_obs_sample *b)
{
	int max = -1;

	memset(p, 0, sizeof(*p));
	if (b->have_intr && b->intr.ncols)
		max = b->intr.cpu[b->intr.ncols - 1];
	if (b->have_soft && b->soft.ncols && b->soft.cpu[b->soft.ncols - 1] > max)
		max = b->soft.cpu[b->soft.ncols - 1];
	for (size_t i = 0; i < b->nthreads; i++)
		if (b->threads[i].cpu > max)
			max = b->threads[i].cpu;
	p->n = (size_t)(max + 1);
	p->nic_irqs = calloc(p->n + 1, sizeof(double));
	p->net_rx = calloc(p->n + 1, sizeof(double));
	p->net_tx = calloc(p->n + 1, sizeof(double));
	p->napi = calloc(p->n + 1, sizeof(double));
	p->nic = calloc(p->n + 1, sizeof(double));
	if (!p->nic_irqs || !p->net_rx || !p->net_tx || !p->napi || !p->nic) {
		percpu_free(p);
		return -ENOMEM;
	}
	return 0;
}

static int nic_node(const struct nn_topo *t, const struct nn_nic *nic)
{
	return nic->numa_node >= 0 && nn_topo_node_index(t, nic->numa_node) >= 0 ? nic->numa_node : -1;
}

/* One queue IRQ's interrupts per CPU; adds them to the NIC's scratch. */
static int attr_queue(const struct nn_host *h, const struct nn_obs_sampler *sp,
		      const struct nn_obs_sample *a, const struct nn_obs_sample *b, const long *imap,
		      const struct nn_irq *irq, int node, struct percpu *pc,
		      const struct nn_obs_opts *o, struct nn_obs_queue *q)
{
	long row = row_of(sp, irq->irq);
	double local = 0;

	memset(q, 0, sizeof(*q));
	q->irq = irq->irq;
	q->queue = irq->queue;
	q->dir = irq->dir;
	q->name = irq->name;
	q->local_ratio = -1;
	q->rx_pps = q->tx_pps = -1;
	if (row < 0 || !a->have_intr || !b->have_intr || !a->intr.seen[row] || !b->intr.seen[row])
		return 0;
	const unsigned long long *ra = nn_obs_row(&a->intr, (size_t)row);
	const unsigned long long *rb = nn_obs_row(&b->intr, (size_t)row);

	size_t start = pc->first ? pc->first[row] : SIZE_MAX;

	if (start == SIZE_MAX) {
		if (pc->same_cols && (!b->intr.ncols || !memcmp(ra, rb, b->intr.ncols * sizeof(*rb))))
			return 0;	/* no interrupt in the interval: most rows of a big host */
		start = next_changed(pc->same_cols, imap, ra, rb, 0, b->intr.ncols);
	}
	for (size_t c = start; c < b->intr.ncols; c = next_changed(pc->same_cols, imap, ra, rb, c + 1, b->intr.ncols)) {
		double d;
		int cpu = b->intr.cpu[c], cn;

		d = delta(ra[imap[c]], rb[c]);
		if (d <= 0)
			continue;
		cn = nn_topo_cpu_node(&h->topo, cpu);
		struct nn_obs_cpu_share *ns = realloc(q->cpus, (q->ncpus + 1) * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		q->cpus = ns;
		q->cpus[q->ncpus++] = (struct nn_obs_cpu_share){ .cpu = cpu, .node = cn, .count = d };
		q->irqs += d;
		pc->nic[cpu] += d;
		if (node >= 0 && cn == node)
			local += d;
		if (node >= 0 && cn >= 0 && cn != node)
			q->flags |= NN_OBS_F_IRQ_OFF_NODE;
		if (o->isolated && nn_cpuset_test(o->isolated, (unsigned int)cpu))
			q->flags |= NN_OBS_F_IRQ_ISOLATED;
	}
	if (q->ncpus > 1)
		qsort(q->cpus, q->ncpus, sizeof(*q->cpus), cmp_share);
	if (q->irqs > 0 && node >= 0)
		q->local_ratio = local / q->irqs;
	return 0;
}

static double ratio_or_unknown(double part, double whole)
{
	return whole > 0 ? part / whole : -1;
}

static int attr_nic(const struct nn_host *h, const struct nn_obs_sampler *sp,
		    const struct nn_obs_sample *a, const struct nn_obs_sample *b, const long *imap,
		    size_t idx, struct percpu *pc, const struct nn_obs_opts *o, double secs,
		    struct nn_obs_nic *n)
{
	const struct nn_nic *nic = &h->nics[idx];
	double soft_local = 0, napi_local = 0, top = 0;
	long hz = sysconf(_SC_CLK_TCK);
	int node = nic_node(&h->topo, nic), err;
	size_t nq = 0;

	memset(n, 0, sizeof(*n));
	n->nic = nic;
	n->node = node;
	n->top_cpu = -1;
	n->rx_pps = n->tx_pps = -1;
	n->qsrc = b->qsrc;
	if (hz <= 0)
		hz = 100;
	memset(pc->nic, 0, (pc->n + 1) * sizeof(double));
	n->queues = calloc(nic->nirqs ? nic->nirqs : 1, sizeof(*n->queues));
	if (!n->queues)
		return -ENOMEM;
	for (size_t j = 0; j < nic->nirqs; j++) {
		struct nn_obs_queue *q = &n->queues[n->nqueues];

		err = attr_queue(h, sp, a, b, imap, &nic->irqs[j], node, pc, o, q);
		n->nqueues++;
		if (err)
			return err;
		q->irq_rate = q->irqs / secs;
		n->irqs += q->irqs;
		n->flags |= q->flags;
		if (q->queue >= 0)
			nq++;
		if (q->queue >= 0 && q->dir != NN_QDIR_TX)
			q->rx_pps = queue_pps(a, b, nic->ifindex, q->queue, true, secs);
		if (q->queue >= 0 && q->dir != NN_QDIR_RX)
			q->tx_pps = queue_pps(a, b, nic->ifindex, q->queue, false, secs);
	}
	n->irq_rate = n->irqs / secs;
	/* CPU by CPU: the NIC's interrupts, its share of the softirqs */
	double local_irqs = 0;

	for (size_t cpu = 0; cpu < pc->n; cpu++) {
		double d = pc->nic[cpu], soft;
		int cn;

		if (d <= 0)
			continue;
		cn = nn_topo_cpu_node(&h->topo, (int)cpu);
		if (d > top) {
			top = d;
			n->top_cpu = (int)cpu;
		}
		soft = pc->nic_irqs[cpu] > 0 ? (pc->net_rx[cpu] + pc->net_tx[cpu]) * d / pc->nic_irqs[cpu] : 0;
		n->softirq += soft;
		if (node >= 0 && cn == node) {
			local_irqs += d;
			soft_local += soft;
		}
	}
	n->top_cpu_share = n->irqs > 0 ? top / n->irqs : 0;
	n->softirq_rate = n->softirq / secs;
	n->irq_local_ratio = node >= 0 ? ratio_or_unknown(local_irqs, n->irqs) : -1;
	n->softirq_local_ratio = node >= 0 ? ratio_or_unknown(soft_local, n->softirq) : -1;
	if (nq > 1 && n->irqs >= o->min_irqs && n->top_cpu_share > o->one_cpu_share)
		n->flags |= NN_OBS_F_IRQ_ONE_CPU;

	/* RPS: NET_RX on its RPS CPUs where no observed NIC interrupt came */
	n->rps_share = -1;
	if (idx < sp->nrps && !nn_cpuset_empty(&sp->rps[idx])) {
		int cpu;

		n->rps_cpus = nn_cpuset_format_list(&sp->rps[idx]);
		if (!n->rps_cpus)
			return -ENOMEM;
		nn_cpuset_foreach(cpu, &sp->rps[idx])
			if ((size_t)cpu < pc->n && pc->nic_irqs[cpu] <= 0)
				n->rps_net_rx += pc->net_rx[cpu];
		n->rps_share = ratio_or_unknown(n->rps_net_rx, n->rps_net_rx + n->softirq);
	}

	/* NAPI kthreads */
	for (size_t i = 0; i < b->nthreads; i++) {
		const struct nn_obs_thread *tb = &b->threads[i], *ta;
		struct nn_obs_napi *z;

		if (tb->nic != (int)idx)	/* napi-get's word, never the comm */
			continue;
		ta = find_thread(a, tb->pid);
		z = realloc(n->napis, (n->nnapis + 1) * sizeof(*z));
		if (!z)
			return -ENOMEM;
		n->napis = z;
		z = &n->napis[n->nnapis++];
		memset(z, 0, sizeof(*z));
		z->pid = tb->pid;
		memcpy(z->comm, tb->comm, sizeof(z->comm));
		z->cpu = tb->cpu;
		z->node = tb->cpu >= 0 ? nn_topo_cpu_node(&h->topo, tb->cpu) : -1;
		if (ta && tb->ticks >= ta->ticks)
			z->busy = (double)(tb->ticks - ta->ticks) / (double)hz / secs;
		z->off_node = z->busy > 0 && node >= 0 && z->node >= 0 && z->node != node;
		if (z->off_node)
			n->flags |= NN_OBS_F_NAPI_OFF_NODE;
		n->napi_busy += z->busy;
		if (node >= 0 && z->node == node)
			napi_local += z->busy;
	}
	n->napi_local_ratio = node >= 0 ? ratio_or_unknown(napi_local, n->napi_busy) : -1;

	/* the worst off-node share among the kinds of work there was enough of */
	n->remote_pct = -1;
	if (n->irq_local_ratio >= 0 && n->irqs >= o->min_irqs)
		n->remote_pct = 100.0 * (1 - n->irq_local_ratio);
	if (n->softirq_local_ratio >= 0 && n->softirq >= o->min_irqs &&
	    100.0 * (1 - n->softirq_local_ratio) > n->remote_pct)
		n->remote_pct = 100.0 * (1 - n->softirq_local_ratio);
	if (n->napi_local_ratio >= 0 && n->napi_busy >= 0.01 &&
	    100.0 * (1 - n->napi_local_ratio) > n->remote_pct)
		n->remote_pct = 100.0 * (1 - n->napi_local_ratio);

	/* packet rates: every queue the NIC has in qstats */
	if (nic->ifindex >= 0 && a->nqstats && b->nqstats) {
		for (size_t i = 0; i < b->nqstats; i++) {
			const struct nn_obs_qstat *qb = &b->qstats[i];
			double pps;

			if (qb->ifindex != nic->ifindex)
				continue;
			pps = queue_pps(a, b, qb->ifindex, qb->queue, qb->rx, secs);
			if (pps < 0)
				continue;
			double *sum = qb->rx ? &n->rx_pps : &n->tx_pps;

			*sum = (*sum < 0 ? 0 : *sum) + pps;
		}
	}
	if (n->rx_pps < 0 && n->tx_pps < 0)
		n->qsrc = NN_OBS_QSTATS_NONE;
	return 0;
}

int nn_obs_attribute(const struct nn_host *h, const struct nn_obs_sampler *sp,
		     const struct nn_obs_sample *a, const struct nn_obs_sample *b,
		     const struct nn_obs_opts *o, struct nn_obs_report *r)
{
	struct percpu pc;
	long *imap = NULL, *smap = NULL;
	double secs = b->t - a->t;
	int err;

	memset(r, 0, sizeof(*r));
	if (!(secs > 0))
		secs = sp->interval > 0 ? sp->interval : 1;
	r->interval = secs;
	r->remote_pct = -1;
	err = percpu_alloc(&pc, b);
	if (err)
		return err;
	err = col_map(&a->intr, &b->intr, &imap);
	if (!err)
		err = col_map(&a->soft, &b->soft, &smap);
	if (err)
		goto out;

	/* host-wide per CPU: every watched IRQ (each counted once), softirqs */
	bool same = same_cols(&a->intr, &b->intr);

	pc.same_cols = same;
	if (same && sp->nirqs) {
		pc.first = malloc(sp->nirqs * sizeof(*pc.first));
		if (!pc.first) {
			err = -ENOMEM;
			goto out;
		}
		for (size_t row = 0; row < sp->nirqs; row++)
			pc.first[row] = SIZE_MAX;
	}
	for (size_t row = 0; a->have_intr && b->have_intr && row < sp->nirqs; row++) {
		const unsigned long long *ra = nn_obs_row(&a->intr, row), *rb = nn_obs_row(&b->intr, row);
		size_t c;

		if (!a->intr.seen[row] || !b->intr.seen[row])
			continue;
		if (same && (!b->intr.ncols || !memcmp(ra, rb, b->intr.ncols * sizeof(*rb)))) {
			pc.first[row] = b->intr.ncols;
			continue;
		}
		c = next_changed(same, imap, ra, rb, 0, b->intr.ncols);
		if (same)
			pc.first[row] = c;
		for (; c < b->intr.ncols; c = next_changed(same, imap, ra, rb, c + 1, b->intr.ncols))
			pc.nic_irqs[b->intr.cpu[c]] += delta(ra[imap[c]], rb[c]);
	}
	if (a->have_soft && b->have_soft) {
		for (size_t c = 0; c < b->soft.ncols; c++) {
			int cpu = b->soft.cpu[c];

			if (smap[c] < 0)
				continue;
			pc.net_rx[cpu] = delta(nn_obs_row(&a->soft, NN_OBS_NET_RX)[smap[c]],
					       nn_obs_row(&b->soft, NN_OBS_NET_RX)[c]);
			if (a->soft.seen[NN_OBS_NET_TX] && b->soft.seen[NN_OBS_NET_TX])
				pc.net_tx[cpu] = delta(nn_obs_row(&a->soft, NN_OBS_NET_TX)[smap[c]],
						       nn_obs_row(&b->soft, NN_OBS_NET_TX)[c]);
			r->net_rx += pc.net_rx[cpu];
			r->net_tx += pc.net_tx[cpu];
			if (pc.nic_irqs[cpu] <= 0)
				r->unattributed_softirq += pc.net_rx[cpu] + pc.net_tx[cpu];
		}
	}

	/* NICs */
	r->nics = calloc(h->nnics ? h->nnics : 1, sizeof(*r->nics));
	if (!r->nics) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < h->nnics; i++) {
		struct nn_obs_nic *n;

		if (!wanted(o->only, h->nics[i].name))
			continue;
		n = &r->nics[r->nnics++];
		err = attr_nic(h, sp, a, b, imap, i, &pc, o, secs, n);
		if (err)
			goto out;
		if (!o->only && !h->nics[i].nirqs && !n->nnapis) {
			/* lo, bridges, a veth without threaded NAPI: no work of
			 * their own to show unless named */
			free(n->queues);
			memset(n, 0, sizeof(*n));
			r->nnics--;
			continue;
		}
		for (size_t z = 0; z < n->nnapis; z++)
			if (n->napis[z].cpu >= 0 && (size_t)n->napis[z].cpu < pc.n)
				pc.napi[n->napis[z].cpu] += n->napis[z].busy;
		r->flags |= n->flags;
		if (n->remote_pct > r->remote_pct)
			r->remote_pct = n->remote_pct;
	}

	/* CPUs with any work */
	r->cpus = calloc(pc.n ? pc.n : 1, sizeof(*r->cpus));
	if (!r->cpus) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t cpu = 0; cpu < pc.n; cpu++) {
		struct nn_obs_cpu *c;

		if (pc.nic_irqs[cpu] <= 0 && pc.net_rx[cpu] <= 0 && pc.net_tx[cpu] <= 0 && pc.napi[cpu] <= 0)
			continue;
		c = &r->cpus[r->ncpus++];
		c->cpu = (int)cpu;
		c->node = nn_topo_cpu_node(&h->topo, (int)cpu);
		c->nic_irqs = pc.nic_irqs[cpu];
		c->net_rx = pc.net_rx[cpu];
		c->net_tx = pc.net_tx[cpu];
		c->napi_busy = pc.napi[cpu];
		c->isolated = o->isolated && nn_cpuset_test(o->isolated, (unsigned int)cpu);
		c->claimed = o->claimed && nn_cpuset_test(o->claimed, (unsigned int)cpu);
	}
out:
	free(imap);
	free(smap);
	percpu_free(&pc);
	if (err)
		nn_obs_report_free(r);
	return err;
}
