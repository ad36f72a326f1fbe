// SPDX-License-Identifier: GPL-2.0-or-later
/* obs_sample.c - one sample of the counters nicnuma observe compares
 *
 * Every read goes through the fs root. Per sample: /proc/interrupts (only the
 * watched IRQs kept, through a buffer reused from sample to sample),
 * /proc/softirqs, /proc/PID/stat of each NAPI kthread (core/proc.h), and on
 * a live root the per-queue packet counts of netdev netlink. NAPI kthreads
 * are the pids netdev napi-get names for the host's NICs, each checked to be
 * a kernel thread, looked for again every NAPI_RESCAN samples and whenever
 * one of them is gone.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/proc.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/obs/obs.h"
#include "irq/napi_thread.h"

#define NAPI_RESCAN 10

enum {	/* nn_obs_sampler.warned */
	W_INTR = 1 << 0,
	W_SOFT = 1 << 1,
	W_INTR_BAD = 1 << 3,
};

void nn_obs_sample_free(struct nn_obs_sample *s)
{
	nn_obs_counts_free(&s->intr);
	nn_obs_counts_free(&s->soft);
	free(s->threads);
	free(s->qstats);
	memset(s, 0, sizeof(*s));
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int nn_obs_sampler_init(struct nn_obs_sampler *sp, const struct nn_host *host, double interval)
{
	size_t i, j, n = 0, cap = 0;

	memset(sp, 0, sizeof(*sp));
	sp->interval = interval;
	for (i = 0; i < host->nnics; i++) {
		const struct nn_nic *nic = &host->nics[i];

		for (j = 0; j < nic->nirqs; j++) {
			if (NN_GROW(sp->irqs, n, cap)) {
				free(sp->irqs);
				sp->irqs = NULL;
				return -ENOMEM;
			}
			sp->irqs[n++] = nic->irqs[j].irq;
		}
	}
	if (n > 1)
		qsort(sp->irqs, n, sizeof(*sp->irqs), cmp_int);
	/* one row per IRQ number, even if two NICs claimed one */
	for (i = j = 0; i < n; i++)
		if (!j || sp->irqs[j - 1] != sp->irqs[i])
			sp->irqs[j++] = sp->irqs[i];
	sp->nirqs = j;
	return 0;
}

void nn_obs_sampler_free(struct nn_obs_sampler *sp)
{
	free(sp->irqs);
	free(sp->known);
	free(sp->buf);
	nn_ethtool_stats_free(&sp->est);
	for (size_t i = 0; i < sp->nrps; i++)
		nn_cpuset_free(&sp->rps[i]);
	free(sp->rps);
	memset(sp, 0, sizeof(*sp));
}

/* The path sample K reads @path from: /.observe/K/PATH in a fake root that
 * has it, else @path. */
static const char *sample_path(const struct nn_ctx *ctx, const struct nn_obs_sampler *sp,
			       const char *path, char *buf, size_t size)
{
	if (nn_root_is_live(&ctx->root))
		return path;
	if (snprintf(buf, size, "/.observe/%ld%s", sp->seq, path) >= (int)size)
		return path;
	if (nn_root_access(&ctx->root, buf, R_OK))
		return path;
	return buf;
}

static int intr_cb(void *arg, const char *p, const char *end)
{
	return nn_obs_intr_line(arg, p, end);
}

static int soft_cb(void *arg, const char *p, const char *end)
{
	return nn_obs_soft_line(arg, p, end);
}

static void warn_once(struct nn_ctx *ctx, struct nn_obs_sampler *sp, unsigned int bit,
		      const char *file, const char *what, int err)
{
	if (sp->warned & bit)
		return;
	sp->warned |= bit;
	nn_warn(ctx, file, "%s: %s", what, strerror(-err));
}

static int read_interrupts(struct nn_ctx *ctx, struct nn_obs_sampler *sp, struct nn_obs_sample *s)
{
	struct nn_obs_intr_parse st;
	char pb[128];
	const char *path = sample_path(ctx, sp, "/proc/interrupts", pb, sizeof(pb));
	int err;

	nn_obs_intr_begin(&st, &s->intr, sp->irqs, sp->nirqs);
	err = nn_read_lines_buf(&ctx->root, path, &sp->buf, &sp->buf_cap, intr_cb, &st);
	if (err == -ENOMEM)
		return err;
	nn_obs_intr_end(&st);
	s->have_intr = !err && s->intr.ncols;
	if (err)
		warn_once(ctx, sp, W_INTR, path, "cannot read the interrupt counts", err);
	else if (!s->intr.ncols)
		warn_once(ctx, sp, W_INTR, path, "no CPU header", -EINVAL);
	else if (s->intr.nbad)
		warn_once(ctx, sp, W_INTR_BAD, path, "lines that are not IRQ counts were skipped", -EINVAL);
	return 0;
}

static int read_softirqs(struct nn_ctx *ctx, struct nn_obs_sampler *sp, struct nn_obs_sample *s)
{
	struct nn_obs_soft_parse st;
	char pb[128];
	const char *path = sample_path(ctx, sp, "/proc/softirqs", pb, sizeof(pb));
	int err;

	nn_obs_soft_begin(&st, &s->soft);
	err = nn_read_lines_buf(&ctx->root, path, &sp->buf, &sp->buf_cap, soft_cb, &st);
	if (err == -ENOMEM)
		return err;
	s->have_soft = !err && s->soft.ncols && s->soft.seen[NN_OBS_NET_RX];
	if (err)
		warn_once(ctx, sp, W_SOFT, path, "cannot read the softirq counts", err);
	else if (!s->have_soft)
		warn_once(ctx, sp, W_SOFT, path, "no CPU header or NET_RX row", -EINVAL);
	return 0;
}

/* Adds the kernel's NAPI thread @pid of NIC @nic to the known list when it
 * is a kernel thread (a pid recycled since napi-get named it is not). */
static int consider(struct nn_ctx *ctx, struct nn_obs_sampler *sp, int pid, int nic, long long napi_id)
{
	struct nn_obs_thread t;
	char why[128];

	if (pid <= 0 || nn_proc_kthread(&ctx->root, pid, NULL, why, sizeof(why)))
		return 0;	/* gone, or not a kernel thread: not ours to report */
	memset(&t, 0, sizeof(t));
	if (nn_proc_read_comm(&ctx->root, pid, t.comm, sizeof(t.comm)))
		t.comm[0] = '\0';
	t.pid = pid;
	t.napi_id = napi_id;
	t.nic = nic;
	t.cpu = -1;
	if (NN_GROW(sp->known, sp->nknown, sp->known_cap))
		return -ENOMEM;
	sp->known[sp->nknown++] = t;
	return 0;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct nn_obs_thread *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The host's NIC of @ifindex, -1 none. */
static int nic_of(const struct nn_host *host, int ifindex)
{
	for (size_t i = 0; i < host->nnics; i++)
		if (host->nics[i].ifindex == ifindex)
			return (int)i;
	return -1;
}

/* NAPI kthreads are the pids the kernel's napi-get names for the host's
 * NICs: the snapshot's answers at first (live, or a capture's), asked
 * afresh on a live rescan (threaded NAPI switched on or off since). A
 * kernel thread of the same name serving a device of another network
 * namespace is never named here, so never counted. */
static int scan_napi(struct nn_ctx *ctx, struct nn_obs_sampler *sp, const struct nn_host *host)
{
	struct nn_genl g = { 0 };
	int err = 0, gerr = -EOPNOTSUPP;

	sp->nknown = 0;
	if (sp->seq > 0 && nn_root_is_live(&ctx->root)) {
		gerr = nn_genl_read(ctx, &g, NULL, 0);
		if (gerr == -ENOMEM)
			return gerr;
	}
	if (!gerr) {
		int ifindex = -1, nic = -1;

		/* a dump lists a device's NAPIs together: one lookup per device */
		for (size_t i = 0; i < g.nnapis && !err; i++) {
			if (g.napis[i].ifindex != ifindex) {
				ifindex = g.napis[i].ifindex;
				nic = nic_of(host, ifindex);
			}
			if (nic >= 0)
				err = consider(ctx, sp, g.napis[i].pid, nic, g.napis[i].id);
		}
	} else {
		for (size_t i = 0; i < host->nnics && !err; i++)
			for (size_t j = 0; j < host->nics[i].ngnapis && !err; j++)
				err = consider(ctx, sp, host->nics[i].gnapis[j].pid, (int)i,
					       host->nics[i].gnapis[j].id);
	}
	nn_genl_free(&g);
	/* the threads of NAPIs without an id, which napi-get never names
	 * (found at discovery, irq/napi_thread.h's rule checked again) */
	for (size_t i = 0; i < host->nnics && !err; i++)
		for (size_t j = 0; j < host->nics[i].ntxnapis && !err; j++) {
			char why[160];

			if (!nn_napi_tx_verify(&ctx->root, host->nics[i].txnapis[j], host->nics[i].name,
					       why, sizeof(why)))
				err = consider(ctx, sp, host->nics[i].txnapis[j], (int)i, NN_NAPI_TX_ID);
		}
	if (sp->nknown > 1)
		qsort(sp->known, sp->nknown, sizeof(*sp->known), cmp_thread);
	return err;
}

/* Reads each known NAPI thread's stat into @s; 1 when one was gone. */
static int read_threads(struct nn_ctx *ctx, struct nn_obs_sampler *sp, struct nn_obs_sample *s)
{
	char at[64];
	int gone = 0;

	/* a fake root's sample K: /.observe/K/proc/PID/stat where it has one */
	snprintf(at, sizeof(at), "/.observe/%ld/proc", sp->seq);
	s->nthreads = 0;
	for (size_t i = 0; i < sp->nknown; i++) {
		struct nn_obs_thread t = sp->known[i];
		struct nn_proc_stat st;
		int err = -ENOENT;

		if (!nn_root_is_live(&ctx->root))
			err = nn_proc_read_stat(&ctx->root, at, t.pid, &st);
		if (err == -ESRCH || err == -ENOENT)
			err = nn_proc_read_stat(&ctx->root, NULL, t.pid, &st);
		if (err || st.nfields < 39 || nn_proc_ticks(&st, &t.ticks)) {
			gone = 1;
			continue;
		}
		t.cpu = (int)st.processor;
		t.seen = true;
		if (NN_GROW(s->threads, s->nthreads, s->threads_cap))
			return -ENOMEM;
		s->threads[s->nthreads++] = t;
	}
	return gone;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Each NIC's rx queues' rps_cpus, once: where RPS sends its packets. A
 * queue without the file (no CONFIG_RPS) has none. */
static int read_rps(struct nn_ctx *ctx, struct nn_obs_sampler *sp, const struct nn_host *host)
{
	struct nn_cpuset q = NN_CPUSET_INIT;

	sp->rps_read = true;
	sp->rps = calloc(host->nnics ? host->nnics : 1, sizeof(*sp->rps));
	if (!sp->rps)
		return -ENOMEM;
	sp->nrps = host->nnics;
	for (size_t i = 0; i < host->nnics; i++)
		for (int r = 0; r < host->nics[i].rx_queues; r++) {
			if (nn_rps_cpus_read(ctx, host->nics[i].name, r, &q))
				continue;
			if (nn_cpuset_or(&sp->rps[i], &q)) {
				nn_cpuset_free(&q);
				return -ENOMEM;
			}
		}
	nn_cpuset_free(&q);
	return 0;
}

int nn_obs_sample_take(struct nn_ctx *ctx, struct nn_obs_sampler *sp,
		       const struct nn_host *host, struct nn_obs_sample *s)
{
	int err = sp->rps_read ? 0 : read_rps(ctx, sp, host);

	if (err)
		return err;
	s->t = nn_root_is_live(&ctx->root) ? now_s() : (double)sp->seq * sp->interval;
	err = read_interrupts(ctx, sp, s);
	if (!err)
		err = read_softirqs(ctx, sp, s);
	if (!err && sp->napi_rescan-- <= 0) {
		err = scan_napi(ctx, sp, host);
		sp->napi_rescan = NAPI_RESCAN - 1;
	}
	if (!err) {
		err = read_threads(ctx, sp, s);
		if (err == 1) {
			/* a thread went away (threaded NAPI switched off or
			 * on again): look again now, then read them again */
			err = scan_napi(ctx, sp, host);
			sp->napi_rescan = NAPI_RESCAN - 1;
			if (!err)
				err = read_threads(ctx, sp, s);
			if (err == 1)
				err = 0;
		}
	}
	s->nqstats = 0;
	s->qsrc = NN_OBS_QSTATS_NONE;
	if (!err && nn_root_is_live(&ctx->root) && sp->qwant == NN_OBS_QSTATS_NETLINK &&
	    !sp->netlink_failed) {
		int q = nn_obs_qstats_read(ctx, s);

		if (q == -ENOMEM)
			err = q;
		else if (q)
			sp->netlink_failed = true;	/* not available: not asked again */
		else
			s->qsrc = NN_OBS_QSTATS_NETLINK;
	}
	if (!err && nn_root_is_live(&ctx->root) && sp->qwant != NN_OBS_QSTATS_NONE &&
	    s->qsrc == NN_OBS_QSTATS_NONE && !sp->ethtool_failed) {
		int q = nn_obs_ethtool_qstats_read(ctx, sp, host, s);

		if (q == -ENOMEM)
			err = q;
		else if (q)
			sp->ethtool_failed = true;
		else
			s->qsrc = NN_OBS_QSTATS_ETHTOOL;
	}
	sp->seq++;
	return err;
}

int nn_obs_isolated_read(const struct nn_root *r, struct nn_cpuset *set)
{
	char *text = NULL;
	int err;

	nn_cpuset_zero(set);
	err = nn_read_file(r, "/sys/devices/system/cpu/isolated", &text, NULL);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	for (char *p = text + strlen(text); p > text && isspace((unsigned char)p[-1]); )
		*--p = '\0';
	err = *text ? nn_cpuset_parse_list(text, set) : 0;
	free(text);
	return err;
}

int nn_obs_ethtool_qstats_read(struct nn_ctx *ctx, struct nn_obs_sampler *sp,
			       const struct nn_host *host, struct nn_obs_sample *s)
{
	int fd, err = 0;
	bool any = false;

	fd = nn_ethtool_open(ctx);
	if (fd < 0)
		return fd == -ENOMEM ? fd : -EOPNOTSUPP;
	for (size_t i = 0; i < host->nnics && !err; i++) {
		const struct nn_nic *nic = &host->nics[i];

		if (nic->ifindex < 0 || !nic->nirqs)
			continue;	/* lo, veth, bridges: no queues of a device */
		if (nn_ethtool_stats_get(fd, nic->name, &sp->est))
			continue;	/* no statistics, or gone: not available */
		for (size_t j = 0; j < sp->est.n; j++) {
			struct nn_obs_qstat q = { .ifindex = nic->ifindex };

			if (!nn_obs_ethtool_queue_stat(sp->est.names[j], &q.queue, &q.rx))
				continue;
			q.packets = sp->est.values[j];
			if (NN_GROW(s->qstats, s->nqstats, s->qstats_cap)) {
				err = -ENOMEM;
				break;
			}
			s->qstats[s->nqstats++] = q;
			any = true;
		}
	}
	close(fd);
	if (err)
		return err;
	return any ? 0 : -EOPNOTSUPP;
}
