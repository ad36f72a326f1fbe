// SPDX-License-Identifier: GPL-2.0-or-later
/* busy_poll.c - the busy-poll sysctls' paths and forms, and the undo kind
 * "busy_poll" (only those two values) */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/state/value_restore.h"
#include "irq/busy_poll.h"

static const char *const paths[NN_BUSY_NSYSCTL] = {
	[NN_BUSY_POLL] = "/proc/sys/net/core/busy_poll",
	[NN_BUSY_READ] = "/proc/sys/net/core/busy_read",
};
static const char *const names[NN_BUSY_NSYSCTL] = {
	[NN_BUSY_POLL] = "net.core.busy_poll",
	[NN_BUSY_READ] = "net.core.busy_read",
};

const char *nn_busy_path(enum nn_busy_sysctl s)
{
	return (unsigned int)s < NN_BUSY_NSYSCTL ? paths[s] : NULL;
}

const char *nn_busy_name(enum nn_busy_sysctl s)
{
	return (unsigned int)s < NN_BUSY_NSYSCTL ? names[s] : NULL;
}

int nn_busy_name_parse(const char *name, enum nn_busy_sysctl *s)
{
	unsigned int i;

	for (i = 0; name && i < NN_BUSY_NSYSCTL; i++)
		if (!strcmp(name, names[i])) {
			*s = (enum nn_busy_sysctl)i;
			return 0;
		}
	return -EINVAL;
}

bool nn_busy_path_valid(const char *path)
{
	unsigned int i;

	for (i = 0; path && i < NN_BUSY_NSYSCTL; i++)
		if (!strcmp(path, paths[i]))
			return true;
	return false;
}

bool nn_busy_value_valid(const char *value)
{
	long long v = 0;
	size_t n, i;

	if (!value)
		return false;
	n = strlen(value);
	/* no sign, no leading zero, at most 10 digits, within an int */
	if (!n || n > 10 || (value[0] == '0' && n > 1))
		return false;
	for (i = 0; i < n; i++) {
		if (value[i] < '0' || value[i] > '9')
			return false;
		v = v * 10 + (value[i] - '0');
	}
	return v <= NN_BUSY_MAX;
}

static int busy_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			 char *why, size_t whylen)
{
	(void)ctx;
	(void)u;
	if (!nn_busy_path_valid(c->path)) {
		snprintf(why, whylen, "not a busy-poll sysctl nicnuma writes");
		return -EINVAL;
	}
	if (!nn_busy_value_valid(c->before)) {
		snprintf(why, whylen, "before value is missing or not a decimal in the kernel's range");
		return -EINVAL;
	}
	return 0;
}

/* The one value restorer's report, as rps and napi_dev give it; a kernel
 * without the file is no value we wrote: not gone_ok, an error. */
static int busy_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	return nn_value_restore_change(ctx, c, false, res);
}

const struct nn_change_ops nn_busy_poll_change_ops = {
	.name = "busy_poll",
	.live_only = false,
	.validate = busy_validate,
	.restore = busy_restore,
};
