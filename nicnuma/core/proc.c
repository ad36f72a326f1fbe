// SPDX-License-Identifier: GPL-2.0-or-later
/* proc.c - the one reader of a process under /proc (proc.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/proc.h"

/* Field 2: from the first '(' to the last ')'; the name may hold both. */
static const char *stat_comm(const char *text, struct nn_proc_stat *st)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	size_t n;

	if (!open || !close || close < open)
		return NULL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	st->comm[n] = '\0';
	return close + 1;
}

/* Stores field @field's value @v where nicnuma keeps it; -EINVAL out of range. */
static int keep(struct nn_proc_stat *st, unsigned int field, long long v)
{
	switch (field) {
	case 9:
		st->flags = v;
		break;
	case 14:
		st->utime = v;
		break;
	case 15:
		st->stime = v;
		break;
	case 22:
		st->starttime = v;
		break;
	case 39:
		if (v >= NN_CPU_MAX)
			return -EINVAL;
		st->processor = v;
		break;
	default:
		return 0;
	}
	return v < 0 ? -EINVAL : 0;
}

int nn_proc_parse_stat(const char *text, struct nn_proc_stat *st)
{
	const char *p;
	unsigned int field = 2;		/* the comm field ends at the last ')' */

	memset(st->comm, 0, sizeof(st->comm));
	st->state = 0;
	st->flags = st->utime = st->stime = st->starttime = st->processor = -1;
	st->nfields = 2;
	p = text ? stat_comm(text, st) : NULL;
	if (!p)
		return -EINVAL;
	for (;;) {
		const char *end, *d;
		long long v;
		char *e;

		p += strspn(p, " \t\n");
		if (!*p)
			break;
		end = p + strcspn(p, " \t\n");
		field++;
		if (field == 3) {
			if (end - p != 1)
				return -EINVAL;
			st->state = *p;
		} else if (field <= 39) {
			/* every field a decimal; only the ones kept are converted
			 * (rsslim and the like fill 64 bits) */
			d = p + (*p == '-');
			if (d == end || strspn(d, "0123456789") != (size_t)(end - d))
				return -EINVAL;
			if (field == 9 || field == 14 || field == 15 || field == 22 || field == 39) {
				errno = 0;
				v = strtoll(p, &e, 10);
				if (errno || e != end || keep(st, field, v))
					return -EINVAL;
			}
		}
		p = end;
	}
	st->nfields = field;
	return 0;
}

int nn_proc_ticks(const struct nn_proc_stat *st, unsigned long long *ticks)
{
	if (st->utime < 0 || st->stime < 0)
		return -EINVAL;
	*ticks = (unsigned long long)st->utime + (unsigned long long)st->stime;
	return 0;
}

/* Reads and parses the stat file at @path; a missing file is a gone pid. */
static int read_stat_path(const struct nn_root *r, const char *path, struct nn_proc_stat *st)
{
	char *text = NULL;
	int err;

	err = nn_read_file(r, path, &text, NULL);
	if (err == -ENOENT || err == -ESRCH)
		err = -ESRCH;
	else if (!err)
		err = nn_proc_parse_stat(text, st);
	free(text);
	return err;
}

int nn_proc_read_stat(const struct nn_root *r, const char *at, int pid, struct nn_proc_stat *st)
{
	char path[96];

	if (snprintf(path, sizeof(path), "%s/%d/stat", at ? at : "/proc", pid) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return read_stat_path(r, path, st);
}

int nn_proc_read_task_stat(const struct nn_root *r, int pid, int tid, struct nn_proc_stat *st)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	return read_stat_path(r, path, st);
}

int nn_proc_read_comm(const struct nn_root *r, int pid, char *buf, size_t size)
{
	char path[96];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	err = nn_read_str(r, path, buf, size);
	return err == -ENOENT ? -ESRCH : err;
}

int nn_proc_read_exe(const struct nn_root *r, int pid, char *buf, size_t size)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	return nn_root_readlink(r, path, buf, size);
}

int nn_proc_kthread(const struct nn_root *r, int pid, struct nn_proc_stat *st, char *why,
		    size_t whylen)
{
	struct nn_proc_stat own;
	char exe[64];
	int err;

	if (!st)
		st = &own;
	err = nn_proc_read_stat(r, NULL, pid, st);
	if (err == -ESRCH) {
		snprintf(why, whylen, "pid %d is gone", pid);
		return err;
	}
	if (err || st->flags < 0) {
		snprintf(why, whylen, "/proc/%d/stat: unexpected content", pid);
		return -EINVAL;
	}
	if (!((unsigned long long)st->flags & NN_PF_KTHREAD)) {
		snprintf(why, whylen, "pid %d is not a kernel thread", pid);
		return -EPERM;
	}
	/* A user task can clear nothing in the kernel's flags, but a kernel
	 * thread never has an executable: both must say so. */
	err = nn_proc_read_exe(r, pid, exe, sizeof(exe));
	if (err != -ENOENT) {
		snprintf(why, whylen, "pid %d has an executable: not a kernel thread", pid);
		return -EPERM;
	}
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

long *nn_proc_kthreadd_children(const struct nn_root *r, size_t *n)
{
	char why[96], *buf = NULL, *p, *end;
	long *v = NULL, x;
	size_t cap = 0;

	*n = 0;
	if (nn_proc_kthread(r, 2, NULL, why, sizeof(why)) ||
	    nn_read_file(r, "/proc/2/task/2/children", &buf, NULL))
		goto out;
	/* kthreadd itself, then each child ("4 5 7 " ends with a space) */
	for (p = buf, x = 2;; p = end) {
		if (*n == cap) {
			long *nv = realloc(v, (cap = cap ? cap * 2 : 256) * sizeof(*v));

			if (!nv) {
				free(v);
				v = NULL;
				*n = 0;
				goto out;
			}
			v = nv;
		}
		v[(*n)++] = x;
		errno = 0;
		x = strtol(p, &end, 10);
		if (end == p || errno || x <= 0)
			break;
	}
	qsort(v, *n, sizeof(*v), cmp_pid);
out:
	free(buf);
	return v;
}

bool nn_proc_pid_listed(const long *pids, size_t n, long pid)
{
	return n && bsearch(&pid, pids, n, sizeof(*pids), cmp_pid);
}

/* A NUL-separated process file split into words. */
static int split_words(const char *buf, size_t len, char ***out, size_t *n)
{
	size_t i, cnt = 0, k = 0;
	char **v;

	for (i = 0; i < len; i++)
		if (!buf[i])
			cnt++;
	if (len && buf[len - 1])
		cnt++;
	v = calloc(cnt + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < len && k < cnt;) {
		size_t l = strnlen(buf + i, len - i);

		v[k] = strndup(buf + i, l);
		if (!v[k]) {
			while (k--)
				free(v[k]);
			free(v);
			return -ENOMEM;
		}
		k++;
		i += l + 1;
	}
	*out = v;
	*n = k;
	return 0;
}

static int read_words(const struct nn_root *r, int pid, const char *file, char ***words, size_t *n)
{
	char path[64], *buf = NULL;
	size_t len;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	err = nn_read_file(r, path, &buf, &len);
	if (err == -ENOENT)
		err = -ESRCH;
	if (!err)
		err = split_words(buf, len, words, n);
	free(buf);
	return err;
}

int nn_proc_read_cmdline(const struct nn_root *r, int pid, char ***words, size_t *n)
{
	return read_words(r, pid, "cmdline", words, n);
}

int nn_proc_read_environ(const struct nn_root *r, int pid, char ***words, size_t *n)
{
	return read_words(r, pid, "environ", words, n);
}

int nn_proc_read_numa_maps(const struct nn_root *r, int pid, char **text)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	return nn_read_file(r, path, text, NULL);
}

int nn_proc_open_tasks(const struct nn_root *r, int pid, DIR **dir)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	return nn_root_opendir(r, path, dir);
}

int nn_proc_read_status(const struct nn_root *r, int pid, struct nn_proc_status *st)
{
	char path[64], *text = NULL;
	int err;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	err = nn_read_file(r, path, &text, NULL);
	if (err == -ENOENT || err == -ESRCH)
		err = -ESRCH;
	else if (!err)
		err = nn_proc_status_parse(text, st);
	free(text);
	return err;
}

int nn_pidfd_open(int pid)
{
#ifdef SYS_pidfd_open
	long fd = syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : (int)fd;
#else
	(void)pid;
	return -ENOSYS;
#endif
}

int nn_pidfd_signal(int fd, int sig)
{
#ifdef SYS_pidfd_send_signal
	return syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0) < 0 ? -errno : 0;
#else
	(void)fd;
	(void)sig;
	return -ENOSYS;
#endif
}
