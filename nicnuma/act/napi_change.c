// SPDX-License-Identifier: GPL-2.0-or-later
/* napi_change.c - the undo kind "napi" (a threaded NAPI's kthread's CPUs)
 * and the trust rule's two halves put together: the kernel's napi-get and
 * the task under /proc (irq/napi_thread.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/discover/nic.h"
#include "irq/napi_thread.h"
#include "nicnuma/act/change_kinds.h"

int nn_napi_identify(struct nn_ctx *ctx, const struct nn_nic *nics, size_t nnics, int pid,
		     const char *nic, long long napi_id, char *why, size_t whylen)
{
	int kpid = -1, err;

	/* no NAPI id (TX only): napi-get never names its thread */
	if (napi_id == NN_NAPI_TX_ID)
		return nn_napi_tx_verify(&ctx->root, pid, nic, why, whylen);
	err = nn_napi_kernel_pid(ctx, nics, nnics, nic, napi_id, &kpid);
	if (err == -ENOENT) {
		snprintf(why, whylen, "the kernel names no thread for NAPI %lld of %s here "
			 "(threaded NAPI off, or the NAPI or device gone)", napi_id, nic);
		return -ESRCH;
	}
	if (err == -ENOMEM)
		return err;
	if (err && (err != -EOPNOTSUPP || nn_root_is_live(&ctx->root))) {
		/* live, and the kernel cannot say: no thread is taken on a name */
		snprintf(why, whylen, "cannot ask the kernel for the thread of NAPI %lld of %s (napi-get: %s)",
			 napi_id, nic, strerror(-err));
		return -EPERM;
	}
	if (!err && kpid != pid) {
		/* its thread went (threaded NAPI off and on again): gone, not foreign */
		if (nn_napi_thread_verify(&ctx->root, pid, nic, napi_id, why, whylen) == -ESRCH)
			return -ESRCH;
		snprintf(why, whylen, "the kernel's thread of NAPI %lld of %s is pid %d, not %d: plan again",
			 napi_id, nic, kpid, pid);
		return -EPERM;
	}
	return nn_napi_thread_verify(&ctx->root, pid, nic, napi_id, why, whylen);
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
	    json_object_get_int64(v) < NN_NAPI_TX_ID || json_object_get_int64(v) > 0xffffffffLL) {
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
	err = nn_napi_identify(ctx, NULL, 0, pid, nic, id, res->why, sizeof(res->why));
	/* The pid is another task now: a pid is reused only after its task
	 * ended (across a reboot, always), so the logged thread is gone too.
	 * Nothing is written to that task either way. */
	if (err == -EPERM && nn_napi_thread_verify(&ctx->root, pid, nic, id, res->why, sizeof(res->why)) == -EPERM) {
		nn_warn(ctx, c->path, "NAPI thread of %s (NAPI %lld) is gone (%s): not restored", nic, id, res->why);
		res->unchanged = true;
		res->why[0] = '\0';
		err = 0;
		goto out;
	}
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
	if (err == -ESRCH) {
		/* it ended under the call (its successor's CPUs were put back) */
		nn_warn(ctx, c->path, "NAPI thread of %s (NAPI %lld): %s: not restored", nic, id, res->why);
		res->unchanged = true;
		res->why[0] = '\0';
		err = 0;
	}
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
