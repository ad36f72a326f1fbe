// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_json.c - a plan as JSON and back, and the host-shape check
 *
 * `nicnuma plan --json > p.json` feeds `apply --plan p.json` and `script
 * --plan p.json`, possibly on another day or another host: the reader is
 * strict about types (a wrong plan must not half-apply) and names the exact
 * key that is wrong; the shape check refuses a plan made for another host.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/jsondoc.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/names.h"
#include "nicnuma/discover/ethtool.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"
#include "irq/rps.h"
#include "boot/cmdline.h"
#include "ports/port.h"

/* ---- writing ---- */

static int add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v && key)
		v = NULL;	/* JSON null is a NULL value in json-c */
	return json_object_object_add(o, key, v) ? -ENOMEM : 0;
}

static struct json_object *opt_int(long long v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

static struct json_object *opt_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *cpus_json(const struct nn_cpuset *s)
{
	char *l = nn_cpuset_format_list(s);
	struct json_object *o;

	if (!l)
		return NULL;
	o = json_object_new_string(l);
	free(l);
	return o;
}

#define CHK(x) do { if (x) goto fail; } while (0)
/* A non-NULL required value: json-c returns NULL only on ENOMEM. */
#define NEW(var, expr) do { (var) = (expr); if (!(var)) goto fail; } while (0)

struct json_object *nn_plan_shape_to_json(const struct nn_plan *plan)
{
	struct json_object *o = NULL, *a, *v;
	size_t i;

	NEW(o, json_object_new_object());
	CHK(add(o, "ncpus", json_object_new_int(plan->shape.ncpus)));
	CHK(add(o, "nnodes", json_object_new_int(plan->shape.nnodes)));
	NEW(a, json_object_new_array());
	CHK(add(o, "pci", a));
	for (i = 0; i < plan->shape.npci; i++) {
		NEW(v, json_object_new_string(plan->shape.pci[i]));
		CHK(json_object_array_add(a, v));
	}
	return o;
fail:
	json_object_put(o);
	return NULL;
}

/* "ports": [{"pci","nic","node","iommu_group","driver_now","driver","noiommu","reason"}] */
static int ports_json(struct json_object *p, const struct nn_plan *plan)
{
	struct json_object *a = NULL, *o;
	size_t i;

	NEW(a, json_object_new_array());
	for (i = 0; i < plan->nports; i++) {
		const struct nn_plan_port *x = &plan->ports[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "pci", json_object_new_string(x->pci)));
		CHK(add(o, "nic", opt_str(x->ifname[0] ? x->ifname : NULL)));
		CHK(add(o, "node", x->node >= 0 ? json_object_new_int(x->node) : NULL));
		CHK(add(o, "iommu_group", x->iommu_group >= 0 ? json_object_new_int(x->iommu_group) : NULL));
		CHK(add(o, "driver_now", opt_str(x->driver_now[0] ? x->driver_now : NULL)));
		CHK(add(o, "driver", json_object_new_string(x->driver)));
		CHK(add(o, "noiommu", json_object_new_boolean(x->noiommu)));
		CHK(add(o, "reason", opt_str(x->reason)));
	}
	return add(p, "ports", a);
fail:
	json_object_put(a);
	return -ENOMEM;
}

/* "boot_args": {"mode","args":[{"name","text","source","reason"}],"left_out":[{"name","source","reason"}]} */
static int boot_json(struct json_object *p, const struct nn_plan *plan)
{
	struct json_object *b = NULL, *a, *o;
	char mode[160];
	size_t i;

	nn_plan_boot_mode_text(plan->boot_mode, plan->boot_names, mode, sizeof(mode));
	NEW(b, json_object_new_object());
	CHK(add(b, "mode", json_object_new_string(mode)));
	CHK(add(b, "given", json_object_new_boolean(plan->boot_given)));
	NEW(a, json_object_new_array());
	CHK(add(b, "args", a));
	for (i = 0; i < plan->nboot_args; i++) {
		const struct nn_boot_arg *x = &plan->boot_args[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "name", json_object_new_string(x->name)));
		CHK(add(o, "text", json_object_new_string(x->text)));
		CHK(add(o, "source", json_object_new_string(x->source)));
		CHK(add(o, "reason", opt_str(x->reason)));
	}
	NEW(a, json_object_new_array());
	CHK(add(b, "left_out", a));
	for (i = 0; i < plan->nboot_left; i++) {
		const struct nn_boot_skip *x = &plan->boot_left[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "name", json_object_new_string(x->name)));
		CHK(add(o, "source", json_object_new_string(x->source)));
		CHK(add(o, "reason", opt_str(x->reason)));
	}
	return add(p, "boot_args", b);
fail:
	json_object_put(b);
	return -ENOMEM;
}

struct json_object *nn_plan_to_json(const struct nn_plan *plan)
{
	struct json_object *doc = NULL, *p, *a, *o, *v;
	size_t i;

	NEW(doc, json_object_new_object());
	NEW(p, json_object_new_object());
	CHK(add(doc, "plan", p));

	NEW(o, nn_plan_shape_to_json(plan));
	CHK(add(p, "shape", o));

	CHK(add(p, "policy", json_object_new_string(nn_policy_name(plan->policy))));
	NEW(v, cpus_json(&plan->housekeeping));
	CHK(add(p, "housekeeping", v));
	NEW(v, cpus_json(&plan->isolated));
	CHK(add(p, "isolated", v));
	NEW(v, cpus_json(&plan->claimed));
	CHK(add(p, "claimed", v));
	NEW(a, json_object_new_array());
	CHK(add(p, "claims", a));
	for (i = 0; i < plan->nclaims; i++) {
		const struct nn_plan_claim *c = &plan->claims[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "name", json_object_new_string(c->name)));
		CHK(add(o, "owner", json_object_new_string(c->owner)));
		CHK(add(o, "source", json_object_new_string(c->source)));
		NEW(v, cpus_json(&c->cpus));
		CHK(add(o, "cpus", v));
	}
	CHK(add(p, "claim_spills", json_object_new_int(plan->claim_spills)));

	NEW(a, json_object_new_array());
	CHK(add(p, "nics", a));
	for (i = 0; i < plan->nnics; i++) {
		const struct nn_plan_nic *n = &plan->nics[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "nic", json_object_new_string(n->nic)));
		CHK(add(o, "pci", opt_str(n->pci)));
		CHK(add(o, "numa_node", opt_int(n->numa_node)));
		CHK(add(o, "node", opt_int(n->node)));
		CHK(add(o, "queues", json_object_new_int(n->queues)));
		NEW(v, cpus_json(&n->cpus));
		CHK(add(o, "cpus", v));
		CHK(add(o, "reason", opt_str(n->reason)));
	}

	NEW(a, json_object_new_array());
	CHK(add(p, "irqs", a));
	for (i = 0; i < plan->nirqs; i++) {
		const struct nn_plan_irq *q = &plan->irqs[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "irq", json_object_new_int(q->irq)));
		CHK(add(o, "nic", json_object_new_string(q->nic)));
		CHK(add(o, "queue", opt_int(q->queue)));
		CHK(add(o, "dir", opt_str(nn_qdir_name(q->dir))));
		CHK(add(o, "role", json_object_new_string(nn_irq_role_name(q->role))));
		CHK(add(o, "node", opt_int(q->node)));
		NEW(v, cpus_json(&q->cpus));
		CHK(add(o, "cpus", v));
		CHK(add(o, "reason", opt_str(q->reason)));
	}

	NEW(a, json_object_new_array());
	CHK(add(p, "xps", a));
	for (i = 0; i < plan->nxps; i++) {
		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "nic", json_object_new_string(plan->xps[i].nic)));
		CHK(add(o, "queue", json_object_new_int(plan->xps[i].queue)));
		NEW(v, cpus_json(&plan->xps[i].cpus));
		CHK(add(o, "cpus", v));
	}

	NEW(a, json_object_new_array());
	CHK(add(p, "napi_threads", a));
	for (i = 0; i < plan->nnapi_threads; i++) {
		const struct nn_plan_napi *t = &plan->napi_threads[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "nic", json_object_new_string(t->nic)));
		CHK(add(o, "napi_id", json_object_new_int64(t->napi_id)));
		CHK(add(o, "pid", json_object_new_int(t->pid)));
		CHK(add(o, "name", json_object_new_string(t->name)));
		NEW(v, cpus_json(&t->cpus));
		CHK(add(o, "cpus", v));
	}

	NEW(a, json_object_new_array());
	CHK(add(p, "channels", a));
	for (i = 0; i < plan->nchannels; i++) {
		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "nic", json_object_new_string(plan->channels[i].nic)));
		CHK(add(o, "current", opt_int(plan->channels[i].current)));
		CHK(add(o, "target", json_object_new_int(plan->channels[i].target)));
	}

	NEW(a, json_object_new_array());
	CHK(add(p, "rss", a));
	for (i = 0; i < plan->nrss; i++) {
		const struct nn_plan_rss *r = &plan->rss[i];
		struct json_object *q;
		size_t k;

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "nic", json_object_new_string(r->nic)));
		CHK(add(o, "table_size", opt_int(r->table_size)));
		NEW(q, json_object_new_array());
		CHK(add(o, "queues", q));
		for (k = 0; k < r->nqueues; k++)
			CHK(json_object_array_add(q, json_object_new_int(r->queues[k])));
		if (r->weights) {
			NEW(q, json_object_new_array());
			CHK(add(o, "weights", q));
			for (k = 0; k < r->nqueues; k++)
				CHK(json_object_array_add(q, json_object_new_int(r->weights[k])));
		}
		NEW(q, json_object_new_array());
		CHK(add(o, "reserved", q));
		for (k = 0; k < r->nreserved; k++) {
			struct json_object *e, *b;
			unsigned int bit;

			NEW(e, json_object_new_object());
			CHK(json_object_array_add(q, e));
			CHK(add(e, "queue", json_object_new_int(r->reserved[k].queue)));
			NEW(b, json_object_new_array());
			CHK(add(e, "bound", b));
			for (bit = 1; bit & NN_QBIND_ALL; bit <<= 1)
				if (r->reserved[k].bound & bit)
					CHK(json_object_array_add(b, json_object_new_string(nn_qbind_name(bit))));
		}
	}

	NEW(a, json_object_new_array());
	CHK(add(p, "rps", a));
	for (i = 0; i < plan->nrps; i++) {
		const struct nn_plan_rps *r = &plan->rps[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "nic", json_object_new_string(r->nic)));
		CHK(add(o, "queue", json_object_new_int(r->queue)));
		NEW(v, cpus_json(&r->cpus));
		CHK(add(o, "cpus", v));
		CHK(add(o, "flow_cnt", r->flow_cnt >= 0 ? json_object_new_int64(r->flow_cnt) : NULL));
		CHK(add(o, "reason", opt_str(r->reason)));
	}
	CHK(add(p, "rps_sock_flow_entries", plan->rps_sock_flow_entries > 0 ?
		json_object_new_int64(plan->rps_sock_flow_entries) : NULL));

	NEW(a, json_object_new_array());
	CHK(add(p, "napi_config", a));
	for (i = 0; i < plan->nnapi_conf; i++) {
		const struct nn_plan_napi_conf *c = &plan->napi_conf[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "nic", json_object_new_string(c->nic)));
		CHK(add(o, "ifindex", opt_int(c->ifindex)));
		CHK(add(o, "napi_id", opt_int(c->napi_id)));
		CHK(add(o, "attr", json_object_new_string(nn_napi_attr_name(c->attr))));
		CHK(add(o, "value", json_object_new_int64(c->value)));
		CHK(add(o, "reason", opt_str(c->reason)));
	}

	CHK(add(p, "profile", json_object_new_string(nn_profile_name(plan->profile))));
	NEW(a, json_object_new_array());
	CHK(add(p, "ethtool", a));
	for (i = 0; i < plan->neth; i++) {
		const struct nn_plan_eth *e = &plan->eth[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "nic", json_object_new_string(e->nic)));
		CHK(add(o, "setting", json_object_new_string(nn_eth_setting_name(e->setting))));
		CHK(add(o, "value", json_object_new_int64(e->value)));
		CHK(add(o, "reason", opt_str(e->reason)));
	}
	NEW(a, json_object_new_array());
	CHK(add(p, "sysctls", a));
	for (i = 0; i < plan->nsysctls; i++) {
		const struct nn_plan_sysctl *x = &plan->sysctls[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "name", json_object_new_string(nn_busy_name(x->which))));
		CHK(add(o, "value", json_object_new_int64(x->value)));
		CHK(add(o, "reason", opt_str(x->reason)));
	}
	NEW(v, cpus_json(&plan->dpdk_lcores));
	CHK(add(p, "dpdk_lcores", v));
	CHK(add(p, "dpdk_lcores_reason", opt_str(plan->dpdk_reason)));
	NEW(v, cpus_json(&plan->isolate));
	CHK(add(p, "isolate", v));
	CHK(ports_json(p, plan));
	CHK(boot_json(p, plan));

	NEW(a, json_object_new_array());
	CHK(add(p, "hugepages", a));
	for (i = 0; i < plan->nhugepages; i++) {
		const struct nn_plan_hugepages *h = &plan->hugepages[i];

		NEW(o, json_object_new_object());
		CHK(json_object_array_add(a, o));
		CHK(add(o, "node", json_object_new_int(h->node)));
		CHK(add(o, "size_kb", json_object_new_int64((int64_t)h->size_kb)));
		CHK(add(o, "current", opt_int(h->current)));
		CHK(add(o, "target", json_object_new_int64(h->target)));
		CHK(add(o, "request", json_object_new_int64(h->request)));
	}

	NEW(o, json_object_new_object());
	CHK(add(p, "irqbalance", o));
	CHK(add(o, "running", json_object_new_boolean(plan->irqbalance.running)));
	CHK(add(o, "action", json_object_new_string(nn_irqbalance_action_name(plan->irqbalance.action))));

	NEW(a, json_object_new_array());
	CHK(add(p, "warnings", a));
	for (i = 0; i < plan->nwarnings; i++) {
		NEW(v, json_object_new_string(plan->warnings[i]));
		CHK(json_object_array_add(a, v));
	}
	NEW(a, json_object_new_array());
	CHK(add(p, "notes", a));
	for (i = 0; i < plan->nnotes; i++) {
		NEW(v, json_object_new_string(plan->notes[i]));
		CHK(json_object_array_add(a, v));
	}
	return doc;
fail:
	json_object_put(doc);
	return NULL;
}

/* ---- reading ---- */

struct rd {
	char *why;
	size_t len;
};

static int bad(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	if (r->why && r->len) {
		va_start(ap, fmt);
		vsnprintf(r->why, r->len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Member @key of @o with type @t; @opt: absent or null is fine (*out NULL). */
static int member(struct rd *r, struct json_object *o, const char *where, const char *key,
		  enum json_type t, bool opt, struct json_object **out)
{
	struct json_object *v = NULL;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || !v) {
		if (opt)
			return 0;
		return bad(r, "%s.%s: missing", where, key);
	}
	if (!json_object_is_type(v, t))
		return bad(r, "%s.%s: expected %s, got %s", where, key, json_type_to_name(t),
			   json_type_to_name(json_object_get_type(v)));
	*out = v;
	return 0;
}

static int get_int(struct rd *r, struct json_object *o, const char *where, const char *key,
		   bool opt, long long min, long long max, long long *val)
{
	struct json_object *v;
	int ret = member(r, o, where, key, json_type_int, opt, &v);

	if (ret)
		return ret;
	if (!v) {
		*val = -1;
		return 0;
	}
	errno = 0;
	*val = json_object_get_int64(v);
	if (errno || *val < min || *val > max)
		return bad(r, "%s.%s: %s out of range", where, key, json_object_get_string(v));
	return 0;
}

static int get_str(struct rd *r, struct json_object *o, const char *where, const char *key,
		   bool opt, char **out)
{
	struct json_object *v;
	int ret = member(r, o, where, key, json_type_string, opt, &v);

	*out = NULL;
	if (ret || !v)
		return ret;
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

/* A NIC name: it becomes /sys/class/net/NAME/... in apply and in scripts. */
static int get_ifname(struct rd *r, struct json_object *o, const char *where, char **out)
{
	const char *why;
	int ret = get_str(r, o, where, "nic", false, out);

	if (ret)
		return ret;
	if (nn_name_ifname(*out, &why))
		return bad(r, "%s.nic: '%s' is not an interface name: %s", where, *out, why);
	return 0;
}

static int get_cpus(struct rd *r, struct json_object *o, const char *where, const char *key,
		    bool opt, struct nn_cpuset *s)
{
	struct json_object *v;
	int ret = member(r, o, where, key, json_type_string, opt, &v);

	if (ret || !v)
		return ret;
	ret = nn_cpuset_parse_list(json_object_get_string(v), s);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return bad(r, "%s.%s: bad CPU list '%s'", where, key, json_object_get_string(v));
	return 0;
}

/* Array @key: sets *@n and returns it in *@a (NULL and 0 when optional and absent). */
static int get_array(struct rd *r, struct json_object *o, const char *where, const char *key,
		     bool opt, struct json_object **a, size_t *n)
{
	int ret = member(r, o, where, key, json_type_array, opt, a);

	*n = *a ? json_object_array_length(*a) : 0;
	return ret;
}

static int elem_obj(struct rd *r, struct json_object *a, size_t i, const char *key,
		    char *where, size_t wlen, struct json_object **o)
{
	*o = json_object_array_get_idx(a, i);
	snprintf(where, wlen, "plan.%s[%zu]", key, i);
	if (!*o || !json_object_is_type(*o, json_type_object))
		return bad(r, "%s: expected an object", where);
	return 0;
}

static int parse_dir(struct rd *r, struct json_object *o, const char *where, enum nn_qdir *d)
{
	char *s = NULL;
	int ret = get_str(r, o, where, "dir", true, &s);

	if (ret)
		return ret;
	if (!s)
		*d = NN_QDIR_NONE;
	else if (!strcmp(s, "rxtx"))
		*d = NN_QDIR_RXTX;
	else if (!strcmp(s, "rx"))
		*d = NN_QDIR_RX;
	else if (!strcmp(s, "tx"))
		*d = NN_QDIR_TX;
	else
		ret = bad(r, "%s.dir: unknown direction '%s' (rxtx, rx, tx or null)", where, s);
	free(s);
	return ret;
}

/* "role" (queue, misc, unknown); plans written before it had none: a queue
 * index then says queue, its absence misc. */
static int parse_role(struct rd *r, struct json_object *o, const char *where, struct nn_plan_irq *x)
{
	char *s = NULL;
	int ret = get_str(r, o, where, "role", true, &s);

	if (ret)
		return ret;
	if (!s)
		x->role = x->queue >= 0 ? NN_IRQ_ROLE_QUEUE : NN_IRQ_ROLE_MISC;
	else if (!strcmp(s, "queue"))
		x->role = NN_IRQ_ROLE_QUEUE;
	else if (!strcmp(s, "misc"))
		x->role = NN_IRQ_ROLE_MISC;
	else if (!strcmp(s, "unknown"))
		x->role = NN_IRQ_ROLE_UNKNOWN;
	else
		ret = bad(r, "%s.role: unknown role '%s' (queue, misc or unknown)", where, s);
	free(s);
	return ret;
}

#define TRY(x) do { ret = (x); if (ret) goto fail; } while (0)

static int read_shape(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *s, *a;
	long long v;
	size_t n, i;
	int ret;

	TRY(member(r, p, "plan", "shape", json_type_object, false, &s));
	TRY(get_int(r, s, "plan.shape", "ncpus", false, 0, NN_CPU_MAX, &v));
	plan->shape.ncpus = (int)v;
	TRY(get_int(r, s, "plan.shape", "nnodes", false, 0, 65536, &v));
	plan->shape.nnodes = (int)v;
	TRY(get_array(r, s, "plan.shape", "pci", false, &a, &n));
	plan->shape.pci = calloc(n ? n : 1, sizeof(char *));
	if (!plan->shape.pci)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		if (!e || !json_object_is_type(e, json_type_string))
			return bad(r, "plan.shape.pci[%zu]: expected a string", i);
		plan->shape.pci[i] = strdup(json_object_get_string(e));
		if (!plan->shape.pci[i])
			return -ENOMEM;
		plan->shape.npci++;
	}
	return 0;
fail:
	return ret;
}

static int read_nics(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64];
	long long v;
	size_t n, i;
	int ret;

	TRY(get_array(r, p, "plan", "nics", true, &a, &n));
	plan->nics = calloc(n ? n : 1, sizeof(*plan->nics));
	if (!plan->nics)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_nic *x = &plan->nics[i];

		TRY(elem_obj(r, a, i, "nics", where, sizeof(where), &o));
		plan->nnics++;
		TRY(get_ifname(r, o, where, &x->nic));
		TRY(get_str(r, o, where, "pci", true, &x->pci));
		TRY(get_int(r, o, where, "numa_node", true, 0, NN_NODE_MAX, &v));
		x->numa_node = (int)v;
		TRY(get_int(r, o, where, "node", true, 0, NN_NODE_MAX, &v));
		x->node = (int)v;
		TRY(get_int(r, o, where, "queues", false, 0, 1 << 20, &v));
		x->queues = (int)v;
		TRY(get_cpus(r, o, where, "cpus", false, &x->cpus));
		TRY(get_str(r, o, where, "reason", true, &x->reason));
	}
	return 0;
fail:
	return ret;
}

static int read_irqs(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64];
	long long v;
	size_t n, i;
	int ret;

	TRY(get_array(r, p, "plan", "irqs", false, &a, &n));
	plan->irqs = calloc(n ? n : 1, sizeof(*plan->irqs));
	if (!plan->irqs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_irq *x = &plan->irqs[i];

		TRY(elem_obj(r, a, i, "irqs", where, sizeof(where), &o));
		plan->nirqs++;
		TRY(get_int(r, o, where, "irq", false, 0, NN_IRQ_MAX, &v));
		x->irq = (int)v;
		TRY(get_ifname(r, o, where, &x->nic));
		TRY(get_int(r, o, where, "queue", true, 0, NN_QUEUE_MAX, &v));
		x->queue = (int)v;
		TRY(parse_dir(r, o, where, &x->dir));
		TRY(parse_role(r, o, where, x));
		TRY(get_int(r, o, where, "node", true, 0, NN_NODE_MAX, &v));
		x->node = (int)v;
		TRY(get_cpus(r, o, where, "cpus", false, &x->cpus));
		if (nn_cpuset_empty(&x->cpus))
			return bad(r, "%s.cpus: empty: an IRQ needs at least one CPU", where);
		TRY(get_str(r, o, where, "reason", true, &x->reason));
	}
	return 0;
fail:
	return ret;
}

static int read_xps(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64];
	long long v;
	size_t n, i;
	int ret;

	TRY(get_array(r, p, "plan", "xps", false, &a, &n));
	plan->xps = calloc(n ? n : 1, sizeof(*plan->xps));
	if (!plan->xps)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_xps *x = &plan->xps[i];

		TRY(elem_obj(r, a, i, "xps", where, sizeof(where), &o));
		plan->nxps++;
		TRY(get_ifname(r, o, where, &x->nic));
		TRY(get_int(r, o, where, "queue", false, 0, NN_QUEUE_MAX, &v));
		x->queue = (int)v;
		TRY(get_cpus(r, o, where, "cpus", false, &x->cpus));
	}
	return 0;
fail:
	return ret;
}

/* Optional (plans written before it lack it); the name must be the one the
 * kernel gives that NAPI's thread, so a plan file cannot aim apply at
 * another task by name. */
static int read_napi(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64], comm[NN_NAPI_COMM_LEN];
	long long v;
	size_t n, i;
	int ret;

	TRY(get_array(r, p, "plan", "napi_threads", true, &a, &n));
	plan->napi_threads = calloc(n ? n : 1, sizeof(*plan->napi_threads));
	if (!plan->napi_threads)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_napi *x = &plan->napi_threads[i];

		TRY(elem_obj(r, a, i, "napi_threads", where, sizeof(where), &o));
		plan->nnapi_threads++;
		TRY(get_ifname(r, o, where, &x->nic));
		TRY(get_int(r, o, where, "napi_id", false, NN_NAPI_TX_ID, 0xffffffffLL, &v));
		x->napi_id = v;
		TRY(get_int(r, o, where, "pid", false, 1, NN_PID_MAX, &v));
		x->pid = (int)v;
		TRY(get_str(r, o, where, "name", false, &x->name));
		nn_napi_comm(comm, sizeof(comm), x->nic, x->napi_id);
		if (strcmp(comm, x->name))
			return bad(r, "%s.name: '%s' is not the thread of NAPI %lld of %s ('%s')", where,
				   x->name, x->napi_id, x->nic, comm);
		TRY(get_cpus(r, o, where, "cpus", false, &x->cpus));
	}
	return 0;
fail:
	return ret;
}

/* Optional (plans written before them lack them). */
static int read_rps(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64];
	long long v;
	size_t n, i;
	int ret;

	TRY(get_array(r, p, "plan", "rps", true, &a, &n));
	plan->rps = calloc(n ? n : 1, sizeof(*plan->rps));
	if (!plan->rps)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_rps *x = &plan->rps[i];

		TRY(elem_obj(r, a, i, "rps", where, sizeof(where), &o));
		plan->nrps++;
		TRY(get_ifname(r, o, where, &x->nic));
		TRY(get_int(r, o, where, "queue", false, 0, NN_QUEUE_MAX, &v));
		x->queue = (int)v;
		TRY(get_cpus(r, o, where, "cpus", false, &x->cpus));
		/* flow_cnt null: a keep-off entry (rps_flow_cnt left as it is),
		 * whose mask may be empty (RPS off for the queue) */
		TRY(get_int(r, o, where, "flow_cnt", true, 0, NN_RFS_MAX, &v));
		if (v >= 0 && v != nn_rfs_round((long)v))
			return bad(r, "%s.flow_cnt: %lld is not a power of two", where, v);
		x->flow_cnt = (long)v;
		if (nn_cpuset_empty(&x->cpus) && x->flow_cnt >= 0)
			return bad(r, "%s.cpus: empty: RPS needs at least one CPU (only an entry with "
				   "flow_cnt null turns RPS off)", where);
		TRY(get_str(r, o, where, "reason", true, &x->reason));
	}
	TRY(get_int(r, p, "plan", "rps_sock_flow_entries", true, 1, NN_RFS_MAX, &v));
	if (v > 0 && v != nn_rfs_round((long)v))
		return bad(r, "plan.rps_sock_flow_entries: %lld is not a power of two", v);
	plan->rps_sock_flow_entries = v > 0 ? (long)v : 0;
	return 0;
fail:
	return ret;
}

static int read_napi_conf(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64], *s = NULL;
	long long v;
	size_t n, i;
	int ret;

	TRY(get_array(r, p, "plan", "napi_config", true, &a, &n));
	plan->napi_conf = calloc(n ? n : 1, sizeof(*plan->napi_conf));
	if (!plan->napi_conf)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_napi_conf *x = &plan->napi_conf[i];

		TRY(elem_obj(r, a, i, "napi_config", where, sizeof(where), &o));
		plan->nnapi_conf++;
		TRY(get_ifname(r, o, where, &x->nic));
		TRY(get_int(r, o, where, "ifindex", true, 1, 0x7fffffffLL, &v));
		x->ifindex = (int)v;
		TRY(get_int(r, o, where, "napi_id", true, 1, 0xffffffffLL, &v));
		x->napi_id = v;
		if (x->napi_id > 0 && x->ifindex < 1)
			return bad(r, "%s.ifindex: missing: a per-NAPI setting needs its device's index", where);
		TRY(get_str(r, o, where, "attr", false, &s));
		if (nn_napi_attr_parse(s, &x->attr)) {
			ret = bad(r, "%s.attr: unknown NAPI setting '%s'", where, s);
			goto fail;
		}
		free(s);
		s = NULL;
		if (x->napi_id < 0 && !nn_napi_attr_sysfs(x->attr))
			return bad(r, "%s: %s has no device-wide file: it needs a napi_id", where,
				   nn_napi_attr_name(x->attr));
		TRY(get_int(r, o, where, "value", false, 0, nn_napi_attr_max(x->attr), &v));
		x->value = v;
		TRY(get_str(r, o, where, "reason", true, &x->reason));
	}
	return 0;
fail:
	free(s);
	return ret;
}

static int read_channels(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64];
	long long v;
	size_t n, i;
	int ret;

	TRY(get_array(r, p, "plan", "channels", true, &a, &n));
	plan->channels = calloc(n ? n : 1, sizeof(*plan->channels));
	if (!plan->channels)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_channels *x = &plan->channels[i];

		TRY(elem_obj(r, a, i, "channels", where, sizeof(where), &o));
		plan->nchannels++;
		TRY(get_ifname(r, o, where, &x->nic));
		TRY(get_int(r, o, where, "current", true, 0, 1 << 20, &v));
		x->current = (int)v;
		TRY(get_int(r, o, where, "target", false, 1, 1 << 20, &v));
		x->target = (int)v;
	}
	return 0;
fail:
	return ret;
}

/* A channel count changes a NIC with ethtool -L: only for a NIC the plan
 * places, never one a hand-edited plan slipped in beside them. */
static int check_channels(struct rd *r, const struct nn_plan *plan)
{
	size_t i, k;

	for (i = 0; i < plan->nchannels; i++) {
		for (k = 0; k < plan->nnics; k++)
			if (!strcmp(plan->nics[k].nic, plan->channels[i].nic))
				break;
		if (k == plan->nnics)
			return bad(r, "channels for %s, which the plan does not name (plan.channels[%zu])",
				   plan->channels[i].nic, i);
	}
	return 0;
}

static bool plan_names(const struct nn_plan *plan, const char *nic)
{
	for (size_t k = 0; k < plan->nnics; k++)
		if (!strcmp(plan->nics[k].nic, nic))
			return true;
	return false;
}

/* "profile", "ethtool" and the dpdk profile's lcores (optional: plans
 * written before profiles). */
static int read_eth(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64], *s = NULL;
	long long v;
	size_t n, i;
	int ret;

	TRY(get_str(r, p, "plan", "profile", true, &s));
	ret = s ? nn_profile_parse(s, &plan->profile) : 0;
	if (ret) {
		ret = bad(r, "plan.profile: unknown profile '%s'", s);
		goto fail;
	}
	free(s);
	s = NULL;
	TRY(get_cpus(r, p, "plan", "dpdk_lcores", true, &plan->dpdk_lcores));
	TRY(get_str(r, p, "plan", "dpdk_lcores_reason", true, &plan->dpdk_reason));
	TRY(get_array(r, p, "plan", "ethtool", true, &a, &n));
	plan->eth = calloc(n ? n : 1, sizeof(*plan->eth));
	if (!plan->eth)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_eth *x = &plan->eth[i];

		TRY(elem_obj(r, a, i, "ethtool", where, sizeof(where), &o));
		plan->neth++;
		TRY(get_ifname(r, o, where, &x->nic));
		TRY(get_str(r, o, where, "setting", false, &s));
		if (nn_eth_setting_parse(s, &x->setting)) {
			ret = bad(r, "%s.setting: unknown coalescing or ring setting '%s'", where, s);
			goto fail;
		}
		free(s);
		s = NULL;
		TRY(get_int(r, o, where, "value", false, 0, nn_eth_setting_max(x->setting), &v));
		x->value = v;
		TRY(get_str(r, o, where, "reason", true, &x->reason));
		if (!plan_names(plan, x->nic))
			return bad(r, "%s: %s, which the plan does not name", where, x->nic);
	}
	/* "sysctls": the busy-poll ones only, each once */
	TRY(get_array(r, p, "plan", "sysctls", true, &a, &n));
	if (n > NN_BUSY_NSYSCTL)
		return bad(r, "plan.sysctls: %zu entries, at most %d", n, NN_BUSY_NSYSCTL);
	plan->sysctls = calloc(n ? n : 1, sizeof(*plan->sysctls));
	if (!plan->sysctls)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_sysctl *x = &plan->sysctls[i];

		TRY(elem_obj(r, a, i, "sysctls", where, sizeof(where), &o));
		plan->nsysctls++;
		TRY(get_str(r, o, where, "name", false, &s));
		if (nn_busy_name_parse(s, &x->which)) {
			ret = bad(r, "%s.name: '%s' is not a sysctl a plan sets (net.core.busy_poll, "
				  "net.core.busy_read)", where, s);
			goto fail;
		}
		free(s);
		s = NULL;
		for (size_t k = 0; k < i; k++)
			if (plan->sysctls[k].which == x->which)
				return bad(r, "%s.name: %s twice", where, nn_busy_name(x->which));
		TRY(get_int(r, o, where, "value", false, 0, NN_BUSY_MAX, &v));
		x->value = v;
		TRY(get_str(r, o, where, "reason", true, &x->reason));
	}
	return 0;
fail:
	free(s);
	return ret;
}

/* RPS values and NAPI settings are logged for the plan's NICs, and rollback
 * refuses a change of any other: a plan must not slip in another NIC. */
static int check_rps_napi(struct rd *r, const struct nn_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nrps; i++)
		if (!plan_names(plan, plan->rps[i].nic))
			return bad(r, "RPS for %s, which the plan does not name (plan.rps[%zu])", plan->rps[i].nic, i);
	for (i = 0; i < plan->nnapi_conf; i++)
		if (!plan_names(plan, plan->napi_conf[i].nic))
			return bad(r, "a NAPI setting for %s, which the plan does not name (plan.napi_config[%zu])",
				   plan->napi_conf[i].nic, i);
	return 0;
}

/* An array of ints, each in [@min, @max], at most @maxn of them. */
static int get_int_array(struct rd *r, struct json_object *o, const char *where, const char *key,
			 bool opt, size_t maxn, long long min, long long max, int **out, size_t *nout)
{
	struct json_object *a, *v;
	size_t n, i;
	int ret = get_array(r, o, where, key, opt, &a, &n);

	*out = NULL;
	*nout = 0;
	if (ret || !a)
		return ret;
	if (n > maxn)
		return bad(r, "%s.%s: %zu entries, at most %zu", where, key, n, maxn);
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		long long x;

		v = json_object_array_get_idx(a, i);
		errno = 0;
		if (!v || !json_object_is_type(v, json_type_int) ||
		    (x = json_object_get_int64(v), errno) || x < min || x > max)
			return bad(r, "%s.%s[%zu]: expected an integer %lld-%lld", where, key, i, min, max);
		(*out)[i] = (int)x;
	}
	*nout = n;
	return 0;
}

/* rss[].reserved (optional: plans before it had none): {"queue", "bound":
 * ["xsk"|"io_uring"|"dmabuf"...]} per rx queue left out, none of them in
 * "queues", each named once. */
static int read_rss_reserved(struct rd *r, struct json_object *o, const char *where,
			     struct nn_plan_rss *x)
{
	struct json_object *a, *e, *b, *s;
	char w[96];
	long long v;
	size_t n, i, k, nb;
	int ret;

	TRY(get_array(r, o, where, "reserved", true, &a, &n));
	if (!n)
		return 0;
	if (n > NN_RSS_PLAN_MAX_QUEUES)
		return bad(r, "%s.reserved: more than %d entries", where, NN_RSS_PLAN_MAX_QUEUES);
	x->reserved = calloc(n, sizeof(*x->reserved));
	if (!x->reserved)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_rss_reserved *rv = &x->reserved[i];

		snprintf(w, sizeof(w), "%s.reserved[%zu]", where, i);
		e = json_object_array_get_idx(a, i);
		if (!e || !json_object_is_type(e, json_type_object))
			return bad(r, "%s: expected an object", w);
		x->nreserved++;
		TRY(get_int(r, e, w, "queue", false, 0, NN_RSS_MAX_QUEUE, &v));
		rv->queue = (int)v;
		for (k = 0; k < x->nqueues; k++)
			if (x->queues[k] == rv->queue)
				return bad(r, "%s: queue %d is also in the table", w, rv->queue);
		for (k = 0; k < i; k++)
			if (x->reserved[k].queue == rv->queue)
				return bad(r, "%s: queue %d named twice", w, rv->queue);
		TRY(get_array(r, e, w, "bound", false, &b, &nb));
		for (k = 0; k < nb; k++) {
			unsigned int bit;

			s = json_object_array_get_idx(b, k);
			if (!s || !json_object_is_type(s, json_type_string) ||
			    nn_qbind_parse(json_object_get_string(s), &bit))
				return bad(r, "%s.bound[%zu]: expected \"xsk\", \"io_uring\" or \"dmabuf\"", w, k);
			rv->bound |= bit;
		}
		if (!rv->bound)
			return bad(r, "%s.bound: empty", w);
	}
	return 0;
fail:
	return ret;
}

/* rss: only for a NIC the plan places, once per NIC; queues ascending and
 * distinct, each a possible ethtool ring index; weights one per queue. */
static int read_rss(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64];
	long long v;
	size_t n, i, k, nw;
	int ret;

	/* Optional: plans written before --rss have none. */
	TRY(get_array(r, p, "plan", "rss", true, &a, &n));
	plan->rss = calloc(n ? n : 1, sizeof(*plan->rss));
	if (!plan->rss)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_rss *x = &plan->rss[i];

		TRY(elem_obj(r, a, i, "rss", where, sizeof(where), &o));
		plan->nrss++;
		TRY(get_ifname(r, o, where, &x->nic));
		for (k = 0; k < plan->nnics && strcmp(plan->nics[k].nic, x->nic); k++)
			;
		if (k == plan->nnics)
			return bad(r, "rss for %s, which the plan does not name (%s)", x->nic, where);
		for (k = 0; k < i; k++)
			if (!strcmp(plan->rss[k].nic, x->nic))
				return bad(r, "%s: a second rss entry for %s", where, x->nic);
		TRY(get_int(r, o, where, "table_size", true, 1, NN_RSS_MAX_TABLE, &v));
		x->table_size = (int)v;
		TRY(get_int_array(r, o, where, "queues", false, NN_RSS_PLAN_MAX_QUEUES, 0,
				  NN_RSS_MAX_QUEUE, &x->queues, &x->nqueues));
		if (!x->nqueues)
			return bad(r, "%s.queues: empty", where);
		for (k = 1; k < x->nqueues; k++)
			if (x->queues[k] <= x->queues[k - 1])
				return bad(r, "%s.queues: not ascending and distinct", where);
		TRY(get_int_array(r, o, where, "weights", true, NN_RSS_PLAN_MAX_QUEUES, 1,
				  NN_RSS_PLAN_MAX_WEIGHT, &x->weights, &nw));
		if (x->weights && nw != x->nqueues)
			return bad(r, "%s.weights: %zu weights for %zu queues", where, nw, x->nqueues);
		TRY(read_rss_reserved(r, o, where, x));
	}
	return 0;
fail:
	return ret;
}

static int read_hugepages(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	char where[64];
	long long v;
	size_t n, i;
	int ret;

	TRY(get_array(r, p, "plan", "hugepages", true, &a, &n));
	plan->hugepages = calloc(n ? n : 1, sizeof(*plan->hugepages));
	if (!plan->hugepages)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_hugepages *x = &plan->hugepages[i];

		TRY(elem_obj(r, a, i, "hugepages", where, sizeof(where), &o));
		plan->nhugepages++;
		TRY(get_int(r, o, where, "node", false, 0, NN_NODE_MAX, &v));
		x->node = (int)v;
		TRY(get_int(r, o, where, "size_kb", false, 4, 16LL << 20, &v));
		x->size_kb = (unsigned long)v;
		TRY(get_int(r, o, where, "current", true, 0, 1LL << 40, &v));
		x->current = (long)v;
		TRY(get_int(r, o, where, "target", false, 0, 1LL << 40, &v));
		x->target = (long)v;
		/* "request" came later: a plan without it asked for its target. */
		TRY(get_int(r, o, where, "request", true, 0, 1LL << 40, &v));
		x->request = v < 0 ? x->target : (long)v;
	}
	return 0;
fail:
	return ret;
}

static int read_claims(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o;
	size_t n, i;
	long long v;
	int ret;

	TRY(get_int(r, p, "plan", "claim_spills", true, 0, 1 << 20, &v));
	plan->claim_spills = v < 0 ? 0 : (int)v;
	TRY(get_array(r, p, "plan", "claims", true, &a, &n));
	if (!n)
		return 0;
	plan->claims = calloc(n, sizeof(*plan->claims));
	if (!plan->claims)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_claim *c = &plan->claims[plan->nclaims++];
		char where[48];

		snprintf(where, sizeof(where), "plan.claims[%zu]", i);
		o = json_object_array_get_idx(a, i);
		if (!o || !json_object_is_type(o, json_type_object)) {
			ret = bad(r, "%s: expected an object", where);
			goto fail;
		}
		TRY(get_str(r, o, where, "name", false, &c->name));
		TRY(get_str(r, o, where, "owner", false, &c->owner));
		TRY(get_str(r, o, where, "source", false, &c->source));
		TRY(get_cpus(r, o, where, "cpus", false, &c->cpus));
	}
	return 0;
fail:
	return ret;
}

/* plan.@key: an array of strings into @v/@n (absent: none, when @opt). */
static int read_strv(struct rd *r, struct json_object *p, const char *key, bool opt, char ***v,
		     size_t *n)
{
	struct json_object *a, *e;
	size_t i, len;
	int ret;

	ret = get_array(r, p, "plan", key, opt, &a, &len);
	if (ret)
		return ret;
	*v = calloc(len ? len : 1, sizeof(char *));
	if (!*v)
		return -ENOMEM;
	for (i = 0; a && i < len; i++) {
		e = json_object_array_get_idx(a, i);
		if (!e || !json_object_is_type(e, json_type_string))
			return bad(r, "plan.%s[%zu]: expected a string", key, i);
		(*v)[i] = strdup(json_object_get_string(e));
		if (!(*v)[i])
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}

static int read_misc(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *o, *v;
	char *s = NULL;
	int ret;

	TRY(get_str(r, p, "plan", "policy", true, &s));
	if (s && nn_policy_parse(s, &plan->policy)) {
		ret = bad(r, "plan.policy: unknown policy '%s' (local, spread or remote)", s);
		goto fail;
	}
	free(s);
	s = NULL;
	TRY(get_cpus(r, p, "plan", "housekeeping", true, &plan->housekeeping));
	/* "isolated" came later: a plan without it left nothing out. */
	TRY(get_cpus(r, p, "plan", "isolated", true, &plan->isolated));
	/* "claimed", "claims" and "claim_spills" came later still. */
	TRY(get_cpus(r, p, "plan", "claimed", true, &plan->claimed));
	TRY(read_claims(r, p, plan));
	TRY(member(r, p, "plan", "irqbalance", json_type_object, false, &o));
	TRY(member(r, o, "plan.irqbalance", "running", json_type_boolean, false, &v));
	plan->irqbalance.running = json_object_get_boolean(v);
	TRY(get_str(r, o, "plan.irqbalance", "action", false, &s));
	if (nn_irqbalance_action_parse(s, &plan->irqbalance.action)) {
		ret = bad(r, "plan.irqbalance.action: unknown action '%s' (stop, ban or none)", s);
		goto fail;
	}
	free(s);
	s = NULL;
	TRY(read_strv(r, p, "warnings", true, &plan->warnings, &plan->nwarnings));
	/* "notes" came later: a plan without it has none. */
	TRY(read_strv(r, p, "notes", true, &plan->notes, &plan->nnotes));
	return 0;
fail:
	free(s);
	return ret;
}

/* A fixed-size string member of at most @size - 1 bytes. */
static int get_strbuf(struct rd *r, struct json_object *o, const char *where, const char *key, bool opt,
		      char *buf, size_t size)
{
	char *s;
	int ret = get_str(r, o, where, key, opt, &s);

	*buf = '\0';
	if (ret || !s)
		return ret;
	if (strlen(s) >= size) {
		ret = bad(r, "%s.%s: '%.40s' is too long", where, key, s);
		free(s);
		return ret;
	}
	strcpy(buf, s);
	free(s);
	return 0;
}

/* "ports" (optional: plans written before --dpdk-ports have none). The
 * addresses and names become sysfs paths in apply: checked here. */
static int read_ports(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *a, *o, *b;
	char where[64];
	long long v;
	size_t n, i;
	int ret;

	TRY(member(r, p, "plan", "ports", json_type_array, true, &a));
	if (!a)
		return 0;
	TRY(get_array(r, p, "plan", "ports", false, &a, &n));
	if (n > 64)
		return bad(r, "plan.ports: %zu ports, at most 64", n);
	plan->ports = calloc(n ? n : 1, sizeof(*plan->ports));
	if (!plan->ports)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_plan_port *x = &plan->ports[i];
		const char *why;

		TRY(elem_obj(r, a, i, "ports", where, sizeof(where), &o));
		plan->nports++;
		TRY(get_strbuf(r, o, where, "pci", false, x->pci, sizeof(x->pci)));
		if (!nn_port_pci_valid(x->pci))
			return bad(r, "%s.pci: '%s' is not a PCI address (0000:af:00.0)", where, x->pci);
		TRY(get_strbuf(r, o, where, "nic", true, x->ifname, sizeof(x->ifname)));
		if (x->ifname[0] && nn_name_ifname(x->ifname, &why))
			return bad(r, "%s.nic: '%s' %s", where, x->ifname, why);
		TRY(get_int(r, o, where, "node", true, 0, NN_NODE_MAX, &v));
		x->node = (int)v;
		TRY(get_int(r, o, where, "iommu_group", true, 0, 999999, &v));
		x->iommu_group = (int)v;
		TRY(get_strbuf(r, o, where, "driver_now", true, x->driver_now, sizeof(x->driver_now)));
		TRY(get_strbuf(r, o, where, "driver", false, x->driver, sizeof(x->driver)));
		if (strcmp(x->driver, "vfio-pci"))
			return bad(r, "%s.driver: '%s': nicnuma binds ports to vfio-pci only", where, x->driver);
		TRY(member(r, o, where, "noiommu", json_type_boolean, false, &b));
		x->noiommu = json_object_get_boolean(b);
		TRY(get_str(r, o, where, "reason", true, &x->reason));
	}
	return 0;
fail:
	return ret;
}

/* "isolate" and "boot_args" (optional: plans written before them plan no
 * boot argument). Every argument is checked as apply would write it. */
static int read_boot(struct rd *r, struct json_object *p, struct nn_plan *plan)
{
	struct json_object *b, *a, *o;
	char where[64], w2[256], *s = NULL, bad_word[64];
	size_t n, i;
	int ret;

	TRY(get_cpus(r, p, "plan", "isolate", true, &plan->isolate));
	TRY(member(r, p, "plan", "boot_args", json_type_object, true, &b));
	if (!b)
		return 0;
	TRY(get_str(r, b, "plan.boot_args", "mode", false, &s));
	if (nn_boot_mode_parse(s, &plan->boot_mode, &plan->boot_names, bad_word, sizeof(bad_word))) {
		ret = bad(r, "plan.boot_args.mode: '%s' is not auto, none or argument names", s);
		goto fail;
	}
	free(s);
	s = NULL;
	TRY(member(r, b, "plan.boot_args", "given", json_type_boolean, false, &o));
	plan->boot_given = json_object_get_boolean(o);
	TRY(get_array(r, b, "plan.boot_args", "args", false, &a, &n));
	if (n > 16)
		return bad(r, "plan.boot_args.args: %zu arguments, at most 16", n);
	plan->boot_args = calloc(n ? n : 1, sizeof(*plan->boot_args));
	if (!plan->boot_args)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_boot_arg *x = &plan->boot_args[i];

		TRY(elem_obj(r, a, i, "boot_args.args", where, sizeof(where), &o));
		plan->nboot_args++;
		TRY(get_str(r, o, where, "name", false, &x->name));
		TRY(get_str(r, o, where, "text", false, &x->text));
		TRY(get_str(r, o, where, "source", false, &x->source));
		TRY(get_str(r, o, where, "reason", true, &x->reason));
		if (nn_boot_arg_check(x->name, x->text, w2, sizeof(w2)))
			return bad(r, "%s: %s", where, w2);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(plan->boot_args[k].name, x->name))
				return bad(r, "%s: %s twice", where, x->name);
	}
	TRY(get_array(r, b, "plan.boot_args", "left_out", true, &a, &n));
	if (n > 16)
		return bad(r, "plan.boot_args.left_out: %zu entries, at most 16", n);
	plan->boot_left = calloc(n ? n : 1, sizeof(*plan->boot_left));
	if (!plan->boot_left)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nn_boot_skip *x = &plan->boot_left[i];

		TRY(elem_obj(r, a, i, "boot_args.left_out", where, sizeof(where), &o));
		plan->nboot_left++;
		TRY(get_str(r, o, where, "name", false, &x->name));
		TRY(get_str(r, o, where, "source", false, &x->source));
		TRY(get_str(r, o, where, "reason", true, &x->reason));
	}
	return 0;
fail:
	free(s);
	return ret;
}

int nn_plan_from_json(struct json_object *doc, struct nn_plan *plan, char *why, size_t whylen)
{
	struct rd r = { why, whylen };
	struct json_object *p = NULL;
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (why && whylen)
		why[0] = '\0';
	if (!doc || !json_object_is_type(doc, json_type_object))
		return bad(&r, "not a JSON object");
	/* The whole `nicnuma plan --json` document, or just its "plan" object. */
	if (!json_object_object_get_ex(doc, "plan", &p))
		p = doc;
	if (!p || !json_object_is_type(p, json_type_object))
		return bad(&r, "plan: expected an object");
	ret = read_shape(&r, p, plan);
	if (!ret)
		ret = read_nics(&r, p, plan);
	if (!ret)
		ret = read_irqs(&r, p, plan);
	if (!ret)
		ret = read_xps(&r, p, plan);
	if (!ret)
		ret = read_napi(&r, p, plan);
	if (!ret)
		ret = read_channels(&r, p, plan);
	if (!ret)
		ret = check_channels(&r, plan);
	if (!ret)
		ret = read_rss(&r, p, plan);
	if (!ret)
		ret = read_rps(&r, p, plan);
	if (!ret)
		ret = read_napi_conf(&r, p, plan);
	if (!ret)
		ret = check_rps_napi(&r, plan);
	if (!ret)
		ret = read_eth(&r, p, plan);
	if (!ret)
		ret = read_hugepages(&r, p, plan);
	if (!ret)
		ret = read_misc(&r, p, plan);
	if (!ret)
		ret = read_ports(&r, p, plan);
	if (!ret)
		ret = read_boot(&r, p, plan);
	if (ret) {
		if (ret == -ENOMEM)
			bad(&r, "out of memory reading the plan");
		nn_plan_free(plan);
	}
	return ret;
}

int nn_plan_parse(const char *name, const char *buf, size_t len, struct nn_plan *plan,
		  char *why, size_t whylen)
{
	struct json_object *doc = NULL;
	struct nn_json_doc_err jerr;
	char inner[512];
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (len > NN_DOC_MAX_BYTES) {
		snprintf(why, whylen, "plan %s is larger than %u MiB", name, NN_DOC_MAX_BYTES >> 20);
		return -EFBIG;
	}
	doc = nn_json_doc_parse(buf, len, 0, 0, &jerr);
	if (!doc) {
		if (jerr.nomem) {
			snprintf(why, whylen, "plan %s: out of memory", name);
			return -ENOMEM;
		}
		snprintf(why, whylen, "plan %s is not JSON: %s (at byte %zu)", name,
			 nn_json_doc_strerror(&jerr), jerr.at);
		ret = -EINVAL;
		goto out;
	}
	ret = nn_plan_from_json(doc, plan, inner, sizeof(inner));
	if (ret)
		snprintf(why, whylen, "plan %s: %s", name, inner);
out:
	json_object_put(doc);
	return ret;
}

/* ---- shape ---- */

static int refuse(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -EXDEV;
}

static const struct nn_nic *find_nic(const struct nn_host *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->nnics; i++)
		if (!strcmp(h->nics[i].name, name))
			return &h->nics[i];
	return NULL;
}

int nn_plan_check_shape(const struct nn_plan *plan, const struct nn_host *host, char *why, size_t whylen)
{
	size_t i, k;

	if (why && whylen)
		why[0] = '\0';
	if ((size_t)plan->shape.ncpus != host->topo.ncpus)
		return refuse(why, whylen, "plan is for %d CPUs, host has %zu", plan->shape.ncpus,
			      host->topo.ncpus);
	if ((size_t)plan->shape.nnodes != host->topo.nnodes)
		return refuse(why, whylen, "plan is for %d NUMA nodes, host has %zu", plan->shape.nnodes,
			      host->topo.nnodes);
	/* The NICs by name first: discovery may have read the plan's NICs
	 * alone (apply --plan), so a renamed NIC is named, not its address. */
	for (i = 0; i < plan->nnics; i++) {
		const struct nn_nic *n = find_nic(host, plan->nics[i].nic);

		if (!n)
			return refuse(why, whylen, "plan names NIC %s, which this host does not have",
				      plan->nics[i].nic);
		if (plan->nics[i].pci && (!n->pci || strcmp(n->pci, plan->nics[i].pci)))
			return refuse(why, whylen, "plan has NIC %s at %s, here it is at %s",
				      plan->nics[i].nic, plan->nics[i].pci, n->pci ? n->pci : "no PCI address");
		if (plan->nics[i].numa_node != n->numa_node)
			return refuse(why, whylen, "plan has NIC %s on node %d, here it is on node %d",
				      plan->nics[i].nic, plan->nics[i].numa_node, n->numa_node);
	}
	for (i = 0; i < plan->shape.npci; i++) {
		for (k = 0; k < host->nnics; k++)
			if (host->nics[k].pci && !strcmp(host->nics[k].pci, plan->shape.pci[i]))
				break;
		if (k == host->nnics)
			return refuse(why, whylen, "plan names NIC PCI address %s, which this host does not have",
				      plan->shape.pci[i]);
	}
	/* IRQ numbers change across boots and driver reloads: a stale plan would
	 * move some other device's interrupt. */
	for (i = 0; i < plan->nirqs; i++) {
		const struct nn_plan_irq *q = &plan->irqs[i];
		const struct nn_nic *n = find_nic(host, q->nic);
		bool found = false;

		if (!n)
			return refuse(why, whylen, "plan names NIC %s, which this host does not have", q->nic);
		for (k = 0; k < n->nirqs && !found; k++)
			found = n->irqs[k].irq == q->irq;
		if (!found)
			return refuse(why, whylen, "plan has IRQ %d for %s, which is not one of its IRQs here "
				      "(driver reloaded or rebooted? plan again)", q->irq, q->nic);
	}
	for (i = 0; i < plan->nxps; i++) {
		const struct nn_nic *n = find_nic(host, plan->xps[i].nic);

		if (!n)
			return refuse(why, whylen, "plan names NIC %s, which this host does not have",
				      plan->xps[i].nic);
		if (n->tx_queues >= 0 && plan->xps[i].queue >= n->tx_queues)
			return refuse(why, whylen, "plan has tx queue %d for %s, which has %d here",
				      plan->xps[i].queue, plan->xps[i].nic, n->tx_queues);
	}
	for (i = 0; i < plan->nhugepages; i++)
		if (nn_topo_node_index(&host->topo, plan->hugepages[i].node) < 0)
			return refuse(why, whylen, "plan reserves hugepages on node %d, which this host does not have",
				      plan->hugepages[i].node);
	return 0;
}
