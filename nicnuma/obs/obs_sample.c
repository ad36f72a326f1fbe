// SPDX-License-Identifier: GPL-2.0-or-later
/* obs_sample.c - one sample of the counters nicnuma observe compares
 *
 * Every read goes through the fs root. Per sample: /proc/interrupts (only the
 * watched IRQs kept, through a buffer reused from sample to sample),
 * /proc/softirqs, /proc/PID/stat of each NAPI kthread, and on a live root the
 * per-queue packet counts of netdev netlink. NAPI kthreads are found by a
 * scan of kthreadd's children (or of /proc) every NAPI_RESCAN samples, and
 * whenever one of them is gone.
 */
#include <ctype.h>
#include <dirent.h>
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
#include "nicnuma/discover/host.h"
#include "nicnuma/obs/obs.h"
#include "irq/rps.h"

#define NAPI_RESCAN 10

enum {	/* nn_obs_sampler.warned */
	W_INTR = 1 << 0,
	W_SOFT = 1 << 1,
	W_SCAN = 1 << 2,
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

/* Whether @pid (given as text) is a NAPI kthread; adds it to the known list. */
static int consider_pid(struct nn_ctx *ctx, struct nn_obs_sampler *sp, const char *pid)
{
	struct nn_obs_thread t;
	char path[64], comm[NN_OBS_COMM_MAX + 2];
	long v;

	if (nn_parse_long(pid, &v) || v <= 0 || v > 0x3fffffff)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", v);
	if (nn_read_str(&ctx->root, path, comm, sizeof(comm)))
		return 0;	/* gone, or not readable: not ours to report */
	memset(&t, 0, sizeof(t));
	if (nn_obs_parse_napi_comm(comm, t.ifname, sizeof(t.ifname), &t.napi_id, &(bool){ false }) != 1)
		return 0;
	t.pid = (int)v;
	memcpy(t.comm, comm, strnlen(comm, sizeof(t.comm) - 1));
	t.nic = -1;
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

/* NAPI kthreads are children of kthreadd (PID 2): its children file is one
 * read where the kernel has it (CONFIG_PROC_CHILDREN); else every /proc
 * entry is looked at. */
static int scan_napi(struct nn_ctx *ctx, struct nn_obs_sampler *sp)
{
	char *text = NULL, *tok, *save = NULL;
	DIR *d = NULL;
	struct dirent *de;
	int err = 0;

	sp->nknown = 0;
	if (!nn_read_file(&ctx->root, "/proc/2/task/2/children", &text, NULL)) {
		for (tok = strtok_r(text, " \n", &save); tok && !err; tok = strtok_r(NULL, " \n", &save))
			err = consider_pid(ctx, sp, tok);
		free(text);
	} else {
		err = nn_root_opendir(&ctx->root, "/proc", &d);
		if (err) {
			warn_once(ctx, sp, W_SCAN, "/proc", "cannot list the NAPI threads", err);
			return 0;
		}
		while (!err && (de = readdir(d)))
			if (isdigit((unsigned char)de->d_name[0]))
				err = consider_pid(ctx, sp, de->d_name);
		closedir(d);
	}
	if (sp->nknown > 1)
		qsort(sp->known, sp->nknown, sizeof(*sp->known), cmp_thread);
	return err;
}

/* Reads each known NAPI thread's stat into @s; 1 when one was gone. */
static int read_threads(struct nn_ctx *ctx, struct nn_obs_sampler *sp, struct nn_obs_sample *s)
{
	int gone = 0;

	s->nthreads = 0;
	for (size_t i = 0; i < sp->nknown; i++) {
		struct nn_obs_thread t = sp->known[i];
		char path[64], pb[128], *text = NULL;
		const char *p;

		snprintf(path, sizeof(path), "/proc/%d/stat", t.pid);
		p = sample_path(ctx, sp, path, pb, sizeof(pb));
		if (nn_read_file(&ctx->root, p, &text, NULL) ||
		    nn_obs_parse_stat(text, &t.ticks, &t.cpu)) {
			free(text);
			gone = 1;
			continue;
		}
		free(text);
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
	char path[320];

	sp->rps_read = true;
	sp->rps = calloc(host->nnics ? host->nnics : 1, sizeof(*sp->rps));
	if (!sp->rps)
		return -ENOMEM;
	sp->nrps = host->nnics;
	for (size_t i = 0; i < host->nnics; i++)
		for (int r = 0; r < host->nics[i].rx_queues; r++) {
			if (nn_rps_path(path, sizeof(path), host->nics[i].name, r, NN_RPS_CPUS) ||
			    nn_read_cpumask(&ctx->root, path, &q))
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
		err = scan_napi(ctx, sp);
		sp->napi_rescan = NAPI_RESCAN - 1;
	}
	if (!err) {
		err = read_threads(ctx, sp, s);
		if (err == 1) {
			/* a thread went away (threaded NAPI switched off or
			 * on again): look again now, then read them again */
			err = scan_napi(ctx, sp);
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
