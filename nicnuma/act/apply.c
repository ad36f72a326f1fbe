// SPDX-License-Identifier: GPL-2.0-or-later
/* apply.c - executing a plan: log once, write, read back, undo on failure (apply_collect.c reads the values) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/state/applied_plan.h"
#include "nicnuma/state/tx.h"
#include "hugepages/hp_set.h"
#include "irq/affinity.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/act/apply_internal.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/act/dev_ident.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/discover/ethtool.h"
#include "nicnuma/core/fsroot.h"

/* Per NIC, its planned CPUs: where an IRQ goes when its own CPU is out of
 * vectors. Built once per apply (one pass over the values), not per IRQ. */
struct nic_cpus {
	const char *nic;
	struct nn_cpuset cpus;
};

struct nic_cpus_table {
	struct nic_cpus *v;
	size_t n;
};

static void nic_cpus_free(struct nic_cpus_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		nn_cpuset_free(&t->v[i].cpus);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static struct nic_cpus *nic_cpus_find(const struct nic_cpus_table *t, const char *nic)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].nic == nic || !strcmp(t->v[i].nic, nic))
			return &t->v[i];
	return NULL;
}

static int nic_cpus_build(const struct nn_apply_report *rep, struct nic_cpus_table *t)
{
	size_t i;
	int err;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < rep->nvals; i++) {
		const struct nn_apply_val *o = &rep->vals[i];
		struct nic_cpus *f;

		if (o->kind != NN_VAL_IRQ || o->queue < 0 || !o->nic)
			continue;
		f = nic_cpus_find(t, o->nic);
		if (!f) {
			struct nic_cpus *nv = realloc(t->v, (t->n + 1) * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			t->v = nv;
			f = &t->v[t->n++];
			f->nic = o->nic;
			f->cpus = (struct nn_cpuset)NN_CPUSET_INIT;
		}
		err = nn_cpuset_or(&f->cpus, &o->want);
		if (err)
			return err;
	}
	return 0;
}

static void set_after(struct nn_apply_val *v, const struct nn_aff_result *r, bool mask)
{
	free(v->after);
	free(v->effective);
	/* The usual case reads back the planned set: its text is formatted already. */
	if (v->planned && nn_cpuset_equal(&r->after, &v->want))
		v->after = strdup(v->planned);
	else
		v->after = mask ? nn_cpuset_format_mask(&r->after, 0) : nn_cpuset_format_list(&r->after);
	v->effective = r->has_effective ? nn_cpuset_format_list(&r->effective) : NULL;
}

/* The write order, one pass per domain so that irq/ is entered once:
 * channels first (a new count renumbers the queue IRQs), then irq/'s
 * values (irqbalance before them, then IRQs, XPS, NAPI threads), then the
 * RSS tables (they spread over the queues just placed); hugepages/ after all
 * of them. The report keeps the collect order. tests/arch/apply_order.py
 * checks this order. */
enum write_phase { PHASE_CHANNELS, PHASE_IRQ, PHASE_RSS, NPHASES };

/* What a write needs beyond its value: the views it writes through, each
 * NIC's planned CPUs and the online ones for the IRQs and XPS masks, and
 * whether a channel change has renumbered the queue IRQs. */
struct write_pass {
	struct nn_ctx *ctx;
	struct nn_apply_views *views;
	const struct nic_cpus_table *nic_cpus;
	const struct nn_cpuset *online;
	bool channels_changed;
};

static const struct nn_change_ops *val_ops(const struct nn_apply_val *v);
static char *val_detail(const struct nn_apply_val *v, char *buf, size_t len);

static void detail_rss(const struct nn_apply_val *v, char *buf, size_t len)
{
	nn_rss_detail(buf, len, v->rss_rings ? v->rss_rings : v->rss_n);
}

static void detail_napi(const struct nn_apply_val *v, char *buf, size_t len)
{
	nn_napi_detail(buf, len, v->nic, v->napi_id);
}

static void detail_napi_conf(const struct nn_apply_val *v, char *buf, size_t len)
{
	nn_napi_conf_detail(buf, len, v->ifindex);
}

/* The undo of one value, used when a fatal error stops the apply: the same
 * routines as `nicnuma rollback`. A failure is the value's note. */
static void undone(struct nn_apply_val *v, int err, const char *why)
{
	if (err < 0)
		snprintf(v->note, sizeof(v->note), "ROLLBACK FAILED: %.120s", why);
	else
		v->status = NN_VAL_ROLLED_BACK;
}

static void undo_rss(struct nn_ctx *ctx, struct nn_apply_val *v)
{
	char why[160], *cur = NULL;
	int err = v->before ? nn_rss_put_back(ctx, v->path, v->before, &cur, why, sizeof(why)) : -EINVAL;

	free(cur);
	undone(v, err, why);
}

/* A setting put back through its undo kind's restore. */
static void undo_setting(struct nn_ctx *ctx, struct nn_apply_val *v)
{
	const struct nn_change_ops *ops = val_ops(v);
	struct nn_restore res = { 0 };
	char detail[96];
	struct nn_change c = { .ops = ops, .path = v->path, .before = v->before, .after = v->planned,
			       .detail = val_detail(v, detail, sizeof(detail)) };
	int err = v->before ? ops->restore(ctx, &c, &res) : -EINVAL;

	free(res.current);
	undone(v, err, res.why);
}

static void undo_channels(struct nn_ctx *ctx, struct nn_apply_val *v)
{
	char why[160];
	long n;

	if (!v->before || nn_parse_long(v->before, &n))
		return;
	undone(v, nn_channels_set(ctx, v->path, (int)n, why, sizeof(why)), why);
}

/* A value in one file (nn_value_restore): what was read back is kept. */
static void undo_file(struct nn_ctx *ctx, struct nn_apply_val *v)
{
	char *cur = NULL, *now = NULL;
	int err = nn_value_restore(ctx, v->path, v->before, &cur, &now);

	if (err < 0) {
		v->status = NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "ROLLBACK FAILED (%s): still %.40s, was %.40s",
			 strerror(-err), now ? now : "?", v->before ? v->before : "?");
		nn_warn(ctx, v->path, "rollback failed: %s", strerror(-err));
	} else if (err == 1) {
		if (v->status == NN_VAL_CHANGED)
			v->status = NN_VAL_ROLLED_BACK;
	} else {
		free(v->after);
		v->after = now;
		now = NULL;
		if (v->status == NN_VAL_CHANGED || v->status == NN_VAL_FAILED)
			v->status = NN_VAL_ROLLED_BACK;
	}
	free(cur);
	free(now);
}

/* The one report of an IRQ or XPS value's write (irq/affinity.c's @r,
 * freed here) into @v: changed with what was read back; an IRQ the kernel
 * manages left to it (an XPS mask is never managed: its EIO is a failure);
 * a failure of this value only (a warning: 1), or fatal (written, perhaps
 * read back wrong, what was read back kept in v->after; a negative errno). */
static int aff_outcome(struct nn_ctx *ctx, const struct nn_root *root, struct nn_apply_val *v,
		       struct nn_aff_result *r)
{
	bool mask = v->kind == NN_VAL_XPS;
	int ret = 0;

	if (r->note[0])
		snprintf(v->note, sizeof(v->note), "%s", r->note);
	if (r->cls == NN_AFF_OK) {
		v->written = true;
		v->status = NN_VAL_CHANGED;
		set_after(v, r, mask);
		if (nn_root_is_live(root) && r->has_effective && !nn_cpuset_subset(&r->effective, &r->written))
			snprintf(v->note, sizeof(v->note), "effective %s outside the new mask until "
				 "the next interrupt", v->effective ? v->effective : "?");
	} else if (r->cls == NN_AFF_MANAGED && !mask) {
		v->status = NN_VAL_MANAGED;
		snprintf(v->note, sizeof(v->note), "managed, left to the kernel");
	} else if (r->cls != NN_AFF_FATAL) {	/* NOSPC, BADMASK, RETRY: this value only */
		v->status = NN_VAL_FAILED;
		if (!r->note[0])
			snprintf(v->note, sizeof(v->note), "%s: %s", nn_aff_class_name(r->cls),
				 strerror(-r->err));
		nn_warn(ctx, v->path, "%s", v->note);
		ret = 1;
	} else {
		v->status = NN_VAL_FAILED;
		v->written = true;
		if (r->read_back)	/* written, then a bad readback */
			set_after(v, r, mask);
		if (!r->note[0])
			snprintf(v->note, sizeof(v->note), "%s", strerror(-r->err));
		nn_warn(ctx, v->path, "write failed: %s", v->note);
		ret = r->err ? r->err : -EIO;
	}
	nn_aff_result_free(r);
	return ret;
}

static int write_irq(struct write_pass *w, struct nn_apply_val *v)
{
	const struct nn_root *root = nn_apply_views_for(w->views, v);
	const struct nic_cpus *nc = v->nic ? nic_cpus_find(w->nic_cpus, v->nic) : NULL;
	struct nn_aff_result r;
	int err;

	/* Without a channel change the write of the planned mask is the probe
	 * (nn_irq_set_affinity: a managed IRQ refuses it, EIO/EPERM, and keeps
	 * its mask), which halves the writes. After one, the IRQ may be gone or
	 * renumbered: the current value written back finds that first. */
	if (w->channels_changed) {
		err = nn_irq_probe(root, v->irq, v->before);
		if (nn_probe_managed(root, err)) {
			v->status = NN_VAL_MANAGED;
			snprintf(v->note, sizeof(v->note), "managed, left to the kernel");
			return 0;
		}
		if (err == -ENOENT) {
			v->status = NN_VAL_FAILED;
			snprintf(v->note, sizeof(v->note), "IRQ gone after the channel change");
			return 1;
		}
		if (err) {
			v->written = true;	/* be safe: compare and restore on rollback */
			v->status = NN_VAL_FAILED;
			snprintf(v->note, sizeof(v->note), "probe: %s (%s)", strerror(-err),
				 nn_aff_class_name(nn_aff_classify(err)));
			return nn_aff_classify(err) == NN_AFF_FATAL ? err : 1;
		}
	}
	nn_irq_set_affinity(root, v->irq, &v->want, w->online, nc ? &nc->cpus : NULL, &r);
	return aff_outcome(w->ctx, root, v, &r);
}

static int write_xps(struct write_pass *w, struct nn_apply_val *v)
{
	const struct nn_root *root = nn_apply_views_for(w->views, v);
	struct nn_aff_result r;

	nn_xps_set(root, v->nic, v->queue, &v->want, w->online, &r);
	return aff_outcome(w->ctx, root, v, &r);
}

/* A NAPI kthread: refused or gone is a warning, never a rollback of the
 * IRQs (the packets still flow; the thread just runs where it ran). */
static int write_napi(struct write_pass *w, struct nn_apply_val *v)
{
	struct nn_ctx *ctx = w->ctx;
	struct nn_cpuset after = NN_CPUSET_INIT;
	char why[160] = "";
	int err;

	v->written = true;
	/* the kernel's word first: napi-get (the run's one dump, asked again
	 * after a write that may move NAPIs) must still name this pid */
	err = nn_napi_identify(ctx, NULL, 0, v->pid, v->nic, v->napi_id, why, sizeof(why));
	if (!err)
		err = nn_napi_thread_set(&ctx->root, v->pid, v->nic, v->napi_id, &v->want, &after, why,
					 sizeof(why));
	if (!err) {
		v->status = NN_VAL_CHANGED;
		v->after = strdup(v->planned);
		nn_cpuset_free(&after);
		return 0;
	}
	nn_cpuset_free(&after);
	snprintf(v->note, sizeof(v->note), "%s", why[0] ? why : strerror(-err));
	if (err == -ESRCH) {
		v->written = false;
		v->status = NN_VAL_SKIPPED;
	} else {
		v->status = NN_VAL_FAILED;
	}
	nn_warn(ctx, v->path, "NAPI thread of %s: %s", v->nic, v->note);
	return 1;
}

/* An RPS/RFS or device-wide NAPI file: one write, read back as the kernel
 * prints it. A refusal is this value's failure (a warning): the IRQs stand
 * without it. */
static int write_sysval(struct write_pass *w, struct nn_apply_val *v)
{
	struct nn_ctx *ctx = w->ctx;
	char buf[4096];
	int err;

	err = nn_write_value(&ctx->root, v->path, v->planned);
	if (err == -EBUSY || err == -EAGAIN)
		err = nn_write_value(&ctx->root, v->path, v->planned);
	if (err) {
		v->status = NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "write refused: %s", strerror(-err));
		nn_warn(ctx, v->path, "%s", v->note);
		return 1;
	}
	v->written = true;
	err = nn_read_str(&ctx->root, v->path, buf, sizeof(buf));
	if (!err)
		v->after = strdup(buf);
	if (err || !nn_value_equal(v->path, buf, v->planned)) {
		v->status = NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "read back %s", err ? strerror(-err) : "another value");
		nn_warn(ctx, v->path, "%s", v->note);
		return 1;
	}
	v->status = NN_VAL_CHANGED;
	return 0;
}

/* A device-wide NAPI file: threaded on or off starts or stops the threads,
 * so the run's napi-get answers are asked again after (as the napi_dev
 * kind's restore does for rollback). */
static int write_napi_dev(struct write_pass *w, struct nn_apply_val *v)
{
	int ret = write_sysval(w, v);

	if (v->written)
		nn_napi_answers_stale(w->ctx);
	return ret;
}

static void undo_napi_dev(struct nn_ctx *ctx, struct nn_apply_val *v)
{
	undo_file(ctx, v);
	nn_napi_answers_stale(ctx);
}

/* The end of a setting's write (napi-set, ethtool netlink): @err, the value
 * read back (@after, -1: none) and the kernel's or driver's word (@why). A
 * refusal is this value's warning (1): the rest of the plan still applies.
 * @gone: the value went with its NAPI (skipped), @unwritten: refused before
 * any change (nothing to put back). */
static int setting_done(struct nn_ctx *ctx, struct nn_apply_val *v, int err, long long after,
			const char *why, bool gone, bool unwritten)
{
	char buf[24];

	if (after >= 0) {
		snprintf(buf, sizeof(buf), "%lld", after);
		v->after = strdup(buf);
	}
	if (!err) {
		v->status = NN_VAL_CHANGED;
		return 0;
	}
	if (gone || unwritten)
		v->written = false;
	v->status = gone ? NN_VAL_SKIPPED : NN_VAL_FAILED;
	snprintf(v->note, sizeof(v->note), "%s", why[0] ? why : strerror(-err));
	nn_warn(ctx, v->path, "%s", v->note);
	return 1;
}

/* One per-NAPI setting through napi-set (irq/napi_conf.c: the NAPI must
 * still be the interface's before and after); a NAPI gone is skipped. */
static int write_napi_conf(struct write_pass *w, struct nn_apply_val *v)
{
	struct nn_ctx *ctx = w->ctx;
	char why[160] = "";
	long long after = -1;
	int err;

	v->written = true;
	err = nn_napi_conf_set(ctx, &nn_napi_genl_io, v->nic, v->ifindex, v->napi_id, v->napi_attr,
			       v->want_ll, &after, why, sizeof(why));
	return setting_done(ctx, v, err, after, why, err == -ENOENT, false);
}

/* One coalescing value or ring size; the driver's refusal comes with its
 * own extended ack message. */
static int write_eth(struct write_pass *w, struct nn_apply_val *v)
{
	struct nn_ctx *ctx = w->ctx;
	char why[192] = "";
	long long after = -1;
	int err;

	v->written = true;
	err = nn_eth_set(ctx, v->nic, v->eth_setting, v->want_ll, &after, why, sizeof(why));
	return setting_done(ctx, v, err, after, why, false, err != -EIO);
}

static int write_channels(struct write_pass *w, struct nn_apply_val *v)
{
	char why[192];
	int err;

	v->written = true;
	err = nn_channels_set(w->ctx, v->path, v->want_n, why, sizeof(why));
	if (err) {
		v->status = NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "%s", why);
		return err;
	}
	v->status = NN_VAL_CHANGED;
	v->after = strdup(v->planned);
	w->channels_changed = true;
	snprintf(v->note, sizeof(v->note), "queue IRQs renumbered: run apply again to place new ones");
	return 0;
}

/* A refused RSS table is a warning: the IRQs stand without it. */
static int write_rss(struct write_pass *w, struct nn_apply_val *v)
{
	char why[192];

	v->written = true;
	if (nn_rss_set(w->ctx, v->path, v->rss_want, v->rss_n, why, sizeof(why))) {
		v->status = NN_VAL_FAILED;
		snprintf(v->note, sizeof(v->note), "%s", why);
		nn_warn(w->ctx, v->path, "RSS table: %s", why);
		return 1;
	}
	v->status = NN_VAL_CHANGED;
	v->after = strdup(v->planned);
	return 0;
}

/* What apply does with each kind of value, one row per kind: the pass it
 * is written in, the undo kind it is logged as (a ring size's is
 * nn_rings_change_ops, val_ops), whether it is logged with its interface's
 * device (act/dev_ident.h: an IRQ and a NAPI thread have their own
 * identity), its write (0 done, >0 a warning, <0 fatal), its undo on a
 * failed apply, and the detail it is logged with (NULL: none). */
struct val_kind {
	enum write_phase phase;
	const struct nn_change_ops *ops;
	bool of_device;
	int (*write)(struct write_pass *w, struct nn_apply_val *v);
	void (*undo)(struct nn_ctx *ctx, struct nn_apply_val *v);
	void (*detail)(const struct nn_apply_val *v, char *buf, size_t len);
};

static const struct val_kind kinds[] = {
	[NN_VAL_IRQ] = { PHASE_IRQ, &nn_file_change_ops, false, write_irq, undo_file, NULL },
	[NN_VAL_XPS] = { PHASE_IRQ, &nn_file_change_ops, true, write_xps, undo_file, NULL },
	[NN_VAL_CHANNELS] = { PHASE_CHANNELS, &nn_channels_change_ops, true, write_channels, undo_channels, NULL },
	[NN_VAL_RSS] = { PHASE_RSS, &nn_rss_change_ops, true, write_rss, undo_rss, detail_rss },
	[NN_VAL_NAPI] = { PHASE_IRQ, &nn_napi_change_ops, false, write_napi, undo_setting, detail_napi },
	[NN_VAL_RPS] = { PHASE_IRQ, &nn_rps_change_ops, true, write_sysval, undo_file, NULL },
	[NN_VAL_NAPI_CONF] = { PHASE_IRQ, &nn_napi_conf_change_ops, true, write_napi_conf, undo_setting, detail_napi_conf },
	[NN_VAL_NAPI_DEV] = { PHASE_IRQ, &nn_napi_dev_change_ops, true, write_napi_dev, undo_napi_dev, NULL },
	[NN_VAL_ETH] = { PHASE_IRQ, &nn_coalesce_change_ops, true, write_eth, undo_setting, NULL },
	[NN_VAL_SYSCTL] = { PHASE_IRQ, &nn_busy_poll_change_ops, true, write_sysval, undo_file, NULL },
};
_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == NN_VAL_SYSCTL + 1, "a row per enum nn_val_kind");

static enum write_phase val_phase(const struct nn_apply_val *v)
{
	return kinds[v->kind].phase;
}

/* The undo kind a value is logged as. */
static const struct nn_change_ops *val_ops(const struct nn_apply_val *v)
{
	if (v->kind == NN_VAL_ETH && nn_eth_setting_is_ring(v->eth_setting))
		return &nn_rings_change_ops;
	return kinds[v->kind].ops;
}

/* The detail @v is logged with (its kind's, in @buf of @len >= 96), or NULL. */
static char *val_detail(const struct nn_apply_val *v, char *buf, size_t len)
{
	if (!kinds[v->kind].detail)
		return NULL;
	kinds[v->kind].detail(v, buf, len);
	return buf;
}

/* Writes the pending value @v: 0 done, >0 a warning, <0 fatal. */
static int write_val(struct write_pass *w, struct nn_apply_val *v)
{
	return kinds[v->kind].write(w, v);
}

static void undo_val(struct nn_ctx *ctx, struct nn_apply_val *v)
{
	kinds[v->kind].undo(ctx, v);
}

static void count_status(struct nn_apply_report *rep)
{
	size_t i;

	memset(rep->counts, 0, sizeof(rep->counts));
	for (i = 0; i < rep->nvals; i++)
		rep->counts[rep->vals[i].status]++;
}

void nn_apply_report_rolled_back(struct nn_apply_report *rep, enum nn_rollback_cause by)
{
	size_t i;

	for (i = 0; i < rep->nvals; i++) {
		struct nn_apply_val *v = &rep->vals[i];

		if (v->status == NN_VAL_CHANGED || (v->status == NN_VAL_FAILED && v->written)) {
			v->status = NN_VAL_ROLLED_BACK;
			free(v->after);
			v->after = v->before ? strdup(v->before) : NULL;	/* NULL: shown as unknown */
		}
	}
	for (i = 0; i < rep->nhp; i++)
		if (rep->hp[i].changed && !rep->hp[i].restored) {
			rep->hp[i].restored = true;
			rep->hp[i].after = rep->hp[i].before;
		}
	if (rep->irqb_done && !rep->irqb.noop)
		snprintf(rep->irqb.status, sizeof(rep->irqb.status), "restored (%s)", rep->irqb.before);
	rep->rolled_back = true;
	rep->rolled_back_by = by;
	count_status(rep);
}

/* Undoes every written value, in reverse write order, then irqbalance. */
static void rollback_all(struct nn_ctx *ctx, struct nn_apply_report *rep, struct nn_undo *u)
{
	char why[256];
	size_t i;
	int ph;

	for (ph = NPHASES; ph-- > 0;)
		for (i = rep->nvals; i-- > 0;)
			if (rep->vals[i].written && val_phase(&rep->vals[i]) == (enum write_phase)ph)
				undo_val(ctx, &rep->vals[i]);
	if (rep->irqb_done && !rep->irqb.noop) {
		if (nn_irqb_restore(ctx, rep->irqb.before, rep->irqb.detail, why, sizeof(why))) {
			snprintf(rep->irqb.status, sizeof(rep->irqb.status), "ROLLBACK FAILED: %.120s", why);
			nn_warn(ctx, "irqbalance", "rollback failed: %s", why);
		} else {
			snprintf(rep->irqb.status, sizeof(rep->irqb.status), "restored (%s)",
				 rep->irqb.before);
		}
	}
	rep->rolled_back = true;
	rep->rolled_back_by = NN_ROLLBACK_FAILURE;
	/* Replayed already: the next `nicnuma rollback` must not replay it again.
	 * (@u NULL: a shared log whose older values stay to be rolled back.) */
	if (u && u->nchanges)
		nn_undo_mark_rolled_back(ctx, u);
}

static int *planned_irqs(const struct nn_plan *plan, size_t *n)
{
	int *v = calloc(plan->nirqs ? plan->nirqs : 1, sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < plan->nirqs; i++)
		v[i] = plan->irqs[i].irq;
	*n = plan->nirqs;
	return v;
}

/* The log's "host": the plan's shape plus the names of its NICs, which a
 * channels change read back from the log must be one of. */
static struct json_object *log_host(struct json_object *shape, const struct nn_plan *plan)
{
	struct json_object *h = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	if (!h || !a)
		goto fail;
	if (shape) {
		json_object_object_foreach(shape, key, val)
			if (strcmp(key, "nics"))
				json_object_object_add(h, key, json_object_get(val));
	}
	for (i = 0; i < plan->nnics; i++)
		if (json_object_array_add(a, json_object_new_string(plan->nics[i].nic)))
			goto fail;
	if (json_object_object_add(h, "nics", a))
		goto fail;
	return h;
fail:
	json_object_put(a);
	json_object_put(h);
	return NULL;
}

static int cmp_val_path(const void *a, const void *b, void *arg)
{
	const struct nn_apply_val *v = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(v[x].path, v[y].path);

	if (!c)
		c = (v[x].kind > v[y].kind) - (v[x].kind < v[y].kind);
	return c ? c : (x > y) - (x < y);
}

/* The device of @v's interface with its just-logged change, so rollback
 * writes nothing into another device of that name (act/dev_ident.h). */
static int log_device(const struct nn_host *host, const struct nn_apply_val *v, struct nn_undo *u)
{
	char dev[128];

	if (!host || !v->nic || !kinds[v->kind].of_device ||
	    nn_dev_ident_text(nn_nic_find(host->nics, host->nnics, v->nic), dev, sizeof(dev)))
		return 0;
	return nn_undo_set_device(u, u->nchanges - 1, dev);
}

/* Whether the first @n changes of @u (those it had before this run) record
 * @path of kind @ops (a NIC's channels and its RSS table share the ifname). */
static bool log_has(const struct nn_undo *u, size_t n, const struct nn_change_ops *ops,
		    const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (u->changes[i].path && u->changes[i].ops == ops && !strcmp(u->changes[i].path, path))
			return true;
	return false;
}

/* Whether @v goes into the log: a value to be written; with an extended log
 * (the before-enable one) also a value already as planned. That log must
 * hold every value enable found, right or not: one left out because it was
 * right would enter it later, when the watcher puts it back after someone
 * rewrote it, with that someone's value as its "before", which disable
 * would then restore. Restoring a value that already holds its before
 * writes nothing. */
static bool to_log(const struct nn_undo *ext, const struct nn_apply_val *v)
{
	return v->status == NN_VAL_PENDING || (ext && v->status == NN_VAL_UNCHANGED);
}

/* Marks every value whose path an earlier value has already (a plan naming
 * one IRQ twice): the log records each value once, with the before value
 * read before any write. */
static bool *dup_marks(const struct nn_apply_report *rep, const struct nn_undo *ext)
{
	bool *dup = calloc(rep->nvals ? rep->nvals : 1, sizeof(*dup));
	size_t *ix = malloc((rep->nvals ? rep->nvals : 1) * sizeof(*ix)), i, n = 0;

	if (!dup || !ix) {
		free(dup);
		free(ix);
		return NULL;
	}
	/* Only values logged count (to_log); among them, the first stays. */
	for (i = 0; i < rep->nvals; i++)
		if (to_log(ext, &rep->vals[i]))
			ix[n++] = i;
	qsort_r(ix, n, sizeof(*ix), cmp_val_path, rep->vals);
	for (i = 1; i < n; i++)
		if (!strcmp(rep->vals[ix[i]].path, rep->vals[ix[i - 1]].path) &&
		    rep->vals[ix[i]].kind == rep->vals[ix[i - 1]].kind)
			dup[ix[i]] = true;
	free(ix);
	return dup;
}

/* An extended log lacks a value this run would record (to_log). */
static bool new_to_log(const struct nn_undo *ext, const struct nn_apply_report *rep, size_t n0)
{
	size_t i;

	if (!ext)
		return false;
	for (i = 0; i < rep->nvals; i++)
		if (to_log(ext, &rep->vals[i]) &&
		    !log_has(ext, n0, val_ops(&rep->vals[i]), rep->vals[i].path))
			return true;
	return false;
}

/* The boot arguments' check, before anything is read or written: the
 * bootloader is one nicnuma writes, nothing is in the way, the change is
 * known (rep->boot_prep). Any refusal stops the apply with nothing changed,
 * but one: a host without a bootloader (a container, a VM booted by its
 * VMM) whose arguments only a profile's default planned - there the
 * profile's boot half does not apply: a warning, and the rest goes ahead.
 * 0 or -errno, printed. */
static int boot_check(struct nn_ctx *ctx, const struct nn_plan *plan, const struct nn_apply_opts *opts,
		      struct nn_apply_report *rep)
{
	const struct nn_boot_host *b = opts->host ? &opts->host->boot : NULL;
	char why[400];
	int err;

	if (!b || !b->read) {
		nn_err(ctx, "boot arguments: the host's kernel and bootloader were not read; nothing was changed");
		return -EINVAL;
	}
	/* nothing planned and nothing of nicnuma's to take out: no bootloader needed */
	if (!plan->nboot_args && (!b->loader.ours || !b->loader.ours[0]))
		return 0;
	rep->boot = true;
	rep->boot_host = b;
	rep->boot_plan = plan;
	err = nn_boot_prepare(b, plan->boot_args, plan->nboot_args, &rep->boot_prep, why, sizeof(why));
	if (!err || err == -ENOMEM)
		return err;
	if (err != -ENODEV || plan->boot_given) {
		nn_err(ctx, "boot arguments: %s; nothing was changed", why);
		return err;
	}
	nn_warn(ctx, NULL, "boot arguments not written: %s (the profile plans them: --boot-args none leaves "
		"them out, --boot-args auto makes this an error)", why);
	rep->boot_skipped = true;
	return 0;
}

/* The pools' walk up to its check: the hugepage state read, a pool that
 * holds other than the plan saw warned about, every target checked and its
 * file resolved (rep->hp: each pool's count now). 0 or -errno, printed. */
static int hp_check(struct nn_ctx *ctx, struct nn_hp_walk *w, const struct nn_plan *plan,
		    struct nn_apply_report *rep)
{
	char why[320];
	int err = nn_hp_walk_plan(ctx, w, plan->hugepages, rep->nhp, rep->hp, why, sizeof(why));

	if (err)
		nn_err(ctx, "hugepages: the plan's pools cannot be set here: %s; nothing was changed",
		       why);
	return err;
}

int nn_apply_ports_read(struct nn_ctx *ctx, const struct nn_plan *plan, struct nn_apply_port **ports,
			size_t *n, bool *pending)
{
	size_t i;

	*pending = false;
	if (!plan->nports)
		return 0;
	*ports = calloc(plan->nports, sizeof(**ports));
	if (!*ports)
		return -ENOMEM;
	*n = plan->nports;
	for (i = 0; i < plan->nports; i++) {
		struct nn_apply_port *p = &(*ports)[i];
		char path[96];

		snprintf(p->pci, sizeof(p->pci), "%s", plan->ports[i].pci);
		snprintf(p->driver, sizeof(p->driver), "%s", plan->ports[i].driver);
		nn_port_driver_now(ctx, p->pci, p->before, sizeof(p->before));
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override", p->pci);
		/* the kernel says "(null)" for none */
		if (nn_read_str(&ctx->root, path, p->override, sizeof(p->override)) ||
		    !strcmp(p->override, "(null)") || !nn_port_driver_valid(p->override))
			p->override[0] = '\0';
		if (!strcmp(p->before, p->driver)) {
			p->status = "unchanged";
		} else {
			p->status = "pending";
			*pending = true;
		}
	}
	return 0;
}

/* Binds each pending port (after the log holds it): 0, or the first
 * failure's -errno with its note (the caller rolls everything back). */
static int ports_bind(struct nn_ctx *ctx, struct nn_apply_report *rep)
{
	int err, loaded = -1;
	size_t i;

	for (i = 0; i < rep->nports; i++) {
		struct nn_apply_port *p = &rep->ports[i];

		if (strcmp(p->status, "pending"))
			continue;
		if (loaded < 0) {
			loaded = nn_vfio_load(ctx, p->note, sizeof(p->note));
			if (loaded < 0) {
				p->status = "failed";
				return loaded;
			}
		}
		p->written = true;
		err = nn_port_bind(ctx, p->pci, p->driver, p->driver, p->note, sizeof(p->note));
		if (err) {
			p->status = "failed";
			return err;
		}
		p->status = "bound";
		if (!nn_root_is_live(&ctx->root))
			snprintf(p->note, sizeof(p->note), "driver_override, unbind and drivers_probe written; "
				 "the kernel's probe runs only on the live root%s", loaded == 1 ?
				 " (vfio-pci not loaded here: the live apply runs modprobe vfio-pci first)" : "");
	}
	return 0;
}

/* A failed apply puts each port it bound back on its driver. */
static void ports_unbind(struct nn_ctx *ctx, struct nn_apply_report *rep)
{
	char why[256];
	size_t i;

	for (i = rep->nports; i-- > 0;) {
		struct nn_apply_port *p = &rep->ports[i];

		if (!p->written)
			continue;
		if (nn_port_bind(ctx, p->pci, p->before, p->override, why, sizeof(why)))
			nn_warn(ctx, p->pci, "rollback failed: %s", why);
		else
			p->status = "rolled_back";
	}
}

/* One apply's state from the pools' check to their write, each step of
 * nn_apply_run a function of it. */
struct run {
	struct nn_ctx *ctx;
	const struct nn_plan *plan;
	const struct nn_apply_opts *opts;
	struct nn_apply_report *rep;
	struct nn_tx own, *tx;
	/* an extended log (enable, the watcher) or NULL; the log written, and
	 * how many changes it held before this run */
	struct nn_undo *ext, *up;
	size_t n0;
	bool *dup;			/* dup_marks */
	struct nn_cpuset online;
	struct nic_cpus_table nic_cpus;
	struct nn_hp_walk hpw;
	bool pending, hp_pending, boot_pending, ports_pending, soft_fail;
};

/* Before any value is read: the pools' walk up to its check (hugepages/ is
 * entered twice, one walk over the pools: its state read and every target
 * checked here, the pools' write after every other value), the boot
 * arguments, the ports. 0 or -errno, printed. */
static int run_check(struct run *r)
{
	struct nn_ctx *ctx = r->ctx;
	const struct nn_plan *plan = r->plan;
	struct nn_apply_report *rep = r->rep;
	size_t i;
	int err;

	if (plan->nhugepages) {
		rep->hp = calloc(plan->nhugepages, sizeof(*rep->hp));
		if (!rep->hp)
			return -ENOMEM;
		rep->nhp = plan->nhugepages;
		/* Checked before any write: a pool the host cannot hold stops it all. */
		err = hp_check(ctx, &r->hpw, plan, rep);
		if (err)
			return err;
		for (i = 0; i < rep->nhp; i++)
			if (rep->hp[i].before != rep->hp[i].target)
				r->hp_pending = true;
	}
	if (r->opts->boot && plan->boot_mode != NN_BOOT_NONE) {
		err = boot_check(ctx, plan, r->opts, rep);
		if (err)
			return err;
	}
	if (r->opts->ports)
		return nn_apply_ports_read(ctx, plan, &rep->ports, &rep->nports, &r->ports_pending);
	return 0;
}

/* irq/ from here to the end of the write passes, act's snapshot between:
 * the values and irqbalance read, each value left pending, planned (a dry
 * run) or as collected. 0 or -errno, printed. */
static int run_read(struct run *r)
{
	struct nn_ctx *ctx = r->ctx;
	const struct nn_apply_opts *opts = r->opts;
	struct nn_apply_report *rep = r->rep;
	size_t i, nirqs = 0;
	int *irqs, err;

	nn_apply_read_online(ctx, &r->online);
	err = nn_apply_collect(ctx, r->plan, &r->online, opts->host, false, &rep->vals, &rep->nvals);
	if (err)
		return err;
	irqs = planned_irqs(r->plan, &nirqs);
	if (!irqs)
		return -ENOMEM;
	/* Kept in the report even for a dry run: it says what would happen. */
	if (opts->irqbalance == NN_IRQB_NONE && opts->host)
		nn_irqb_prepare_ignore(ctx, opts->host->irqbalance.pid, opts->host->irqbalance.systemd,
				       irqs, nirqs, &rep->irqb);
	else
		err = nn_irqb_prepare(ctx, opts->irqbalance, irqs, nirqs, &rep->irqb);
	free(irqs);
	if (err) {
		nn_err(ctx, "cannot inspect irqbalance: %s", strerror(-err));
		return err;
	}
	for (i = 0; i < rep->nvals; i++) {
		struct nn_apply_val *v = &rep->vals[i];

		if (v->status == NN_VAL_FAILED)
			r->soft_fail = true;
		if (v->status != NN_VAL_PENDING)
			continue;
		if (opts->dry_run)
			v->status = NN_VAL_PLANNED;
		else
			r->pending = true;
	}
	return 0;
}

/* A dry run's ports and irqbalance: what would be done. */
static void run_dry(struct nn_apply_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nports; i++)
		if (!strcmp(rep->ports[i].status, "pending"))
			rep->ports[i].status = "would_bind";
	if (!rep->irqb.noop)
		snprintf(rep->irqb.status, sizeof(rep->irqb.status), "would %s it (pid %d)",
			 nn_irqbalance_action_name(rep->irqb.action), rep->irqb.proc.pid);
}

/* The state lock taken and the log begun (held and begun already for an
 * extended log), with its host and the duplicates marked. 0 or -errno. */
static int run_begin(struct run *r)
{
	int err = nic_cpus_build(r->rep, &r->nic_cpus);

	/* a caller's transaction was locked before its discovery */
	if (!err && r->tx == &r->own)
		err = nn_tx_lock(r->ctx, r->tx);
	if (!err && !r->ext)
		err = nn_tx_begin(r->ctx, r->tx, "apply");
	if (err)
		return err;
	if (!r->up->host)
		r->up->host = log_host(r->opts->shape, r->plan);
	r->dup = dup_marks(r->rep, r->ext);
	return r->up->host && r->dup ? 0 : -ENOMEM;
}

/* The log's entries, in write order; irqbalance's comes first so that
 * rollback, running the log backwards, restores it last, after every
 * value it could have fought. 0 or -errno. */
static int run_log(struct run *r)
{
	struct nn_apply_report *rep = r->rep;
	struct nn_tx *tx = r->tx;
	size_t i;
	int err = 0, ph;

	if (!rep->irqb.noop && !log_has(r->up, r->n0, &nn_irqb_change_ops, "irqbalance"))
		err = nn_tx_add(tx, &nn_irqb_change_ops, "irqbalance", rep->irqb.before,
				  rep->irqb.after, rep->irqb.detail);
	for (ph = 0; ph < NPHASES; ph++)
		for (i = 0; i < rep->nvals && !err; i++) {
			struct nn_apply_val *v = &rep->vals[i];
			const struct nn_change_ops *ops = val_ops(v);
			char detail[96];

			if (val_phase(v) != (enum write_phase)ph || !to_log(r->ext, v) || r->dup[i] ||
			    log_has(r->up, r->n0, ops, v->path))
				continue;
			err = nn_tx_add(tx, ops, v->path, v->before, v->planned,
					val_detail(v, detail, sizeof(detail)));
			if (!err)
				err = log_device(r->opts->host, v, &tx->log);
		}
	/* a port the extended log holds already (enable's bind, replayed by
	 * the watcher after a reboot) keeps its first, original driver */
	for (i = 0; i < rep->nports && !err; i++)
		if (!strcmp(rep->ports[i].status, "pending") &&
		    !log_has(r->up, r->n0, &nn_port_change_ops, rep->ports[i].pci))
			err = nn_tx_add(tx, &nn_port_change_ops, rep->ports[i].pci, rep->ports[i].before,
					rep->ports[i].driver, rep->ports[i].override);
	return err;
}

/* Stops the apply on @err: everything written so far rolled back. */
static void run_fatal(struct run *r, int err)
{
	r->rep->fatal = err;
	rollback_all(r->ctx, r->rep, r->ext ? NULL : r->up);
}

/* The write passes, phase by phase; irqbalance acted on at the start of
 * the irq pass. A fatal failure rolls back (rep->fatal) unless
 * --keep-going; a value's failure is a warning. */
static void run_write(struct run *r)
{
	struct nn_ctx *ctx = r->ctx;
	struct nn_apply_report *rep = r->rep;
	struct nn_apply_views views;
	struct write_pass wp = { .ctx = ctx, .views = &views, .nic_cpus = &r->nic_cpus,
				 .online = &r->online };
	size_t i;
	int err, ph;

	nn_apply_views_open(&ctx->root, &views);
	for (ph = 0; ph < NPHASES && !rep->fatal; ph++) {
		if (ph == PHASE_IRQ && !rep->irqb.noop) {
			char why[256] = "";

			rep->irqb_done = true;
			err = nn_irqb_act(ctx, &rep->irqb, why, sizeof(why));
			if (err) {
				snprintf(rep->irqb.status, sizeof(rep->irqb.status), "failed: %s", why);
				nn_err(ctx, "irqbalance: %s", why);
				if (!r->opts->keep_going) {
					run_fatal(r, err);
					break;
				}
				r->soft_fail = true;
			}
		}
		for (i = 0; i < rep->nvals; i++) {
			struct nn_apply_val *v = &rep->vals[i];

			if (val_phase(v) != (enum write_phase)ph || v->status != NN_VAL_PENDING)
				continue;
			err = write_val(&wp, v);
			if (err > 0 || (err < 0 && r->opts->keep_going))
				r->soft_fail = true;
			if (err < 0 && !r->opts->keep_going) {
				nn_err(ctx, "%s: %s; rolling back everything changed so far", v->path, v->note);
				run_fatal(r, err);
				break;
			}
		}
	}
	nn_apply_views_close(&views);
}

/* After the kernel's values: the next boot's arguments (a failure puts
 * back what it wrote and rolls the rest back), then the ports (a bind that
 * fails puts the ports bound back and rolls the rest back), then packet
 * memory last: all or nothing over the pools, in the same log; a
 * shortfall puts every pool back and is a warning, not a rollback of IRQs. */
static void run_finish(struct run *r)
{
	struct nn_ctx *ctx = r->ctx;
	struct nn_apply_report *rep = r->rep;
	size_t i;
	int err;

	if (r->boot_pending && !rep->fatal) {
		err = nn_boot_write(ctx, r->up, rep->boot_host, &rep->boot_prep, &rep->boot_res);
		if (err) {
			nn_err(ctx, "boot arguments: %s; rolling back everything changed so far", rep->boot_res.note);
			run_fatal(r, err);
		}
	}
	if (r->ports_pending && !rep->fatal) {
		err = ports_bind(ctx, rep);
		if (err) {
			for (i = 0; i < rep->nports; i++)
				if (!strcmp(rep->ports[i].status, "failed"))
					nn_err(ctx, "port %s: %s; rolling back everything changed so far",
					       rep->ports[i].pci, rep->ports[i].note);
			ports_unbind(ctx, rep);
			run_fatal(r, err);
		}
	}
	if (r->hp_pending && !rep->fatal && nn_hp_walk_write(ctx, &r->hpw, r->up, 0)) {
		nn_hp_walk_warn(ctx, &r->hpw);
		r->soft_fail = true;
	}
}

/* The plan beside its own log, for check to compare with while nicnuma is
 * not enabled (an extended log is enable's or the watcher's: the desired
 * state is their plan). A failure is a warning: the values are written. */
static void run_save_plan(struct run *r)
{
	struct json_object *doc;
	const char *text;
	int err = -ENOMEM;

	if (r->ext || !r->up->file || r->rep->fatal)
		return;
	doc = nn_plan_to_json(r->plan);
	text = doc ? json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	if (text)
		err = nn_applied_plan_save(r->ctx, r->up, text, strlen(text));
	if (err)
		nn_warn(r->ctx, r->up->file, "cannot save the plan beside it: %s (check compares with a "
			"fresh plan)", strerror(-err));
	json_object_put(doc);
}

int nn_apply_run(struct nn_ctx *ctx, const struct nn_plan *plan,
		 const struct nn_apply_opts *opts, struct nn_apply_report *rep)
{
	struct run r = { .ctx = ctx, .plan = plan, .opts = opts, .rep = rep, .own = NN_TX_INIT,
			 .online = NN_CPUSET_INIT, .hpw = NN_HP_WALK_INIT };
	struct nn_napi_answers napi = { 0 };	/* one napi-get dump for every NAPI thread */
	int err;

	r.tx = opts->tx ? opts->tx : &r.own;
	r.ext = r.tx->begun ? &r.tx->log : NULL;
	r.up = &r.tx->log;
	r.n0 = r.up->nchanges;
	memset(rep, 0, sizeof(*rep));
	rep->dry_run = opts->dry_run;
	nn_napi_answers_begin(ctx, &napi);
	err = run_check(&r);
	if (!err)
		err = run_read(&r);
	if (err)
		goto out;
	if (opts->dry_run) {
		run_dry(rep);
		goto count;
	}
	r.boot_pending = rep->boot && !rep->boot_skipped && rep->boot_prep.write;
	if (!r.pending && rep->irqb.noop && !r.hp_pending && !r.boot_pending && !r.ports_pending &&
	    !new_to_log(r.ext, rep, r.n0))
		goto count;	/* aligned already: no snapshot, no lock needed */
	err = run_begin(&r);
	if (err)
		goto out;
	/* Before any write: -EFBIG when rollback could not read it back. An
	 * extended log that gained nothing is already on disk as it is. */
	err = run_log(&r);
	if (!err && (!r.ext || r.up->nchanges > r.n0))
		err = nn_tx_save(r.tx);
	if (err) {
		nn_err(ctx, "no snapshot, so nothing was changed");
		goto out;
	}
	rep->snapshot = r.up->file ? strdup(r.up->file) : NULL;
	run_write(&r);
	run_finish(&r);
	run_save_plan(&r);
count:
	count_status(rep);
	err = rep->fatal ? rep->fatal : r.soft_fail ? 1 : 0;
out:
	nn_napi_answers_end(ctx, &napi);
	nn_hp_walk_free(&r.hpw);
	nn_tx_end(&r.own);
	free(r.dup);
	nic_cpus_free(&r.nic_cpus);
	nn_cpuset_free(&r.online);
	return err;
}
