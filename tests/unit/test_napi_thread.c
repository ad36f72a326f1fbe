// SPDX-License-Identifier: GPL-2.0-or-later
/* test_napi_thread.c - the trust rule of a NAPI kthread (irq/napi_thread.c)
 * and the "napi" undo kind on fake /proc trees, and check/apply of a plan's
 * NAPI threads under a fake root (read, compared, never written) */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/act/change_kinds.h"
#include "irq/napi_thread.h"
#include "tmptree.h"

static char tmp[PATH_MAX];
static struct nn_ctx ctx;

/* A task under the fake /proc: @flags in its stat, @exe a link target or NULL. */
static void task(int pid, const char *comm, unsigned long flags, const char *exe, const char *cpus)
{
	char rel[64], buf[512], path[PATH_MAX + 64];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(buf, sizeof(buf), "%d (%s) S 2 0 0 0 -1 %lu 0 0 0 0 0 0 0 0 20 0 1 0 100 0 0\n", pid,
		 comm, flags);
	assert_int_equal(tmptree_put(tmp, rel, buf), 0);
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	snprintf(buf, sizeof(buf), "%s\n", comm);
	assert_int_equal(tmptree_put(tmp, rel, buf), 0);
	snprintf(rel, sizeof(rel), "proc/%d/status", pid);
	snprintf(buf, sizeof(buf), "Name:\t%s\nState:\tS (sleeping)\nCpus_allowed:\t3\nCpus_allowed_list:\t%s\n"
		 "Mems_allowed_list:\t0\n", comm, cpus);
	assert_int_equal(tmptree_put(tmp, rel, buf), 0);
	if (exe) {
		snprintf(path, sizeof(path), "%s/proc/%d/exe", tmp, pid);
		assert_int_equal(symlink(exe, path), 0);
	}
}

#define KTHREAD (0x208040ul)	/* PF_KTHREAD | PF_NOFREEZE | PF_FORKNOEXEC, as a napi kthread */
#define USER (0x400100ul)	/* PF_RANDOMIZE | PF_SUPERPRIV */

static int setup(void **state)
{
	(void)state;
	if (tmptree_make(tmp, sizeof(tmp), "napi"))
		return -1;
	task(500, "napi/eth0-8193", KTHREAD, NULL, "0-3");
	task(501, "napi/eth0-8194", USER, "/usr/bin/sleep", "0-3");	/* a user process named like it */
	task(502, "napi/eth0-8195", USER, NULL, "0-3");			/* no exe link, not a kthread */
	task(503, "napi/eth0-8196", KTHREAD, "/usr/bin/x", "0-3");	/* a kthread flag and an exe */
	task(504, "napi/eth1-8193", KTHREAD, NULL, "0-3");		/* another device's thread */
	task(505, "napi/vethlongna", KTHREAD, NULL, "1");		/* vethlongname01's, truncated */
	task(506, "x) S 2 (y", USER, NULL, "0");			/* a comm made to fool a stat parser */
	assert_int_equal(tmptree_put(tmp, "sys/devices/system/cpu/online", "0-3\n"), 0);
	return nn_ctx_init(&ctx, tmp, false);
}

static int teardown(void **state)
{
	(void)state;
	nn_ctx_free(&ctx);
	return tmptree_remove(tmp);
}

static void test_comm(void **state)
{
	char c[NN_NAPI_COMM_LEN];

	(void)state;
	nn_napi_comm(c, sizeof(c), "eth0", 8193);
	assert_string_equal(c, "napi/eth0-8193");
	nn_napi_comm(c, sizeof(c), "vethlongname01", 8193);
	assert_string_equal(c, "napi/vethlongna");
	assert_int_equal(strlen(c), 15);
}

static void test_verify(void **state)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	char why[256];
	char *l;

	(void)state;
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 500, "eth0", 8193, why, sizeof(why)), 0);
	assert_int_equal(nn_napi_thread_get(&ctx.root, 500, &s), 0);
	l = nn_cpuset_format_list(&s);
	assert_string_equal(l, "0-3");
	free(l);
	nn_cpuset_free(&s);
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 505, "vethlongname01", 8193, why, sizeof(why)), 0);

	/* the same comm on a user process, with or without an exe link */
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 501, "eth0", 8194, why, sizeof(why)), -EPERM);
	assert_contains(why, "not a kernel thread");
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 502, "eth0", 8195, why, sizeof(why)), -EPERM);
	assert_contains(why, "not a kernel thread");
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 503, "eth0", 8196, why, sizeof(why)), -EPERM);
	assert_contains(why, "has an executable");
	/* another device's thread, another NAPI's, a recycled pid */
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 504, "eth0", 8193, why, sizeof(why)), -EPERM);
	assert_contains(why, "not eth0's NAPI thread 'napi/eth0-8193'");
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 500, "eth0", 8194, why, sizeof(why)), -EPERM);
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 506, "eth0", 8193, why, sizeof(why)), -EPERM);
	/* gone */
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 999, "eth0", 8193, why, sizeof(why)), -ESRCH);
	/* names that cannot be a device */
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 500, "../x", 8193, why, sizeof(why)), -EPERM);
	assert_int_equal(nn_napi_thread_verify(&ctx.root, -1, "eth0", 8193, why, sizeof(why)), -EPERM);
	/* nothing is written under a fake root */
	assert_int_equal(nn_cpuset_parse_list("1", &s), 0);
	{
		struct nn_cpuset after = NN_CPUSET_INIT;

		assert_int_equal(nn_napi_thread_set(&ctx.root, 500, "eth0", 8193, &s, &after, why, sizeof(why)),
				 -EOPNOTSUPP);
		nn_cpuset_free(&after);
	}
	nn_cpuset_free(&s);
	{
		char *st = tmptree_get(tmp, "proc/500/status");

		assert_non_null(st);
		assert_contains(st, "Cpus_allowed_list:\t0-3");
		free(st);
	}
}

static const char *const LOG_HEAD = "{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[";

static int restore_one(int pid, const char *nic, long long id, struct nn_restore *res)
{
	struct nn_undo u;
	char doc[512], why[256];
	int err;

	snprintf(doc, sizeof(doc), "%s{\"kind\":\"napi\",\"path\":\"%d\",\"before\":\"0-1\",\"after\":\"1\","
		 "\"detail\":{\"nic\":\"%s\",\"napi_id\":%lld}}]}", LOG_HEAD, pid, nic, id);
	err = nn_undo_parse(doc, strlen(doc), nn_change_kinds, &u, why, sizeof(why));
	if (err)
		return err;
	assert_int_equal(u.nchanges, 1);
	assert_ptr_equal(u.changes[0].ops, &nn_napi_change_ops);
	assert_true(nn_napi_change_ops.live_only);
	memset(res, 0, sizeof(*res));
	err = u.changes[0].ops->restore(&ctx, &u.changes[0], res);
	nn_undo_free(&u);
	return err;
}

/* Restore checks the thread as apply does: gone is skipped with a warning,
 * another task refused, nothing written. */
static void test_restore(void **state)
{
	struct nn_restore res;
	size_t nw = ctx.nwarns;

	(void)state;
	assert_int_equal(restore_one(999, "eth0", 8193, &res), 0);
	assert_true(res.unchanged);
	assert_int_equal(ctx.nwarns, nw + 1);
	assert_contains(ctx.warns[nw].msg, "is gone");
	free(res.current);
	assert_int_equal(restore_one(501, "eth0", 8194, &res), -EPERM);
	assert_contains(res.why, "not a kernel thread");
	free(res.current);
	assert_int_equal(restore_one(504, "eth0", 8193, &res), -EPERM);
	free(res.current);
	/* the right thread, under a fake root: found, not touched */
	assert_int_equal(restore_one(500, "eth0", 8193, &res), -EOPNOTSUPP);
	assert_string_equal(res.current, "0-3");
	free(res.current);
}

static void plan_with(struct nn_plan *p, int pid, const char *nic, long long id, const char *cpus)
{
	char comm[NN_NAPI_COMM_LEN];

	memset(p, 0, sizeof(*p));
	p->napi_threads = calloc(1, sizeof(*p->napi_threads));
	assert_non_null(p->napi_threads);
	p->nnapi_threads = 1;
	p->napi_threads[0].nic = strdup(nic);
	nn_napi_comm(comm, sizeof(comm), nic, id);
	p->napi_threads[0].name = strdup(comm);
	p->napi_threads[0].pid = pid;
	p->napi_threads[0].napi_id = id;
	assert_int_equal(nn_cpuset_parse_list(cpus, &p->napi_threads[0].cpus), 0);
}

/* check compares a thread's CPUs; a refused task is drift with the reason,
 * a thread gone is skipped; apply under a fake root writes nothing. */
static void test_check_and_apply_fake_root(void **state)
{
	struct nn_check_report cr;
	struct nn_apply_report ar;
	struct nn_apply_opts ao = { 0 };
	struct nn_plan p;

	(void)state;
	plan_with(&p, 500, "eth0", 8193, "0-3");
	assert_int_equal(nn_check_run(&ctx, &p, &cr), 0);
	assert_int_equal(cr.nvals, 1);
	assert_int_equal(cr.vals[0].status, NN_VAL_ALIGNED);
	nn_check_report_free(&cr);
	nn_plan_free(&p);

	plan_with(&p, 500, "eth0", 8193, "1");
	assert_int_equal(nn_check_run(&ctx, &p, &cr), 1);
	assert_int_equal(cr.vals[0].status, NN_VAL_DRIFT);
	assert_string_equal(cr.vals[0].before, "0-3");
	nn_check_report_free(&cr);
	ao.dry_run = false;
	ctx.state_dir = "/state";
	assert_true(nn_apply_run(&ctx, &p, &ao, &ar) >= 0);
	assert_int_equal(ar.vals[0].status, NN_VAL_SKIPPED);
	assert_contains(ar.vals[0].note, "fake root");
	assert_null(ar.snapshot);
	nn_apply_report_free(&ar);
	nn_plan_free(&p);

	plan_with(&p, 501, "eth0", 8194, "1");	/* a user process under that name */
	assert_int_equal(nn_check_run(&ctx, &p, &cr), 1);
	assert_int_equal(cr.vals[0].status, NN_VAL_DRIFT);
	assert_contains(cr.vals[0].note, "not a kernel thread");
	nn_check_report_free(&cr);
	nn_plan_free(&p);

	plan_with(&p, 999, "eth0", 8193, "1");	/* gone: threaded NAPI switched off */
	assert_int_equal(nn_check_run(&ctx, &p, &cr), 0);
	assert_int_equal(cr.vals[0].status, NN_VAL_SKIPPED);
	assert_contains(cr.vals[0].note, "gone");
	nn_check_report_free(&cr);
	nn_plan_free(&p);
	{
		char *st = tmptree_get(tmp, "proc/500/status");

		assert_non_null(st);
		assert_contains(st, "Cpus_allowed_list:\t0-3");
		free(st);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_restore),
		cmocka_unit_test(test_check_and_apply_fake_root),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
