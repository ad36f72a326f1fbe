/* SPDX-License-Identifier: GPL-2.0-or-later */
/* proc.h - the one reader of a process under /proc: its stat fields, comm,
 * executable link and the kernel-thread rule
 *
 * irqbalance's identity (irq/irqbalance_id.c), threaded NAPI's kthreads
 * (irq/napi_thread.c), the observe sampler (obs/) and the process map
 * (discover/procmap*.c) all read processes here: one stat parser, one
 * answer to "is this a kernel thread". Reads go through the fs root; the
 * parser is pure (unit-tested, fuzzed: tests/fuzz/fuzz_proc_stat.c).
 * tests/arch/proc_one_reader.sh fails when a /proc/PID/stat or comm read
 * appears anywhere else.
 */
#ifndef NICNUMA_CORE_PROC_H
#define NICNUMA_CORE_PROC_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"

struct nn_root;

/* A task's comm as /proc shows it: a kernel thread's full name (up to 63
 * bytes, kernel 5.17+), a user task's cut at 15 (TASK_COMM_LEN). */
#define NN_PROC_COMM_MAX 64
#define NN_PF_KTHREAD 0x00200000u	/* include/linux/sched.h */

/* The fields of /proc/PID/stat (or task/TID/stat) that nicnuma reads, by the
 * kernel's numbering (proc(5)); a field the text does not reach stays -1 (0
 * for @state, "" for @comm). */
struct nn_proc_stat {
	char comm[NN_PROC_COMM_MAX];	/* field 2, between the first '(' and the last ')' */
	char state;			/* field 3: R, S, D, Z, X ... */
	long long flags;		/* field 9: PF_* */
	long long utime, stime;		/* fields 14, 15: clock ticks */
	long long starttime;		/* field 22: clock ticks after boot */
	long long processor;		/* field 39: the CPU it last ran on */
	unsigned int nfields;		/* fields present (2 = none after comm) */
};
/* The one parser of /proc/PID/stat: comm (field 2) may hold spaces and ')',
 * so fields are counted after the last ')'. Every field read must be a
 * decimal (signed where the kernel prints a sign); -EINVAL when there is no
 * "(...)", a malformed field, or a read field out of range. Pure. */
int nn_proc_parse_stat(const char *text, struct nn_proc_stat *st);
/* utime + stime into *@ticks; -EINVAL when either is unknown. Each is at
 * most LLONG_MAX, so the sum is taken unsigned: it cannot overflow. */
int nn_proc_ticks(const struct nn_proc_stat *st, unsigned long long *ticks);

/* /proc/@pid/stat (@at: a directory that stands for /proc, e.g. a fake root's
 * "/.observe/1/proc", or NULL) parsed into @st. -ESRCH when the pid is gone
 * (no such file), -EINVAL when the text is not a stat line, another -errno
 * from the read. */
int nn_proc_read_stat(const struct nn_root *r, const char *at, int pid, struct nn_proc_stat *st);
/* /proc/@pid/task/@tid/stat, the same way. */
int nn_proc_read_task_stat(const struct nn_root *r, int pid, int tid, struct nn_proc_stat *st);
/* /proc/@pid/comm's line into @buf; -ESRCH gone, -ENAMETOOLONG, -errno. */
int nn_proc_read_comm(const struct nn_root *r, int pid, char *buf, size_t size);
/* /proc/@pid/exe's target into @buf; -ENOENT when it has none (a kernel
 * thread, or a captured tree that kept none), -errno else. */
int nn_proc_read_exe(const struct nn_root *r, int pid, char *buf, size_t size);

/* Whether @pid is a kernel thread: PF_KTHREAD in its stat flags and no
 * executable. 0 yes; -EPERM no (@why says which); -ESRCH gone; -EINVAL an
 * unreadable stat. @st (may be NULL) receives the stat it judged. */
int nn_proc_kthread(const struct nn_root *r, int pid, struct nn_proc_stat *st, char *why,
		    size_t whylen);
/* kthreadd and its children (/proc/2/task/2/children), sorted, in an array
 * to free(): the kernel's threads, and the usermode helpers it runs
 * (modprobe, a core_pattern pipe) while they run. Only where pid 2 is
 * kthreadd (nn_proc_kthread): in a container's pid namespace pid 2 is
 * anybody. There, without CONFIG_PROC_CHILDREN, or out of memory: NULL,
 * *@n 0 (no pid is known to be the kernel's). */
long *nn_proc_kthreadd_children(const struct nn_root *r, size_t *n);
/* Whether @pid is in @pids (sorted: nn_proc_kthreadd_children's). */
bool nn_proc_pid_listed(const long *pids, size_t n, long pid);

/* A pidfd for @pid (pidfd_open(2), Linux 5.3+): it pins the process, so a
 * signal through it never reaches a reused pid, and it polls readable when
 * the process ends. The fd, or -errno: -ESRCH gone, -ENOSYS a kernel or
 * libc without it. */
int nn_pidfd_open(int pid);
/* Sends @sig through pidfd @fd (0: whether it still lives, permission
 * aside): 0, or -errno (-ESRCH once it has exited). */
int nn_pidfd_signal(int fd, int sig);

/* The parts of /proc/PID/status nicnuma reads (proc_status.c): the process
 * map's placement, a NAPI thread's CPUs on a captured tree, irqbalance's
 * uids. */
struct nn_proc_status {
	char name[64];			/* "" unknown */
	char state;			/* State: letter ('R', 'S', 'Z'...), 0 unknown */
	int tgid;			/* -1 unknown */
	int threads;			/* -1 unknown */
	long uid_real, uid_eff;		/* Uid: the first two; -1 unknown */
	struct nn_cpuset cpus_allowed;
	struct nn_cpuset mems_allowed;
	bool has_cpus_allowed, has_mems_allowed, has_uid;
};

/* The one parser of /proc/PID/status. -EINVAL on a malformed value, and
 * naming nothing more than "not a status file" when it has no Uid and neither
 * list (a zombie's status is accepted without them: its task is gone). Pure. */
int nn_proc_status_parse(const char *text, struct nn_proc_status *st);
void nn_proc_status_free(struct nn_proc_status *st);
/* Zombie ('Z') or dead ('X'): it exited and only waits to be reaped, so it has
 * no memory and no threads left to judge. */
bool nn_proc_status_exited(const struct nn_proc_status *st);
/* /proc/@pid/status read and parsed into @st (free it with
 * nn_proc_status_free): -ESRCH when the pid is gone, -EINVAL not a status
 * text, another -errno from the read. */
int nn_proc_read_status(const struct nn_root *r, int pid, struct nn_proc_status *st);
/* /proc/@pid/cmdline and /proc/@pid/environ: their NUL-separated words, a
 * NULL-terminated array of *@n strings to free (each, then the array).
 * -ESRCH gone, -errno. */
int nn_proc_read_cmdline(const struct nn_root *r, int pid, char ***words, size_t *n);
int nn_proc_read_environ(const struct nn_root *r, int pid, char ***words, size_t *n);
/* /proc/@pid/numa_maps's text (malloc'd); -ENOENT without it (no
 * CONFIG_NUMA, or the pid is gone: the caller tells them apart), -errno. */
int nn_proc_read_numa_maps(const struct nn_root *r, int pid, char **text);
/* /proc/@pid/task opened for listing its threads' ids. */
int nn_proc_open_tasks(const struct nn_root *r, int pid, DIR **dir);

#endif
