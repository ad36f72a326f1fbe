// SPDX-License-Identifier: GPL-2.0-or-later
/* test_cmd_exec.c - the bounded child run of apply --verify-cmd and the bench
 * (core/cmd_exec.c): its capture capped, an argument vector run without a
 * shell, a function child (the OCI hook's), its whole process group ended at
 * the deadline and on an interrupt, SIGKILL after the caller's grace, a
 * detached one (the OCI hook's re-apply) left running past the deadline */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/cmd_exec.h"

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Processes of group @pgid that are not zombies. */
static int group_live(pid_t pgid)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[300], buf[512], *p, state;
		int pgrp;
		FILE *f;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (p && sscanf(p + 1, " %c %*d %d", &state, &pgrp) == 2 && pgrp == pgid && state != 'Z')
			n++;
	}
	closedir(d);
	return n;
}

static int runv(char *const argv[], double timeout, double grace, bool group, char **out,
		struct nn_cmd_result *res)
{
	const struct nn_cmd_limits lim = { timeout, grace, NN_CMD_OUT_MAX, NN_CMD_ERR_MAX, group, false };
	const struct nn_cmd_child c = { .argv = argv };
	sigset_t old;
	char *err = NULL;
	int e;

	assert_int_equal(nn_cmd_signals_block(&old), 0);
	e = nn_cmd_run(&c, &old, &lim, out, &err, res);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(err);
	return e;
}

static int run(const char *cmd, double timeout, char **out, struct nn_cmd_result *res)
{
	char *const argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };

	return runv(argv, timeout, 2.0, true, out, res);
}

static void test_capture_capped(void **state)
{
	struct nn_cmd_result res;
	char *out = NULL;

	(void)state;
	assert_int_equal(run("yes | head -c 1000000", 30, &out, &res), 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(strlen(out), NN_CMD_OUT_MAX);
	assert_int_equal(res.out_dropped, 1000000 - NN_CMD_OUT_MAX);
	free(out);
}

static void test_deadline_ends_group(void **state)
{
	struct nn_cmd_result res;
	char *out = NULL;
	double t = mono();
	pid_t pgid;
	int i;

	(void)state;
	/* the shell's pid is the group's; a background sleep and a foreground one */
	assert_int_equal(run("echo $$; sleep 30 & sleep 30", 0.5, &out, &res), 0);
	assert_true(res.timed_out);
	assert_true(mono() - t < 10);
	pgid = (pid_t)atoi(out);
	assert_true(pgid > 1);
	for (i = 0; i < 50 && group_live(pgid); i++)
		usleep(100 * 1000);
	assert_int_equal(group_live(pgid), 0);
	free(out);
}

/* The bench's forwarder: its words reach it as they are, no shell between. */
static void test_argv_no_shell(void **state)
{
	char *const argv[] = { "/bin/echo", "$HOME;", "a  b", NULL };
	struct nn_cmd_result res;
	char *out = NULL;

	(void)state;
	assert_int_equal(runv(argv, 30, 2.0, false, &out, &res), 0);
	assert_int_equal(res.status, 0);
	assert_string_equal(out, "$HOME; a  b\n");
	free(out);
}

/* A binary that is not there: exit 127 and a message naming it. */
static void test_argv_missing(void **state)
{
	char *const argv[] = { "/nonexistent/nicnuma-fwd", NULL };
	const struct nn_cmd_limits lim = { 30, 2.0, NN_CMD_OUT_MAX, NN_CMD_ERR_MAX, false, false };
	const struct nn_cmd_child c = { .argv = argv };
	struct nn_cmd_result res;
	char *out = NULL, *err = NULL;
	sigset_t old;

	(void)state;
	assert_int_equal(nn_cmd_signals_block(&old), 0);
	assert_int_equal(nn_cmd_run(&c, &old, &lim, &out, &err, &res), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	assert_int_equal(res.status, 127);
	assert_non_null(strstr(err, "cannot run /nonexistent/nicnuma-fwd"));
	free(out);
	free(err);
}

/* A SIGTERM to this process while the child runs: the child gets SIGTERM
 * (the bench's stop), the run says interrupted; a child that ignores it is
 * killed after the caller's grace. */
static void test_interrupt_then_grace(void **state)
{
	char *const argv[] = { "/bin/sh", "-c", "trap '' TERM; sleep 30", NULL };
	struct nn_cmd_result res;
	sigset_t term, old;
	char *out = NULL;
	double t;

	(void)state;
	t = mono();
	/* pending before the run: runv keeps it blocked, the run takes it at once */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	kill(getpid(), SIGTERM);
	assert_int_equal(runv(argv, 30, 0.5, false, &out, &res), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	assert_true(res.interrupted);
	assert_false(res.timed_out);
	assert_int_equal(res.status, 128 + SIGKILL);
	assert_true(mono() - t < 10);
	free(out);
}

/* The child's process group: its own where asked (ended whole), else
 * the caller's (a kill of the caller's group reaches it). */
static void test_group_choice(void **state)
{
	char *const argv[] = { "/bin/sh", "-c", "cut -d' ' -f1,5 /proc/$$/stat", NULL };
	struct nn_cmd_result res;
	long pid, pgrp;
	char *out = NULL;

	(void)state;
	assert_int_equal(runv(argv, 30, 2.0, true, &out, &res), 0);
	assert_int_equal(sscanf(out, "%ld %ld", &pid, &pgrp), 2);
	assert_int_equal(pgrp, pid);
	free(out);
	assert_int_equal(runv(argv, 30, 2.0, false, &out, &res), 0);
	assert_int_equal(sscanf(out, "%ld %ld", &pid, &pgrp), 2);
	assert_int_equal(pgrp, (long)getpgrp());
	free(out);
}

static void say_hello(void *arg)
{
	(void)arg;
	(void)!write(STDOUT_FILENO, "hel\0lo", 6);
}

static void hang(void *arg)
{
	(void)arg;
	pause();
}

/* A function child (the OCI hook's read of config.json): its output and its
 * length kept, NUL bytes and all; one that hangs is SIGKILLed at the
 * deadline and not waited for (abandon). */
static void test_fn_child(void **state)
{
	const struct nn_cmd_limits lim = { 30, 0, 64, 64, false, true };
	const struct nn_cmd_limits short_lim = { 0.3, 0, 64, 64, false, true };
	const struct nn_cmd_child hello = { .fn = say_hello }, hung = { .fn = hang };
	struct nn_cmd_result res;
	char *out = NULL, *err = NULL;
	sigset_t mask;
	double t;

	(void)state;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	assert_int_equal(nn_cmd_run(&hello, &mask, &lim, &out, &err, &res), 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.out_len, 6);
	assert_memory_equal(out, "hel\0lo", 6);
	free(out);
	free(err);
	t = mono();
	assert_int_equal(nn_cmd_run(&hung, &mask, &short_lim, &out, &err, &res), 0);
	assert_true(res.timed_out);
	assert_true(mono() - t < 5);
	free(out);
	free(err);
}

static int run_detached(const char *cmd, double timeout, char **out, struct nn_cmd_result *res)
{
	char *const argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	const struct nn_cmd_limits lim = { timeout, 0, NN_CMD_OUT_MAX, NN_CMD_ERR_MAX, false, false, true };
	const struct nn_cmd_child c = { .argv = argv };
	char *err = NULL;
	sigset_t mask;
	int e;

	sigprocmask(SIG_SETMASK, NULL, &mask);
	e = nn_cmd_run(&c, &mask, &lim, out, &err, res);
	free(err);
	return e;
}

/* detach: a child past the deadline is neither killed nor waited for; it
 * is alive after the return, its pid reported, in a session of its own,
 * and its write to the closed capture fails (EPIPE) instead of killing it
 * (SIGPIPE), so it finishes what it does (exit 7 here). */
static void test_detach_outlives(void **state)
{
	struct nn_cmd_result res;
	char *out = NULL;
	double t = mono();
	int wst = 0;

	(void)state;
	assert_int_equal(run_detached("echo $$; sleep 0.8; echo late; exit 7", 0.3, &out, &res), 0);
	assert_true(mono() - t < 0.75);
	assert_true(res.timed_out);
	assert_true(res.detached);
	assert_true(res.pid > 1);
	assert_int_equal(atoi(out), res.pid);
	assert_int_equal(kill(res.pid, 0), 0);
	assert_int_equal(getsid(res.pid), res.pid);
	assert_int_equal(waitpid(res.pid, &wst, 0), res.pid);
	assert_true(WIFEXITED(wst));
	assert_int_equal(WEXITSTATUS(wst), 7);
	free(out);
}

static void write_late(void *arg)
{
	static char buf[256 * 1024];
	ssize_t n;

	(void)arg;
	usleep(800 * 1000);
	n = write(STDOUT_FILENO, buf, sizeof(buf));
	_exit(n < 0 && errno == EPIPE ? 7 : 1);
}

/* The same for a function child (the hook's re-apply): more than a pipe
 * holds, written after the return, fails at once with EPIPE; it neither
 * dies of SIGPIPE nor blocks on a pipe it holds itself. */
static void test_detach_fn_epipe(void **state)
{
	const struct nn_cmd_limits lim = { 0.3, 0, 64, 64, false, false, true };
	const struct nn_cmd_child c = { .fn = write_late };
	struct nn_cmd_result res;
	char *out = NULL, *err = NULL;
	sigset_t mask;
	int wst = 0, i;

	(void)state;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	assert_int_equal(nn_cmd_run(&c, &mask, &lim, &out, &err, &res), 0);
	assert_true(res.detached);
	assert_int_equal(kill(res.pid, 0), 0);
	for (i = 0; i < 50 && waitpid(res.pid, &wst, WNOHANG) == 0; i++)
		usleep(100 * 1000);
	if (i == 50) {
		kill(res.pid, SIGKILL);
		waitpid(res.pid, &wst, 0);
	}
	assert_true(WIFEXITED(wst));
	assert_int_equal(WEXITSTATUS(wst), 7);
	free(out);
	free(err);
}

/* detach with a child done before the deadline: an ordinary run. */
static void test_detach_in_time(void **state)
{
	struct nn_cmd_result res;
	char *out = NULL;

	(void)state;
	assert_int_equal(run_detached("echo done; exit 3", 30, &out, &res), 0);
	assert_false(res.timed_out);
	assert_false(res.detached);
	assert_int_equal(res.status, 3);
	assert_string_equal(out, "done\n");
	assert_int_equal(kill(res.pid, 0), -1);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_capped),
		cmocka_unit_test(test_deadline_ends_group),
		cmocka_unit_test(test_argv_no_shell),
		cmocka_unit_test(test_argv_missing),
		cmocka_unit_test(test_interrupt_then_grace),
		cmocka_unit_test(test_group_choice),
		cmocka_unit_test(test_fn_child),
		cmocka_unit_test(test_detach_outlives),
		cmocka_unit_test(test_detach_fn_epipe),
		cmocka_unit_test(test_detach_in_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
