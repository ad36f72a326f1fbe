// SPDX-License-Identifier: GPL-2.0-or-later
/* value_restore.c - put a value back (apply's failure path and rollback), and
 * the undo log's "file" kind, which may name only the values we write */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/state/value_restore.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* Same value as the kernel would print it: cpulists and masks compare as sets
 * ("0-1" == "0,1", "00000003" == "3"), everything else as trimmed text. */
bool nn_value_equal(const char *path, const char *a, const char *b)
{
	struct nn_cpuset sa = NN_CPUSET_INIT, sb = NN_CPUSET_INIT;
	char *ta, *tb;
	bool eq;
	int ea, eb;

	if (!a || !b)
		return a == b;
	ta = strdup(a);
	tb = strdup(b);
	if (!ta || !tb) {
		free(ta);
		free(tb);
		return false;
	}
	trim(ta);
	trim(tb);
	eq = !strcmp(ta, tb);
	if (!eq && (ends_with(path, "_list") || ends_with(path, "cpulist"))) {
		ea = nn_cpuset_parse_list(ta, &sa);
		eb = nn_cpuset_parse_list(tb, &sb);
		eq = !ea && !eb && nn_cpuset_equal(&sa, &sb);
	} else if (!eq && (ends_with(path, "xps_cpus") || ends_with(path, "smp_affinity") ||
			   ends_with(path, "rps_cpus"))) {
		ea = nn_cpuset_parse_mask(ta, &sa);
		eb = nn_cpuset_parse_mask(tb, &sb);
		eq = !ea && !eb && nn_cpuset_equal(&sa, &sb);
	}
	nn_cpuset_free(&sa);
	nn_cpuset_free(&sb);
	free(ta);
	free(tb);
	return eq;
}

static int read_value(struct nn_ctx *ctx, const char *path, char **out)
{
	int err = nn_read_file(&ctx->root, path, out, NULL);

	if (!err)
		trim(*out);
	return err;
}

int nn_value_restore(struct nn_ctx *ctx, const char *path, const char *before,
		     char **cur, char **now)
{
	int err;

	*cur = *now = NULL;
	if (!before)
		return -EINVAL;
	err = read_value(ctx, path, cur);
	if (err)
		return err;
	if (nn_value_equal(path, *cur, before))
		return 1;
	err = nn_write_value(&ctx->root, path, before);
	if (err == -EBUSY || err == -EAGAIN)
		err = nn_write_value(&ctx->root, path, before);	/* transient: once more */
	if (!err)
		err = read_value(ctx, path, now);
	if (!err && !nn_value_equal(path, *now, before))
		err = -EIO;
	return err;
}

bool nn_ifname_valid(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n >= 16 || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (i = 0; i < n; i++)
		if (name[i] == '/' || name[i] == ':' || isspace((unsigned char)name[i]))
			return false;
	return true;
}

/* Consumes literal @lit. */
static bool eat(const char **p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

/* Consumes a decimal number as the kernel prints it: no sign, no leading
 * zero, at most 9 digits. */
static bool eat_num(const char **p)
{
	const char *s = *p;

	if (*s < '0' || *s > '9' || (*s == '0' && s[1] >= '0' && s[1] <= '9'))
		return false;
	while (*s >= '0' && *s <= '9')
		s++;
	if (s - *p > 9)
		return false;
	*p = s;
	return true;
}

/* Consumes an interface name up to the next '/'. */
static bool eat_ifname(const char **p)
{
	const char *e = strchr(*p, '/');
	char name[16];
	size_t n;

	if (!e || (n = (size_t)(e - *p)) >= sizeof(name))
		return false;
	memcpy(name, *p, n);
	name[n] = '\0';
	if (!nn_ifname_valid(name))
		return false;
	*p = e;
	return true;
}

static bool eat_pool(const char **p)
{
	return eat(p, "/hugepages-") && eat_num(p) && eat(p, "kB/nr_hugepages");
}

bool nn_value_path_valid(const char *path)
{
	const char *p = path;

	if (!path)
		return false;
	if (eat(&p, "/proc/irq/"))
		return eat_num(&p) && eat(&p, "/smp_affinity_list") && !*p;
	if (eat(&p, "/sys/class/net/"))
		return eat_ifname(&p) && eat(&p, "/queues/tx-") && eat_num(&p) &&
		       eat(&p, "/xps_cpus") && !*p;
	if (eat(&p, "/sys/devices/system/node/node"))
		return eat_num(&p) && eat(&p, "/hugepages") && eat_pool(&p) && !*p;
	if (eat(&p, "/sys/kernel/mm/hugepages"))
		return eat_pool(&p) && !*p;
	return false;
}

static bool only(const char *s, const char *set, size_t max)
{
	size_t n = strlen(s);

	return n && n <= max && strspn(s, set) == n;
}

bool nn_value_text_valid(const char *path, const char *value)
{
	if (!value || !nn_value_path_valid(path))
		return false;
	/* An empty affinity list is what the kernel prints for no CPU. */
	if (ends_with(path, "/smp_affinity_list"))
		return !*value || only(value, "0123456789,-", 1 << 16);
	if (ends_with(path, "/xps_cpus"))
		return only(value, "0123456789abcdefABCDEF,", 1 << 16);
	return only(value, "0123456789", 19);
}

static int file_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			 char *why, size_t whylen)
{
	(void)ctx;
	(void)u;
	if (!nn_value_path_valid(c->path)) {
		snprintf(why, whylen, "not a value nicnuma writes");
		return -EINVAL;
	}
	if (!nn_value_text_valid(c->path, c->before)) {
		snprintf(why, whylen, "before value is missing or not of this file's form");
		return -EINVAL;
	}
	return 0;
}

int nn_value_restore_change(struct nn_ctx *ctx, const struct nn_change *c, bool gone_ok,
			    struct nn_restore *res)
{
	char *now = NULL;
	int err = nn_value_restore(ctx, c->path, c->before, &res->current, &now);

	if (err == 1) {
		res->unchanged = true;
		err = 0;
	} else if (err == -EIO && now) {
		snprintf(res->why, sizeof(res->why), "read back '%.200s'", now);
	} else if (err == -ENOENT && gone_ok && !res->current) {
		nn_warn(ctx, c->path, "gone: not restored");
		res->unchanged = true;
		err = 0;
	} else if (err) {
		snprintf(res->why, sizeof(res->why), "cannot %s: %s", res->current ? "restore" : "read",
			 strerror(-err));
	}
	free(now);
	return err;
}

static int file_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	return nn_value_restore_change(ctx, c, false, res);
}

const struct nn_change_ops nn_file_change_ops = {
	.name = "file",
	.live_only = false,
	.validate = file_validate,
	.restore = file_restore,
};
