// SPDX-License-Identifier: GPL-2.0-or-later
/* rps.c - RPS/RFS paths and forms, and the undo kind "rps" (only those values) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/state/value_restore.h"
#include "irq/rps.h"

int nn_rps_path(char *buf, size_t size, const char *nic, int queue, const char *file)
{
	int n;

	if (!nic || !nn_ifname_valid(nic) || queue < 0 ||
	    (strcmp(file, NN_RPS_CPUS) && strcmp(file, NN_RPS_FLOW_CNT)))
		return -EINVAL;
	n = snprintf(buf, size, "/sys/class/net/%s/queues/rx-%d/%s", nic, queue, file);
	return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

/* A decimal as the kernel prints it: no sign, no leading zero, <= 9 digits. */
static bool is_num(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 9 || (s[0] == '0' && n > 1))
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

bool nn_rps_path_valid(const char *path)
{
	static const char pre[] = "/sys/class/net/", mid[] = "/queues/rx-";
	const char *p = path, *e;
	char name[16];
	size_t n;

	if (!path)
		return false;
	if (!strcmp(path, NN_RPS_SOCK_FLOW_PATH))
		return true;
	if (strncmp(p, pre, sizeof(pre) - 1))
		return false;
	p += sizeof(pre) - 1;
	e = strchr(p, '/');
	if (!e || (n = (size_t)(e - p)) >= sizeof(name))
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	if (!nn_ifname_valid(name) || strncmp(e, mid, sizeof(mid) - 1))
		return false;
	p = e + sizeof(mid) - 1;
	e = strchr(p, '/');
	if (!e || !is_num(p, (size_t)(e - p)))
		return false;
	return !strcmp(e + 1, NN_RPS_CPUS) || !strcmp(e + 1, NN_RPS_FLOW_CNT);
}

bool nn_rps_value_valid(const char *path, const char *value)
{
	size_t n;
	long v;

	if (!value || !nn_rps_path_valid(path))
		return false;
	n = strlen(value);
	if (strlen(path) > strlen(NN_RPS_CPUS) &&
	    !strcmp(path + strlen(path) - strlen(NN_RPS_CPUS), NN_RPS_CPUS))
		return n && n <= (1u << 16) && strspn(value, "0123456789abcdefABCDEF,") == n;
	if (!n)
		return false;
	if (!is_num(value, n) || nn_parse_long(value, &v))
		return false;
	return v >= 0 && v <= NN_RFS_MAX;
}

long nn_rfs_round(long n)
{
	long p = 1;

	if (n <= 0)
		return 0;
	while (p < n && p < NN_RFS_MAX)
		p <<= 1;
	return p;
}

static int rps_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			char *why, size_t whylen)
{
	const char *p = c->path ? c->path : "";
	char nic[16];
	size_t n;

	(void)ctx;
	if (!nn_rps_path_valid(c->path)) {
		snprintf(why, whylen, "not an RPS/RFS value nicnuma writes");
		return -EINVAL;
	}
	if (!nn_rps_value_valid(c->path, c->before)) {
		snprintf(why, whylen, "before value is missing or not of this file's form");
		return -EINVAL;
	}
	/* A queue's value: only a NIC of the log's host. */
	if (!strncmp(p, "/sys/class/net/", 15)) {
		n = strcspn(p + 15, "/");
		memcpy(nic, p + 15, n < sizeof(nic) ? n : sizeof(nic) - 1);
		nic[n < sizeof(nic) ? n : sizeof(nic) - 1] = '\0';
		if (nn_undo_nic_check(u, nic, why, whylen))
			return -EINVAL;
	}
	return 0;
}

/* A queue gone with the device or a channel change: nothing to put back. */
static int rps_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	return nn_value_restore_change(ctx, c, true, res);
}

const struct nn_change_ops nn_rps_change_ops = {
	.name = "rps",
	.live_only = false,
	.validate = rps_validate,
	.restore = rps_restore,
};
