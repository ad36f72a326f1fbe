// SPDX-License-Identifier: GPL-2.0-or-later
/* test_proc.c - the one process reader (core/proc.c): the stat parser, the
 * readers through a fake root, the kernel-thread rule */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/proc.h"
#include "tmptree.h"

/* /proc/PID/stat: fields counted after the last ')' of comm. */
static void test_parse(void **state)
{
	/* a napi kthread (fields to 39 and beyond); comm with a space and ')' */
	const char *full = "258 (napi/x) y-1) S 2 0 0 0 -1 2129984 0 0 0 0 7 9 0 0 20 0 1 0 100 0 0 "
			   "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 3 0 0 0 0 0\n";
	struct nn_proc_stat st;
	unsigned long long ticks = 0;

	(void)state;
	assert_int_equal(nn_proc_parse_stat(full, &st), 0);
	assert_string_equal(st.comm, "napi/x) y-1");
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.flags, 2129984);
	assert_int_equal(st.utime, 7);
	assert_int_equal(st.stime, 9);
	assert_int_equal(st.starttime, 100);
	assert_int_equal(st.processor, 3);
	assert_true(st.nfields >= 39);
	assert_int_equal(nn_proc_ticks(&st, &ticks), 0);
	assert_int_equal(ticks, 16);
	/* short: what is there is read, the rest stays -1 */
	assert_int_equal(nn_proc_parse_stat("1 (x) R 1 2 3 4 5 64\n", &st), 0);
	assert_int_equal(st.flags, 64);
	assert_int_equal(st.processor, -1);
	assert_int_equal(st.starttime, -1);
	assert_int_equal(st.nfields, 9);
	assert_int_equal(nn_proc_ticks(&st, &ticks), -EINVAL);
	assert_int_equal(nn_proc_parse_stat("no parens", &st), -EINVAL);
	assert_int_equal(nn_proc_parse_stat("1 x) S 1", &st), -EINVAL);	/* no '(' */
	assert_int_equal(nn_proc_parse_stat(") (x S 1", &st), -EINVAL);	/* ')' before '(' */
	assert_int_equal(nn_proc_parse_stat(NULL, &st), -EINVAL);
	assert_int_equal(nn_proc_parse_stat("1 (x) RS 1", &st), -EINVAL);	/* state is one letter */
	assert_int_equal(nn_proc_parse_stat("1 (x) S 1 2 3 4 5 7x\n", &st), -EINVAL);
	assert_int_equal(nn_proc_parse_stat("1 (x) S 1 2 3 4 5 -1\n", &st), -EINVAL);	/* flags < 0 */
	/* a full kthread name (63 bytes kept) and a longer, cut one */
	assert_int_equal(nn_proc_parse_stat("9 (napi/enp1s0f0np0-267) S 2\n", &st), 0);
	assert_string_equal(st.comm, "napi/enp1s0f0np0-267");
	{
		char line[256];

		snprintf(line, sizeof(line), "9 (%0100d) S 2\n", 7);
		assert_int_equal(nn_proc_parse_stat(line, &st), 0);
		assert_int_equal(strlen(st.comm), NN_PROC_COMM_MAX - 1);
	}
}

/* utime + stime at their largest (a crafted stat under --root): no signed
 * overflow (UBSan, halt_on_error, fails the old signed sum), the exact sum. */
static void test_ticks_overflow(void **state)
{
	char line[512];
	struct nn_proc_stat st;
	unsigned long long ticks = 0;

	(void)state;
	snprintf(line, sizeof(line), "7 (x) S 1 1 1 0 -1 4194560 0 0 0 0 %lld %lld 0 0 20 0 1 0 5 0 0 "
		 "0 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0\n", LLONG_MAX, LLONG_MAX);
	assert_int_equal(nn_proc_parse_stat(line, &st), 0);
	assert_int_equal(st.utime, LLONG_MAX);
	assert_int_equal(nn_proc_ticks(&st, &ticks), 0);
	assert_true(ticks == 2ULL * (unsigned long long)LLONG_MAX);
	/* one past LLONG_MAX is not a tick count */
	snprintf(line, sizeof(line), "7 (x) S 1 1 1 0 -1 0 0 0 0 0 9223372036854775808 0 0\n");
	assert_int_equal(nn_proc_parse_stat(line, &st), -EINVAL);
}

/* The readers and the kernel-thread rule on a fake /proc. */
static void test_readers(void **state)
{
	char tmp[PATH_MAX], buf[NN_PROC_COMM_MAX], why[128], path[PATH_MAX + 32];
	struct nn_root root;
	struct nn_proc_stat st;

	(void)state;
	assert_int_equal(tmptree_make(tmp, sizeof(tmp), "proc"), 0);
	/* 10: a kthread; 11: PF_KTHREAD but an exe; 12: a user task; 13: garbage */
	assert_int_equal(tmptree_put(tmp, "proc/10/stat", "10 (napi/enp1s0f0np0-267) S 2 0 0 0 -1 2129984 "
				     "0 0 0 0 3 4 0 0 20 0 1 0 77\n"), 0);
	assert_int_equal(tmptree_put(tmp, "proc/10/comm", "napi/enp1s0f0np0-267\n"), 0);
	assert_int_equal(tmptree_put(tmp, "proc/11/stat", "11 (napi/x-1) S 2 0 0 0 -1 2129984\n"), 0);
	snprintf(path, sizeof(path), "%s/proc/11/exe", tmp);
	assert_int_equal(symlink("/usr/bin/true", path), 0);
	assert_int_equal(tmptree_put(tmp, "proc/12/stat", "12 (napi/x-1) S 1 0 0 0 -1 4194560\n"), 0);
	assert_int_equal(tmptree_put(tmp, "proc/13/stat", "garbage\n"), 0);
	assert_int_equal(tmptree_put(tmp, "obs/1/proc/10/stat", "10 (n) S 2 0 0 0 -1 2129984 0 0 0 0 8 9\n"),
			 0);
	assert_int_equal(nn_root_open(&root, tmp), 0);

	assert_int_equal(nn_proc_read_stat(&root, NULL, 10, &st), 0);
	assert_int_equal(st.starttime, 77);
	assert_int_equal(nn_proc_read_stat(&root, "/obs/1/proc", 10, &st), 0);
	assert_int_equal(st.utime, 8);
	assert_int_equal(nn_proc_read_stat(&root, NULL, 99, &st), -ESRCH);
	assert_int_equal(nn_proc_read_stat(&root, NULL, 13, &st), -EINVAL);
	assert_int_equal(nn_proc_read_comm(&root, 10, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "napi/enp1s0f0np0-267");
	assert_int_equal(nn_proc_read_comm(&root, 99, buf, sizeof(buf)), -ESRCH);
	assert_int_equal(nn_proc_read_exe(&root, 10, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(nn_proc_read_exe(&root, 11, buf, sizeof(buf)), 0);

	assert_int_equal(nn_proc_kthread(&root, 10, &st, why, sizeof(why)), 0);
	assert_string_equal(st.comm, "napi/enp1s0f0np0-267");
	assert_int_equal(nn_proc_kthread(&root, 11, NULL, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "executable"));
	assert_int_equal(nn_proc_kthread(&root, 12, NULL, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "not a kernel thread"));
	assert_int_equal(nn_proc_kthread(&root, 13, NULL, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_proc_kthread(&root, 99, NULL, why, sizeof(why)), -ESRCH);
	nn_root_close(&root);
	assert_int_equal(tmptree_remove(tmp), 0);
}

/* kthreadd's children: only where pid 2 is kthreadd, sorted, kthreadd in. */
static void test_kthreadd_children(void **state)
{
	char tmp[PATH_MAX], path[PATH_MAX + 32];
	struct nn_root root;
	size_t n;
	long *v;

	(void)state;
	assert_int_equal(tmptree_make(tmp, sizeof(tmp), "proc"), 0);
	assert_int_equal(tmptree_put(tmp, "proc/2/stat", "2 (kthreadd) S 0 0 0 0 -1 2129984\n"), 0);
	assert_int_equal(tmptree_put(tmp, "proc/2/task/2/children", "9 3 40 "), 0);
	assert_int_equal(nn_root_open(&root, tmp), 0);
	v = nn_proc_kthreadd_children(&root, &n);
	assert_int_equal(n, 4);
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 3);
	assert_int_equal(v[3], 40);
	assert_true(nn_proc_pid_listed(v, n, 9));
	assert_false(nn_proc_pid_listed(v, n, 10));
	free(v);
	/* pid 2 with an executable (a pid namespace's second process): none */
	snprintf(path, sizeof(path), "%s/proc/2/exe", tmp);
	assert_int_equal(symlink("/usr/bin/sh", path), 0);
	v = nn_proc_kthreadd_children(&root, &n);
	assert_null(v);
	assert_int_equal(n, 0);
	assert_false(nn_proc_pid_listed(v, n, 9));
	nn_root_close(&root);
	assert_int_equal(tmptree_remove(tmp), 0);
}

/* The per-process files' readers: status (uids, CPUs), cmdline and environ
 * split at NULs, numa_maps, task/; a gone pid is -ESRCH. */
static void test_process_files(void **state)
{
	char tmp[PATH_MAX], **w = NULL, *text = NULL;
	struct nn_proc_status st;
	struct nn_root root;
	size_t n = 0;
	DIR *d;

	(void)state;
	assert_int_equal(tmptree_make(tmp, sizeof(tmp), "proc"), 0);
	assert_int_equal(tmptree_put(tmp, "proc/7/status", "Name:\tirqbalance\nState:\tS (sleeping)\n"
				     "Uid:\t0\t1000\t0\t0\nCpus_allowed_list:\t0-3,8\n"), 0);
	assert_int_equal(tmptree_put(tmp, "proc/8/status", "Name:\tx\nUid:\t0 z\n"), 0);
	assert_int_equal(tmptree_put(tmp, "proc/9/status", "Name:\tx\nState:\tS (sleeping)\n"), 0);
	assert_int_equal(tmptree_putn(tmp, "proc/7/cmdline", "irqbalance\0--foreground\0", 24), 0);
	assert_int_equal(tmptree_putn(tmp, "proc/7/environ", "A=1\0B=2", 7), 0);
	assert_int_equal(tmptree_put(tmp, "proc/7/numa_maps", "7f00 default anon=1 N0=1\n"), 0);
	assert_int_equal(tmptree_mkdir(tmp, "proc/7/task/7"), 0);
	assert_int_equal(nn_root_open(&root, tmp), 0);

	assert_int_equal(nn_proc_read_status(&root, 7, &st), 0);
	assert_true(st.has_uid);
	assert_int_equal(st.uid_real, 0);
	assert_int_equal(st.uid_eff, 1000);
	assert_true(st.has_cpus_allowed);
	assert_int_equal(nn_cpuset_count(&st.cpus_allowed), 5);
	assert_false(st.has_mems_allowed);
	nn_proc_status_free(&st);
	assert_int_equal(nn_proc_read_status(&root, 8, &st), -EINVAL);	/* a bad Uid */
	assert_int_equal(nn_proc_read_status(&root, 9, &st), -EINVAL);	/* nothing to read */
	assert_int_equal(nn_proc_read_status(&root, 6, &st), -ESRCH);

	assert_int_equal(nn_proc_read_cmdline(&root, 7, &w, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(w[0], "irqbalance");
	assert_string_equal(w[1], "--foreground");
	assert_null(w[2]);
	free(w[0]);
	free(w[1]);
	free(w);
	assert_int_equal(nn_proc_read_environ(&root, 7, &w, &n), 0);
	assert_int_equal(n, 2);	/* the last word without its NUL counts */
	assert_string_equal(w[1], "B=2");
	free(w[0]);
	free(w[1]);
	free(w);
	assert_int_equal(nn_proc_read_cmdline(&root, 6, &w, &n), -ESRCH);

	assert_int_equal(nn_proc_read_numa_maps(&root, 7, &text), 0);
	assert_non_null(strstr(text, "N0=1"));
	free(text);
	assert_int_equal(nn_proc_open_tasks(&root, 7, &d), 0);
	closedir(d);
	assert_int_equal(nn_proc_open_tasks(&root, 6, &d), -ENOENT);
	nn_root_close(&root);
	assert_int_equal(tmptree_remove(tmp), 0);
}

/* The pidfd pins its process: alive until it exits, -ESRCH after, and a
 * pid with no process gets none. */
static void test_pidfd(void **state)
{
	pid_t kid;
	int fd, status;

	(void)state;
	kid = fork();
	assert_true(kid >= 0);
	if (!kid) {
		pause();
		_exit(0);
	}
	fd = nn_pidfd_open((int)kid);
	if (fd == -ENOSYS) {
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
		skip();
	}
	assert_true(fd >= 0);
	assert_int_equal(nn_pidfd_signal(fd, 0), 0);
	assert_int_equal(nn_pidfd_signal(fd, SIGTERM), 0);
	assert_int_equal(waitpid(kid, &status, 0), kid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	assert_int_equal(nn_pidfd_signal(fd, 0), -ESRCH);
	close(fd);
	assert_int_equal(nn_pidfd_open(-1), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_ticks_overflow),
		cmocka_unit_test(test_readers),
		cmocka_unit_test(test_kthreadd_children),
		cmocka_unit_test(test_process_files),
		cmocka_unit_test(test_pidfd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
