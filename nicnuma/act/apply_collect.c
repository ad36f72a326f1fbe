// SPDX-License-Identifier: GPL-2.0-or-later
/* apply_collect.c - one value per plan entry with its live state: what apply writes and check compares */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "irq/affinity.h"
#include "irq/napi_thread.h"
#include "irq/napi_conf.h"
#include "irq/rps.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/act/apply_internal.h"
#include "nicnuma/discover/ethtool.h"

void nn_apply_views_open(const struct nn_root *base, struct nn_apply_views *w)
{
	w->base = base;
	nn_root_view_open(base, NN_PROC_IRQ, &w->irq);
	w->nic = *base;	/* no NIC yet: the root itself, nothing to close */
	w->nic_dir[0] = '\0';
}

void nn_apply_views_close(struct nn_apply_views *w)
{
	nn_root_view_close(&w->irq);
	nn_root_view_close(&w->nic);
}

/* The root to read and write @v through: its view (the root itself for other kinds). */
const struct nn_root *nn_apply_views_for(struct nn_apply_views *w, const struct nn_apply_val *v)
{
	char dir[sizeof(w->nic_dir)];

	if (v->kind == NN_VAL_IRQ)
		return &w->irq;
	if (v->kind == NN_VAL_XPS && v->nic &&
	    snprintf(dir, sizeof(dir), "/sys/class/net/%s/queues", v->nic) < (int)sizeof(dir)) {
		if (strcmp(dir, w->nic_dir)) {
			nn_root_view_close(&w->nic);
			memcpy(w->nic_dir, dir, sizeof(dir));
			nn_root_view_open(w->base, w->nic_dir, &w->nic);
		}
		return &w->nic;
	}
	return w->base;
}

void nn_apply_read_online(struct nn_ctx *ctx, struct nn_cpuset *online)
{
	int err = nn_read_cpulist(&ctx->root, "/sys/devices/system/cpu/online", online);

	if (err) {
		/* Without it masks go out as planned; the kernel still refuses
		 * offline-only masks, which then show up as bad_mask. */
		nn_warn(ctx, "/sys/devices/system/cpu/online", "unreadable (%s): masks not "
			"checked against online CPUs", strerror(-err));
		nn_cpuset_zero(online);
	}
}

static int cmp_irq_key(const void *key, const void *elem)
{
	int irq = *(const int *)key, e = ((const struct nn_irq *)elem)->irq;

	return (irq > e) - (irq < e);
}

/* The affinity discovery read for @irq of @nic, or NULL when it has none. */
static const struct nn_cpuset *known_affinity(const struct nn_host *host, const char *nic, int irq)
{
	const struct nn_nic *n;
	const struct nn_irq *q;

	if (!host || !nic)
		return NULL;
	n = nn_nic_find(host->nics, host->nnics, nic);
	if (!n || !n->nirqs)
		return NULL;
	q = bsearch(&irq, n->irqs, n->nirqs, sizeof(*n->irqs), cmp_irq_key);
	return q && q->has_affinity ? &q->affinity : NULL;
}

/* An IRQ mask with no online CPU left cannot be written: failed up front. */
static bool want_online(struct nn_apply_val *v)
{
	if (!nn_cpuset_empty(&v->want))
		return true;
	v->status = NN_VAL_FAILED;
	snprintf(v->note, sizeof(v->note), "bad mask: no planned CPU is online");
	return false;
}

/* Status of a value that now holds @cur: left pending when it must change. */
static void classify(struct nn_apply_val *v, const struct nn_cpuset *cur, bool check)
{
	if (nn_cpuset_equal(cur, &v->want))
		v->status = check ? NN_VAL_ALIGNED : NN_VAL_UNCHANGED;
	else if (check)
		v->status = NN_VAL_DRIFT;
}

/* The RSS table of plan entry @r: the live table (live only), the planned
 * one built for the driver's size, and whether they differ. An unreadable
 * table aborts apply (-errno, nothing changed); check calls it drift. */
static int collect_rss(struct nn_ctx *ctx, const struct nn_plan_rss *r, bool check,
		       struct nn_apply_val *v)
{
	struct nn_rss now;
	unsigned int i;
	int err;

	v->kind = NN_VAL_RSS;
	v->irq = -1;
	v->queue = -1;
	v->nic = r->nic;
	v->path = strdup(r->nic);
	if (!v->path)
		return -ENOMEM;
	err = nn_rss_get(ctx, -1, r->nic, &now);
	if (now.state == NN_RSS_NOT_READ) {
		v->status = NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "not touched (fake root)");
		return 0;
	}
	if (now.state == NN_RSS_UNSUPPORTED) {
		v->status = NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "not supported by this driver");
		return 0;
	}
	if (err || now.state != NN_RSS_OK) {
		err = err ? err : -EIO;
		if (check) {
			v->status = NN_VAL_DRIFT;
			snprintf(v->note, sizeof(v->note), "RSS table unreadable: %s", strerror(-err));
			return 0;
		}
		nn_err(ctx, "cannot read the RSS table of %s: %s; nothing was changed", r->nic,
		       strerror(-err));
		return err;
	}
	v->rss_n = now.size;
	v->rss_rings = now.rings;
	v->before = nn_rss_format(now.table, now.size);
	v->rss_want = malloc((size_t)now.size * sizeof(*v->rss_want));
	err = !v->before || !v->rss_want ? -ENOMEM : 0;
	if (!err && nn_plan_rss_table(r, now.size, v->rss_want))
		err = -EINVAL;
	if (!err && !(v->planned = nn_rss_format(v->rss_want, now.size)))
		err = -ENOMEM;
	if (err == -EINVAL) {	/* a plan entry without queues: the reader refuses those */
		v->status = NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "no queues to spread over");
		err = 0;
	}
	if (err || v->status == NN_VAL_FAILED) {
		nn_rss_free(&now);
		return err;
	}
	if (r->table_size > 0 && (unsigned int)r->table_size != now.size) {
		v->status = check ? NN_VAL_DRIFT : NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "planned for a table of %d entries, the driver's has %u",
			 r->table_size, now.size);
	} else if (memcmp(now.table, v->rss_want, (size_t)now.size * sizeof(*now.table)) == 0) {
		v->status = check ? NN_VAL_ALIGNED : NN_VAL_UNCHANGED;
	} else if (check) {
		v->status = NN_VAL_DRIFT;
	}
	for (i = 0; v->status != NN_VAL_FAILED && now.rings && i < r->nqueues; i++)
		if ((unsigned int)r->queues[i] >= now.rings) {
			v->status = check ? NN_VAL_DRIFT : NN_VAL_FAILED;
			snprintf(v->note, sizeof(v->note), "planned queue %d, the NIC has %u rx rings",
				 r->queues[i], now.rings);
			break;
		}
	nn_rss_free(&now);
	return 0;
}

/* A threaded NAPI's kthread: only while /proc/PID is still that thread
 * (irq/napi_thread.h's trust rule); a thread gone is skipped with a warning,
 * another task in its place is never read or written. */
static int collect_napi(struct nn_ctx *ctx, const struct nn_plan_napi *t, const struct nn_cpuset *online,
			const struct nn_host *host, bool check, struct nn_apply_val *v)
{
	struct nn_cpuset cur = NN_CPUSET_INIT;
	char buf[32], why[160] = "";
	int err;

	v->kind = NN_VAL_NAPI;
	v->irq = -1;
	v->queue = -1;
	v->nic = t->nic;
	v->pid = t->pid;
	v->napi_id = t->napi_id;
	snprintf(buf, sizeof(buf), "%d", t->pid);
	v->path = strdup(buf);
	if (!v->path || nn_cpuset_copy(&v->want, &t->cpus))
		return -ENOMEM;
	if (!nn_cpuset_empty(online))
		nn_cpuset_and(&v->want, online);
	v->planned = nn_cpuset_format_list(&v->want);
	if (!v->planned)
		return -ENOMEM;
	if (!want_online(v))
		return 0;
	err = nn_napi_identify(ctx, host ? host->nics : NULL, host ? host->nnics : 0, t->pid, t->nic,
			       t->napi_id, why, sizeof(why));
	if (err == -ESRCH) {
		/* threaded NAPI switched off, the device gone: a new plan has no thread */
		v->status = NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "%.120s (threaded NAPI off?): plan again", why);
		nn_warn(ctx, t->name, "NAPI thread %s", v->note);
		return 0;
	}
	if (!err)
		err = nn_napi_thread_get(&ctx->root, t->pid, &cur);
	if (err) {
		v->status = check ? NN_VAL_DRIFT : NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "%s", why[0] && err != -ENOMEM ? why : strerror(-err));
		if (err == -ENOMEM)
			return err;
		if (!check)
			nn_warn(ctx, t->name, "NAPI thread refused: %s", v->note);
		return 0;
	}
	v->before = nn_cpuset_format_list(&cur);
	if (!v->before) {
		nn_cpuset_free(&cur);
		return -ENOMEM;
	}
	classify(v, &cur, check);
	nn_cpuset_free(&cur);
	if (!check && v->status == NN_VAL_PENDING && !nn_root_is_live(&ctx->root)) {
		v->status = NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "not touched (fake root)");
	}
	return 0;
}

/* A value in one sysfs/procfs file (RPS/RFS, a device-wide NAPI file):
 * @planned is its kernel text. A file that is not there (a kernel without
 * CONFIG_RPS, a queue gone) is skipped, in apply and check alike; one
 * that cannot be read aborts apply with nothing changed. */
static int collect_sysval(struct nn_ctx *ctx, enum nn_val_kind kind, const char *nic, int queue,
			  const char *path, const char *planned, bool check, struct nn_apply_val *v)
{
	char buf[4096];
	long cur, want;
	int err;

	v->kind = kind;
	v->irq = -1;
	v->nic = nic;
	v->queue = queue;
	v->path = strdup(path);
	v->planned = strdup(planned);
	if (!v->path || !v->planned)
		return -ENOMEM;
	err = nn_read_str(&ctx->root, path, buf, sizeof(buf));
	if (err == -ENOENT) {
		/* What the kernel lacks is no drift: apply skips it the same way. */
		v->status = NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "not there (a kernel without it, or the queue is gone)");
		return 0;
	}
	if (err && check) {
		v->status = NN_VAL_DRIFT;
		snprintf(v->note, sizeof(v->note), "unreadable: %s", strerror(-err));
		return 0;
	}
	if (err) {
		nn_err(ctx, "cannot read %s: %s; nothing was changed", path, strerror(-err));
		return err;
	}
	v->before = strdup(buf);
	if (!v->before)
		return -ENOMEM;
	/* RFS's socket table is the host's: a larger one someone set is kept. */
	if (v->at_least && !nn_parse_long(buf, &cur) && !nn_parse_long(planned, &want) && cur >= want) {
		free(v->planned);
		v->planned = strdup(buf);
		if (!v->planned)
			return -ENOMEM;
	}
	if (nn_value_equal(path, buf, v->planned))
		v->status = check ? NN_VAL_ALIGNED : NN_VAL_UNCHANGED;
	else if (check)
		v->status = NN_VAL_DRIFT;
	return 0;
}

/* @flows NULL: rps_flow_cnt is not planned (flow_cnt -1). */
static int collect_rps(struct nn_ctx *ctx, const struct nn_plan_rps *r, const struct nn_cpuset *online,
		       bool check, struct nn_apply_val *cpus, struct nn_apply_val *flows)
{
	char path[320], num[32], *mask;
	int err;

	err = nn_rps_path(path, sizeof(path), r->nic, r->queue, NN_RPS_CPUS);
	if (err) {
		nn_err(ctx, "plan names a bad interface '%s'", r->nic);
		return err;
	}
	if (nn_cpuset_copy(&cpus->want, &r->cpus))
		return -ENOMEM;
	if (!nn_cpuset_empty(online))
		nn_cpuset_and(&cpus->want, online);
	mask = nn_cpuset_format_mask(&cpus->want, 0);
	if (!mask)
		return -ENOMEM;
	err = collect_sysval(ctx, NN_VAL_RPS, r->nic, r->queue, path, mask, check, cpus);
	free(mask);
	/* An empty planned mask is RPS off (a keep-off entry); a planned mask
	 * with no CPU online is a failure, never a silent off. */
	if (!err && nn_cpuset_empty(&cpus->want) && !nn_cpuset_empty(&r->cpus)) {
		cpus->status = NN_VAL_FAILED;
		snprintf(cpus->note, sizeof(cpus->note), "no planned CPU is online");
	}
	if (err || !flows)
		return err;
	nn_rps_path(path, sizeof(path), r->nic, r->queue, NN_RPS_FLOW_CNT);
	snprintf(num, sizeof(num), "%ld", r->flow_cnt);
	return collect_sysval(ctx, NN_VAL_RPS, r->nic, r->queue, path, num, check, flows);
}

/* A setting asked of the kernel (a per-NAPI setting, a coalescing value or
 * ring size): @v's fields, @key its path, @want its value. Live only: under
 * a fake root the capture's answer says what was, not what may be written,
 * so it is skipped (1). 0 to read it, -ENOMEM. */
static int setting_head(struct nn_ctx *ctx, struct nn_apply_val *v, enum nn_val_kind kind, const char *nic,
			long long want, const char *key)
{
	char buf[32];

	v->kind = kind;
	v->irq = -1;
	v->queue = -1;
	v->nic = nic;
	v->want_ll = want;
	v->path = strdup(key);
	snprintf(buf, sizeof(buf), "%lld", want);
	v->planned = strdup(buf);
	if (!v->path || !v->planned)
		return -ENOMEM;
	if (!nn_root_is_live(&ctx->root)) {
		v->status = NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "not touched (fake root)");
		return 1;
	}
	return 0;
}

/* The setting's value read, @now, as @v's before, classified against the plan. */
static int setting_before(struct nn_apply_val *v, long long now, bool check)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", now);
	v->before = strdup(buf);
	if (!v->before)
		return -ENOMEM;
	if (now == v->want_ll)
		v->status = check ? NN_VAL_ALIGNED : NN_VAL_UNCHANGED;
	else if (check)
		v->status = NN_VAL_DRIFT;
	return 0;
}

/* One per-NAPI setting: live only, and only while the NAPI is still the
 * interface's (irq/napi_conf.h's rule); a NAPI gone is skipped with a
 * warning (plan again), another device's is refused. */
static int collect_napi_conf(struct nn_ctx *ctx, const struct nn_plan_napi_conf *c, bool check,
			     struct nn_apply_val *v)
{
	struct nn_napi_vals now;
	char buf[96], why[160] = "";
	int err;

	v->napi_id = c->napi_id;
	v->ifindex = c->ifindex;
	nn_napi_conf_key(buf, sizeof(buf), c->nic, c->napi_id, c->attr);
	v->napi_attr = c->attr;
	err = setting_head(ctx, v, NN_VAL_NAPI_CONF, c->nic, c->value, buf);
	if (err)
		return err < 0 ? err : 0;
	err = nn_napi_conf_owner(ctx, &nn_napi_genl_io, c->nic, c->ifindex, c->napi_id, &now, why, sizeof(why));
	if (err == -ENOENT && !check) {
		v->status = NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "%.150s: plan again", why);
		nn_warn(ctx, v->path, "%s", v->note);
		return 0;
	}
	if (!err && now.v[c->attr] < 0) {
		err = -EOPNOTSUPP;
		snprintf(why, sizeof(why), "the kernel reports no %s for this NAPI", nn_napi_attr_name(c->attr));
	}
	if (err) {
		v->status = check ? NN_VAL_DRIFT : NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "%s", why[0] ? why : strerror(-err));
		if (!check)
			nn_warn(ctx, v->path, "%s", v->note);
		return err == -ENOMEM ? err : 0;
	}
	return setting_before(v, now.v[c->attr], check);
}

/* One coalescing value or ring size (ethtool netlink). A driver that
 * reports no such value is skipped with a note. */
static int collect_eth(struct nn_ctx *ctx, const struct nn_plan_eth *e, bool check, struct nn_apply_val *v)
{
	struct nn_eth_conf now;
	char buf[64];
	int err;

	nn_eth_key(buf, sizeof(buf), e->nic, e->setting);
	v->eth_setting = e->setting;
	err = setting_head(ctx, v, NN_VAL_ETH, e->nic, e->value, buf);
	if (err)
		return err < 0 ? err : 0;
	err = nn_eth_conf_get(ctx, e->nic, &now);
	if (!err)
		err = nn_eth_setting_is_ring(e->setting) ? now.rings_err : now.coalesce_err;
	if (!err && now.v[e->setting] < 0)
		err = -EOPNOTSUPP;
	if (err) {
		v->status = check ? NN_VAL_DRIFT : NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "%s: %s", nn_eth_setting_name(e->setting), strerror(-err));
		if (!check)
			nn_warn(ctx, v->path, "%s: not set", v->note);
		return err == -ENOMEM ? err : 0;
	}
	return setting_before(v, now.v[e->setting], check);
}

/* An IRQ's affinity or a tx queue's XPS mask (@kind: NN_VAL_IRQ with @irq,
 * or NN_VAL_XPS), the one collection of both: its path, the planned CPUs
 * that are online and their kernel text (a cpulist; a hex mask for XPS),
 * and the value before, classified against the plan. What the two kinds
 * differ in: an IRQ's value may come from this run's discovery (@host), an
 * IRQ with no planned CPU online fails up front (want_online), an unreadable
 * IRQ is drift in check; a queue without xps_cpus is skipped. @cur: scratch. */
static int collect_aff(struct nn_ctx *ctx, struct nn_apply_views *views, const struct nn_host *host,
		       enum nn_val_kind kind, int irq, const char *nic, int queue, const struct nn_cpuset *cpus,
		       const struct nn_cpuset *online, bool check, struct nn_apply_val *v, struct nn_cpuset *cur)
{
	bool mask = kind == NN_VAL_XPS;
	const struct nn_cpuset *known;
	char path[512], buf[4096];
	int err;

	v->kind = kind;
	v->irq = irq;
	v->nic = nic;
	v->queue = queue;
	err = mask ? nn_xps_path(path, sizeof(path), nic, queue)
		   : nn_irq_path(path, sizeof(path), irq, "smp_affinity_list");
	if (err) {
		nn_err(ctx, "plan names a bad interface '%s'", nic);
		return err;
	}
	v->path = strdup(path);
	if (!v->path || (err = nn_cpuset_copy(&v->want, cpus)))
		return err ? err : -ENOMEM;
	if (!nn_cpuset_empty(online))
		nn_cpuset_and(&v->want, online);
	v->planned = mask ? nn_cpuset_format_mask(&v->want, 0) : nn_cpuset_format_list(&v->want);
	if (!v->planned)
		return -ENOMEM;
	known = mask ? NULL : known_affinity(host, nic, irq);
	if (known) {
		v->before = nn_cpuset_format_list(known);
		if (!v->before)
			return -ENOMEM;
		if (want_online(v))
			classify(v, known, check);
		return 0;
	}
	err = nn_read_str(nn_apply_views_for(views, v), path, buf, sizeof(buf));
	if (err == -ENOENT && mask) {
		/* Single-queue devices and kernels without CONFIG_XPS have none. */
		v->status = NN_VAL_SKIPPED;
		snprintf(v->note, sizeof(v->note), "no xps_cpus (single-queue device or no XPS)");
		return 0;
	}
	if (err && check && !mask) {
		v->status = NN_VAL_DRIFT;
		if (err == -ENOENT)
			snprintf(v->note, sizeof(v->note), "IRQ %d does not exist", irq);
		else
			snprintf(v->note, sizeof(v->note), "unreadable: %s", strerror(-err));
		return 0;
	}
	if (err) {
		nn_err(ctx, "cannot read %s: %s; nothing was changed", path, strerror(-err));
		return err;
	}
	v->before = strdup(buf);
	if (!v->before)	/* a value without its before could never be put back */
		return -ENOMEM;
	if (!mask && !want_online(v))
		return 0;
	err = mask ? nn_cpuset_parse_mask(buf, cur) : nn_cpuset_parse_list(buf, cur);
	if (err) {
		nn_err(ctx, "%s: unexpected content '%s'", path, buf);
		return err;
	}
	classify(v, cur, check);
	return 0;
}

/* Builds one value per plan entry with its current state; a value we cannot
 * read aborts the whole run (-errno) before anything is written. @host is
 * the discovery of this same run, or NULL to read every value afresh. */
int nn_apply_collect(struct nn_ctx *ctx, const struct nn_plan *plan, const struct nn_cpuset *online,
		    const struct nn_host *host, bool check, struct nn_apply_val **out, size_t *nout)
{
	size_t n = plan->nirqs + plan->nxps + plan->nchannels + plan->nrss + plan->nnapi_threads +
		   2 * plan->nrps + (plan->rps_sock_flow_entries > 0) + plan->nnapi_conf + plan->neth +
		   plan->nsysctls, k = 0, i;
	struct nn_apply_val *vals = calloc(n ? n : 1, sizeof(*vals));
	struct nn_cpuset cur = NN_CPUSET_INIT;
	char path[512], buf[4096];
	struct nn_apply_views views;
	int err = 0;

	if (!vals)
		return -ENOMEM;
	nn_apply_views_open(&ctx->root, &views);
	for (i = 0; i < plan->nchannels; i++) {
		const struct nn_plan_channels *c = &plan->channels[i];
		struct nn_apply_val *v = &vals[k++];
		int combined = c->current, max;

		v->kind = NN_VAL_CHANNELS;
		v->nic = c->nic;
		v->queue = -1;
		v->irq = -1;
		v->want_n = c->target;
		v->path = strdup(c->nic);
		snprintf(buf, sizeof(buf), "%d", c->target);
		v->planned = strdup(buf);
		if (!v->path || !v->planned) {
			err = -ENOMEM;
			goto fail;
		}
		/* The live value beats the plan's idea of it. */
		if (nn_root_is_live(&ctx->root) && nn_channels_get(ctx, c->nic, &combined, &max))
			combined = c->current;
		if (combined >= 0) {
			snprintf(buf, sizeof(buf), "%d", combined);
			v->before = strdup(buf);
			if (!v->before) {
				err = -ENOMEM;
				goto fail;
			}
		}
		if (combined == c->target)
			v->status = NN_VAL_UNCHANGED;
		else if (!nn_root_is_live(&ctx->root)) {
			v->status = NN_VAL_SKIPPED;
			snprintf(v->note, sizeof(v->note), "not touched (fake root)");
		}
	}
	for (i = 0; i < plan->nirqs && !err; i++) {
		const struct nn_plan_irq *p = &plan->irqs[i];

		err = collect_aff(ctx, &views, host, NN_VAL_IRQ, p->irq, p->nic, p->queue, &p->cpus, online,
				  check, &vals[k++], &cur);
	}
	for (i = 0; i < plan->nxps && !err; i++) {
		const struct nn_plan_xps *p = &plan->xps[i];

		err = collect_aff(ctx, &views, host, NN_VAL_XPS, -1, p->nic, p->queue, &p->cpus, online,
				  check, &vals[k++], &cur);
	}
	if (err)
		goto fail;
	for (i = 0; i < plan->nrss; i++) {
		err = collect_rss(ctx, &plan->rss[i], check, &vals[k++]);
		if (err)
			goto fail;
	}
	for (i = 0; i < plan->nnapi_threads; i++) {
		err = collect_napi(ctx, &plan->napi_threads[i], online, host, check, &vals[k++]);
		if (err)
			goto fail;
	}
	if (plan->rps_sock_flow_entries > 0) {
		snprintf(buf, sizeof(buf), "%ld", plan->rps_sock_flow_entries);
		vals[k].at_least = true;
		err = collect_sysval(ctx, NN_VAL_RPS, NULL, -1, NN_RPS_SOCK_FLOW_PATH, buf, check, &vals[k]);
		k++;
		if (err)
			goto fail;
	}
	for (i = 0; i < plan->nrps; i++) {
		/* a keep-off entry (flow_cnt -1) leaves rps_flow_cnt as it is */
		bool flows = plan->rps[i].flow_cnt >= 0;

		err = collect_rps(ctx, &plan->rps[i], online, check, &vals[k], flows ? &vals[k + 1] : NULL);
		k += flows ? 2 : 1;
		if (err)
			goto fail;
	}
	for (i = 0; i < plan->nnapi_conf; i++) {
		const struct nn_plan_napi_conf *c = &plan->napi_conf[i];

		if (c->napi_id > 0) {
			err = collect_napi_conf(ctx, c, check, &vals[k++]);
		} else if (nn_napi_dev_path(path, sizeof(path), c->nic, c->attr)) {
			nn_err(ctx, "plan names a bad interface '%s' or setting", c->nic);
			err = -EINVAL;
		} else {
			snprintf(buf, sizeof(buf), "%lld", c->value);
			vals[k].napi_attr = c->attr;
			err = collect_sysval(ctx, NN_VAL_NAPI_DEV, c->nic, -1, path, buf, check, &vals[k++]);
		}
		if (err)
			goto fail;
	}
	for (i = 0; i < plan->neth; i++) {
		err = collect_eth(ctx, &plan->eth[i], check, &vals[k++]);
		if (err)
			goto fail;
	}
	/* A kernel without CONFIG_NET_RX_BUSY_POLL has neither file: skipped, as apply skips it. */
	for (i = 0; i < plan->nsysctls; i++) {
		snprintf(buf, sizeof(buf), "%lld", plan->sysctls[i].value);
		err = collect_sysval(ctx, NN_VAL_SYSCTL, NULL, -1, nn_busy_path(plan->sysctls[i].which), buf,
				     check, &vals[k++]);
		if (err)
			goto fail;
	}
	nn_apply_views_close(&views);
	nn_cpuset_free(&cur);
	*out = vals;
	*nout = k;
	return 0;
fail:
	if (err == -ENOMEM)	/* the other errors were named where they happened */
		nn_err(ctx, "reading the planned values: %s; nothing was changed", strerror(ENOMEM));
	nn_apply_views_close(&views);
	nn_cpuset_free(&cur);
	nn_apply_vals_free(vals, k);
	return err;
}
