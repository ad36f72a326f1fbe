// SPDX-License-Identifier: GPL-2.0-or-later
/* napi_thread.c - check and place a threaded NAPI's kernel thread */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/core/proc.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/state/value_restore.h"	/* nn_ifname_valid */
#include "irq/napi_thread.h"

void nn_napi_comm(char *buf, size_t len, const char *nic, long long napi_id)
{
	/* A kernel thread's comm is its full name (kernel 5.17+), and napi-get
	 * that names the pid came in 6.8: the name is never cut here. */
	if (len)
		snprintf(buf, len, "napi/%s-%lld", nic, napi_id);
}

int nn_napi_thread_verify(const struct nn_root *root, int pid, const char *nic, long long napi_id,
			  char *why, size_t whylen)
{
	char want[NN_NAPI_COMM_LEN], comm[NN_PROC_COMM_MAX];
	int err;

	if (pid <= 0 || pid > NN_PID_MAX || !nic || !nn_ifname_valid(nic)) {
		snprintf(why, whylen, "pid %d / device '%s' out of range", pid, nic ? nic : "");
		return -EPERM;
	}
	err = nn_proc_kthread(root, pid, NULL, why, whylen);
	if (err)
		return err == -ESRCH ? err : -EPERM;
	err = nn_proc_read_comm(root, pid, comm, sizeof(comm));
	if (err == -ESRCH) {
		snprintf(why, whylen, "pid %d is gone", pid);
		return err;
	}
	if (err) {
		snprintf(why, whylen, "pid %d: its comm is unreadable: %s", pid, strerror(-err));
		return err == -ENAMETOOLONG ? -EPERM : err;
	}
	nn_napi_comm(want, sizeof(want), nic, napi_id);
	if (strcmp(comm, want)) {
		snprintf(why, whylen, "pid %d is '%.40s', not %s's NAPI thread '%s'", pid, comm, nic, want);
		return -EPERM;
	}
	return 0;
}

int nn_napi_comm_parse(const char *comm, char *nic, size_t niclen, long long *n)
{
	const char *dash;
	size_t len;
	long v;

	if (!comm || strncmp(comm, "napi/", 5))
		return -EINVAL;
	comm += 5;
	dash = strrchr(comm, '-');
	if (!dash || dash == comm || !dash[1] || (size_t)(dash - comm) >= niclen)
		return -EINVAL;
	len = (size_t)(dash - comm);
	memcpy(nic, comm, len);
	nic[len] = '\0';
	if (!nn_ifname_valid(nic) || strspn(dash + 1, "0123456789") != strlen(dash + 1) ||
	    strlen(dash + 1) > 10 || nn_parse_long(dash + 1, &v) || v < 0 || v > 0xffffffffL)
		return -EINVAL;
	*n = v;
	return 0;
}

int nn_napi_tx_verify(const struct nn_root *root, int pid, const char *nic, char *why, size_t whylen)
{
	char path[96];
	long *kids, ifindex;
	size_t nkids = 0;
	bool listed;
	int err = nn_napi_thread_verify(root, pid, nic, NN_NAPI_TX_ID, why, whylen);

	if (err)
		return err;
	kids = nn_proc_kthreadd_children(root, &nkids);
	listed = nn_proc_pid_listed(kids, nkids, pid);
	free(kids);
	if (!listed) {
		snprintf(why, whylen, "pid %d is not a child of kthreadd (pid 2): not taken on its name", pid);
		return -EPERM;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", nic);
	if (nn_read_long(root, path, &ifindex)) {
		snprintf(why, whylen, "pid %d: no device %s here", pid, nic);
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
	struct nn_proc_status st;
	int err;

	if (nn_root_is_live(root))
		return live_get(pid, set);
	err = nn_proc_read_status(root, pid, &st);
	if (err == -ESRCH)
		err = -ENOENT;	/* a captured tree without the thread's status */
	if (!err && !st.has_cpus_allowed)
		err = -EINVAL;
	if (!err)
		err = nn_cpuset_copy(set, &st.cpus_allowed);
	nn_proc_status_free(&st);
	return err;
}

/* The live system calls. */
static int sys_open(void *arg, int pid)
{
	(void)arg;
	return nn_pidfd_open(pid);
}

static bool sys_alive(void *arg, int fd)
{
	(void)arg;
	/* signal 0: permission and existence only; ESRCH once the task has exited */
	return nn_pidfd_signal(fd, 0) == 0;
}

static int sys_get(void *arg, int pid, struct nn_cpuset *set)
{
	(void)arg;
	return live_get(pid, set);
}

static int sys_set(void *arg, int pid, const struct nn_cpuset *want)
{
	size_t size;
	cpu_set_t *m;
	int cpu, err;

	(void)arg;
	if (nn_cpuset_empty(want) || nn_cpuset_last(want) >= NN_CPU_MAX)
		return -EINVAL;
	size = CPU_ALLOC_SIZE(nn_cpuset_last(want) + 1);
	m = CPU_ALLOC(nn_cpuset_last(want) + 1);
	if (!m)
		return -ENOMEM;
	CPU_ZERO_S(size, m);
	nn_cpuset_foreach(cpu, want)
		CPU_SET_S((size_t)cpu, size, m);
	err = sched_setaffinity(pid, size, m) < 0 ? -errno : 0;
	CPU_FREE(m);
	return err;
}

static void sys_close(void *arg, int fd)
{
	(void)arg;
	close(fd);
}

static const struct nn_napi_sys live_sys = {
	.open = sys_open, .alive = sys_alive, .get = sys_get, .set = sys_set, .close = sys_close,
};

int nn_napi_thread_set(const struct nn_root *root, int pid, const char *nic, long long napi_id,
		       const struct nn_cpuset *want, struct nn_cpuset *after, char *why, size_t whylen)
{
	if (!nn_root_is_live(root)) {
		snprintf(why, whylen, "not touched (fake root)");
		return -EOPNOTSUPP;
	}
	return nn_napi_thread_set_sys(root, &live_sys, pid, nic, napi_id, want, after, why, whylen);
}

int nn_napi_thread_set_sys(const struct nn_root *root, const struct nn_napi_sys *sys, int pid,
			   const char *nic, long long napi_id, const struct nn_cpuset *want,
			   struct nn_cpuset *after, char *why, size_t whylen)
{
	struct nn_cpuset old = NN_CPUSET_INIT;
	int fd, err;

	if (nn_cpuset_empty(want) || nn_cpuset_last(want) >= NN_CPU_MAX) {
		snprintf(why, whylen, "no CPU to place it on");
		return -EINVAL;
	}
	/* The pidfd pins the task: while it is alive, the pid is that task. */
	fd = sys->open(sys->arg, pid);
	if (fd < 0) {
		if (fd == -ESRCH)
			snprintf(why, whylen, "pid %d is gone", pid);
		else
			snprintf(why, whylen, "pidfd_open(%d): %s", pid, strerror(-fd));
		return fd;
	}
	err = nn_napi_thread_verify(root, pid, nic, napi_id, why, whylen);
	if (!err)
		err = sys->get(sys->arg, pid, &old);
	if (!err && !sys->alive(sys->arg, fd))
		err = -ESRCH;
	if (err) {
		if (err == -ESRCH)
			snprintf(why, whylen, "pid %d is gone", pid);
		else if (!why[0])
			snprintf(why, whylen, "sched_getaffinity(%d): %s", pid, strerror(-err));
		goto out;
	}
	err = sys->set(sys->arg, pid, want);
	if (err == -ESRCH) {
		snprintf(why, whylen, "pid %d is gone", pid);
		goto out;
	}
	if (err) {
		snprintf(why, whylen, "sched_setaffinity(%d): %s", pid, strerror(-err));
		goto out;
	}
	if (!sys->alive(sys->arg, fd)) {
		/* It ended under the call: the pid may be another task's now,
		 * and that task got the NIC's CPUs. Its own set goes back. */
		int put = sys->set(sys->arg, pid, &old);

		snprintf(why, whylen, "pid %d ended during the call: %s", pid,
			 put && put != -ESRCH ? "could not put the CPUs of its successor back"
					      : "the CPUs of the pid were put back");
		err = -ESRCH;
		goto out;
	}
	err = nn_napi_thread_verify(root, pid, nic, napi_id, why, whylen);
	if (!err)
		err = sys->get(sys->arg, pid, after);
	if (err) {
		if (!why[0])
			snprintf(why, whylen, "cannot read back: %s", strerror(-err));
		goto out;
	}
	if (!nn_cpuset_equal(after, want)) {
		snprintf(why, whylen, "set but not kept (read back another set)");
		err = -EIO;
	}
out:
	sys->close(sys->arg, fd);
	nn_cpuset_free(&old);
	return err;
}

void nn_napi_detail(char *buf, size_t len, const char *nic, long long napi_id)
{
	snprintf(buf, len, "{\"nic\":\"%s\",\"napi_id\":%lld}", nic, napi_id);
}
