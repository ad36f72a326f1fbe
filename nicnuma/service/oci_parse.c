// SPDX-License-Identifier: GPL-2.0-or-later
/* oci_parse.c - the OCI state and config.json the hook reads, and what to do (pure) */
#include "nicnuma/service/oci_hook.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/jsondoc.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/state/claims_store.h"

static const char *const stage_names[] = {
	[NN_OCI_STAGE_NONE] = NULL,
	[NN_OCI_STAGE_PRESTART] = "prestart",
	[NN_OCI_STAGE_CREATE_RUNTIME] = "createRuntime",
	[NN_OCI_STAGE_CREATE_CONTAINER] = "createContainer",
	[NN_OCI_STAGE_START_CONTAINER] = "startContainer",
	[NN_OCI_STAGE_POSTSTART] = "poststart",
	[NN_OCI_STAGE_POSTSTOP] = "poststop",
};

const char *nn_oci_stage_name(enum nn_oci_stage s)
{
	if ((size_t)s >= sizeof(stage_names) / sizeof(stage_names[0]))
		return NULL;
	return stage_names[s];
}

int nn_oci_stage_parse(const char *s)
{
	size_t i;

	for (i = 1; s && i < sizeof(stage_names) / sizeof(stage_names[0]); i++)
		if (!strcmp(s, stage_names[i]))
			return (int)i;
	return -1;
}

const char *nn_oci_mode_name(enum nn_oci_mode m)
{
	switch (m) {
	case NN_OCI_MODE_DISABLE:
		return "disable";
	case NN_OCI_MODE_HOUSEKEEPING:
		return "housekeeping";
	default:
		return "none";
	}
}

static int refuse(char *why, size_t whylen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int refuse(char *why, size_t whylen, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return err;
}

static void anns_free(struct nn_oci_ann *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(a[i].key);
		free(a[i].value);
	}
	free(a);
}

void nn_oci_state_free(struct nn_oci_state *s)
{
	free(s->oci_version);
	free(s->id);
	free(s->status);
	free(s->bundle);
	anns_free(s->ann, s->nann);
	memset(s, 0, sizeof(*s));
	s->pid = -1;
}

void nn_oci_config_free(struct nn_oci_config *c)
{
	nn_cpuset_free(&c->cpus);
	anns_free(c->ann, c->nann);
	free(c->cgroups_path);
	memset(c, 0, sizeof(*c));
	c->shares = c->quota = -1;
}

/* One JSON document, strict: UTF-8, bounded depth, nothing after it. */
static int parse_doc(const char *what, const char *text, size_t len, size_t max,
		     struct json_object **doc, char *why, size_t whylen)
{
	struct nn_json_doc_err jerr;

	*doc = NULL;
	if (len > max)
		return refuse(why, whylen, -EFBIG, "%s is larger than %zu bytes", what, max);
	if (!len)
		return refuse(why, whylen, -EINVAL, "%s is empty", what);
	if (memchr(text, '\0', len))
		return refuse(why, whylen, -EINVAL, "%s holds a NUL byte", what);
	*doc = nn_json_doc_parse(text, len, NN_OCI_DEPTH_MAX,
				 JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8, &jerr);
	if (!*doc && jerr.nomem)
		return refuse(why, whylen, -ENOMEM, "%s: out of memory", what);
	if (!*doc)
		return refuse(why, whylen, -EINVAL, "%s is not JSON: %s (at byte %zu)", what,
			      nn_json_doc_strerror(&jerr), jerr.at);
	if (!json_object_is_type(*doc, json_type_object)) {
		json_object_put(*doc);
		*doc = NULL;
		return refuse(why, whylen, -EINVAL, "%s is not a JSON object", what);
	}
	return 0;
}

/* A string member: 0 (copied, or absent: *@out NULL), -EINVAL wrong type. */
static int get_str(struct json_object *o, const char *key, char **out)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

static int get_anns(const char *what, struct json_object *o, struct nn_oci_ann **out, size_t *n,
		    char *why, size_t whylen)
{
	struct json_object *a;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!json_object_object_get_ex(o, "annotations", &a) || json_object_is_type(a, json_type_null))
		return 0;
	if (!json_object_is_type(a, json_type_object))
		return refuse(why, whylen, -EINVAL, "%s: \"annotations\" is not an object", what);
	json_object_object_foreach(a, k, v) {
		struct nn_oci_ann *e;

		if (!json_object_is_type(v, json_type_string))
			return refuse(why, whylen, -EINVAL,
				      "%s: annotation values are strings (a %s is not)", what,
				      json_type_to_name(json_object_get_type(v)));
		if (NN_GROW(*out, *n, cap))
			return refuse(why, whylen, -ENOMEM, "%s: out of memory", what);
		e = &(*out)[*n];
		e->key = strdup(k);
		e->value = strdup(json_object_get_string(v));
		(*n)++;
		if (!e->key || !e->value)
			return refuse(why, whylen, -ENOMEM, "%s: out of memory", what);
	}
	return 0;
}

int nn_oci_claim_name(const char *id, char *buf, size_t size)
{
	if (!id || !*id || strlen(id) > NN_OCI_ID_MAX || size < strlen(id) + 5)
		return -EINVAL;
	snprintf(buf, size, "oci-%s", id);
	return nn_claim_name_ok(buf) ? 0 : -EINVAL;
}

int nn_oci_state_parse(const char *text, size_t len, struct nn_oci_state *out,
		       char *why, size_t whylen)
{
	struct json_object *doc, *v;
	char name[NN_CLAIM_NAME_MAX + 8];
	const char *bad = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	out->pid = -1;
	ret = parse_doc("the container state (stdin)", text, len, NN_OCI_STATE_MAX, &doc, why, whylen);
	if (ret)
		return ret;
	if ((ret = get_str(doc, "ociVersion", &out->oci_version)))
		bad = "ociVersion";
	else if ((ret = get_str(doc, "id", &out->id)))
		bad = "id";
	else if ((ret = get_str(doc, "status", &out->status)))
		bad = "status";
	else if ((ret = get_str(doc, "bundle", &out->bundle)))
		bad = "bundle";
	if (ret == -ENOMEM) {
		ret = refuse(why, whylen, ret, "the container state: out of memory");
		goto out;
	}
	if (bad) {
		ret = refuse(why, whylen, -EINVAL, "the container state: \"%s\" is not a string", bad);
		goto out;
	}
	if (!out->oci_version || !out->id || !out->status) {
		ret = refuse(why, whylen, -EINVAL, "the container state lacks \"%s\"",
			     !out->oci_version ? "ociVersion" : !out->id ? "id" : "status");
		goto out;
	}
	if (nn_oci_claim_name(out->id, name, sizeof(name))) {
		ret = refuse(why, whylen, -EINVAL,
			     "the container id is not 1..%d of [A-Za-z0-9_.:@-]: it cannot name a claim",
			     NN_OCI_ID_MAX);
		goto out;
	}
	if (json_object_object_get_ex(doc, "pid", &v) && !json_object_is_type(v, json_type_null)) {
		int64_t p;

		if (!json_object_is_type(v, json_type_int)) {
			ret = refuse(why, whylen, -EINVAL, "the container state: \"pid\" is not an integer");
			goto out;
		}
		p = json_object_get_int64(v);
		/* pid_max is at most 2^22; 0 is what runtimes write when there is none */
		if (p < 0 || p > (1 << 22)) {
			ret = refuse(why, whylen, -EINVAL, "the container state: pid %lld is out of range",
				     (long long)p);
			goto out;
		}
		out->pid = p ? (int)p : -1;
	}
	if (out->bundle && out->bundle[0] != '/') {
		ret = refuse(why, whylen, -EINVAL, "the container state: bundle \"%s\" is not an absolute path",
			     out->bundle);
		goto out;
	}
	ret = get_anns("the container state", doc, &out->ann, &out->nann, why, whylen);
out:
	json_object_put(doc);
	if (ret)
		nn_oci_state_free(out);
	return ret;
}

/* linux.resources.cpu's integer @key into @v (left as is when absent or
 * null); -EINVAL when it is no integer in [@lo, INT64_MAX]. */
static int cpu_int(struct json_object *cpu, const char *key, long long lo, long long *v,
		   char *why, size_t whylen)
{
	struct json_object *x;

	if (!cpu || !json_object_object_get_ex(cpu, key, &x) || json_object_is_type(x, json_type_null))
		return 0;
	errno = 0;
	if (!json_object_is_type(x, json_type_int) || (*v = json_object_get_int64(x)) < lo || errno)
		return refuse(why, whylen, -EINVAL, "config.json: linux.resources.cpu.%s is not an "
			      "integer of at least %lld", key, lo);
	return 0;
}

/* linux.cgroupsPath and linux.resources.cpu's shares, quota and period:
 * what tells a Guaranteed container with whole CPUs. */
static int cpu_limits(struct json_object *doc, struct nn_oci_config *out, char *why, size_t whylen)
{
	struct json_object *linux_ = NULL, *res = NULL, *cpu = NULL;
	int ret;

	if (json_object_object_get_ex(doc, "linux", &linux_) && json_object_is_type(linux_, json_type_object)) {
		ret = get_str(linux_, "cgroupsPath", &out->cgroups_path);
		if (ret)
			return refuse(why, whylen, ret, "config.json: linux.cgroupsPath is not a string");
		if (json_object_object_get_ex(linux_, "resources", &res) &&
		    json_object_is_type(res, json_type_object) &&
		    !(json_object_object_get_ex(res, "cpu", &cpu) && json_object_is_type(cpu, json_type_object)))
			cpu = NULL;
	}
	ret = cpu_int(cpu, "shares", 0, &out->shares, why, whylen);
	if (!ret)
		ret = cpu_int(cpu, "quota", LLONG_MIN, &out->quota, why, whylen);
	if (!ret)
		ret = cpu_int(cpu, "period", 0, &out->period, why, whylen);
	if (out->quota <= 0)
		out->quota = -1;	/* -1 (or 0): no limit */
	return ret;
}

int nn_oci_config_parse(const char *text, size_t len, struct nn_oci_config *out,
			char *why, size_t whylen)
{
	struct json_object *doc, *o = NULL;
	const char *path[] = { "linux", "resources", "cpu", "cpus" };
	const char *cpus;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	out->shares = out->quota = -1;
	ret = parse_doc("config.json", text, len, NN_OCI_CONFIG_MAX, &doc, why, whylen);
	if (ret)
		return ret;
	ret = cpu_limits(doc, out, why, whylen);
	if (ret)
		goto out;
	o = doc;
	for (i = 0; i < 4 && o; i++) {
		struct json_object *next;

		if (!json_object_object_get_ex(o, path[i], &next) || json_object_is_type(next, json_type_null))
			o = NULL;
		else if (i < 3 && !json_object_is_type(next, json_type_object)) {
			ret = refuse(why, whylen, -EINVAL, "config.json: \"%s\" is not an object", path[i]);
			goto out;
		} else
			o = next;
	}
	if (o) {
		if (!json_object_is_type(o, json_type_string)) {
			ret = refuse(why, whylen, -EINVAL, "config.json: linux.resources.cpu.cpus is not a string");
			goto out;
		}
		cpus = json_object_get_string(o);
		if (strlen(cpus) > NN_OCI_CPUS_MAX) {
			ret = refuse(why, whylen, -EFBIG,
				     "config.json: linux.resources.cpu.cpus is longer than %d bytes",
				     NN_OCI_CPUS_MAX);
			goto out;
		}
		if (*cpus) {
			ret = nn_cpuset_parse_list(cpus, &out->cpus);
			if (ret) {
				ret = refuse(why, whylen, ret == -ENOMEM ? -ENOMEM : -EINVAL,
					     "config.json: linux.resources.cpu.cpus \"%.64s\" is no cpulist of "
					     "CPUs below %d", cpus, NN_CPU_MAX);
				goto out;
			}
			out->has_cpus = !nn_cpuset_empty(&out->cpus);
		}
	}
	ret = get_anns("config.json", doc, &out->ann, &out->nann, why, whylen);
out:
	json_object_put(doc);
	if (ret)
		nn_oci_config_free(out);
	return ret;
}

static const char *ann_find(const struct nn_oci_ann *a, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(a[i].key, key))
			return a[i].value;
	return NULL;
}

const char *nn_oci_annotation(const struct nn_oci_state *s, const struct nn_oci_config *c,
			      const char *key)
{
	const char *v = c ? ann_find(c->ann, c->nann, key) : NULL;

	return v ? v : s ? ann_find(s->ann, s->nann, key) : NULL;
}

/* CRI-O's pod sandbox (pause) and containerd's: they carry the pod's
 * annotations but are not the workload. */
static bool is_sandbox(const struct nn_oci_state *s, const struct nn_oci_config *c)
{
	const char *t = nn_oci_annotation(s, c, "io.kubernetes.cri-o.ContainerType");
	const char *u = nn_oci_annotation(s, c, "io.kubernetes.cri.container-type");

	return (t && !strcmp(t, "sandbox")) || (u && !strcmp(u, "sandbox"));
}

/* CRI-O isolates only a Guaranteed pod's container with whole CPUs (its
 * high-performance hooks' shouldRunHooks: the cgroup parent names neither
 * "burstable" nor "besteffort", cpu shares a multiple of 1024); so do we,
 * and a CFS quota must be whole CPUs too. A Kubernetes container
 * (kubepods in its cgroup path) must say its shares; a container run by
 * hand (podman, runc) without them is its runtime user's word. */
static bool whole_cpus(const struct nn_oci_config *c, struct nn_oci_decision *d)
{
	const char *cg = c->cgroups_path ? c->cgroups_path : "";
	const char *qos = strstr(cg, "besteffort") ? "BestEffort" : strstr(cg, "burstable") ? "Burstable" : NULL;
	long long period = c->period > 0 ? c->period : 100000;

	if (qos) {
		snprintf(d->detail, sizeof(d->detail), "a %s pod's container (linux.cgroupsPath %.96s): "
			 "only a Guaranteed pod's container with whole CPUs claims, as CRI-O isolates", qos, cg);
		return false;
	}
	if (c->shares < 0 && strstr(cg, "kubepods")) {
		snprintf(d->detail, sizeof(d->detail), "a Kubernetes container (linux.cgroupsPath %.96s) "
			 "without linux.resources.cpu.shares: not known to have whole CPUs", cg);
		return false;
	}
	if (c->shares >= 0 && (c->shares == 0 || c->shares % 1024)) {
		snprintf(d->detail, sizeof(d->detail), "cpu shares %lld are not a multiple of 1024: "
			 "part of a CPU, not whole CPUs", c->shares);
		return false;
	}
	if (c->quota > 0 && c->quota % period) {
		snprintf(d->detail, sizeof(d->detail), "cpu quota %lld per period %lld is part of a CPU, "
			 "not whole CPUs", c->quota, period);
		return false;
	}
	return true;
}

void nn_oci_decide(const struct nn_oci_state *s, const struct nn_oci_config *c,
		   enum nn_oci_stage stage, struct nn_oci_decision *d)
{
	const char *crio = nn_oci_annotation(s, c, NN_OCI_ANN_CRIO);
	const char *ours = nn_oci_annotation(s, c, NN_OCI_ANN_NICNUMA);

	memset(d, 0, sizeof(*d));
	if (stage == NN_OCI_STAGE_NONE) {
		if (!strcmp(s->status, "stopped"))
			stage = NN_OCI_STAGE_POSTSTOP;
		else if (!strcmp(s->status, "creating"))
			stage = NN_OCI_STAGE_CREATE_RUNTIME;
		else if (!strcmp(s->status, "created"))
			stage = NN_OCI_STAGE_PRESTART;
		else if (!strcmp(s->status, "running"))
			stage = NN_OCI_STAGE_POSTSTART;
		else {
			d->why = "no --stage and the state's status is none of creating, created, running, stopped";
			return;
		}
	}
	d->stage = stage;
	/* A release needs no annotation: a record named for this container
	 * is this container's, whatever its config says now. */
	if (stage == NN_OCI_STAGE_POSTSTOP) {
		d->action = NN_OCI_RELEASE;
		return;
	}
	if (ours && !strcmp(ours, "false")) {
		d->why = NN_OCI_ANN_NICNUMA " is \"false\"";
		return;
	}
	if (crio && (!strcmp(crio, "disable") || !strcmp(crio, "true")))
		d->mode = NN_OCI_MODE_DISABLE;
	else if (crio && !strcmp(crio, "housekeeping"))
		d->mode = NN_OCI_MODE_HOUSEKEEPING;
	else if (ours && !strcmp(ours, "true"))
		d->mode = NN_OCI_MODE_DISABLE;
	if (d->mode == NN_OCI_MODE_NONE) {
		d->why = crio || ours ? "no annotation value asks for a claim (" NN_OCI_ANN_CRIO
			": disable or housekeeping; " NN_OCI_ANN_NICNUMA ": true)"
			: "no " NN_OCI_ANN_CRIO " or " NN_OCI_ANN_NICNUMA " annotation";
		return;
	}
	if (is_sandbox(s, c)) {
		d->mode = NN_OCI_MODE_NONE;
		d->why = "a pod sandbox (pause) container: its CPUs are the pod's shared ones";
		return;
	}
	if (!c || !c->has_cpus) {
		d->mode = NN_OCI_MODE_NONE;
		d->why = "config.json has no linux.resources.cpu.cpus: no CPUs of its own to claim";
		d->refused = true;
		return;
	}
	if (!whole_cpus(c, d)) {
		d->mode = NN_OCI_MODE_NONE;
		d->why = d->detail;
		d->refused = true;
		return;
	}
	if (s->pid <= 0) {
		d->mode = NN_OCI_MODE_NONE;
		d->why = "the state has no pid: a claim must have a living owner";
		d->refused = true;
		return;
	}
	d->action = NN_OCI_CLAIM;
}

int nn_oci_claim_cpus(const struct nn_cpuset *cpus, enum nn_oci_mode mode,
		      const struct nn_cpuset *first_siblings, struct nn_cpuset *out)
{
	int first, ret;

	nn_cpuset_zero(out);
	if (mode == NN_OCI_MODE_NONE)
		return 0;
	ret = nn_cpuset_copy(out, cpus);
	if (ret || mode != NN_OCI_MODE_HOUSEKEEPING)
		return ret;
	first = nn_cpuset_first(cpus);
	if (first < 0)
		return 0;
	if (first_siblings && !nn_cpuset_empty(first_siblings))
		nn_cpuset_andnot(out, first_siblings);
	else {
		struct nn_cpuset one = NN_CPUSET_INIT;

		ret = nn_cpuset_set(&one, (unsigned int)first);
		if (!ret)
			nn_cpuset_andnot(out, &one);
		nn_cpuset_free(&one);
	}
	return ret;
}
