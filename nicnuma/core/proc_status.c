// SPDX-License-Identifier: GPL-2.0-or-later
/* proc_status.c - the one parser of /proc/PID/status (proc.h); pure */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/fsroot.h"	/* nn_parse_long */
#include "nicnuma/core/proc.h"

/* "Cpus_allowed_list:\t0-3" -> "0-3"; NULL when the key is absent. */
static const char *status_value(const char *text, const char *key, size_t *len)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			const char *v = p + klen + 1;

			v += strspn(v, " \t");
			*len = strcspn(v, "\n");
			return v;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static int status_long(const char *text, const char *key, int *out)
{
	char buf[32];
	size_t len;
	long v;
	const char *s = status_value(text, key, &len);

	*out = -1;
	if (!s || len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (nn_parse_long(buf, &v) || v < 0 || v > INT_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* "Uid:\treal\teffective\tsaved\tfs": the first two; -1 when absent. */
static int status_uids(const char *text, struct nn_proc_status *st)
{
	const char *s;
	char *end;
	size_t len;
	long v[2];
	int i;

	st->uid_real = st->uid_eff = -1;
	s = status_value(text, "Uid", &len);
	if (!s)
		return 0;
	for (i = 0; i < 2; i++) {
		errno = 0;
		v[i] = strtol(s, &end, 10);
		if (errno || end == s || v[i] < 0 || (*end != '\t' && *end != ' ' && *end != '\n' && *end))
			return -EINVAL;
		s = end + strspn(end, " \t");
	}
	st->uid_real = v[0];
	st->uid_eff = v[1];
	st->has_uid = true;
	return 0;
}

static int status_list(const char *text, const char *key, struct nn_cpuset *set, bool *has)
{
	size_t len;
	const char *s = status_value(text, key, &len);
	char *buf;
	int err;

	*has = false;
	if (!s)
		return 0;
	buf = strndup(s, len);
	if (!buf)
		return -ENOMEM;
	err = nn_cpuset_parse_list(buf, set);
	free(buf);
	if (!err)
		*has = true;
	return err;
}

int nn_proc_status_parse(const char *text, struct nn_proc_status *st)
{
	size_t len;
	const char *name;
	int err;

	memset(st, 0, sizeof(*st));
	st->tgid = st->threads = -1;
	name = status_value(text, "State", &len);
	if (name && len)
		st->state = name[0];
	name = status_value(text, "Name", &len);
	if (name) {
		if (len >= sizeof(st->name))
			len = sizeof(st->name) - 1;
		memcpy(st->name, name, len);
		st->name[len] = '\0';
	}
	err = status_long(text, "Tgid", &st->tgid);
	if (!err)
		err = status_long(text, "Threads", &st->threads);
	if (!err)
		err = status_uids(text, st);
	if (!err)
		err = status_list(text, "Cpus_allowed_list", &st->cpus_allowed, &st->has_cpus_allowed);
	if (!err)
		err = status_list(text, "Mems_allowed_list", &st->mems_allowed, &st->has_mems_allowed);
	if (!err && !st->has_cpus_allowed && !st->has_mems_allowed && !st->has_uid &&
	    !nn_proc_status_exited(st))
		err = -EINVAL;
	if (err)
		nn_proc_status_free(st);
	return err;
}

bool nn_proc_status_exited(const struct nn_proc_status *st)
{
	return st->state == 'Z' || st->state == 'X';
}

void nn_proc_status_free(struct nn_proc_status *st)
{
	nn_cpuset_free(&st->cpus_allowed);
	nn_cpuset_free(&st->mems_allowed);
}
