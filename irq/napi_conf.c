// SPDX-License-Identifier: GPL-2.0-or-later
/* napi_conf.c - NAPI settings (per NAPI through the io handed down, or the
 * device-wide sysfs files) with their trust rule, and the rules of the undo
 * kinds "napi_conf" (with its restore) and "napi_dev"; act/ defines both */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/state/value_restore.h"
#include "irq/napi_conf.h"

static const char *const attr_names[NN_NAPI_NATTR] = {
	"defer-hard-irqs", "gro-flush-timeout", "irq-suspend-timeout", "threaded",
};
static const char *const attr_files[NN_NAPI_NATTR] = {
	"napi_defer_hard_irqs", "gro_flush_timeout", NULL, "threaded",
};

const char *nn_napi_attr_name(enum nn_napi_attr a)
{
	return (unsigned int)a < NN_NAPI_NATTR ? attr_names[a] : "?";
}

int nn_napi_attr_parse(const char *s, enum nn_napi_attr *a)
{
	unsigned int i;

	for (i = 0; s && i < NN_NAPI_NATTR; i++)
		if (!strcmp(s, attr_names[i])) {
			*a = (enum nn_napi_attr)i;
			return 0;
		}
	return -EINVAL;
}

const char *nn_napi_attr_sysfs(enum nn_napi_attr a)
{
	return (unsigned int)a < NN_NAPI_NATTR ? attr_files[a] : NULL;
}

long long nn_napi_attr_max(enum nn_napi_attr a)
{
	switch (a) {
	case NN_NAPI_DEFER_HARD_IRQS:
		return INT32_MAX;	/* netdev.yaml: max s32-max */
	case NN_NAPI_THREADED:
		return 1;		/* on/off; 2 (busy-poll, 6.18) is not ours to set */
	case NN_NAPI_GRO_FLUSH_TIMEOUT:
	case NN_NAPI_IRQ_SUSPEND_TIMEOUT:
	case NN_NAPI_NATTR:
		break;
	}
	return 999999999999LL;	/* ~16 minutes of ns: more is no timeout anyone means */
}

int nn_napi_dev_path(char *buf, size_t size, const char *nic, enum nn_napi_attr a)
{
	const char *f = nn_napi_attr_sysfs(a);
	int n;

	if (!f || !nic || !nn_ifname_valid(nic))
		return -EINVAL;
	n = snprintf(buf, size, "/sys/class/net/%s/%s", nic, f);
	return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

/* The attribute of a device-wide file path, -1 when it is none. */
static int dev_path_attr(const char *path)
{
	static const char pre[] = "/sys/class/net/";
	const char *p, *e;
	char name[16];
	unsigned int i;
	size_t n;

	if (!path || strncmp(path, pre, sizeof(pre) - 1))
		return -1;
	p = path + sizeof(pre) - 1;
	e = strchr(p, '/');
	if (!e || (n = (size_t)(e - p)) >= sizeof(name))
		return -1;
	memcpy(name, p, n);
	name[n] = '\0';
	if (!nn_ifname_valid(name))
		return -1;
	for (i = 0; i < NN_NAPI_NATTR; i++)
		if (attr_files[i] && !strcmp(e + 1, attr_files[i]))
			return (int)i;
	return -1;
}

bool nn_napi_dev_path_valid(const char *path)
{
	return dev_path_attr(path) >= 0;
}

/* A decimal in 0..max as the kernel prints it (no sign, no leading zero). */
static bool value_ok(const char *s, long long max)
{
	size_t n = s ? strlen(s) : 0, i;
	long long v = 0;

	if (!n || n > 19 || (s[0] == '0' && n > 1))
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v > max / 10)
			return false;	/* past max already: 19 digits would overflow */
		v = v * 10 + (s[i] - '0');
	}
	return v <= max;
}

bool nn_napi_dev_value_valid(const char *path, const char *value)
{
	int a = dev_path_attr(path);

	return a >= 0 && value_ok(value, nn_napi_attr_max((enum nn_napi_attr)a));
}

int nn_napi_conf_owner(struct nn_ctx *ctx, const struct nn_napi_io *io, const char *nic, int ifindex,
		       long long napi_id, struct nn_napi_vals *v, char *why, size_t whylen)
{
	char path[64], buf[32];
	long idx;
	int err;

	if (!nic || !nn_ifname_valid(nic) || ifindex < 1 || napi_id < 1) {
		snprintf(why, whylen, "device '%s' / NAPI %lld out of range", nic ? nic : "", napi_id);
		return -EPERM;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", nic);
	err = nn_read_str(&ctx->root, path, buf, sizeof(buf));
	if (err == -ENOENT) {
		snprintf(why, whylen, "%s is gone", nic);
		return -ENOENT;
	}
	if (err || nn_parse_long(buf, &idx)) {
		snprintf(why, whylen, "%s: %s", path, err ? strerror(-err) : "not a number");
		return err ? err : -EINVAL;
	}
	if (idx != ifindex) {
		snprintf(why, whylen, "%s is ifindex %ld now, not %d: another device", nic, idx, ifindex);
		return -ENOENT;
	}
	err = io->get(ctx, napi_id, v, why, whylen);
	if (err)
		return err;
	if (v->ifindex != ifindex) {
		snprintf(why, whylen, "NAPI %lld belongs to ifindex %d now, not %s (%d)", napi_id,
			 v->ifindex, nic, ifindex);
		return -EPERM;
	}
	return 0;
}

int nn_napi_conf_set(struct nn_ctx *ctx, const struct nn_napi_io *io, const char *nic, int ifindex,
		     long long napi_id, enum nn_napi_attr a, long long value, long long *after,
		     char *why, size_t whylen)
{
	struct nn_napi_vals v;
	int err;

	*after = -1;
	if ((unsigned int)a >= NN_NAPI_NATTR || value < 0 || value > nn_napi_attr_max(a)) {
		snprintf(why, whylen, "%s %lld out of range", nn_napi_attr_name(a), value);
		return -EINVAL;
	}
	err = nn_napi_conf_owner(ctx, io, nic, ifindex, napi_id, &v, why, whylen);
	if (!err && v.v[a] < 0) {
		snprintf(why, whylen, "the kernel reports no %s for NAPI %lld", nn_napi_attr_name(a), napi_id);
		err = -EOPNOTSUPP;
	}
	if (!err)
		err = io->set(ctx, napi_id, a, value, why, whylen);
	/* Read back through the same rule: the id may have moved under the call. */
	if (!err)
		err = nn_napi_conf_owner(ctx, io, nic, ifindex, napi_id, &v, why, whylen);
	if (err)
		return err;
	*after = v.v[a];
	if (v.v[a] != value) {
		snprintf(why, whylen, "set %lld, read back %lld", value, v.v[a]);
		return -EIO;
	}
	return 0;
}

void nn_napi_conf_key(char *buf, size_t len, const char *nic, long long napi_id, enum nn_napi_attr a)
{
	snprintf(buf, len, "%s/%lld/%s", nic, napi_id, nn_napi_attr_name(a));
}

int nn_napi_conf_parse_key(const char *key, char *nic, size_t niclen, long long *napi_id,
			   enum nn_napi_attr *a)
{
	const char *s1, *s2;
	size_t n;

	if (!key || !(s1 = strchr(key, '/')) || !(s2 = strchr(s1 + 1, '/')))
		return -EINVAL;
	n = (size_t)(s1 - key);
	if (n >= niclen || n >= 16)
		return -EINVAL;
	memcpy(nic, key, n);
	nic[n] = '\0';
	if (!nn_ifname_valid(nic))
		return -EINVAL;
	/* A NAPI id is a u32 (the kernel starts them above NR_CPUS). */
	*napi_id = 0;
	for (key = s1 + 1; key < s2; key++) {
		if (*key < '0' || *key > '9' || (key == s1 + 1 && *key == '0') || *napi_id > 0xffffffffLL)
			return -EINVAL;
		*napi_id = *napi_id * 10 + (*key - '0');
	}
	if (*napi_id < 1 || *napi_id > 0xffffffffLL)
		return -EINVAL;
	return nn_napi_attr_parse(s2 + 1, a);
}

void nn_napi_conf_detail(char *buf, size_t len, int ifindex)
{
	snprintf(buf, len, "{\"ifindex\":%d}", ifindex);
}

/* The change's device, ifindex, NAPI id and setting; -EINVAL with @why on a bad log. */
static int parse_change(const struct nn_change *c, char *nic, size_t niclen, int *ifindex, long long *id,
			enum nn_napi_attr *a, char *why, size_t whylen)
{
	struct json_object *d, *v;
	int err = -EINVAL;

	if (nn_napi_conf_parse_key(c->path, nic, niclen, id, a)) {
		snprintf(why, whylen, "path '%.40s' is not IF/NAPI_ID/SETTING", c->path ? c->path : "");
		return -EINVAL;
	}
	d = c->detail ? json_tokener_parse(c->detail) : NULL;
	if (!d || !json_object_is_type(d, json_type_object) ||
	    !json_object_object_get_ex(d, "ifindex", &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 1 || json_object_get_int64(v) > INT32_MAX) {
		snprintf(why, whylen, "detail is not {\"ifindex\":N}");
		goto out;
	}
	*ifindex = (int)json_object_get_int64(v);
	err = 0;
out:
	json_object_put(d);
	return err;
}

int nn_napi_conf_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			  char *why, size_t whylen)
{
	enum nn_napi_attr a;
	char nic[16];
	long long id;
	int ifindex;

	(void)ctx;
	if (parse_change(c, nic, sizeof(nic), &ifindex, &id, &a, why, whylen))
		return -EINVAL;
	if (nn_undo_nic_check(u, nic, why, whylen))
		return -EINVAL;
	if (!value_ok(c->before, nn_napi_attr_max(a))) {
		snprintf(why, whylen, "before '%.32s' is not a value of %s", c->before ? c->before : "",
			 nn_napi_attr_name(a));
		return -EINVAL;
	}
	return 0;
}

int nn_napi_conf_restore(struct nn_ctx *ctx, const struct nn_napi_io *io, const struct nn_change *c,
			 struct nn_restore *res)
{
	struct nn_napi_vals v;
	enum nn_napi_attr a;
	long long id, before, after;
	char buf[32], nic[16];
	int ifindex, err;

	err = parse_change(c, nic, sizeof(nic), &ifindex, &id, &a, res->why, sizeof(res->why));
	if (err || !value_ok(c->before, nn_napi_attr_max(a)))
		return err ? err : -EINVAL;
	before = strtoll(c->before, NULL, 10);
	err = nn_napi_conf_owner(ctx, io, nic, ifindex, id, &v, res->why, sizeof(res->why));
	if (err == -ENOENT) {
		/* The NAPI went with its queue or device: its config went with it. */
		nn_warn(ctx, c->path, "%s: not restored", res->why);
		res->unchanged = true;
		res->why[0] = '\0';
		return 0;
	}
	if (err)
		return err;
	snprintf(buf, sizeof(buf), "%lld", v.v[a]);
	res->current = strdup(buf);
	if (v.v[a] == before) {
		res->unchanged = true;
		return 0;
	}
	return nn_napi_conf_set(ctx, io, nic, ifindex, id, a, before, &after, res->why, sizeof(res->why));
}

int nn_napi_dev_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			 char *why, size_t whylen)
{
	char nic[16];
	size_t n;

	(void)ctx;
	if (!nn_napi_dev_path_valid(c->path)) {
		snprintf(why, whylen, "not a NAPI setting nicnuma writes");
		return -EINVAL;
	}
	if (!nn_napi_dev_value_valid(c->path, c->before)) {
		snprintf(why, whylen, "before value is missing or not of this file's form");
		return -EINVAL;
	}
	n = strcspn(c->path + 15, "/");
	memcpy(nic, c->path + 15, n);
	nic[n] = '\0';
	return nn_undo_nic_check(u, nic, why, whylen) ? -EINVAL : 0;
}
