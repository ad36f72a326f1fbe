/* SPDX-License-Identifier: GPL-2.0-or-later */
/* napi_thread.h - the CPUs of a threaded NAPI's kernel thread (napi/IF-ID)
 *
 * With threaded NAPI (/sys/class/net/IF/threaded, napi-get "threaded") the
 * packet work of a NAPI runs in a kthread the kernel names "napi/IF-ID";
 * netdev genl napi-get gives its pid. nicnuma places it with its IRQ
 * (sched_setaffinity) as the undo kind "napi":
 *   {"kind":"napi","path":"PID","before":"0-1","after":"1",
 *    "detail":"{\"nic\":\"vA\",\"napi_id\":8193}"}
 * Trust rule (apply, check, rollback): before any read of its CPUs or any
 * write, two answers must agree. The kernel's: netdev genl napi-get, asked in
 * nicnuma's own network namespace, names this pid as the thread of the
 * device's NAPI id (act/napi_change.c asks it, discover/napi_pid.c; under a
 * fake root the captured answers). The task's: /proc/PID is a kernel thread
 * (PF_KTHREAD in its stat flags, no /proc/PID/exe target: core/proc.h)
 * whose comm is exactly "napi/IF-ID" in full (a kernel thread's comm is not
 * cut at 15 characters; napi/enp1s0f0np0-267 reads so). A recycled pid, a
 * user process named like it, another device's thread, or the thread of a
 * same-named device in another network namespace (which napi-get here does
 * not name) is refused; a pid that is gone is skipped with a warning. The
 * write holds a pidfd: if the thread ends under sched_setaffinity, the CPUs
 * of whatever then holds the pid are put back. All reads go through the fs
 * root; the affinity call is live-only (under a fake root the CPUs are read
 * from /proc/PID/status Cpus_allowed_list and nothing is written).
 */
#ifndef NICNUMA_IRQ_NAPI_THREAD_H
#define NICNUMA_IRQ_NAPI_THREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/proc.h"

struct nn_root;

#define NN_NAPI_COMM_LEN NN_PROC_COMM_MAX	/* "napi/" IFNAMSIZ "-" u32: 32 at most */

/* "napi/IF-ID", the full name the kernel gives the thread; @len >= NN_NAPI_COMM_LEN. */
void nn_napi_comm(char *buf, size_t len, const char *nic, long long napi_id);

/* 0 when /proc/@pid is NAPI @napi_id's kthread of @nic; -ESRCH when the pid
 * is gone; -EPERM when it is another task (@why says which rule failed). */
int nn_napi_thread_verify(const struct nn_root *root, int pid, const char *nic, long long napi_id,
			  char *why, size_t whylen);
/* The thread's allowed CPUs: sched_getaffinity() on the live root, else
 * /proc/PID/status Cpus_allowed_list. Does not verify. */
int nn_napi_thread_get(const struct nn_root *root, int pid, struct nn_cpuset *set);
/* Sets @want (sched_setaffinity) on the thread, pinned by a pidfd: opens
 * it, verifies, reads the CPUs it has, sets, and when the pidfd says the
 * thread ended meanwhile puts those CPUs back on whatever holds the pid now
 * (-ESRCH); else verifies again and reads back into @after. Live root only
 * (-EOPNOTSUPP otherwise). 0 or a negative errno with @why set. The
 * kernel's half of the trust rule (napi-get names @pid) is the caller's. */
int nn_napi_thread_set(const struct nn_root *root, int pid, const char *nic, long long napi_id,
		       const struct nn_cpuset *want, struct nn_cpuset *after, char *why, size_t whylen);

/* The system calls nn_napi_thread_set makes, for a test to stand in for
 * (a pid recycled under the call cannot be made on demand). */
struct nn_napi_sys {
	int (*open)(void *arg, int pid);			/* pidfd or -errno */
	bool (*alive)(void *arg, int fd);			/* the pidfd's task runs */
	int (*get)(void *arg, int pid, struct nn_cpuset *set);	/* sched_getaffinity */
	int (*set)(void *arg, int pid, const struct nn_cpuset *set); /* sched_setaffinity */
	void (*close)(void *arg, int fd);
	void *arg;
};
int nn_napi_thread_set_sys(const struct nn_root *root, const struct nn_napi_sys *sys, int pid,
			   const char *nic, long long napi_id, const struct nn_cpuset *want,
			   struct nn_cpuset *after, char *why, size_t whylen);

/* A NAPI without a NAPI id: one registered for TX only
 * (netif_napi_add_tx: virtio_net's TX NAPI, mlx4's TX CQs, ...) is never
 * hashed, so its id is 0, napi-get never lists it, and its threaded-NAPI
 * kthread is "napi/IF-0" (napi_kthread_create's "napi/%s-%d"). A name
 * proves nothing, so such a thread is taken only when (nn_napi_tx_verify)
 * it is a kernel thread (PF_KTHREAD, no executable) whose parent is
 * kthreadd (pid 2 lists it among its children: no user task can be one),
 * its comm is exactly "napi/IF-0" and IF is a network device here
 * (/sys/class/net/IF). It may serve a same-named device of another network
 * namespace (kthreads have none): keeping it off claimed and isolated CPUs
 * harms nobody. Plans, undo logs and scripts carry it as napi_id 0. */
#define NN_NAPI_TX_ID 0

/* "napi/IF-N" into @nic (of @niclen) and *@n; -EINVAL for anything else
 * (IF a valid interface name, N a decimal without sign). Pure. */
int nn_napi_comm_parse(const char *comm, char *nic, size_t niclen, long long *n);
/* 0 when /proc/@pid is a thread of a NAPI without an id of device @nic
 * (the rule above); -ESRCH gone; -EPERM another task (@why says which). */
int nn_napi_tx_verify(const struct nn_root *root, int pid, const char *nic, char *why, size_t whylen);

/* The detail a "napi" change is logged with: {"nic":"IF","napi_id":N}; @len >= 64 + IFNAMSIZ. */
void nn_napi_detail(char *buf, size_t len, const char *nic, long long napi_id);


#endif
