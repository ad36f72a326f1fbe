// SPDX-License-Identifier: GPL-2.0-or-later
/* observe.c - observation sessions and the report's output
 *
 * The session owns the two samples it alternates between, so after the
 * first interval nothing is allocated per sample but the report.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicnuma/emit/observe.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/utc.h"
#include "nicnuma/plan/plan.h"

static int session_start(struct nn_ctx *ctx, struct nn_obs_session *ss, char *const *only,
			 double interval, enum nn_obs_qsrc qwant)
{
	int err;

	for (char *const *p = only; p && *p; p++) {
		if (!nn_nic_find(ss->host.nics, ss->host.nnics, *p)) {
			nn_err(ctx, "observe: no network device '%s'", *p);
			return -ENODEV;
		}
	}
	ss->interval = interval;
	nn_obs_opts_default(&ss->opts);
	ss->opts.only = only;
	err = nn_obs_isolated_read(&ctx->root, &ss->isolated);
	if (err && err != -ENOMEM) {
		nn_warn(ctx, "/sys/devices/system/cpu/isolated", "unreadable (%s): isolated CPUs unknown",
			strerror(-err));
		err = 0;
	}
	if (err)
		return err;
	ss->opts.isolated = &ss->isolated;
	/* The claims as discovery would read them (the nics-only discovery
	 * does not): which CPUs the work should have left. */
	{
		struct nn_claims cl;

		err = nn_claims_read(ctx, 0, &cl);
		if (err)
			return err;
		err = nn_cpuset_copy(&ss->claimed, &cl.cpus);
		nn_claims_free(&cl);
		if (err)
			return err;
		ss->opts.claimed = &ss->claimed;
	}
	err = nn_obs_sampler_init(&ss->sp, &ss->host, interval);
	if (err)
		return err;
	ss->sp.qwant = qwant;
	ss->cur = 0;
	err = nn_obs_sample_take(ctx, &ss->sp, &ss->host, &ss->s[0]);
	if (!err)
		ss->taken = 1;
	return err;
}

int nn_obs_session_open(struct nn_ctx *ctx, struct nn_obs_session *ss, char *const *only,
			double interval, enum nn_obs_qsrc qwant)
{
	int err;

	memset(ss, 0, sizeof(*ss));
	err = nn_host_discover_nics(ctx, &ss->host);
	if (err)
		return err;
	ss->host_owned = true;
	err = session_start(ctx, ss, only, interval, qwant);
	if (err)
		nn_obs_session_close(ss);	/* nothing is left to the caller */
	return err;
}

int nn_obs_session_open_host(struct nn_ctx *ctx, struct nn_obs_session *ss,
			     const struct nn_host *host, char *const *only, double interval)
{
	int err;

	memset(ss, 0, sizeof(*ss));
	ss->host = *host;	/* borrowed: never freed here */
	err = session_start(ctx, ss, only, interval, NN_OBS_QSTATS_NETLINK);
	if (err)
		nn_obs_session_close(ss);
	return err;
}

void nn_obs_session_close(struct nn_obs_session *ss)
{
	nn_obs_sample_free(&ss->s[0]);
	nn_obs_sample_free(&ss->s[1]);
	nn_obs_sampler_free(&ss->sp);
	nn_cpuset_free(&ss->isolated);
	nn_cpuset_free(&ss->claimed);
	if (ss->host_owned)
		nn_host_free(&ss->host);
	memset(ss, 0, sizeof(*ss));
}

bool nn_obs_wait(const struct nn_ctx *ctx, const sigset_t *stop, double secs)
{
	struct timespec end, now, ts;

	if (!nn_root_is_live(&ctx->root) || secs <= 0)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)secs;
	end.tv_nsec += (long)((secs - floor(secs)) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			return false;
		ts.tv_sec = end.tv_sec - now.tv_sec;
		ts.tv_nsec = end.tv_nsec - now.tv_nsec;
		if (ts.tv_nsec < 0) {
			ts.tv_sec--;
			ts.tv_nsec += 1000000000L;
		}
		if (stop) {
			if (sigtimedwait(stop, NULL, &ts) >= 0)
				return true;
			/* EAGAIN: the time is up; EINTR: another signal, wait on */
		} else {
			nanosleep(&ts, NULL);
		}
	}
}

bool nn_obs_session_wait(const struct nn_ctx *ctx, const struct nn_obs_session *ss,
			 const sigset_t *stop)
{
	struct timespec now;
	double left;

	if (!nn_root_is_live(&ctx->root))
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	left = ss->s[ss->cur].t + ss->interval - ((double)now.tv_sec + (double)now.tv_nsec / 1e9);
	return nn_obs_wait(ctx, stop, left);
}

int nn_obs_session_next(struct nn_ctx *ctx, struct nn_obs_session *ss, struct nn_obs_report *r)
{
	int next = !ss->cur, err;

	err = nn_obs_sample_take(ctx, &ss->sp, &ss->host, &ss->s[next]);
	if (err)
		return err;
	ss->taken++;
	ss->cur = next;
	return nn_obs_attribute(&ss->host, &ss->sp, &ss->s[!next], &ss->s[next], &ss->opts, r);
}

int nn_obs_once(struct nn_ctx *ctx, const struct nn_host *host, char *const *only, double secs,
		struct nn_obs_report *r)
{
	struct nn_obs_session ss;
	int err;

	memset(r, 0, sizeof(*r));
	err = nn_obs_session_open_host(ctx, &ss, host, only, secs);
	if (!err) {
		nn_obs_session_wait(ctx, &ss, NULL);
		err = nn_obs_session_next(ctx, &ss, r);
	}
	/* the report borrows the host's NICs, not the session's */
	nn_obs_session_close(&ss);
	return err;
}

const char *nn_obs_qsrc_name(enum nn_obs_qsrc q)
{
	switch (q) {
	case NN_OBS_QSTATS_NETLINK: return "netlink";
	case NN_OBS_QSTATS_ETHTOOL: return "ethtool";
	default: return "not_available";
	}
}

/* -1 (unknown) as JSON null, else the value rounded. */
static void opt_fixed(struct nn_out *o, const char *key, double v, int decimals)
{
	if (v < 0)
		nn_print_null(o, PRINT_JSON, key, NULL);
	else
		nn_print_fixed(o, PRINT_JSON, key, NULL, v, decimals);
}

static void flags_json(struct nn_out *o, unsigned int flags)
{
	nn_open_array(o, "flags");
	for (unsigned int b = 0; nn_obs_flag_name(b); b++)
		if (flags & (1u << b))
			nn_print_string(o, PRINT_JSON, NULL, NULL, nn_obs_flag_name(b));
	nn_close_array(o);
}

/* @flags' names, comma-separated, "-" for none, in @sb (reset first). */
static const char *flags_text(struct nn_sb *sb, unsigned int flags)
{
	nn_sb_reset(sb);
	for (unsigned int b = 0; nn_obs_flag_name(b); b++)
		if (flags & (1u << b))
			nn_sb_printf(sb, "%s%s", sb->len ? "," : "", nn_obs_flag_name(b));
	if (!sb->len)
		nn_sb_puts(sb, "-");
	return nn_sb_str(sb) ? nn_sb_str(sb) : "?";
}

static void pct_text(char *buf, size_t size, double ratio)
{
	if (ratio < 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1f%%", 100.0 * ratio);
}

static void rate_text(char *buf, size_t size, double v)
{
	if (v < 0)
		snprintf(buf, size, "-");
	else if (v >= 1e6)
		snprintf(buf, size, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, size, "%.1fk", v / 1e3);
	else
		snprintf(buf, size, "%.0f", v);
}

static void queue_json(struct nn_out *o, const struct nn_obs_queue *q, double secs)
{
	nn_open_object(o, NULL);
	nn_print_int(o, PRINT_JSON, "irq", NULL, q->irq);
	nn_print_opt_int(o, PRINT_JSON, "queue", NULL, q->queue, NULL);
	nn_print_string(o, PRINT_JSON, "dir", NULL, nn_qdir_name(q->dir));
	nn_print_string(o, PRINT_JSON, "name", NULL, q->name);
	nn_print_fixed(o, PRINT_JSON, "irqs_per_s", NULL, q->irq_rate, 1);
	nn_open_array(o, "cpus");
	for (size_t i = 0; i < q->ncpus; i++) {
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "cpu", NULL, q->cpus[i].cpu);
		nn_print_opt_int(o, PRINT_JSON, "numa_node", NULL, q->cpus[i].node, NULL);
		nn_print_fixed(o, PRINT_JSON, "irqs_per_s", NULL, q->cpus[i].count / secs, 1);
		nn_close_object(o);
	}
	nn_close_array(o);
	opt_fixed(o, "local_ratio", q->local_ratio, 4);
	opt_fixed(o, "rx_pps", q->rx_pps, 1);
	opt_fixed(o, "tx_pps", q->tx_pps, 1);
	flags_json(o, q->flags);
	nn_close_object(o);
}

static void nic_json(struct nn_out *o, const struct nn_obs_nic *n, double secs)
{
	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_JSON, "name", NULL, n->nic->name);
	nn_print_opt_int(o, PRINT_JSON, "numa_node", NULL, n->node, NULL);
	nn_print_fixed(o, PRINT_JSON, "irqs_per_s", NULL, n->irq_rate, 1);
	opt_fixed(o, "irq_local_ratio", n->irq_local_ratio, 4);
	nn_print_fixed(o, PRINT_JSON, "softirqs_per_s", NULL, n->softirq_rate, 1);
	opt_fixed(o, "softirq_local_ratio", n->softirq_local_ratio, 4);
	nn_print_fixed(o, PRINT_JSON, "napi_busy", NULL, n->napi_busy, 4);
	opt_fixed(o, "napi_local_ratio", n->napi_local_ratio, 4);
	opt_fixed(o, "remote_pct", n->remote_pct, 2);
	nn_print_opt_int(o, PRINT_JSON, "top_cpu", NULL, n->top_cpu, NULL);
	nn_print_fixed(o, PRINT_JSON, "top_cpu_share", NULL, n->top_cpu_share, 4);
	opt_fixed(o, "rx_pps", n->rx_pps, 1);
	opt_fixed(o, "tx_pps", n->tx_pps, 1);
	nn_print_string(o, PRINT_JSON, "rps_cpus", NULL, n->rps_cpus);
	nn_print_fixed(o, PRINT_JSON, "rps_net_rx_per_s", NULL, n->rps_net_rx / secs, 1);
	opt_fixed(o, "rps_share", n->rps_share, 4);
	nn_print_string(o, PRINT_JSON, "queue_stats", NULL, nn_obs_qsrc_name(n->qsrc));
	flags_json(o, n->flags);
	nn_open_array(o, "queues");
	for (size_t i = 0; i < n->nqueues; i++)
		queue_json(o, &n->queues[i], secs);
	nn_close_array(o);
	nn_open_array(o, "napi_threads");
	for (size_t i = 0; i < n->nnapis; i++) {
		const struct nn_obs_napi *z = &n->napis[i];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "pid", NULL, z->pid);
		nn_print_string(o, PRINT_JSON, "comm", NULL, z->comm);
		nn_print_opt_int(o, PRINT_JSON, "cpu", NULL, z->cpu, NULL);
		nn_print_opt_int(o, PRINT_JSON, "numa_node", NULL, z->node, NULL);
		nn_print_fixed(o, PRINT_JSON, "busy", NULL, z->busy, 4);
		nn_print_bool(o, PRINT_JSON, "off_node", NULL, z->off_node);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_close_object(o);
}

static void report_json(struct nn_out *o, const struct nn_obs_report *r, double max_remote)
{
	double secs = r->interval;

	nn_print_fixed(o, PRINT_JSON, "interval_s", NULL, secs, 3);
	opt_fixed(o, "remote_pct", r->remote_pct, 2);
	opt_fixed(o, "max_remote_pct", max_remote, 2);
	flags_json(o, r->flags);
	nn_print_fixed(o, PRINT_JSON, "net_rx_per_s", NULL, r->net_rx / secs, 1);
	nn_print_fixed(o, PRINT_JSON, "net_tx_per_s", NULL, r->net_tx / secs, 1);
	nn_print_fixed(o, PRINT_JSON, "unattributed_softirqs_per_s", NULL, r->unattributed_softirq / secs, 1);
	nn_open_array(o, "nics");
	for (size_t i = 0; i < r->nnics; i++)
		nic_json(o, &r->nics[i], secs);
	nn_close_array(o);
	nn_open_array(o, "cpus");
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct nn_obs_cpu *c = &r->cpus[i];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "cpu", NULL, c->cpu);
		nn_print_opt_int(o, PRINT_JSON, "numa_node", NULL, c->node, NULL);
		nn_print_fixed(o, PRINT_JSON, "nic_irqs_per_s", NULL, c->nic_irqs / secs, 1);
		nn_print_fixed(o, PRINT_JSON, "net_rx_per_s", NULL, c->net_rx / secs, 1);
		nn_print_fixed(o, PRINT_JSON, "net_tx_per_s", NULL, c->net_tx / secs, 1);
		nn_print_fixed(o, PRINT_JSON, "napi_busy", NULL, c->napi_busy, 4);
		nn_print_bool(o, PRINT_JSON, "isolated", NULL, c->isolated);
		nn_print_bool(o, PRINT_JSON, "claimed", NULL, c->claimed);
		nn_close_object(o);
	}
	nn_close_array(o);
}

static void report_text(struct nn_out *o, const struct nn_obs_report *r, double max_remote)
{
	char a[32], b[32], c[32], d[32], e[32];
	struct nn_sb f = NN_SB_INIT, cpus = NN_SB_INIT;
	double secs = r->interval;

	pct_text(a, sizeof(a), r->remote_pct < 0 ? -1 : r->remote_pct / 100.0);
	nn_printf(o, "interval %.2f s   worst off-node share %s", secs, a);
	if (max_remote >= 0)
		nn_printf(o, " (limit %.0f%%)", max_remote);
	rate_text(b, sizeof(b), r->net_rx / secs);
	rate_text(c, sizeof(c), r->net_tx / secs);
	rate_text(d, sizeof(d), r->unattributed_softirq / secs);
	nn_printf(o, "   NET_RX/s %s  NET_TX/s %s  unattributed/s %s\n\n", b, c, d);
	nn_printf(o, "%-15s %4s %9s %7s %9s %7s %6s %8s %8s %12s  %s\n", "NIC", "NODE", "IRQ/s",
		  "LOCAL", "SOFTIRQ/s", "LOCAL", "NAPI", "RX pps", "TX pps", "TOP CPU", "FLAGS");
	for (size_t i = 0; i < r->nnics; i++) {
		const struct nn_obs_nic *n = &r->nics[i];
		char node[16], top[32], napi[16], rx[16], tx[16];

		if (n->node < 0)
			snprintf(node, sizeof(node), "?");
		else
			snprintf(node, sizeof(node), "%d", n->node);
		rate_text(a, sizeof(a), n->irq_rate);
		pct_text(b, sizeof(b), n->irq_local_ratio);
		rate_text(c, sizeof(c), n->softirq_rate);
		pct_text(d, sizeof(d), n->softirq_local_ratio);
		rate_text(rx, sizeof(rx), n->rx_pps);
		rate_text(tx, sizeof(tx), n->tx_pps);
		if (n->nnapis)
			snprintf(napi, sizeof(napi), "%.0f%%", 100.0 * n->napi_busy);
		else
			snprintf(napi, sizeof(napi), "-");
		if (n->top_cpu >= 0)
			snprintf(top, sizeof(top), "%d (%.0f%%)", n->top_cpu, 100.0 * n->top_cpu_share);
		else
			snprintf(top, sizeof(top), "-");
		nn_printf(o, "%-15s %4s %9s %7s %9s %7s %6s %8s %8s %12s  %s\n", n->nic->name, node, a, b,
			  c, d, napi, rx, tx, top, flags_text(&f, n->flags));
		if (n->rps_cpus)
			nn_printf(o, "  RPS to CPUs %s: %.1f NET_RX/s there, %.0f%% of its softirq work\n",
				  n->rps_cpus, n->rps_net_rx / r->interval,
				  n->rps_share >= 0 ? 100.0 * n->rps_share : 0.0);
		for (size_t j = 0; j < n->nqueues; j++) {
			const struct nn_obs_queue *q = &n->queues[j];

			if (q->irqs <= 0)
				continue;
			nn_sb_reset(&cpus);
			for (size_t k = 0; k < q->ncpus && k < 4; k++)
				nn_sb_printf(&cpus, "%s%d/n%d %.0f%%", k ? " " : "", q->cpus[k].cpu,
					     q->cpus[k].node, 100.0 * q->cpus[k].count / q->irqs);
			if (q->ncpus > 4)
				nn_sb_printf(&cpus, " +%zu", q->ncpus - 4);
			rate_text(a, sizeof(a), q->irq_rate);
			pct_text(b, sizeof(b), q->local_ratio);
			rate_text(rx, sizeof(rx), q->rx_pps);
			rate_text(tx, sizeof(tx), q->tx_pps);
			if (q->queue >= 0)
				snprintf(e, sizeof(e), "q%d", q->queue);
			else
				snprintf(e, sizeof(e), "-");
			nn_printf(o, "  %-5s irq %-6d %9s %7s  rx %s tx %s  cpus %s  %s\n", e, q->irq, a, b,
				  rx, tx, nn_sb_str(&cpus) ? nn_sb_str(&cpus) : "", flags_text(&f, q->flags));
		}
		for (size_t j = 0; j < n->nnapis; j++) {
			const struct nn_obs_napi *z = &n->napis[j];

			nn_printf(o, "  %-15s pid %-7d cpu %d node %d busy %.1f%%%s\n", z->comm, z->pid, z->cpu,
				  z->node, 100.0 * z->busy, z->off_node ? "  napi_off_node" : "");
		}
	}
	nn_printf(o, "\n%5s %4s %10s %10s %10s %6s\n", "CPU", "NODE", "NIC IRQ/s", "NET_RX/s", "NET_TX/s",
		  "NAPI");
	for (size_t i = 0; i < r->ncpus; i++) {
		const struct nn_obs_cpu *cp = &r->cpus[i];

		rate_text(a, sizeof(a), cp->nic_irqs / secs);
		rate_text(b, sizeof(b), cp->net_rx / secs);
		rate_text(c, sizeof(c), cp->net_tx / secs);
		nn_printf(o, "%5d %4d %10s %10s %10s %5.0f%%%s%s\n", cp->cpu, cp->node, a, b, c,
			  100.0 * cp->napi_busy, cp->isolated ? "  isolated" : "",
			  cp->claimed ? "  claimed" : "");
	}
	nn_sb_free(&f);
	nn_sb_free(&cpus);
}

void nn_obs_report_print(struct nn_out *o, const struct nn_obs_report *r, double max_remote)
{
	if (o->json)
		report_json(o, r, max_remote);
	else
		report_text(o, r, max_remote);
}

/* ---- observe --dpdk ---- */

#define DPDK_USAGE_NOTE "lcore busy share: not available from DPDK 22.11 telemetry " \
	"(/eal/lcore/usage came with 23.03)"

int nn_obs_dpdk_open(struct nn_ctx *ctx, struct nn_obs_dpdk *d, const char *prefix,
		     int timeout_ms)
{
	int err;

	memset(d, 0, sizeof(*d));
	nn_dt_report_init(&d->rep);
	d->prefix = prefix ? prefix : "rte";
	d->opts.prefix = d->prefix;
	d->opts.timeout_ms = timeout_ms;
	d->opts.vdev_node = -1;
	err = nn_dt_sample_take(ctx, &d->opts, &d->rep, &d->s[0], false);
	if (!err && d->rep.skipped)
		err = -EPERM;
	if (err) {
		nn_dt_sample_free(&d->s[0]);
		nn_dt_report_free(&d->rep);
		return err;
	}
	d->running = true;
	return 0;
}

int nn_obs_dpdk_next(struct nn_ctx *ctx, struct nn_obs_dpdk *d)
{
	int nxt = !d->cur;
	int err;

	nn_dt_sample_free(&d->s[nxt]);
	err = nn_dt_sample_take(ctx, &d->opts, &d->rep, &d->s[nxt], true);
	if (err == -ENOMEM)
		return err;
	if (err) {
		/* keep the last good sample: rates resume when it answers again */
		nn_warn(ctx, d->rep.socket, "DPDK process pid %d (file prefix '%s') not answering: %s",
			d->rep.pid, d->prefix, d->s[nxt].err[0] ? d->s[nxt].err : strerror(-err));
		nn_dt_sample_free(&d->s[nxt]);
		d->running = false;
		return 0;
	}
	d->running = true;
	d->cur = nxt;
	return 0;
}

void nn_obs_dpdk_close(struct nn_obs_dpdk *d)
{
	nn_dt_sample_free(&d->s[0]);
	nn_dt_sample_free(&d->s[1]);
	nn_dt_report_free(&d->rep);
}

static double known(double v)
{
	return isnan(v) ? -1 : v;
}

/* A node or CPU number, "?" when unknown (-1). */
static void node_text(char *buf, size_t size, int v)
{
	if (v < 0)
		snprintf(buf, size, "?");
	else
		snprintf(buf, size, "%d", v);
}

/* The lcore's one CPU, -1 when it has several or none. */
static int lcore_cpu(const struct nn_dt_lcore *l)
{
	return nn_cpuset_count(&l->cpus) == 1 ? nn_cpuset_first(&l->cpus) : -1;
}

int nn_obs_dpdk_print(struct nn_out *o, const struct nn_obs_dpdk *d)
{
	const struct nn_dt_sample *cur = &d->s[d->cur], *prev = &d->s[!d->cur];
	struct nn_dt_rates rt = { 0 };
	bool usage = cur->usage_available;
	double secs = (double)(cur->t_ms - prev->t_ms) / 1000.0;
	char a[32], b[32], c[32];
	int err = 0;
	size_t i;

	/* rates only over an interval with two good samples in it */
	if (d->running && prev->ports && cur->t_ms > prev->t_ms)
		err = nn_dt_rates(prev, cur, secs, &rt);
	if (err)
		return err;
	nn_open_object(o, "dpdk");
	nn_print_opt_int(o, PRINT_JSON, "pid", NULL, d->rep.pid, NULL);
	nn_print_string(o, PRINT_JSON, "file_prefix", NULL, d->prefix);
	nn_print_string(o, PRINT_JSON, "socket", NULL, d->rep.socket);
	nn_print_string(o, PRINT_JSON, "version", NULL, d->rep.version[0] ? d->rep.version : NULL);
	nn_print_bool(o, PRINT_JSON, "running", NULL, d->running);
	if (!o->json) {
		nn_printf(o, "\nDPDK pid %d, file prefix '%s'%s\n", d->rep.pid, d->prefix,
			  d->running ? "" : " (not answering: no rates)");
		nn_printf(o, "%-5s %-20s %4s %10s %10s %10s\n", "PORT", "NAME", "NODE", "RX pps",
			  "TX pps", "MISSED/s");
	}
	nn_open_array(o, "ports");
	for (i = 0; i < rt.nports; i++) {
		const struct nn_dt_prate *p = &rt.ports[i];
		char node[16];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "port", NULL, p->port_id);
		nn_print_string(o, PRINT_JSON, "name", NULL, p->name);
		nn_print_opt_int(o, PRINT_JSON, "numa_node", NULL, p->node, NULL);
		opt_fixed(o, "rx_pps", known(p->rx_pps), 1);
		opt_fixed(o, "tx_pps", known(p->tx_pps), 1);
		opt_fixed(o, "rx_missed_pps", known(p->rx_missed_pps), 1);
		if (!o->json) {
			rate_text(a, sizeof(a), known(p->rx_pps));
			rate_text(b, sizeof(b), known(p->tx_pps));
			rate_text(c, sizeof(c), known(p->rx_missed_pps));
			node_text(node, sizeof(node), p->node);
			nn_printf(o, "%-5d %-20s %4s %10s %10s %10s\n", p->port_id, p->name, node,
				  a, b, c);
		}
		nn_open_array(o, "queues");
		for (size_t q = 0; q < p->nqueues; q++) {
			const struct nn_dt_qrate *qr = &p->queues[q];

			nn_open_object(o, NULL);
			nn_print_int(o, PRINT_JSON, "queue", NULL, qr->queue);
			opt_fixed(o, "rx_pps", known(qr->rx_pps), 1);
			opt_fixed(o, "tx_pps", known(qr->tx_pps), 1);
			nn_close_object(o);
			if (!o->json) {
				rate_text(a, sizeof(a), known(qr->rx_pps));
				rate_text(b, sizeof(b), known(qr->tx_pps));
				nn_printf(o, "  queue %-3d%20s %10s %10s\n", qr->queue, "", a, b);
			}
		}
		nn_close_array(o);
		nn_close_object(o);
	}
	nn_close_array(o);
	if (!o->json)
		nn_printf(o, "%-6s %5s %4s %6s\n", "LCORE", "CPU", "NODE", "BUSY");
	nn_open_array(o, "lcores");
	for (i = 0; i < d->rep.nlcores; i++) {
		const struct nn_dt_lcore *l = &d->rep.lcores[i];
		double share = d->running ? nn_dt_busy_share(prev, cur, l->lcore_id) : NAN;
		char cpu[16], node[16];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "lcore", NULL, l->lcore_id);
		nn_print_opt_int(o, PRINT_JSON, "cpu", NULL, lcore_cpu(l), NULL);
		nn_print_opt_int(o, PRINT_JSON, "node", NULL, l->node, NULL);
		opt_fixed(o, "busy_share", known(share), 4);
		nn_close_object(o);
		if (!o->json) {
			node_text(cpu, sizeof(cpu), lcore_cpu(l));
			node_text(node, sizeof(node), l->node);
			pct_text(a, sizeof(a), known(share));
			nn_printf(o, "%-6d %5s %4s %6s\n", l->lcore_id, cpu, node, a);
		}
	}
	nn_close_array(o);
	nn_print_bool(o, PRINT_JSON, "lcore_usage_available", NULL, usage);
	nn_open_array(o, "notes");
	if (!usage && d->running) {
		nn_print_string(o, PRINT_JSON, NULL, NULL, DPDK_USAGE_NOTE);
		if (!o->json)
			nn_printf(o, "note: %s\n", DPDK_USAGE_NOTE);
	}
	nn_close_array(o);
	nn_close_object(o);
	nn_dt_rates_free(&rt);
	return 0;
}

void nn_obs_sample_head_print(struct nn_ctx *ctx, long n, bool live_view)
{
	char stamp[32];

	nn_utc_stamp(stamp, sizeof(stamp), time(NULL), false);
	if (live_view)
		nn_printf(&ctx->out, "\033[H\033[2J");
	nn_print_int(&ctx->out, PRINT_JSON, "sample", NULL, n);
	if (nn_root_is_live(&ctx->root))
		nn_print_string(&ctx->out, PRINT_JSON, "time", NULL, stamp);
	else
		nn_print_null(&ctx->out, PRINT_JSON, "time", NULL);
	if (!ctx->out.json)
		nn_printf(&ctx->out, "nicnuma observe   %s   sample %ld%s\n",
			  nn_root_is_live(&ctx->root) ? stamp : "(fixture)", n,
			  live_view ? "   (Ctrl-C stops)" : "");
}
