// SPDX-License-Identifier: GPL-2.0-or-later
/* test_irqbalance.c - finding irqbalance in a (fake) /proc by identity, the
 * ban policy script (run with sh, hostile paths chained safely), the restart
 * argv, the drop-in, an undo log's detail, and that a fake root is never
 * touched */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/trust.h"
#include "irq/irqbalance.h"
#include "tmptree.h"
#include "irq/irqbalance_id.h"

static char tmp[PATH_MAX];

static void hpath(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s", tmp, rel);
}

static void putn(const char *rel, const char *content, size_t len)
{
	assert_int_equal(tmptree_putn(tmp, rel, content, len), 0);
}

static void mk(const char *rel)
{
	assert_int_equal(tmptree_mkdir(tmp, rel), 0);
}

static int setup(void **state)
{
	(void)state;
	return tmptree_make(tmp, sizeof(tmp), "irqbalance");
}

static int teardown(void **state)
{
	(void)state;
	return tmptree_remove(tmp);
}

/* Runs @script with sh and the args irqbalance passes; stdout into @out. */
static int run_script(const char *script, const char *irq, char *out, size_t size)
{
	char cmd[PATH_MAX * 3];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "sh '%s' /sys/devices/x %s", script, irq);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	return pclose(p);
}

static void test_ban_script(void **state)
{
	const int irqs[] = { 38, 39, 1024 };
	char path[PATH_MAX * 2], chained[PATH_MAX * 2], out[256], *text;

	(void)state;
	text = nn_irqb_ban_script(irqs, 3, NULL);
	assert_non_null(text);
	hpath(path, sizeof(path), "ban.sh");
	putn("ban.sh", text, strlen(text));
	free(text);
	assert_int_equal(run_script(path, "38", out, sizeof(out)), 0);
	assert_string_equal(out, "ban=true\n");
	assert_int_equal(run_script(path, "1024", out, sizeof(out)), 0);
	assert_string_equal(out, "ban=true\n");
	/* Other IRQs: nothing said, exit 0 (irqbalance wants a zero exit). */
	assert_int_equal(run_script(path, "3", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(run_script(path, "388", out, sizeof(out)), 0);
	assert_string_equal(out, "");

	/* The daemon's own policy script, at a hostile path, gets the rest. */
	mk("it's $(touch pwned) dir");
	hpath(chained, sizeof(chained), "it's $(touch pwned) dir/policy.sh");
	putn("it's $(touch pwned) dir/policy.sh", "echo \"chained $2\"\n", 18);
	assert_int_equal(chmod(chained, 0755), 0);	/* irqbalance runs executables only */
	text = nn_irqb_ban_script(irqs, 3, chained);
	assert_non_null(text);
	putn("ban2.sh", text, strlen(text));
	free(text);
	hpath(path, sizeof(path), "ban2.sh");
	assert_int_equal(run_script(path, "40", out, sizeof(out)), 0);
	assert_string_equal(out, "chained 40\n");
	assert_int_equal(run_script(path, "39", out, sizeof(out)), 0);
	assert_string_equal(out, "ban=true\n");
	assert_int_equal(access("pwned", F_OK), -1);
}

static void test_ban_argv(void **state)
{
	char *argv[] = { "/usr/sbin/irqbalance", "--foreground", "-l", "/old.sh", "--interval=1",
			 "--policyscript=/x.sh", "-l/y.sh", "--pid=/run/i.pid", NULL };
	struct nn_irqb_proc p = { .pid = 7, .argv = argv, .argc = 8 };
	char **v;

	(void)state;
	assert_string_equal(nn_irqb_policy_arg(&p), "/old.sh");
	v = nn_irqb_ban_argv(&p, "/var/lib/nicnuma/irqbalance-ban.sh");
	assert_non_null(v);
	assert_string_equal(v[0], "/usr/sbin/irqbalance");
	assert_string_equal(v[1], "--foreground");
	assert_string_equal(v[2], "--interval=1");
	assert_string_equal(v[3], "--pid=/run/i.pid");
	assert_string_equal(v[4], "--policyscript=/var/lib/nicnuma/irqbalance-ban.sh");
	assert_null(v[5]);
	free(v[4]);
	free(v);
	assert_false(nn_irqb_is_fenced(&p));
	argv[5] = "--policyscript=/var/lib/nicnuma/irqbalance-ban.sh";
	assert_true(nn_irqb_is_fenced(&p));
}

static void test_inspect_fake_proc(void **state)
{
	static const char cmd[] = "/usr/sbin/irqbalance\0--foreground\0--interval=1\0";
	static const char env[] = "PATH=/bin\0IRQBALANCE_BANNED_CPULIST=3\0HOME=/\0";
	struct nn_irqb_proc p;
	struct nn_irqb_op op;
	struct nn_ctx ctx;
	char root[PATH_MAX + 8];
	int irqs[] = { 38 };

	(void)state;
	snprintf(root, sizeof(root), "%s/root", tmp);
	mk("root");
	mk("root/proc");
	mk("root/proc/1");
	putn("root/proc/1/comm", "init\n", 5);
	mk("root/proc/77");	/* an exited irqbalance: a zombie is not running */
	putn("root/proc/77/comm", "irqbalance\n", 11);
	putn("root/proc/77/stat", "77 (irqbalance) Z 1 77\n", 23);
	mk("root/proc/1734");
	putn("root/proc/1734/comm", "irqbalance\n", 11);
	putn("root/proc/1734/stat", "1734 (irqbalance) S 1 1734\n", 27);
	putn("root/proc/1734/cmdline", cmd, sizeof(cmd) - 1);
	putn("root/proc/1734/environ", env, sizeof(env) - 1);
	mk("root/proc/self");
	assert_int_equal(nn_ctx_init(&ctx, root, false), 0);
	assert_int_equal(nn_irqb_inspect(&ctx, &p), 0);
	assert_int_equal(p.pid, 1734);
	assert_false(p.systemd);
	assert_int_equal(p.argc, 3);
	assert_string_equal(p.argv[2], "--interval=1");
	assert_int_equal(p.nenv, 1);
	assert_string_equal(p.env[0], "IRQBALANCE_BANNED_CPULIST=3");
	nn_irqb_proc_free(&p);
	/* Under a fake root nothing is done, whatever the mode. */
	assert_int_equal(nn_irqb_prepare(&ctx, NN_IRQB_STOP, irqs, 1, &op), 0);
	assert_true(op.noop);
	assert_string_equal(op.before, "running");
	assert_string_equal(op.status, "not touched (fake root)");
	assert_int_equal(nn_irqb_act(&ctx, &op, NULL, 0), 0);
	nn_irqb_op_free(&op);
	/* --irqbalance=ignore from what discovery found: the same report as a
	 * prepare that walks /proc, without the walk. */
	assert_int_equal(nn_irqb_prepare(&ctx, NN_IRQB_NONE, irqs, 1, &op), 0);
	{
		struct nn_irqb_op seen;

		nn_irqb_prepare_ignore(&ctx, 1734, false, irqs, 1, &seen);
		assert_true(seen.noop);
		assert_int_equal(seen.action, NN_IRQB_NONE);
		assert_int_equal(seen.proc.pid, op.proc.pid);
		assert_string_equal(seen.before, op.before);
		assert_string_equal(seen.after, op.after);
		assert_string_equal(seen.status, op.status);
		nn_irqb_op_free(&seen);
		nn_irqb_prepare_ignore(&ctx, -1, false, irqs, 1, &seen);
		assert_int_equal(seen.proc.pid, -1);
		assert_string_equal(seen.before, "stopped");
		nn_irqb_op_free(&seen);
	}
	nn_irqb_op_free(&op);
	nn_ctx_free(&ctx);
}

static void symlink_rel(const char *target, const char *rel)
{
	char p[PATH_MAX * 2];

	hpath(p, sizeof(p), rel);
	assert_int_equal(symlink(target, p), 0);
}

/* One fake process: comm irqbalance, state, uids, exe link. */
static void fake_proc(const char *root, int pid, char state, int uid, const char *exe)
{
	char rel[PATH_MAX], text[256];

	snprintf(rel, sizeof(rel), "%s/proc/%d", root, pid);
	mk(rel);
	snprintf(rel, sizeof(rel), "%s/proc/%d/comm", root, pid);
	putn(rel, "irqbalance\n", 11);
	snprintf(rel, sizeof(rel), "%s/proc/%d/stat", root, pid);
	snprintf(text, sizeof(text), "%d (irqbalance) %c 1 %d\n", pid, state, pid);
	putn(rel, text, strlen(text));
	snprintf(rel, sizeof(rel), "%s/proc/%d/status", root, pid);
	snprintf(text, sizeof(text), "Name:\tirqbalance\nState:\t%c\nUid:\t%d\t%d\t%d\t%d\n",
		 state, uid, uid, uid, uid);
	putn(rel, text, strlen(text));
	snprintf(rel, sizeof(rel), "%s/proc/%d/cmdline", root, pid);
	putn(rel, "irqbalance\0--foreground\0", 24);
	snprintf(rel, sizeof(rel), "%s/proc/%d/exe", root, pid);
	symlink_rel(exe, rel);
}

/* Only a uid-0 process running a root-owned system binary is irqbalance; a
 * user's process of that name, a root one running a /tmp binary and a
 * zombie are not. Needs root to own the fake binaries. */
static void test_identity_rules(void **state)
{
	char root[PATH_MAX + 8], p[PATH_MAX * 2], why[PATH_MAX + 64];
	struct nn_irqb_proc proc;
	struct nn_ctx ctx;
	size_t i;
	bool user_said = false, tmp_said = false;

	(void)state;
	if (geteuid() != 0)
		skip();
	mk("id");
	hpath(p, sizeof(p), "id");
	assert_int_equal(chmod(p, 0755), 0);
	mk("id/usr");
	mk("id/usr/sbin");
	putn("id/usr/sbin/irqbalance", "#!/bin/sh\n", 10);
	hpath(p, sizeof(p), "id/usr/sbin/irqbalance");
	assert_int_equal(chmod(p, 0755), 0);
	mk("id/tmp");
	hpath(p, sizeof(p), "id/tmp");
	assert_int_equal(chmod(p, 01777), 0);
	putn("id/tmp/irqbalance", "#!/bin/sh\n", 10);
	mk("id/proc");
	mk("id/proc/1");
	putn("id/proc/1/comm", "init\n", 5);
	fake_proc("id", 100, 'S', 1000, "/usr/sbin/irqbalance");	/* a user's */
	fake_proc("id", 200, 'S', 0, "/tmp/irqbalance");		/* root, /tmp binary */
	fake_proc("id", 300, 'Z', 0, "/usr/sbin/irqbalance");	/* exited */
	fake_proc("id", 400, 'S', 0, "/usr/sbin/irqbalance");	/* the system's */
	snprintf(root, sizeof(root), "%s/id", tmp);
	assert_int_equal(nn_ctx_init(&ctx, root, false), 0);
	assert_int_equal(nn_irqb_inspect(&ctx, &proc), 0);
	assert_int_equal(proc.pid, 400);
	assert_string_equal(proc.exe, "/usr/sbin/irqbalance");
	assert_string_equal(proc.argv[0], "/usr/sbin/irqbalance");
	nn_irqb_proc_free(&proc);
	for (i = 0; i < ctx.nwarns; i++) {
		user_said |= strstr(ctx.warns[i].msg, "pid 100, uid 1000") != NULL;
		tmp_said |= strstr(ctx.warns[i].msg, "pid 200, uid 0, exe /tmp/irqbalance") != NULL;
	}
	assert_true(user_said);
	assert_true(tmp_said);
	assert_true(nn_irqb_is_system_pid(&ctx, 400));
	assert_false(nn_irqb_is_system_pid(&ctx, 100));
	assert_false(nn_irqb_is_system_pid(&ctx, 200));
	assert_false(nn_irqb_is_system_pid(&ctx, 300));
	/* The binary found again for a restart: never a path the log names. */
	assert_int_equal(nn_irqb_system_exe(&ctx, "/tmp/irqbalance", p, sizeof(p)), 0);
	assert_string_equal(p, "/usr/sbin/irqbalance");
	/* A group-writable binary or directory is not root's alone. */
	hpath(p, sizeof(p), "id/usr/sbin/irqbalance");
	assert_int_equal(chmod(p, 0775), 0);
	assert_int_not_equal(nn_trusted_file(&ctx.root, "/usr/sbin/irqbalance", why,
						  sizeof(why)), 0);
	assert_false(nn_irqb_is_system_pid(&ctx, 400));
	assert_int_equal(chmod(p, 0755), 0);
	hpath(p, sizeof(p), "id/usr");
	assert_int_equal(chmod(p, 0777), 0);
	assert_false(nn_irqb_is_system_pid(&ctx, 400));
	assert_int_equal(chmod(p, 0755), 0);
	assert_true(nn_irqb_is_system_pid(&ctx, 400));
	/* A policy script runs as root: a /tmp one is dropped, a system one kept. */
	{
		char *in[] = { "irqbalance", "-l", "/tmp/irqbalance", "--policyscript",
			       "/usr/sbin/irqbalance" }, **out;
		size_t n;

		assert_int_equal(nn_irqb_filter_argv(&ctx, NULL, in, 5, NULL, false, &out, &n), 0);
		assert_int_equal(n, 2);
		assert_string_equal(out[1], "--policyscript=/usr/sbin/irqbalance");
		free(out[0]);
		free(out[1]);
		free(out);
	}
	nn_ctx_free(&ctx);
}

/* A program is irqbalance by its executable, not by the comm it gives itself:
 * the system binary under another comm is found; a process that calls itself
 * irqbalance but runs another program (a script, a link of that name) is not
 * one at all, and a copy called irqbalance outside the system directories is
 * reported and left alone. Needs root to own the fake binaries. */
static void test_identity_by_exe(void **state)
{
	char root[PATH_MAX + 8], p[PATH_MAX * 2];
	struct nn_irqb_proc proc;
	struct nn_ctx ctx;
	size_t i;
	bool copy_said = false, other_said = false;

	(void)state;
	if (geteuid() != 0)
		skip();
	mk("ex");
	hpath(p, sizeof(p), "ex");
	assert_int_equal(chmod(p, 0755), 0);
	mk("ex/usr");
	mk("ex/usr/sbin");
	putn("ex/usr/sbin/irqbalance", "#!/bin/sh\n", 10);
	hpath(p, sizeof(p), "ex/usr/sbin/irqbalance");
	assert_int_equal(chmod(p, 0755), 0);
	mk("ex/proc");
	mk("ex/proc/1");
	putn("ex/proc/1/comm", "init\n", 5);
	fake_proc("ex", 100, 'S', 0, "/usr/bin/dash");		/* comm irqbalance, runs dash */
	fake_proc("ex", 200, 'S', 0, "/opt/x/irqbalance (deleted)");	/* a copy */
	fake_proc("ex", 300, 'S', 0, "/usr/sbin/irqbalance");	/* the system's ... */
	putn("ex/proc/300/comm", "irqb-renamed\n", 13);		/* ... under another comm */
	snprintf(root, sizeof(root), "%s/ex", tmp);
	assert_int_equal(nn_ctx_init(&ctx, root, false), 0);
	assert_int_equal(nn_irqb_inspect(&ctx, &proc), 0);
	assert_int_equal(proc.pid, 300);
	assert_string_equal(proc.exe, "/usr/sbin/irqbalance");
	nn_irqb_proc_free(&proc);
	for (i = 0; i < ctx.nwarns; i++) {
		copy_said |= strstr(ctx.warns[i].msg, "pid 200, uid 0, exe /opt/x/irqbalance") != NULL;
		other_said |= strstr(ctx.warns[i].msg, "pid 100,") != NULL;
	}
	assert_true(copy_said);
	assert_false(other_said);
	assert_true(nn_irqb_is_system_pid(&ctx, 300));
	assert_false(nn_irqb_is_system_pid(&ctx, 100));
	assert_false(nn_irqb_is_system_pid(&ctx, 200));
	nn_ctx_free(&ctx);
}

/* A process alone, zombie or not, is judged the same way by every caller. */
static void test_zombie_not_running(void **state)
{
	char root[PATH_MAX + 8];
	struct nn_irqb_proc proc;
	struct nn_ctx ctx;

	(void)state;
	mk("zz");
	mk("zz/proc");
	mk("zz/proc/1");
	putn("zz/proc/1/comm", "init\n", 5);
	mk("zz/proc/55");
	putn("zz/proc/55/comm", "irqbalance\n", 11);
	putn("zz/proc/55/stat", "55 (irqbalance) Z 1 55\n", 23);
	putn("zz/proc/55/cmdline", "irqbalance\0", 11);
	snprintf(root, sizeof(root), "%s/zz", tmp);
	assert_int_equal(nn_ctx_init(&ctx, root, false), 0);
	assert_int_equal(nn_irqb_inspect(&ctx, &proc), 0);
	assert_int_equal(proc.pid, -1);
	nn_irqb_proc_free(&proc);
	nn_ctx_free(&ctx);
}

/* What an undo log's irqbalance detail may say before rollback acts on it. */
static void test_validate_detail(void **state)
{
	static const struct {
		const char *before, *detail;
		int ok;
	} cases[] = {
		{ "running", "{\"mode\":\"stop\",\"systemd\":false,\"pid\":7,\"exe\":\"/usr/sbin/irqbalance\","
		  "\"argv\":[\"/usr/sbin/irqbalance\",\"--foreground\",\"--banirq=38\"],"
		  "\"env\":[\"IRQBALANCE_BANNED_CPULIST=3\"]}", 1 },
		{ "stopped", "{\"mode\":\"ban\",\"systemd\":true,\"unit_enabled\":true,\"unit_active\":false}", 1 },
		{ "running", "{\"mode\":\"stop\",\"exe\":null,\"argv\":[\"irqbalance\"]}", 1 },
		/* older logs' paths are accepted (and ignored: both are derived)
		 * only when they name nicnuma's own files */
		{ "running", "{\"mode\":\"ban\",\"script\":\"/var/lib/nicnuma/irqbalance-ban.sh\","
		  "\"dropin\":\"/run/systemd/system/irqbalance.service.d/50-nicnuma-ban.conf\"}", 1 },
		{ "running", "{\"mode\":\"ban\",\"script\":\"/etc/passwd\"}", 0 },
		{ "running", "{\"mode\":\"ban\",\"script\":\"/x/../etc/irqbalance-ban.sh\"}", 0 },
		{ "running", "{\"mode\":\"stop\",\"exe\":\"/tmp/evil\"}", 0 },
		{ "running", "{\"mode\":\"stop\",\"exe\":\"/usr/sbin/../../tmp/irqbalance\"}", 0 },
		{ "running", "{\"mode\":\"stop\",\"argv\":[\"/tmp/evil\"]}", 0 },
		{ "running", "{\"mode\":\"stop\",\"argv\":[\"irqbalance\",\"--policyscript=/tmp/x y\"]}", 0 },
		{ "running", "{\"mode\":\"stop\",\"argv\":[\"irqbalance\",\"-l\",\"/x\"]}", 0 },
		{ "running", "{\"mode\":\"stop\",\"argv\":[\"irqbalance\",\"--pid=/etc/shadow\"]}", 0 },
		{ "running", "{\"mode\":\"stop\",\"argv\":[\"irqbalance\",\"--debug=1\"]}", 0 },
		{ "running", "{\"mode\":\"stop\",\"env\":[\"LD_PRELOAD=/tmp/x.so\"]}", 0 },
		{ "running", "{\"mode\":\"stop\",\"env\":[\"IRQBALANCE_ARGS=a\\nb\"]}", 0 },
		{ "running", "{\"mode\":\"stop\",\"env\":[\"IRQBALANCE_X=a\\u0000b\"]}", 0 },
		{ "running", "{\"mode\":\"stop\",\"dropin\":\"/etc/cron.d/x\"}", 0 },
		{ "running", "{\"mode\":\"stop\",\"run\":\"/tmp/evil\"}", 0 },
		{ "running", "{\"mode\":\"start\"}", 0 },
		{ "running", "{\"mode\":\"stop\",\"systemd\":\"yes\"}", 0 },
		{ "running", "[1]", 0 },
		{ "running", "not json", 0 },
		{ "running", NULL, 0 },
		{ "maybe", "{\"mode\":\"stop\"}", 0 },
		{ NULL, "{\"mode\":\"stop\"}", 0 },
	};
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r;

		why[0] = '\0';
		r = nn_irqb_validate(cases[i].before, cases[i].detail, why, sizeof(why));
		if (cases[i].ok != !r)
			fail_msg("case %zu: %s -> %d (%s)", i, cases[i].detail ? cases[i].detail : "NULL",
				 r, why);
		if (r)
			assert_true(why[0] != '\0');
	}
}

/* Arguments and environment that go back to a root daemon are irqbalance's own. */
static void test_filter_argv_env(void **state)
{
	char *in[] = { "/tmp/evil", "--foreground", "-l", "/tmp/x;id", "-i38", "--banirq", "39",
		       "--policyscript=/var/lib/nicnuma/irqbalance-ban.sh", "-fd", "--pid=/etc/x",
		       "--interval=abc", "-t", "5", "x;id", "--debug" };
	char *env[] = { "PATH=/tmp", "LD_PRELOAD=/tmp/x.so", "IRQBALANCE_BANNED_CPULIST=3",
			"IRQBALANCE_ONESHOT=a\nb", "IRQBALANCE_DEBUG=1" };
	char **out = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(nn_irqb_filter_argv(NULL, "/usr/sbin/irqbalance", in, 15,
					     "/var/lib/nicnuma/irqbalance-ban.sh", false, &out, &n), 0);
	assert_int_equal(n, 6);
	assert_string_equal(out[0], "/usr/sbin/irqbalance");
	assert_string_equal(out[1], "--foreground");
	assert_string_equal(out[2], "--banirq=38");
	assert_string_equal(out[3], "--banirq=39");
	assert_string_equal(out[4], "--interval=5");
	assert_string_equal(out[5], "--debug");
	assert_null(out[6]);
	for (size_t i = 0; i < n; i++)
		free(out[i]);
	free(out);
	assert_int_equal(nn_irqb_filter_env(NULL, env, 5, &out, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(out[0], "IRQBALANCE_BANNED_CPULIST=3");
	assert_string_equal(out[1], "IRQBALANCE_DEBUG=1");
	free(out[0]);
	free(out[1]);
	free(out);
}

/* A long executable path once overran the drop-in's heap buffer (sized from
 * argv only); every word is also quoted for systemd (nn_sd_quote: only
 * where needed). Run under ASan. */
static void test_dropin_long_exe(void **state)
{
	char exe[3000], *argv[] = { exe, "--foreground", "--banirq=5%i$x", NULL }, *text, *want;
	struct nn_irqb_proc p = { .pid = 7, .exe = exe, .argv = argv, .argc = 3 };

	(void)state;
	memset(exe, 'a', sizeof(exe) - 1);
	exe[0] = '/';
	exe[sizeof(exe) - 1] = '\0';
	text = nn_irqb_dropin_text(&p, "/var/lib/nicnuma/irqbalance-ban.sh");
	assert_non_null(text);
	assert_int_equal(asprintf(&want, "# nicnuma apply --irqbalance=ban (removed by rollback)\n"
				  "[Service]\nExecStart=\nExecStart=%s --foreground "
				  "\"--banirq=5%%%%i$$x\" "
				  "--policyscript=/var/lib/nicnuma/irqbalance-ban.sh\n", exe) > 0, 1);
	assert_string_equal(text, want);
	free(want);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ban_script),
		cmocka_unit_test(test_ban_argv),
		cmocka_unit_test(test_inspect_fake_proc),
		cmocka_unit_test(test_identity_rules),
		cmocka_unit_test(test_identity_by_exe),
		cmocka_unit_test(test_zombie_not_running),
		cmocka_unit_test(test_validate_detail),
		cmocka_unit_test(test_filter_argv_env),
		cmocka_unit_test(test_dropin_long_exe),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
