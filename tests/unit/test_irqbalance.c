// SPDX-License-Identifier: GPL-2.0-or-later
/* test_irqbalance.c - finding irqbalance in a (fake) /proc, the ban policy
 * script (run with sh, hostile paths chained safely), the restart argv, and
 * that a fake root is never touched */
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
#include "nicnuma/act/irqbalance.h"
#include "tmptree.h"

static char tmp[PATH_MAX];

static void hpath(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s", tmp, rel);
}

static void putn(const char *rel, const char *content, size_t len)
{
	char p[PATH_MAX * 2];
	FILE *f;

	hpath(p, sizeof(p), rel);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(content, 1, len, f), len);
	fclose(f);
}

static void mk(const char *rel)
{
	char p[PATH_MAX * 2];

	hpath(p, sizeof(p), rel);
	assert_int_equal(mkdir(p, 0755), 0);
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
	nn_ctx_free(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ban_script),
		cmocka_unit_test(test_ban_argv),
		cmocka_unit_test(test_inspect_fake_proc),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
