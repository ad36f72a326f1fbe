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
#include <sys/types.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include <stdbool.h>
#include <time.h>
#include "nicnuma/state/undo.h"
#include "nicnuma/state/tx.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/act/change_kinds.h"
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
	assert_int_equal(tmptree_put(tmp, rel, content), 0);
}

/* The file's first line. */
static char *get(const char *rel)
{
	static char buf[4096];
	char *s = tmptree_get(tmp, rel);

	assert_non_null(s);
	snprintf(buf, sizeof(buf), "%s", s);
	free(s);
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
	assert_contains(u.file, "/var/lib/nicnuma/");
	assert_int_equal(nn_undo_record(&ctx, &u, &nn_file_change_ops, "/proc/irq/38/smp_affinity_list",
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
	assert_contains(text, "\"version\":1");
	assert_contains(text, "\"kind\":\"file\"");
	assert_contains(text, "/proc/irq/38/smp_affinity_list");
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
	assert_int_equal(nn_undo_add(&u, &nn_file_change_ops, "/proc/irq/38/smp_affinity_list", "0-1", "1", NULL), 0);
	/* The same file twice: reverse order must leave the oldest value. */
	assert_int_equal(nn_undo_add(&u, &nn_file_change_ops, "/proc/irq/39/smp_affinity_list", "0-1", "0", NULL), 0);
	assert_int_equal(nn_undo_add(&u, &nn_file_change_ops, "/proc/irq/39/smp_affinity_list", "0", "1", NULL), 0);
	assert_int_equal(nn_undo_save(&ctx, &u), 0);
	put("proc/irq/38/smp_affinity_list", "1\n");
	put("proc/irq/39/smp_affinity_list", "1\n");

	assert_int_equal(nn_undo_load(&ctx, NULL, nn_change_kinds, &l), 0);
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
	assert_int_equal(nn_undo_load(&ctx, NULL, nn_change_kinds, &l), 0);
	assert_string_equal(l.command, "apply");
	assert_int_equal(nn_undo_mark_rolled_back(&ctx, &l), 0);
	nn_undo_free(&l);
	assert_int_equal(nn_undo_load(&ctx, NULL, nn_change_kinds, &l), -ENODATA);	/* nothing left: the caller says so, exit 0 */
	nn_state_unlock(lock);
}

static void test_load_given_file_and_newest(void **state)
{
	struct nn_undo a, b, l;
	const char *base;

	(void)state;
	assert_int_equal(nn_undo_begin(&ctx, &a, "apply"), 0);
	assert_int_equal(nn_undo_record(&ctx, &a, &nn_file_change_ops, "/proc/irq/38/smp_affinity_list", "0-1", "0", NULL), 0);
	assert_int_equal(nn_undo_begin(&ctx, &b, "hugepages reserve"), 0);
	assert_int_equal(nn_undo_record(&ctx, &b, &nn_file_change_ops, "/proc/irq/39/smp_affinity_list", "0-1", "1", "{\"node\":0}"), 0);
	assert_int_equal(nn_undo_load(&ctx, NULL, nn_change_kinds, &l), 0);
	assert_string_equal(l.file, b.file);
	assert_string_equal(l.command, "hugepages reserve");
	assert_string_equal(l.changes[0].detail, "{\"node\":0}");
	nn_undo_free(&l);
	/* By bare name (looked up in the state dir) and by path inside the root. */
	base = strrchr(a.file, '/') + 1;
	assert_int_equal(nn_undo_load(&ctx, base, nn_change_kinds, &l), 0);
	assert_string_equal(l.changes[0].after, "0");
	nn_undo_free(&l);
	assert_int_equal(nn_undo_load(&ctx, a.file, nn_change_kinds, &l), 0);
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
	assert_int_equal(nn_undo_load(&ctx, NULL, nn_change_kinds, &l), -EINVAL);
	put("var/lib/nicnuma/29990101T000000.000000000Z-apply.json", "{not json");
	assert_int_equal(nn_undo_load(&ctx, NULL, nn_change_kinds, &l), -EINVAL);
	put("var/lib/nicnuma/29990101T000000.000000000Z-apply.json",
	    "{\"version\":1,\"changes\":[{\"kind\":\"file\",\"after\":\"1\"}]}");
	assert_int_equal(nn_undo_load(&ctx, NULL, nn_change_kinds, &l), -EINVAL);
	put("var/lib/nicnuma/29990101T000000.000000000Z-apply.json", "{\"version\":1,\"rolled_back\":\"x\",\"changes\":[]}");
	assert_int_equal(nn_undo_load(&ctx, NULL, nn_change_kinds, &l), -ENODATA);
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
	assert_int_equal(nn_undo_add(&u, &nn_file_change_ops, "/proc/irq/38/smp_affinity_list", "0-1", "1", NULL), 0);
	assert_int_equal(nn_undo_add(&u, &nn_file_change_ops, "/proc/irq/40/smp_affinity_list", "0-1", "1", NULL), 0);
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
	assert_int_equal(nn_undo_record(&ctx, &u, &nn_file_change_ops, "/a", "1", "2", NULL), -EINVAL);
	assert_int_equal(u.nchanges, 0);	/* not persisted, so not kept */
	nn_undo_free(&u);
	ctx.state_dir = saved;
}

/* Each test below keeps its logs in a state dir of its own. */
static void use_dir(const char *dir)
{
	char p[PATH_MAX * 2];

	ctx.state_dir = dir;
	hpath(p, sizeof(p), dir + 1);
	mkdir(p, 0700);
}

static const char *const log_a = "20990101T000000.000000000Z-apply.json";
static const char *const log_b = "20990101T000001.000000000Z-apply.json";

static void put_log(const char *dir, const char *name, const char *text)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s/%s", dir + 1, name);
	put(rel, text);
}

#define GOOD_LOG "{\"version\":1,\"changes\":[{\"kind\":\"file\"," \
	"\"path\":\"/proc/irq/38/smp_affinity_list\",\"before\":\"0-1\",\"after\":\"1\"}]}"

/* The file kind names only values nicnuma writes, in canonical form. */
static void test_file_path_table(void **state)
{
	static const struct { const char *path, *value; bool ok; } t[] = {
		{ "/proc/irq/38/smp_affinity_list", "0-3,8", true },
		{ "/proc/irq/0/smp_affinity_list", "", true },
		{ "/sys/class/net/eth0/queues/tx-3/xps_cpus", "00000000,0000000f", true },
		{ "/sys/class/net/enp65s0f0np0/queues/tx-0/xps_cpus", "0", true },
		{ "/sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages", "512", true },
		{ "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages", "0", true },
		{ "/etc/victim", "0", false },
		{ "/proc/irq/38/../../../etc/victim", "0", false },
		{ "/proc/irq/../../etc/smp_affinity_list", "0", false },
		{ "proc/irq/38/smp_affinity_list", "0", false },
		{ "//proc/irq/38/smp_affinity_list", "0", false },
		{ "/proc/irq//38/smp_affinity_list", "0", false },
		{ "/proc/irq/038/smp_affinity_list", "0", false },
		{ "/proc/irq/-1/smp_affinity_list", "0", false },
		{ "/proc/irq/38/smp_affinity", "1", false },
		{ "/proc/irq/38/smp_affinity_list/", "0", false },
		{ "/proc/irq/38/smp_affinity_list", "0-1; rm -rf /", false },
		{ "/proc/sys/vm/compact_memory", "1", false },
		{ "/sys/class/net/../queues/tx-0/xps_cpus", "1", false },
		{ "/sys/class/net/./queues/tx-0/xps_cpus", "1", false },
		{ "/sys/class/net/a:b/queues/tx-0/xps_cpus", "1", false },
		{ "/sys/class/net/a b/queues/tx-0/xps_cpus", "1", false },
		{ "/sys/class/net/0123456789abcdef/queues/tx-0/xps_cpus", "1", false },
		{ "/sys/class/net/eth0/queues/rx-0/rps_cpus", "1", false },
		{ "/sys/class/net/eth0/queues/tx-0/xps_cpus", "g", false },
		{ "/sys/devices/system/node/node1/hugepages/hugepages-2048kB/free_hugepages", "1", false },
		{ "/sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages", "-1", false },
		{ "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_overcommit_hugepages", "1", false },
		{ "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages/../x", "1", false },
		{ "", "1", false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (nn_value_text_valid(t[i].path, t[i].value) != t[i].ok)
			fail_msg("'%s' = '%s': expected %s", t[i].path, t[i].value,
				 t[i].ok ? "accepted" : "refused");
	}
}

/* nn_undo_parse: every change is validated by its kind, or the log is refused. */
static void test_parse_refuses_hostile_changes(void **state)
{
	static const char *const bad[] = {
		/* a file change writing anywhere */
		"{\"version\":1,\"changes\":[{\"kind\":\"file\",\"path\":\"/etc/victim\",\"before\":\"x\"}]}",
		"{\"version\":1,\"changes\":[{\"kind\":\"file\",\"path\":\"/proc/irq/1/../../../etc/victim\",\"before\":\"0\"}]}",
		/* irqbalance: a program, argv, environment, a path to unlink */
		"{\"version\":1,\"changes\":[{\"kind\":\"irqbalance\",\"path\":\"irqbalance\",\"before\":\"running\","
		"\"detail\":{\"mode\":\"stop\",\"exe\":\"/tmp/evil\",\"argv\":[\"/tmp/evil\"],\"env\":[\"LD_PRELOAD=/tmp/x.so\"]}}]}",
		"{\"version\":1,\"changes\":[{\"kind\":\"irqbalance\",\"path\":\"irqbalance\",\"before\":\"stopped\","
		"\"detail\":{\"mode\":\"ban\",\"script\":\"/etc/shadow\"}}]}",
		/* channels on a NIC the log's host does not list, or a bad name */
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"channels\",\"path\":\"eth1\",\"before\":\"4\"}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"../x\"]},\"changes\":[{\"kind\":\"channels\",\"path\":\"../x\",\"before\":\"4\"}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"channels\",\"path\":\"eth0\",\"before\":\"0\"}]}",
		/* rss: a NIC the host does not list, a bad name, no or a bad detail, a
		 * table entry at or past the recorded ring count, a malformed or
		 * oversized table */
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth1\",\"before\":\"128:0,1\",\"detail\":{\"rings\":2}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"../x\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"../x\",\"before\":\"128:0,1\",\"detail\":{\"rings\":2}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth0\",\"before\":\"128:0,1\"}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth0\",\"before\":\"128:0,1\",\"detail\":{\"rings\":2,\"exe\":\"/tmp/x\"}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth0\",\"before\":\"128:0,1\",\"detail\":{\"rings\":0}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth0\",\"before\":\"128:0,2\",\"detail\":{\"rings\":2}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth0\",\"before\":\"65537:0\",\"detail\":{\"rings\":2}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth0\",\"before\":\"4:0,1,0,1,0\",\"detail\":{\"rings\":2}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth0\",\"before\":\"4:0;1\",\"detail\":{\"rings\":2}}]}",
		/* napi: not a pid, a NIC the host does not list, a bad detail or before */
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"napi\",\"path\":\"/proc/1\",\"before\":\"0-1\",\"detail\":{\"nic\":\"eth0\",\"napi_id\":8193}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"napi\",\"path\":\"0\",\"before\":\"0-1\",\"detail\":{\"nic\":\"eth0\",\"napi_id\":8193}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"napi\",\"path\":\"77\",\"before\":\"0-1\",\"detail\":{\"nic\":\"eth1\",\"napi_id\":8193}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"napi\",\"path\":\"77\",\"before\":\"0-1\"}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"napi\",\"path\":\"77\",\"before\":\"0-1\",\"detail\":{\"nic\":\"eth0\",\"napi_id\":\"x\"}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"napi\",\"path\":\"77\",\"before\":\"; rm -rf /\",\"detail\":{\"nic\":\"eth0\",\"napi_id\":8193}}]}",
		/* mount: not canonical, not hugetlbfs */
		"{\"version\":1,\"changes\":[{\"kind\":\"mount\",\"path\":\"/mnt/../\",\"after\":\"hugetlbfs\"}]}",
		"{\"version\":1,\"changes\":[{\"kind\":\"mount\",\"path\":\"/\",\"after\":\"hugetlbfs\"}]}",
		"{\"version\":1,\"changes\":[{\"kind\":\"mount\",\"path\":\"/home\",\"after\":\"ext4\"}]}",
		/* the document itself */
		"{\"version\":2,\"changes\":[]}",
		"{\"version\":\"1\",\"changes\":[]}",
		"{\"version\":1,\"changes\":[{\"kind\":\"file\",\"path\":7,\"before\":\"0\"}]}",
		"{\"version\":1,\"changes\":[]} trailing",
		"[]",
	};
	static const char *const good[] = {
		GOOD_LOG,
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"rss\",\"path\":\"eth0\",\"before\":\"128:0*64,1*64\",\"after\":\"128:0\",\"detail\":{\"rings\":2}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"napi\",\"path\":\"77\",\"before\":\"0-1\",\"after\":\"1\",\"detail\":{\"nic\":\"eth0\",\"napi_id\":8193}}]}",
		"{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":[{\"kind\":\"channels\",\"path\":\"eth0\",\"before\":\"4\"},"
		"{\"kind\":\"mount\",\"path\":\"/mnt/huge-1G\",\"after\":\"hugetlbfs\"},"
		"{\"kind\":\"irqbalance\",\"path\":\"irqbalance\",\"before\":\"running\",\"detail\":{\"mode\":\"stop\",\"systemd\":false}}]}\n",
	};
	struct nn_undo u;
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		if (!nn_undo_parse(bad[i], strlen(bad[i]), nn_change_kinds, &u, why, sizeof(why))) {
			nn_undo_free(&u);
			fail_msg("accepted: %s", bad[i]);
		}
		assert_true(why[0] != '\0');
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (nn_undo_parse(good[i], strlen(good[i]), nn_change_kinds, &u, why, sizeof(why)))
			fail_msg("refused (%s): %s", why, good[i]);
		nn_undo_free(&u);
	}
}

static void expect_load_fails(const char *what)
{
	struct nn_undo l;
	int err = nn_undo_load(&ctx, NULL, nn_change_kinds, &l);

	if (err == 0 || err == -ENOENT) {
		if (!err)
			nn_undo_free(&l);
		fail_msg("%s: newest log not refused (%d)", what, err);
	}
}

/* An unusable newest log stops the load: never an older one instead. */
static void test_untrusted_newest_never_skipped(void **state)
{
	char p[PATH_MAX * 2], q[PATH_MAX * 2];
	int fd;

	(void)state;
	use_dir("/st-trust");
	put_log("/st-trust", log_a, GOOD_LOG);	/* the older one: must not be used */
	hpath(p, sizeof(p), "st-trust/");
	strcat(p, log_b);

	/* a symlink */
	hpath(q, sizeof(q), "st-trust/");
	strcat(q, log_a);
	assert_int_equal(symlink(q, p), 0);
	expect_load_fails("symlink");
	unlink(p);
	/* a FIFO: refused without waiting for a writer */
	assert_int_equal(mkfifo(p, 0600), 0);
	alarm(10);
	expect_load_fails("fifo");
	alarm(0);
	unlink(p);
	/* over the cap (sparse) */
	fd = open(p, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)NN_DOC_MAX_BYTES + 1), 0);
	close(fd);
	expect_load_fails("oversize");
	unlink(p);
	/* group-writable */
	put_log("/st-trust", log_b, GOOD_LOG);
	chmod(p, 0620);
	expect_load_fails("group-writable");
	chmod(p, 0600);
	/* owned by another user (we run as root in the tests that can chown) */
	if (geteuid() == 0) {
		assert_int_equal(chown(p, 65534, 65534), 0);
		expect_load_fails("foreign owner");
		assert_int_equal(chown(p, 0, 0), 0);
	}
	/* two links */
	hpath(q, sizeof(q), "st-trust/hardlink");
	assert_int_equal(link(p, q), 0);
	expect_load_fails("hard link");
	unlink(q);
	/* a hostile change in the newest */
	put_log("/st-trust", log_b, "{\"version\":1,\"changes\":[{\"kind\":\"file\","
		"\"path\":\"/etc/victim\",\"before\":\"0\"}]}");
	expect_load_fails("file change outside the allowed set");
	/* a world-writable state dir */
	unlink(p);
	hpath(q, sizeof(q), "st-trust");
	chmod(q, 0777);
	expect_load_fails("world-writable state dir");
	chmod(q, 0700);
}

/* A log that fails validation anywhere restores nothing at all. */
static void test_rollback_validates_everything_first(void **state)
{
	struct nn_undo u;

	(void)state;
	put("proc/irq/38/smp_affinity_list", "1\n");
	assert_int_equal(nn_undo_begin(&ctx, &u, "apply"), 0);
	assert_int_equal(nn_undo_add(&u, &nn_file_change_ops, "/etc/victim", "0", "1", NULL), 0);
	assert_int_equal(nn_undo_add(&u, &nn_file_change_ops, "/proc/irq/38/smp_affinity_list", "0-1", "1", NULL), 0);
	assert_int_equal(nn_undo_rollback(&ctx, &u), -EINVAL);
	assert_string_equal(get("proc/irq/38/smp_affinity_list"), "1");
	nn_undo_free(&u);
}

/* Rolling back a snapshot given by path marks that file, not the state
 * dir's file of the same name. */
static void test_mark_given_path(void **state)
{
	char p[PATH_MAX * 2], path[PATH_MAX], *text;
	struct nn_undo l;

	(void)state;
	use_dir("/st-mark");
	use_dir("/st-elsewhere");
	use_dir("/st-mark");
	put_log("/st-mark", log_a, GOOD_LOG);
	put_log("/st-elsewhere", log_a, GOOD_LOG);
	snprintf(path, sizeof(path), "/st-elsewhere/%s", log_a);
	assert_int_equal(nn_undo_load(&ctx, path, nn_change_kinds, &l), 0);
	assert_int_equal(nn_undo_mark_rolled_back(&ctx, &l), 0);
	nn_undo_free(&l);
	snprintf(p, sizeof(p), "st-mark/%s", log_a);
	text = get(p);
	assert_not_contains(text, "rolled_back");
	snprintf(p, sizeof(p), "st-elsewhere/%s", log_a);
	text = get(p);
	(void)text;
	assert_int_equal(nn_undo_load(&ctx, path, nn_change_kinds, &l), 0);
	assert_true(l.rolled_back);
	nn_undo_free(&l);
}

/* A log larger than rollback reads is refused before it is written. */
static void test_save_refuses_oversize(void **state)
{
	char p[PATH_MAX * 2];
	struct nn_undo u;
	struct stat st;
	char *big;
	int i;

	(void)state;
	use_dir("/st-big");
	big = malloc(4u << 20);
	assert_non_null(big);
	memset(big, '1', (4u << 20) - 1);
	big[(4u << 20) - 1] = '\0';
	assert_int_equal(nn_undo_begin(&ctx, &u, "apply"), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(nn_undo_add(&u, &nn_file_change_ops, "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages",
					     big, "0", NULL), 0);
	assert_int_equal(nn_undo_save(&ctx, &u), -EFBIG);
	hpath(p, sizeof(p), u.file + 1);
	assert_int_not_equal(stat(p, &st), 0);
	nn_undo_free(&u);
	free(big);
}

/* The lock file: no hard link (it is truncated once locked), no symlink. */
static void test_lock_refuses_links(void **state)
{
	char p[PATH_MAX * 2], q[PATH_MAX * 2];

	(void)state;
	use_dir("/st-lock");
	put("victim", "precious\n");
	hpath(p, sizeof(p), "victim");
	hpath(q, sizeof(q), "st-lock/lock");
	assert_int_equal(link(p, q), 0);
	assert_true(nn_state_lock(&ctx) < 0);
	assert_string_equal(get("victim"), "precious");
	unlink(q);
	assert_int_equal(symlink(p, q), 0);
	assert_true(nn_state_lock(&ctx) < 0);
	assert_string_equal(get("victim"), "precious");
	unlink(q);
}

/* The state dir is created inside the root: a symlink on the way that
 * points out of it is not followed. */
static void test_state_dir_stays_in_root(void **state)
{
	char out[] = "/tmp/undo-outside-XXXXXX", p[PATH_MAX * 2], q[PATH_MAX + 16];
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(out));
	hpath(p, sizeof(p), "escape");
	assert_int_equal(symlink(out, p), 0);
	ctx.state_dir = "/escape/nicnuma";
	fd = nn_state_lock(&ctx);
	nn_state_unlock(fd);
	snprintf(q, sizeof(q), "%s/nicnuma", out);
	assert_int_not_equal(stat(q, &st), 0);
	rmdir(q);
	unlink(q);
	rmdir(out);
}

/* Pruning: the newest NN_UNDO_KEEP rolled-back logs stay, a log not rolled
 * back always stays, stale temp files go when the lock is taken. */
static void test_prune(void **state)
{
	char name[64], p[PATH_MAX * 2];
	struct timespec old[2] = { { 1000, 0 }, { 1000, 0 } };
	struct stat st;
	int i, n = 0, lock;

	(void)state;
	use_dir("/st-prune");
	for (i = 0; i < NN_UNDO_KEEP + 5; i++) {
		snprintf(name, sizeof(name), "2099010%dT%06d.000000000Z-apply.json", 1, i);
		put_log("/st-prune", name, "{\"version\":1,\"rolled_back\":\"x\",\"changes\":[]}");
	}
	put_log("/st-prune", "20000101T000000.000000000Z-apply.json", "{\"version\":1,\"changes\":[]}");
	put_log("/st-prune", ".20990101T000000.000000000Z-apply.json.Ab3dE9", "partial");
	hpath(p, sizeof(p), "st-prune/.20990101T000000.000000000Z-apply.json.Ab3dE9");
	utimensat(AT_FDCWD, p, old, 0);
	lock = nn_state_lock(&ctx);
	assert_true(lock >= 0);
	assert_int_not_equal(stat(p, &st), 0);
	assert_int_equal(nn_undo_prune(&ctx), 0);
	nn_state_unlock(lock);
	for (i = 0; i < NN_UNDO_KEEP + 5; i++) {
		snprintf(name, sizeof(name), "st-prune/2099010%dT%06d.000000000Z-apply.json", 1, i);
		hpath(p, sizeof(p), name);
		if (!stat(p, &st))
			n++;
		else
			assert_true(i < 5);	/* the oldest went */
	}
	assert_int_equal(n, NN_UNDO_KEEP);
	hpath(p, sizeof(p), "st-prune/20000101T000000.000000000Z-apply.json");
	assert_int_equal(stat(p, &st), 0);
}

/* The transaction: one lock for its life, the log saved before the write,
 * abort puts the value back and marks the log, end releases the lock; a
 * reader's transaction loads that log and sees it rolled back. */
static void test_tx(void **state)
{
	struct nn_tx tx = NN_TX_INIT, other = NN_TX_INIT, rd = NN_TX_INIT;
	char *file;

	(void)state;
	assert_int_equal(nn_tx_record(&tx, &nn_file_change_ops, "/proc/irq/38/smp_affinity_list",
				      "0-1", "1", NULL), -EINVAL);	/* not begun */
	assert_int_equal(nn_tx_begin(&ctx, &tx, "tx test"), 0);
	assert_true(nn_tx_locked(&tx));
	assert_int_equal(nn_tx_lock(&ctx, &other), -EBUSY);
	assert_false(nn_tx_locked(&other));
	put("proc/irq/38/smp_affinity_list", "0-1\n");
	assert_int_equal(nn_tx_record(&tx, &nn_file_change_ops, "/proc/irq/38/smp_affinity_list",
				      "0-1", "1", NULL), 0);
	assert_non_null(tx.log.file);
	file = strdup(tx.log.file);
	assert_non_null(file);
	put("proc/irq/38/smp_affinity_list", "1\n");
	assert_int_equal(nn_tx_abort(&tx), 0);
	assert_true(tx.restored);
	assert_string_equal(get("proc/irq/38/smp_affinity_list"), "0-1");
	nn_tx_end(&tx);
	assert_false(nn_tx_locked(&tx));
	assert_false(tx.begun);
	assert_int_equal(nn_tx_load(&ctx, &rd, file, nn_change_kinds, NN_TX_VALIDATE), 0);
	assert_true(rd.log.rolled_back);
	assert_string_equal(rd.log.command, "tx test");
	nn_tx_end(&rd);
	assert_int_equal(nn_tx_lock(&ctx, &other), 0);
	nn_tx_end(&other);
	free(file);
}

/* The one report of a value restore every value kind gives (file, rps,
 * napi_dev: nn_value_restore_change): unchanged, restored, "cannot read"
 * when the value cannot be read, and a file gone a warning only where the
 * kind says so (rps: the queue went with its device). */
static void test_value_restore_report(void **state)
{
	struct nn_change c = { .ops = &nn_file_change_ops, .path = (char *)"/proc/irq/38/smp_affinity_list",
			       .before = (char *)"0-1" };
	struct nn_restore res = { 0 };
	size_t nwarns;

	(void)state;
	put("proc/irq/38/smp_affinity_list", "0-1\n");
	assert_int_equal(nn_file_change_ops.restore(&ctx, &c, &res), 0);
	assert_true(res.unchanged);
	free(res.current);
	memset(&res, 0, sizeof(res));
	put("proc/irq/38/smp_affinity_list", "1\n");
	assert_int_equal(nn_file_change_ops.restore(&ctx, &c, &res), 0);
	assert_false(res.unchanged);
	assert_string_equal(res.current, "1");
	assert_string_equal(get("proc/irq/38/smp_affinity_list"), "0-1");
	free(res.current);

	/* a directory where the value was: nothing read, nothing written */
	memset(&res, 0, sizeof(res));
	c.path = (char *)"/sys/class/net/eth0/queues/rx-0/rps_cpus";
	c.before = (char *)"3";
	assert_int_equal(tmptree_mkdir(tmp, "sys/class/net/eth0/queues/rx-0/rps_cpus"), 0);
	assert_int_equal(nn_rps_change_ops.restore(&ctx, &c, &res), -EISDIR);
	assert_null(res.current);
	assert_contains(res.why, "cannot read: ");

	/* gone: rps says so and goes on, napi_dev and file fail */
	memset(&res, 0, sizeof(res));
	c.path = (char *)"/sys/class/net/eth0/queues/rx-1/rps_cpus";
	nwarns = ctx.nwarns;
	assert_int_equal(nn_rps_change_ops.restore(&ctx, &c, &res), 0);
	assert_true(res.unchanged);
	assert_int_equal(ctx.nwarns, nwarns + 1);
	assert_string_equal(ctx.warns[nwarns].msg, "gone: not restored");
	memset(&res, 0, sizeof(res));
	c.path = (char *)"/sys/class/net/eth0/threaded";
	c.before = (char *)"0";
	assert_int_equal(nn_napi_dev_change_ops.restore(&ctx, &c, &res), -ENOENT);
	assert_false(res.unchanged);
	assert_string_equal(res.why, "cannot read: No such file or directory");
	memset(&res, 0, sizeof(res));
	c.path = (char *)"/proc/irq/77/smp_affinity_list";
	assert_int_equal(nn_file_change_ops.restore(&ctx, &c, &res), -ENOENT);
	assert_string_equal(res.why, "cannot read: No such file or directory");
	assert_int_equal(ctx.nwarns, nwarns + 1);
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
		cmocka_unit_test(test_file_path_table),
		cmocka_unit_test(test_parse_refuses_hostile_changes),
		cmocka_unit_test(test_untrusted_newest_never_skipped),
		cmocka_unit_test(test_rollback_validates_everything_first),
		cmocka_unit_test(test_mark_given_path),
		cmocka_unit_test(test_save_refuses_oversize),
		cmocka_unit_test(test_lock_refuses_links),
		cmocka_unit_test(test_state_dir_stays_in_root),
		cmocka_unit_test(test_prune),
		cmocka_unit_test(test_tx),
		cmocka_unit_test(test_value_restore_report),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
