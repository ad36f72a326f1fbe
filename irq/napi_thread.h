/* SPDX-License-Identifier: GPL-2.0-or-later */
/* napi_thread.h - the CPUs of a threaded NAPI's kernel thread (napi/IF-ID)
 *
 * With threaded NAPI (/sys/class/net/IF/threaded, napi-get "threaded") the
 * packet work of a NAPI runs in a kthread the kernel names "napi/IF-ID";
 * netdev genl napi-get gives its pid. nicnuma places it with its IRQ
 * (sched_setaffinity) as the undo kind "napi":
 *   {"kind":"napi","path":"PID","before":"0-1","after":"1",
 *    "detail":"{\"nic\":\"vA\",\"napi_id\":8193}"}
 * Trust rule (apply, check, rollback, the watcher): before any read of its
 * CPUs or any write, the task /proc/PID must still be that thread: a kernel
 * thread (PF_KTHREAD in /proc/PID/stat's flags, no /proc/PID/exe target)
 * whose comm is exactly "napi/IF-ID" of the change's device, truncated to
 * 15 characters as the kernel truncates it. A recycled pid, a user process
 * named like it or another device's thread is refused; a pid that is gone is
 * skipped with a warning. All reads go through the fs root; the affinity
 * call is live-only (under a fake root the CPUs are read from
 * /proc/PID/status Cpus_allowed_list and nothing is written).
 */
#ifndef NICNUMA_IRQ_NAPI_THREAD_H
#define NICNUMA_IRQ_NAPI_THREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/state/undo.h"

struct nn_root;

#define NN_NAPI_COMM_LEN 16		/* TASK_COMM_LEN: 15 characters and the NUL */
#define NN_PF_KTHREAD 0x00200000u	/* include/linux/sched.h */

/* "napi/IF-ID" truncated as the kernel truncates a task's comm; @len >= NN_NAPI_COMM_LEN. */
void nn_napi_comm(char *buf, size_t len, const char *nic, long long napi_id);

/* 0 when /proc/@pid is NAPI @napi_id's kthread of @nic; -ESRCH when the pid
 * is gone; -EPERM when it is another task (@why says which rule failed). */
int nn_napi_thread_verify(const struct nn_root *root, int pid, const char *nic, long long napi_id,
			  char *why, size_t whylen);
/* The thread's allowed CPUs: sched_getaffinity() on the live root, else
 * /proc/PID/status Cpus_allowed_list. Does not verify. */
int nn_napi_thread_get(const struct nn_root *root, int pid, struct nn_cpuset *set);
/* Verifies, sets @want (sched_setaffinity), verifies again (the pid was not
 * recycled under the call) and reads back into @after. Live root only
 * (-EOPNOTSUPP otherwise). 0 or a negative errno with @why set. */
int nn_napi_thread_set(const struct nn_root *root, int pid, const char *nic, long long napi_id,
		       const struct nn_cpuset *want, struct nn_cpuset *after, char *why, size_t whylen);

/* The detail a "napi" change is logged with: {"nic":"IF","napi_id":N}; @len >= 64 + IFNAMSIZ. */
void nn_napi_detail(char *buf, size_t len, const char *nic, long long napi_id);

extern const struct nn_change_ops nn_napi_change_ops;

#endif
