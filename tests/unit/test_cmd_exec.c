// SPDX-License-Identifier: GPL-2.0-or-later
/* test_cmd_exec.c - the bounded command of apply --verify-cmd (core/cmd_exec.c):
 * its capture capped, its whole process group ended at the deadline */
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
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/emit/bench_exec.h"
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

static int run(const char *cmd, double timeout, char **out, struct nn_cmd_result *res)
{
	sigset_t old;
	char *err = NULL;
	int e;

	assert_int_equal(nn_bench_signals_block(&old), 0);
	e = nn_cmd_run(cmd, &old, timeout, out, &err, res);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(err);
	return e;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_capped),
		cmocka_unit_test(test_deadline_ends_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
