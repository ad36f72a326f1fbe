// SPDX-License-Identifier: GPL-2.0-or-later
/* napi_thread.c - find, check and place a threaded NAPI's kernel thread; the undo kind "napi" */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/parse.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/state/value_restore.h"	/* nn_ifname_valid */
#include "irq/napi_thread.h"

void nn_napi_comm(char *buf, size_t len, const char *nic, long long napi_id)
{
	if (!len)
		return;
	/* __kthread_create_on_node() keeps TASK_COMM_LEN - 1 characters. */
	snprintf(buf, len < NN_NAPI_COMM_LEN ? len : NN_NAPI_COMM_LEN, "napi/%s-%lld", nic, napi_id);
}

/* Reads /proc/@pid/@file into @buf: -ESRCH ("pid N is gone") when it is
 * not there, other errors named with the path in @why. */
static int read_pid_file(const struct nn_root *root, int pid, const char *file, char *buf, size_t size,
			 char *why, size_t whylen)
{
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	err = nn_read_str(root, path, buf, size);
	if (err == -ENOENT || err == -ESRCH) {
		snprintf(why, whylen, "pid %d is gone", pid);
		return -ESRCH;
	}
	if (err)
		snprintf(why, whylen, "%s: %s", path, strerror(-err));
	return err;
}

int nn_napi_thread_verify(const struct nn_root *root, int pid, const char *nic, long long napi_id,
			  char *why, size_t whylen)
{
	char path[64], buf[512], want[NN_NAPI_COMM_LEN], comm[64];
	struct nn_pid_stat ps;
	int err;

	if (pid <= 0 || pid > NN_PID_MAX || !nic || !nn_ifname_valid(nic)) {
		snprintf(why, whylen, "pid %d / device '%s' out of range", pid, nic ? nic : "");
		return -EPERM;
	}
	err = read_pid_file(root, pid, "stat", buf, sizeof(buf), why, whylen);
	if (err)
		return err;
	if (nn_parse_pid_stat(buf, &ps) || ps.flags < 0) {
		snprintf(why, whylen, "/proc/%d/stat: unexpected content", pid);
		return -EPERM;
	}
	if (!((unsigned long long)ps.flags & NN_PF_KTHREAD)) {
		snprintf(why, whylen, "pid %d is not a kernel thread", pid);
		return -EPERM;
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	err = nn_root_readlink(root, path, comm, sizeof(comm));
	if (err != -ENOENT) {
		snprintf(why, whylen, "pid %d has an executable: not a kernel thread", pid);
		return -EPERM;
	}
	err = read_pid_file(root, pid, "comm", comm, sizeof(comm), why, whylen);
	if (err)
		return err;
	nn_napi_comm(want, sizeof(want), nic, napi_id);
	if (strcmp(comm, want)) {
		snprintf(why, whylen, "pid %d is '%.20s', not %s's NAPI thread '%s'", pid, comm, nic, want);
		return -EPERM;
	}
	return 0;
}

static int live_get(int pid, struct nn_cpuset *set)
{
	size_t size = CPU_ALLOC_SIZE(NN_CPU_MAX);
	cpu_set_t *m = CPU_ALLOC(NN_CPU_MAX);
	unsigned int cpu;
	int err = 0;

	if (!m)
		return -ENOMEM;
	CPU_ZERO_S(size, m);
	if (sched_getaffinity(pid, size, m) < 0)
		err = -errno;
	nn_cpuset_zero(set);
	for (cpu = 0; !err && cpu < NN_CPU_MAX; cpu++)
		if (CPU_ISSET_S(cpu, size, m) && nn_cpuset_set(set, cpu))
			err = -ENOMEM;
	CPU_FREE(m);
	return err;
}

int nn_napi_thread_get(const struct nn_root *root, int pid, struct nn_cpuset *set)
{
	char path[64], *text = NULL, *p, *nl;
	int err;

	if (nn_root_is_live(root))
		return live_get(pid, set);
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	err = nn_read_file(root, path, &text, NULL);
	if (err)
		return err;
	p = strstr(text, "\nCpus_allowed_list:");
	if (!p) {
		free(text);
		return -EINVAL;
	}
	p += strlen("\nCpus_allowed_list:");
	p += strspn(p, " \t");
	nl = strchr(p, '\n');
	if (nl)
		*nl = '\0';
	err = nn_cpuset_parse_list(p, set);
	free(text);
	return err;
}

int nn_napi_thread_set(const struct nn_root *root, int pid, const char *nic, long long napi_id,
		       const struct nn_cpuset *want, struct nn_cpuset *after, char *why, size_t whylen)
{
	size_t size;
	cpu_set_t *m;
	int cpu, err;

	if (!nn_root_is_live(root)) {
		snprintf(why, whylen, "not touched (fake root)");
		return -EOPNOTSUPP;
	}
	err = nn_napi_thread_verify(root, pid, nic, napi_id, why, whylen);
	if (err)
		return err;
	if (nn_cpuset_empty(want) || nn_cpuset_last(want) >= NN_CPU_MAX) {
		snprintf(why, whylen, "no CPU to place it on");
		return -EINVAL;
	}
	size = CPU_ALLOC_SIZE(nn_cpuset_last(want) + 1);
	m = CPU_ALLOC(nn_cpuset_last(want) + 1);
	if (!m)
		return -ENOMEM;
	CPU_ZERO_S(size, m);
	nn_cpuset_foreach(cpu, want)
		CPU_SET_S((size_t)cpu, size, m);
	err = sched_setaffinity(pid, size, m) < 0 ? -errno : 0;
	CPU_FREE(m);
	if (err == -ESRCH) {
		snprintf(why, whylen, "pid %d is gone", pid);
		return err;
	}
	if (err) {
		snprintf(why, whylen, "sched_setaffinity(%d): %s", pid, strerror(-err));
		return err;
	}
	/* The pid may have been recycled between the check and the call. */
	err = nn_napi_thread_verify(root, pid, nic, napi_id, why, whylen);
	if (!err)
		err = live_get(pid, after);
	if (err) {
		if (!why[0])
			snprintf(why, whylen, "cannot read back: %s", strerror(-err));
		return err;
	}
	if (!nn_cpuset_equal(after, want)) {
		snprintf(why, whylen, "set but not kept (read back another set)");
		return -EIO;
	}
	return 0;
}

void nn_napi_detail(char *buf, size_t len, const char *nic, long long napi_id)
{
	snprintf(buf, len, "{\"nic\":\"%s\",\"napi_id\":%lld}", nic, napi_id);
}

/* The change's pid, device and NAPI id; -EINVAL with @why on a bad log. */
static int parse_change(const struct nn_change *c, int *pid, char *nic, size_t niclen, long long *id,
			char *why, size_t whylen)
{
	struct json_object *d = NULL, *v;
	long n;
	int err = -EINVAL;

	if (!c->path || nn_parse_long(c->path, &n) || n < 1 || n > NN_PID_MAX) {
		snprintf(why, whylen, "path '%.32s' is not a pid", c->path ? c->path : "");
		return -EINVAL;
	}
	*pid = (int)n;
	d = c->detail ? json_tokener_parse(c->detail) : NULL;
	if (!d || !json_object_is_type(d, json_type_object)) {
		snprintf(why, whylen, "detail is not {\"nic\",\"napi_id\"}");
		goto out;
	}
	if (!json_object_object_get_ex(d, "nic", &v) || !json_object_is_type(v, json_type_string) ||
	    !nn_ifname_valid(json_object_get_string(v)) ||
	    strlen(json_object_get_string(v)) >= niclen) {
		snprintf(why, whylen, "detail.nic is not an interface name");
		goto out;
	}
	snprintf(nic, niclen, "%s", json_object_get_string(v));
	if (!json_object_object_get_ex(d, "napi_id", &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 1 || json_object_get_int64(v) > 0xffffffffLL) {
		snprintf(why, whylen, "detail.napi_id is not a NAPI id");
		goto out;
	}
	*id = json_object_get_int64(v);
	err = 0;
out:
	json_object_put(d);
	return err;
}

static int napi_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			 char *why, size_t whylen)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	char nic[64];
	long long id;
	int pid, err;

	(void)ctx;
	err = parse_change(c, &pid, nic, sizeof(nic), &id, why, whylen);
	if (err)
		return err;
	if (nn_undo_nic_check(u, nic, why, whylen))
		return -EINVAL;
	err = c->before ? nn_cpuset_parse_list(c->before, &s) : -EINVAL;
	if (!err && nn_cpuset_empty(&s))
		err = -EINVAL;
	nn_cpuset_free(&s);
	if (err) {
		snprintf(why, whylen, "before '%.32s' is not a CPU list", c->before ? c->before : "");
		return -EINVAL;
	}
	return 0;
}

static int napi_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	struct nn_cpuset before = NN_CPUSET_INIT, cur = NN_CPUSET_INIT, after = NN_CPUSET_INIT;
	char nic[64];
	long long id;
	int pid, err;

	err = parse_change(c, &pid, nic, sizeof(nic), &id, res->why, sizeof(res->why));
	if (!err)
		err = nn_cpuset_parse_list(c->before, &before);
	if (err)
		goto out;
	err = nn_napi_thread_verify(&ctx->root, pid, nic, id, res->why, sizeof(res->why));
	if (err == -ESRCH) {
		/* The thread went with threaded NAPI or the device: nothing to put back. */
		nn_warn(ctx, c->path, "NAPI thread of %s (NAPI %lld) is gone: not restored", nic, id);
		res->unchanged = true;
		res->why[0] = '\0';
		err = 0;
		goto out;
	}
	if (err)
		goto out;
	err = nn_napi_thread_get(&ctx->root, pid, &cur);
	if (!err)
		res->current = nn_cpuset_format_list(&cur);
	if (!err && nn_cpuset_equal(&cur, &before)) {
		res->unchanged = true;
		goto out;
	}
	err = nn_napi_thread_set(&ctx->root, pid, nic, id, &before, &after, res->why, sizeof(res->why));
out:
	nn_cpuset_free(&before);
	nn_cpuset_free(&cur);
	nn_cpuset_free(&after);
	return err;
}

const struct nn_change_ops nn_napi_change_ops = {
	.name = "napi",
	.live_only = true,
	.validate = napi_validate,
	.restore = napi_restore,
};
