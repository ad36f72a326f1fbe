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
#include "nicnuma/discover/nic.h"
#include "nicnuma/discover/ethtool.h"
#include "nicnuma/discover/ethtool_nl.h"
#include "nicnuma/discover/netdev_genl.h"
#include "nicnuma/plan/plan.h"
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
	task(505, "napi/enp1s0f0np0-267", KTHREAD, NULL, "1");	/* a kthread's comm: the full name */
	task(507, "napi/enp1s0f0np", KTHREAD, NULL, "1");		/* the 15-character cut: not it */
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
	/* never cut at 15 characters: a kernel thread's comm is its full name */
	nn_napi_comm(c, sizeof(c), "enp1s0f0np0", 267);
	assert_string_equal(c, "napi/enp1s0f0np0-267");
	nn_napi_comm(c, sizeof(c), "abcdefghijklmno", 4294967295LL);
	assert_string_equal(c, "napi/abcdefghijklmno-4294967295");
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
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 505, "enp1s0f0np0", 267, why, sizeof(why)), 0);
	assert_int_equal(nn_napi_thread_verify(&ctx.root, 507, "enp1s0f0np0", 267, why, sizeof(why)), -EPERM);
	assert_contains(why, "not enp1s0f0np0's NAPI thread 'napi/enp1s0f0np0-267'");

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

/* Restore checks the thread as apply does: gone, or its pid another task
 * now (reused: the thread ended), is skipped with a warning; nothing is
 * written. */
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
	assert_int_equal(restore_one(501, "eth0", 8194, &res), 0);
	assert_true(res.unchanged);
	assert_int_equal(ctx.nwarns, nw + 2);
	assert_contains(ctx.warns[nw + 1].msg, "is gone (pid 501 is not a kernel thread");
	free(res.current);
	/* another device's thread at the logged pid (a reboot's pids) */
	assert_int_equal(restore_one(504, "eth0", 8193, &res), 0);
	assert_true(res.unchanged);
	assert_int_equal(ctx.nwarns, nw + 3);
	assert_contains(ctx.warns[nw + 2].msg, "not eth0's NAPI thread 'napi/eth0-8193'");
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

/* The kernel's half: napi-get (here a discovery's answers) must name the
 * pid; a kernel thread of that very name that it does not name (a device of
 * the same name in another network namespace) is refused. */
static void test_identify(void **state)
{
	struct nn_genl_napi g[2] = {
		{ .ifindex = 7, .id = 267, .irq = -1, .pid = 505, .threaded = 1 },
		{ .ifindex = 7, .id = 268, .irq = -1, .pid = -1, .threaded = 0 },
	};
	struct nn_nic nic = { .name = (char *)"enp1s0f0np0", .ifindex = 7, .genl_read = true,
			      .gnapis = g, .ngnapis = 2 };
	char why[256];

	(void)state;
	assert_int_equal(nn_napi_identify(&ctx, &nic, 1, 505, "enp1s0f0np0", 267, why, sizeof(why)), 0);
	/* napi-get names another pid: 505 is not its thread any more */
	g[0].pid = 4000;
	assert_int_equal(nn_napi_identify(&ctx, &nic, 1, 505, "enp1s0f0np0", 267, why, sizeof(why)), -EPERM);
	assert_contains(why, "is pid 4000, not 505");
	/* ... and the pid is gone: skipped as gone */
	assert_int_equal(nn_napi_identify(&ctx, &nic, 1, 999, "enp1s0f0np0", 267, why, sizeof(why)), -ESRCH);
	g[0].pid = 505;
	/* not threaded, or no such NAPI on this device here */
	assert_int_equal(nn_napi_identify(&ctx, &nic, 1, 505, "enp1s0f0np0", 268, why, sizeof(why)), -ESRCH);
	assert_contains(why, "names no thread");
	g[0].ifindex = 8;
	assert_int_equal(nn_napi_identify(&ctx, &nic, 1, 505, "enp1s0f0np0", 267, why, sizeof(why)), -ESRCH);
	g[0].ifindex = 7;
}

/* Stand-ins for the system calls: a pidfd whose task ends during the set
 * (a pid recycled under sched_setaffinity). */
struct fake_sys {
	struct nn_cpuset cur;		/* the pid's CPUs */
	int nset, alive_calls, die_after_set;
	char sets[4][16];
};

static int f_open(void *arg, int pid)
{
	(void)arg;
	return pid == 999 ? -ESRCH : 42;
}

static bool f_alive(void *arg, int fd)
{
	struct fake_sys *f = arg;

	assert_int_equal(fd, 42);
	f->alive_calls++;
	return !(f->die_after_set && f->nset > 0);
}

static int f_get(void *arg, int pid, struct nn_cpuset *set)
{
	struct fake_sys *f = arg;

	(void)pid;
	return nn_cpuset_copy(set, &f->cur);
}

static int f_set(void *arg, int pid, const struct nn_cpuset *set)
{
	struct fake_sys *f = arg;
	char *l = nn_cpuset_format_list(set);

	(void)pid;
	assert_non_null(l);
	if (f->nset < 4)
		snprintf(f->sets[f->nset], sizeof(f->sets[0]), "%s", l);
	f->nset++;
	free(l);
	return nn_cpuset_copy(&f->cur, set);
}

static void f_close(void *arg, int fd)
{
	(void)arg;
	assert_int_equal(fd, 42);
}

static void test_set_pidfd(void **state)
{
	struct fake_sys f = { .cur = NN_CPUSET_INIT };
	struct nn_napi_sys sys = { f_open, f_alive, f_get, f_set, f_close, &f };
	struct nn_cpuset want = NN_CPUSET_INIT, after = NN_CPUSET_INIT;
	char why[256] = "";

	(void)state;
	assert_int_equal(nn_cpuset_parse_list("0-3", &f.cur), 0);
	assert_int_equal(nn_cpuset_parse_list("2", &want), 0);
	/* the thread stays: set, read back */
	assert_int_equal(nn_napi_thread_set_sys(&ctx.root, &sys, 500, "eth0", 8193, &want, &after, why,
						sizeof(why)), 0);
	assert_int_equal(f.nset, 1);
	assert_true(nn_cpuset_equal(&after, &want));
	assert_true(f.alive_calls >= 2);
	/* it ends under the call: whatever holds the pid gets its CPUs back */
	assert_int_equal(nn_cpuset_parse_list("0-3", &f.cur), 0);
	f.nset = 0;
	f.die_after_set = 1;
	why[0] = '\0';
	assert_int_equal(nn_napi_thread_set_sys(&ctx.root, &sys, 500, "eth0", 8193, &want, &after, why,
						sizeof(why)), -ESRCH);
	assert_int_equal(f.nset, 2);
	assert_string_equal(f.sets[0], "2");
	assert_string_equal(f.sets[1], "0-3");
	assert_contains(why, "ended during the call");
	/* gone before: nothing set; another task: refused before any set */
	f.nset = 0;
	f.die_after_set = 0;
	assert_int_equal(nn_napi_thread_set_sys(&ctx.root, &sys, 999, "eth0", 8193, &want, &after, why,
						sizeof(why)), -ESRCH);
	assert_int_equal(nn_napi_thread_set_sys(&ctx.root, &sys, 507, "enp1s0f0np0", 267, &want, &after, why,
						sizeof(why)), -EPERM);
	assert_int_equal(f.nset, 0);
	nn_cpuset_free(&f.cur);
	nn_cpuset_free(&want);
	nn_cpuset_free(&after);
}

/* A run's napi-get answers (nn_napi_answers): stands in for the dump and
 * counts it. eth0 is ifindex 3 in the tree; ifindex 9 is another device. */
static int fake_dump(struct nn_ctx *c, struct nn_genl *g, void *arg)
{
	static const struct nn_genl_napi napis[] = {
		{ .ifindex = 3, .id = 8193, .irq = -1, .pid = 500, .threaded = 1 },
		{ .ifindex = 3, .id = 8194, .irq = -1, .pid = 501, .threaded = 1 },
		{ .ifindex = 3, .id = 8196, .irq = -1, .pid = 503, .threaded = 1 },
		{ .ifindex = 9, .id = 8197, .irq = -1, .pid = 504, .threaded = 1 },
	};

	(void)c;
	(*(int *)arg)++;
	g->napis = malloc(sizeof(napis));
	if (!g->napis)
		return -ENOMEM;
	memcpy(g->napis, napis, sizeof(napis));
	g->nnapis = g->ncap = sizeof(napis) / sizeof(napis[0]);
	return 0;
}

/* A plan of one device-wide NAPI setting: eth0's threaded file, on. */
static void plan_threaded(struct nn_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->napi_conf = calloc(1, sizeof(*p->napi_conf));
	assert_non_null(p->napi_conf);
	p->nnapi_conf = 1;
	p->napi_conf[0] = (struct nn_plan_napi_conf){ .nic = strdup("eth0"), .ifindex = 3, .napi_id = -1,
						       .attr = NN_NAPI_THREADED, .value = 1 };
}

/* apply and rollback ask napi-get once per run, not once per thread; every
 * thread is still checked on its own (/proc), and a write that may move
 * NAPIs (nn_napi_answers_stale) makes the next question ask again. */
static void test_answers_one_dump(void **state)
{
	struct nn_napi_answers a = { .dump = fake_dump }, inner = { 0 };
	struct nn_apply_opts ao = { 0 };
	struct nn_apply_report ar;
	struct nn_restore res;
	struct nn_plan p;
	struct nn_undo u;
	char why[256], doc[512];
	int calls = 0;

	(void)state;
	a.arg = &calls;
	assert_int_equal(tmptree_put(tmp, "sys/class/net/eth0/ifindex", "3\n"), 0);
	nn_napi_answers_begin(&ctx, &a);
	assert_int_equal(calls, 0);	/* asked when first needed */
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	/* the kernel names these pids, /proc refuses them: each thread checked */
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 501, "eth0", 8194, why, sizeof(why)), -EPERM);
	assert_contains(why, "not a kernel thread");
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 503, "eth0", 8196, why, sizeof(why)), -EPERM);
	assert_contains(why, "has an executable");
	/* the kernel's thread of 8193 is 500, not 504; 8195 has none; 8197 is another device's */
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 504, "eth0", 8193, why, sizeof(why)), -EPERM);
	assert_contains(why, "is pid 500, not 504");
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 502, "eth0", 8195, why, sizeof(why)), -ESRCH);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 504, "eth0", 8197, why, sizeof(why)), -ESRCH);
	/* rollback's napi kind asks the same answers */
	assert_int_equal(restore_one(999, "eth0", 8193, &res), 0);
	assert_true(res.unchanged);
	free(res.current);
	assert_int_equal(calls, 1);
	assert_int_equal(a.ndumps, 1);

	/* an inner run (apply's own failure rollback) uses the outer's */
	nn_napi_answers_begin(&ctx, &inner);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	nn_napi_answers_end(&ctx, &inner);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	assert_int_equal(inner.ndumps, 0);
	assert_int_equal(calls, 1);

	/* a rollback that writes a kind that moves NAPIs (napi_dev) makes them stale */
	assert_int_equal(tmptree_put(tmp, "sys/class/net/eth0/threaded", "1\n"), 0);
	snprintf(doc, sizeof(doc), "%s{\"kind\":\"napi_dev\",\"path\":\"/sys/class/net/eth0/threaded\","
		 "\"before\":\"0\",\"after\":\"1\"}]}", LOG_HEAD);
	assert_int_equal(nn_undo_parse(doc, strlen(doc), nn_change_kinds, &u, why, sizeof(why)), 0);
	u.file = strdup("/state/x.json");
	assert_int_equal(nn_undo_rollback(&ctx, &u), 0);
	nn_undo_free(&u);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	assert_int_equal(calls, 2);
	/* ... one already as before writes nothing and leaves them */
	assert_int_equal(nn_undo_parse(doc, strlen(doc), nn_change_kinds, &u, why, sizeof(why)), 0);
	u.file = strdup("/state/x.json");
	assert_int_equal(nn_undo_rollback(&ctx, &u), 0);
	nn_undo_free(&u);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	assert_int_equal(calls, 2);

	/* apply's write of the threaded file makes them stale too (the run
	 * inside is served by these answers, as apply's pipeline is) */
	assert_int_equal(tmptree_put(tmp, "sys/class/net/eth0/threaded", "0\n"), 0);
	plan_threaded(&p);
	ctx.state_dir = "/state";
	assert_true(nn_apply_run(&ctx, &p, &ao, &ar) >= 0);
	assert_int_equal(ar.nvals, 1);
	assert_int_equal(ar.vals[0].status, NN_VAL_CHANGED);
	nn_apply_report_free(&ar);
	nn_plan_free(&p);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	assert_int_equal(calls, 3);
	/* ... and a second apply, aligned already, writes nothing and leaves them */
	plan_threaded(&p);
	assert_true(nn_apply_run(&ctx, &p, &ao, &ar) >= 0);
	assert_int_equal(ar.vals[0].status, NN_VAL_UNCHANGED);
	nn_apply_report_free(&ar);
	nn_plan_free(&p);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	assert_int_equal(calls, 3);
	assert_int_equal(tmptree_put(tmp, "sys/class/net/eth0/threaded", "0\n"), 0);

	nn_napi_answers_end(&ctx, &a);
	/* no run's answers under a fake root: no dump at all */
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 500, "eth0", 8193, why, sizeof(why)), 0);
	assert_int_equal(calls, 3);
}

/* The kernel writes that may move NAPIs (channels, ring sizes and
 * coalescing, napi-set) mark the run's answers stale in discover's own
 * setters, whatever the kernel answers: here the live kernel, asked about
 * a device and a NAPI that do not exist, so nothing changes. The answers'
 * question is about lo (every namespace has it). */
static void test_answers_stale_writers(void **state)
{
	struct nn_napi_answers a = { .dump = fake_dump };
	struct nn_ctx live;
	long long after;
	char why[256];
	int calls = 0, pid, err;

	(void)state;
	a.arg = &calls;
	assert_int_equal(nn_ctx_init(&live, "/", false), 0);
	nn_napi_answers_begin(&live, &a);
	assert_int_equal(nn_napi_kernel_pid(&live, NULL, 0, "lo", 8193, &pid), -ENOENT);
	assert_int_equal(nn_napi_kernel_pid(&live, NULL, 0, "lo", 8193, &pid), -ENOENT);
	assert_int_equal(calls, 1);

	assert_true(nn_channels_set(&live, "nnabsent9z", 2, why, sizeof(why)) < 0);
	assert_int_equal(nn_napi_kernel_pid(&live, NULL, 0, "lo", 8193, &pid), -ENOENT);
	assert_int_equal(calls, 2);
	assert_true(nn_eth_set(&live, "nnabsent9z", NN_ETH_RX_USECS, 8, &after, why, sizeof(why)) < 0);
	assert_int_equal(nn_napi_kernel_pid(&live, NULL, 0, "lo", 8193, &pid), -ENOENT);
	assert_int_equal(calls, 3);
	/* a kernel without napi-set sends nothing: nothing to ask again */
	err = nn_genl_napi_set(&live, 0x7ffffff0, NN_NETDEV_A_NAPI_THREADED, 1, why, sizeof(why));
	assert_true(err < 0);
	assert_int_equal(nn_napi_kernel_pid(&live, NULL, 0, "lo", 8193, &pid), -ENOENT);
	assert_int_equal(calls, err == -EOPNOTSUPP ? 3 : 4);

	nn_napi_answers_end(&live, &a);
	nn_ctx_free(&live);
}

/* Threads of NAPIs without an id (TX only): napi-get never names them, so
 * a thread is taken only as a kernel thread, child of kthreadd, named
 * exactly "napi/IF-0" for a device IF here (issue 36 item 8). */
static void test_tx_find(void **state)
{
	struct nn_genl_napi g[1] = { { .ifindex = 2, .id = 8193, .irq = -1, .pid = 500, .threaded = 1 } };
	struct nn_nic nics[2] = {
		{ .name = (char *)"eth0", .ifindex = 2, .genl_read = true, .gnapis = g, .ngnapis = 1 },
		{ .name = (char *)"eth9", .ifindex = 9 },
	};
	char nic[64], why[256];
	long long n;

	(void)state;
	assert_int_equal(nn_napi_comm_parse("napi/eth0-0", nic, sizeof(nic), &n), 0);
	assert_string_equal(nic, "eth0");
	assert_int_equal(n, 0);
	assert_int_equal(nn_napi_comm_parse("napi/veth-a-12", nic, sizeof(nic), &n), 0);
	assert_string_equal(nic, "veth-a");
	assert_int_equal(n, 12);
	assert_int_equal(nn_napi_comm_parse("napi/eth0-", nic, sizeof(nic), &n), -EINVAL);
	assert_int_equal(nn_napi_comm_parse("napi/eth0-+1", nic, sizeof(nic), &n), -EINVAL);
	assert_int_equal(nn_napi_comm_parse("napi/-0", nic, sizeof(nic), &n), -EINVAL);
	assert_int_equal(nn_napi_comm_parse("kworker/0:1", nic, sizeof(nic), &n), -EINVAL);
	task(2, "kthreadd", KTHREAD, NULL, "0-3");
	task(510, "napi/eth0-0", KTHREAD, NULL, "0-3");		/* eth0's TX NAPI */
	task(511, "napi/eth0-0", USER, "/usr/sbin/modprobe", "0-3");	/* a usermode helper */
	task(512, "napi/eth0-0", KTHREAD, NULL, "0-3");		/* not kthreadd's child */
	task(513, "napi/eth9-0", KTHREAD, NULL, "0-3");		/* no device eth9 here */
	task(514, "napi/eth0-77", KTHREAD, NULL, "0-3");		/* an id napi-get does not name */
	assert_int_equal(tmptree_put(tmp, "proc/2/task/2/children", "500 510 511 513 514 "), 0);
	assert_int_equal(tmptree_put(tmp, "sys/class/net/eth0/ifindex", "2\n"), 0);
	assert_int_equal(nn_napi_tx_find(&ctx, nics, 2), 0);
	assert_int_equal(nics[0].ntxnapis, 1);
	assert_int_equal(nics[0].txnapis[0], 510);
	assert_int_equal(nics[1].ntxnapis, 0);
	free(nics[0].txnapis);
	/* the rule as apply, check and rollback ask it (napi_id 0) */
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 510, "eth0", NN_NAPI_TX_ID, why, sizeof(why)), 0);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 511, "eth0", NN_NAPI_TX_ID, why, sizeof(why)), -EPERM);
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 512, "eth0", NN_NAPI_TX_ID, why, sizeof(why)), -EPERM);
	assert_contains(why, "not a child of kthreadd");
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 513, "eth9", NN_NAPI_TX_ID, why, sizeof(why)), -EPERM);
	assert_contains(why, "no device eth9");
	assert_int_equal(nn_napi_identify(&ctx, NULL, 0, 999, "eth0", NN_NAPI_TX_ID, why, sizeof(why)), -ESRCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_restore),
		cmocka_unit_test(test_check_and_apply_fake_root),
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_set_pidfd),
		cmocka_unit_test(test_answers_one_dump),
		cmocka_unit_test(test_answers_stale_writers),
		cmocka_unit_test(test_tx_find),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
