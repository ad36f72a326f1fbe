// SPDX-License-Identifier: GPL-2.0-or-later
/* test_undo.c - the undo log: persisted 0600 inside the root, newest first,
 * rollback in reverse with readback, damaged logs refused, the state lock */
#include <errno.h>
#include <fcntl.h>
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

#include "nicnuma/ctx.h"
#include "nicnuma/undo.h"
#include "tmptree.h"

static char tmp[PATH_MAX];
static struct nn_ctx ctx;
static FILE *devnull;

static void hpath(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s", tmp, rel);
}

static void put(const char *rel, const char *content)
{
	char p[PATH_MAX * 2];
	FILE *f;

	hpath(p, sizeof(p), rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static char *get(const char *rel)
{
	static char buf[4096];
	char p[PATH_MAX * 2];
	FILE *f;
	size_t n;

	hpath(p, sizeof(p), rel);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int setup(void **state)
{
	char p[PATH_MAX * 2];

	(void)state;
	if (tmptree_make(tmp, sizeof(tmp), "undo"))
		return -1;
	hpath(p, sizeof(p), "proc");
	mkdir(p, 0755);
	hpath(p, sizeof(p), "proc/irq");
	mkdir(p, 0755);
	hpath(p, sizeof(p), "proc/irq/38");
	mkdir(p, 0755);
	hpath(p, sizeof(p), "proc/irq/39");
	mkdir(p, 0755);
	put("proc/irq/38/smp_affinity_list", "0-1\n");
	put("proc/irq/39/smp_affinity_list", "0-1\n");
	if (nn_ctx_init(&ctx, tmp, false))
		return -1;
	devnull = fopen("/dev/null", "w");
	ctx.out.fp = devnull;
	ctx.state_dir = "/var/lib/nicnuma";
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	nn_ctx_free(&ctx);
	fclose(devnull);
	return tmptree_remove(tmp);
}

static void test_record_persists_0600_inside_root(void **state)
{
	struct nn_undo u;
	char p[PATH_MAX * 2], *text;
	struct stat st;
	FILE *f;

	(void)state;
	assert_int_equal(nn_undo_begin(&ctx, &u, "apply"), 0);
	assert_non_null(strstr(u.file, "/var/lib/nicnuma/"));
	assert_int_equal(nn_undo_record(&ctx, &u, NN_CHANGE_FILE, "/proc/irq/38/smp_affinity_list",
					"0-1", "1", NULL), 0);
	/* The log is inside the fake root, not under the real /var/lib. */
	hpath(p, sizeof(p), u.file + 1);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	hpath(p, sizeof(p), "var/lib/nicnuma");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	hpath(p, sizeof(p), u.file + 1);
	f = fopen(p, "r");
	assert_non_null(f);
	text = calloc(1, 8192);
	assert_true(fread(text, 1, 8191, f) > 0);
	fclose(f);
	assert_non_null(strstr(text, "\"version\":1"));
	assert_non_null(strstr(text, "\"kind\":\"file\""));
	assert_non_null(strstr(text, "/proc/irq/38/smp_affinity_list"));
	free(text);
	nn_undo_free(&u);
}

static void test_rollback_restores_in_reverse_and_marks(void **state)
{
	struct nn_undo u, l;
	int lock;

	(void)state;
	lock = nn_state_lock(&ctx);
	assert_true(lock >= 0);
	assert_int_equal(nn_undo_begin(&ctx, &u, "apply"), 0);
	assert_int_equal(nn_undo_add(&u, NN_CHANGE_FILE, "/proc/irq/38/smp_affinity_list", "0-1", "1", NULL), 0);
	/* The same file twice: reverse order must leave the oldest value. */
	assert_int_equal(nn_undo_add(&u, NN_CHANGE_FILE, "/proc/irq/39/smp_affinity_list", "0-1", "0", NULL), 0);
	assert_int_equal(nn_undo_add(&u, NN_CHANGE_FILE, "/proc/irq/39/smp_affinity_list", "0", "1", NULL), 0);
	assert_int_equal(nn_undo_save(&ctx, &u), 0);
	put("proc/irq/38/smp_affinity_list", "1\n");
	put("proc/irq/39/smp_affinity_list", "1\n");

	assert_int_equal(nn_undo_load(&ctx, NULL, &l), 0);
	assert_string_equal(l.file, u.file);
	assert_int_equal(l.nchanges, 3);
	assert_string_equal(l.changes[2].before, "0");
	assert_int_equal(nn_undo_rollback(&ctx, &l), 0);
	assert_string_equal(get("proc/irq/38/smp_affinity_list"), "0-1");
	assert_string_equal(get("proc/irq/39/smp_affinity_list"), "0-1");
	assert_int_equal(nn_undo_mark_rolled_back(&ctx, &l), 0);
	nn_undo_free(&l);
	nn_undo_free(&u);
	/* The first test's log was never rolled back: it is next in line. */
	assert_int_equal(nn_undo_load(&ctx, NULL, &l), 0);
	assert_string_equal(l.command, "apply");
	assert_int_equal(nn_undo_mark_rolled_back(&ctx, &l), 0);
	nn_undo_free(&l);
	assert_int_equal(nn_undo_load(&ctx, NULL, &l), -ENOENT);
	nn_state_unlock(lock);
}

static void test_load_given_file_and_newest(void **state)
{
	struct nn_undo a, b, l;
	const char *base;

	(void)state;
	assert_int_equal(nn_undo_begin(&ctx, &a, "apply"), 0);
	assert_int_equal(nn_undo_record(&ctx, &a, NN_CHANGE_FILE, "/proc/irq/38/smp_affinity_list", "0-1", "0", NULL), 0);
	assert_int_equal(nn_undo_begin(&ctx, &b, "hugepages reserve"), 0);
	assert_int_equal(nn_undo_record(&ctx, &b, NN_CHANGE_FILE, "/proc/irq/39/smp_affinity_list", "0-1", "1", "{\"node\":0}"), 0);
	assert_int_equal(nn_undo_load(&ctx, NULL, &l), 0);
	assert_string_equal(l.file, b.file);
	assert_string_equal(l.command, "hugepages reserve");
	assert_string_equal(l.changes[0].detail, "{\"node\":0}");
	nn_undo_free(&l);
	/* By bare name (looked up in the state dir) and by path inside the root. */
	base = strrchr(a.file, '/') + 1;
	assert_int_equal(nn_undo_load(&ctx, base, &l), 0);
	assert_string_equal(l.changes[0].after, "0");
	nn_undo_free(&l);
	assert_int_equal(nn_undo_load(&ctx, a.file, &l), 0);
	assert_string_equal(l.changes[0].path, "/proc/irq/38/smp_affinity_list");
	nn_undo_free(&l);
	assert_int_equal(nn_undo_mark_rolled_back(&ctx, &a), 0);
	assert_int_equal(nn_undo_mark_rolled_back(&ctx, &b), 0);
	nn_undo_free(&a);
	nn_undo_free(&b);
}

static void test_damaged_log_refused(void **state)
{
	struct nn_undo l;

	(void)state;
	put("var/lib/nicnuma/29990101T000000.000000000Z-apply.json", "{\"version\":1,\"changes\":[{\"kind\":\"bogus\"}]}");
	assert_int_equal(nn_undo_load(&ctx, NULL, &l), -EINVAL);
	put("var/lib/nicnuma/29990101T000000.000000000Z-apply.json", "{not json");
	assert_int_equal(nn_undo_load(&ctx, NULL, &l), -EINVAL);
	put("var/lib/nicnuma/29990101T000000.000000000Z-apply.json",
	    "{\"version\":1,\"changes\":[{\"kind\":\"file\",\"after\":\"1\"}]}");
	assert_int_equal(nn_undo_load(&ctx, NULL, &l), -EINVAL);
	put("var/lib/nicnuma/29990101T000000.000000000Z-apply.json", "{\"version\":1,\"rolled_back\":\"x\",\"changes\":[]}");
	assert_int_equal(nn_undo_load(&ctx, NULL, &l), -ENOENT);
}

static void test_rollback_reports_failure_but_tries_all(void **state)
{
	struct nn_undo u;
	char p[PATH_MAX * 2];

	(void)state;
	hpath(p, sizeof(p), "proc/irq/40");
	mkdir(p, 0755);
	hpath(p, sizeof(p), "proc/irq/40/smp_affinity_list");
	mkdir(p, 0755);	/* a directory: reading it fails */
	put("proc/irq/38/smp_affinity_list", "1\n");
	assert_int_equal(nn_undo_begin(&ctx, &u, "apply"), 0);
	assert_int_equal(nn_undo_add(&u, NN_CHANGE_FILE, "/proc/irq/38/smp_affinity_list", "0-1", "1", NULL), 0);
	assert_int_equal(nn_undo_add(&u, NN_CHANGE_FILE, "/proc/irq/40/smp_affinity_list", "0-1", "1", NULL), 0);
	assert_int_equal(nn_undo_rollback(&ctx, &u), -EISDIR);
	/* The failure on 40 (restored first, reverse order) did not stop 38. */
	assert_string_equal(get("proc/irq/38/smp_affinity_list"), "0-1");
	nn_undo_free(&u);
}

static void test_lock_excludes_second_run(void **state)
{
	int a, b;

	(void)state;
	a = nn_state_lock(&ctx);
	assert_true(a >= 0);
	b = nn_state_lock(&ctx);	/* a new open file description: flock conflicts */
	assert_int_equal(b, -EBUSY);
	nn_state_unlock(a);
	b = nn_state_lock(&ctx);
	assert_true(b >= 0);
	nn_state_unlock(b);
}

static void test_value_equal(void **state)
{
	(void)state;
	assert_true(nn_value_equal("/proc/irq/3/smp_affinity_list", "0-1", "0,1\n"));
	assert_false(nn_value_equal("/proc/irq/3/smp_affinity_list", "0-1", "1"));
	assert_true(nn_value_equal("/sys/class/net/e/queues/tx-0/xps_cpus", "00000003", "3"));
	assert_true(nn_value_equal("/sys/class/net/e/queues/tx-0/xps_cpus", "00000000,00000002", "2"));
	assert_false(nn_value_equal("/x/nr_hugepages", "0-1", "0,1"));
	assert_true(nn_value_equal("/x/nr_hugepages", "16\n", "16"));
	assert_false(nn_value_equal("/x", NULL, "1"));
}

static void test_relative_state_dir_refused(void **state)
{
	const char *saved = ctx.state_dir;
	struct nn_undo u;

	(void)state;
	ctx.state_dir = "relative/dir";
	assert_int_equal(nn_undo_begin(&ctx, &u, "apply"), 0);
	assert_int_equal(nn_undo_record(&ctx, &u, NN_CHANGE_FILE, "/a", "1", "2", NULL), -EINVAL);
	assert_int_equal(u.nchanges, 0);	/* not persisted, so not kept */
	nn_undo_free(&u);
	ctx.state_dir = saved;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_persists_0600_inside_root),
		cmocka_unit_test(test_rollback_restores_in_reverse_and_marks),
		cmocka_unit_test(test_load_given_file_and_newest),
		cmocka_unit_test(test_damaged_log_refused),
		cmocka_unit_test(test_rollback_reports_failure_but_tries_all),
		cmocka_unit_test(test_lock_excludes_second_run),
		cmocka_unit_test(test_value_equal),
		cmocka_unit_test(test_relative_state_dir_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
