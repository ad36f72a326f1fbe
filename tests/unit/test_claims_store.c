// SPDX-License-Identifier: GPL-2.0-or-later
/* test_claims_store.c - claim records, the cgroup partition parsers, the store's
 * trust rule and the claimed set read from a scratch tree, the watcher's
 * claim urgency */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/claims.h"
#include "nicnuma/discover/claims_parse.h"
#include "nicnuma/plan/watch_decide.h"
#include "nicnuma/state/claims_store.h"
#include "tmptree.h"

/* A record released between the store's readdir and its openat: this
 * test's openat removes the file named here first (the process's own
 * openat symbol comes first; libc's internal opens do not go through it). */
static const char *vanish_next;

int openat(int dfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (vanish_next && !strcmp(path, vanish_next)) {
		vanish_next = NULL;
		(void)unlinkat(dfd, path, 0);
	}
	return (int)syscall(SYS_openat, dfd, path, flags, mode);
}

static void test_partition_parse(void **state)
{
	enum nn_cg_part k;
	bool inv;
	const char *r;
	size_t rl;

	(void)state;
	assert_int_equal(nn_cg_partition_parse("member\n", &k, &inv, &r, &rl), 0);
	assert_int_equal(k, NN_CG_PART_MEMBER);
	assert_false(inv);
	assert_int_equal(nn_cg_partition_parse("isolated\n", &k, &inv, &r, &rl), 0);
	assert_int_equal(k, NN_CG_PART_ISOLATED);
	assert_int_equal(nn_cg_partition_parse("root", &k, &inv, &r, &rl), 0);
	assert_int_equal(k, NN_CG_PART_ROOT);
	assert_int_equal(nn_cg_partition_parse("isolated invalid (Parent is not a partition root)\n",
					       &k, &inv, &r, &rl), 0);
	assert_int_equal(k, NN_CG_PART_ISOLATED);
	assert_true(inv);
	assert_int_equal(rl, strlen("Parent is not a partition root"));
	assert_memory_equal(r, "Parent is not a partition root", rl);
	assert_int_equal(nn_cg_partition_parse("root invalid", &k, &inv, &r, &rl), 0);
	assert_true(inv);
	assert_null(r);
	assert_int_equal(nn_cg_partition_parse("isolatedx", &k, &inv, &r, &rl), -EINVAL);
	assert_int_equal(nn_cg_partition_parse("isolated (x)", &k, &inv, &r, &rl), -EINVAL);
	assert_int_equal(nn_cg_partition_parse("isolated invalid (x", &k, &inv, &r, &rl), -EINVAL);
	assert_int_equal(nn_cg_partition_parse("", &k, &inv, &r, &rl), -EINVAL);
	assert_int_equal(nn_cg_partition_parse(NULL, &k, &inv, &r, &rl), -EINVAL);
}

static void test_mountinfo(void **state)
{
	/* this machine's hybrid layout: v1 controllers and an unified v2 */
	static const char hybrid[] =
		"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
		"34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
	static const char escaped[] =
		"garbage line\n"
		"50 1 0:40 /sub /mnt/x rw - cgroup2 cgroup2 rw\n"
		"51 1 0:40 / /mnt/cg\\040v2 rw shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";
	char *m = NULL;

	(void)state;
	assert_int_equal(nn_cg_mountinfo_cgroup2(hybrid, &m), 0);
	assert_string_equal(m, "/sys/fs/cgroup/unified");
	free(m);
	/* a bind mount of a sub-tree is not the hierarchy's root */
	assert_int_equal(nn_cg_mountinfo_cgroup2(escaped, &m), 0);
	assert_string_equal(m, "/mnt/cg v2");
	free(m);
	assert_int_equal(nn_cg_mountinfo_cgroup2("1 0 0:1 / / rw - ext4 /dev/vda rw\n", &m), -ENOENT);
	assert_null(m);
	assert_true(nn_cg_has_controller("cpuset cpu io memory pids\n", "cpuset"));
	assert_false(nn_cg_has_controller("cpu io memory pids\n", "cpuset"));
	assert_false(nn_cg_has_controller("cpusetx\n", "cpuset"));
}

static void test_record_round_trip(void **state)
{
	struct nn_claim c = NN_CLAIM_INIT, back;
	char why[160], *text;

	(void)state;
	c.name = strdup("dpdk-fwd.1");
	c.owner = strdup("claim");
	c.reason = strdup("pinned forwarder");
	c.pid = 1234;
	c.pid_start = 18446744073709551615ull;	/* a u64 survives as text */
	c.created = 1700000000;
	assert_int_equal(nn_cpuset_parse_list("2-3,9", &c.cpus), 0);
	text = nn_claim_format(&c);
	assert_non_null(text);
	assert_int_equal(nn_claim_parse(text, strlen(text), &back, why, sizeof(why)), 0);
	assert_string_equal(back.name, c.name);
	assert_string_equal(back.owner, "claim");
	assert_string_equal(back.reason, c.reason);
	assert_int_equal(back.pid, 1234);
	assert_true(back.pid_start == c.pid_start);
	assert_true(nn_cpuset_equal(&back.cpus, &c.cpus));
	assert_null(back.container_id);
	nn_claim_free(&back);
	free(text);
	nn_claim_free(&c);
}

static void bad(const char *text, const char *needle)
{
	struct nn_claim c;
	char why[160] = "";

	assert_int_equal(nn_claim_parse(text, strlen(text), &c, why, sizeof(why)), -EINVAL);
	assert_contains(why, needle);
	assert_null(c.name);
}

#define REC(name, cpus, owner, pid) \
	"{\"version\":1,\"name\":" name ",\"cpus\":" cpus ",\"owner\":" owner \
	",\"pid\":" pid ",\"created\":1}"

static void test_record_refused(void **state)
{
	(void)state;
	bad("", "bad JSON");
	bad("[1]", "bad JSON");
	bad(REC("\"a\"", "\"1\"", "\"claim\"", "-1") "x", "bad JSON");
	bad(REC("\"../x\"", "\"1\"", "\"claim\"", "-1"), "bad claim name");
	bad(REC("\".hidden\"", "\"1\"", "\"claim\"", "-1"), "bad claim name");
	bad(REC("\"a\"", "\"\"", "\"claim\"", "-1"), "no CPUs");
	bad(REC("\"a\"", "\"1-99999999\"", "\"claim\"", "-1"), "not a CPU list");
	bad(REC("\"a\"", "\"1\"", "\"root\"", "-1"), "bad owner");
	bad(REC("\"a\"", "\"1\"", "\"claim\"", "0"), "bad pid");
	bad(REC("\"a\"", "\"1\"", "\"claim\"", "99999999"), "\"pid\" out of range");
	bad(REC("\"a\"", "1", "\"claim\"", "-1"), "\"cpus\" is not a string");
	bad("{\"version\":2,\"name\":\"a\",\"cpus\":\"1\",\"owner\":\"claim\",\"pid\":-1,\"created\":1}",
	    "\"version\" out of range");
	bad("{\"version\":1,\"name\":\"a\",\"cpus\":\"1\",\"owner\":\"claim\",\"pid\":-1,\"created\":1,"
	    "\"reason\":\"a\\nb\"}", "bad reason");
	bad("{\"version\":1,\"name\":\"a\",\"cpus\":\"1\",\"owner\":\"claim\",\"pid\":-1,\"created\":1,"
	    "\"pid_start\":\"5\"}", "start time without a pid");
	/* fuzz_claims: strides format to 118,279 bytes, over the record cap */
	bad(REC("\"a\"", "\"1-51131:2/5\"", "\"claim\"", "-1"), "more than a claim record may have");
	{
		struct nn_claim c = NN_CLAIM_INIT;
		char why[160] = "";

		c.name = strdup("wide");
		c.owner = strdup("claim");
		assert_int_equal(nn_cpuset_parse_list("1-51131:2/5", &c.cpus), 0);
		assert_int_equal(nn_claim_validate(&c, why, sizeof(why)), -EINVAL);
		assert_contains(why, "bytes, more than a claim record may have");
		nn_cpuset_free(&c.cpus);
		assert_int_equal(nn_cpuset_parse_list("1-51131", &c.cpus), 0);
		assert_int_equal(nn_claim_validate(&c, why, sizeof(why)), 0);
		nn_claim_free(&c);
	}
	assert_true(nn_claim_name_ok("hook-0123abcd"));
	assert_true(nn_claim_name_ok("svc@1:a_b.c"));
	assert_false(nn_claim_name_ok("a/b"));
	assert_false(nn_claim_name_ok("-x"));
	assert_false(nn_claim_name_ok(""));
}

/* A scratch root with a cgroup tree: isolated, root, remote (exclusive) and
 * invalid partitions, and the root's cpuset.cpus.isolated. */
static void cg_tree(const char *d)
{
	assert_int_equal(tmptree_put(d, "proc/self/mountinfo",
		"24 1 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/cpuset.cpus.isolated", "2-3,6-7\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/iso/cpuset.cpus.partition", "isolated\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/iso/cpuset.cpus.effective", "2-3\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/rt/cpuset.cpus.partition", "root\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/rt/cpuset.cpus.effective", "4-5\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/a/cpuset.cpus.partition", "member\n"), 0);
	/* a remote partition's ancestors hold its CPUs (the kernel's rule) */
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/a/cpuset.cpus.exclusive", "6\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/a/b/cpuset.cpus.partition", "isolated\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/a/b/cpuset.cpus.exclusive.effective", "6\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/a/b/cpuset.cpus.effective", "6-9\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/bad/cpuset.cpus.partition",
				     "isolated invalid (Cpu list in cpuset.cpus not exclusive)\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/bad/cpuset.cpus.effective", "1\n"), 0);
}

static const struct nn_claim_item *item(const struct nn_claims *cl, const char *name)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		if (!strcmp(cl->items[i].c.name, name))
			return &cl->items[i];
	return NULL;
}

static void test_cgroup_partitions(void **state)
{
	struct nn_ctx ctx;
	struct nn_claims cl;
	char d[256], *s;

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "claims"), 0);
	cg_tree(d);
	assert_int_equal(nn_ctx_init(&ctx, d, false), 0);
	assert_int_equal(nn_claims_read(&ctx, 0, &cl), 0);
	assert_true(cl.cpuset_ctrl);
	assert_string_equal(cl.cgroup_mount, "/sys/fs/cgroup");
	assert_int_equal(cl.ninvalid, 1);
	assert_non_null(item(&cl, "/iso"));
	assert_int_equal(item(&cl, "/iso")->source, NN_CLAIM_SRC_PARTITION);
	assert_string_equal(item(&cl, "/iso")->c.owner, "cpuset");
	/* remote partition: its exclusive CPUs, not all it may use */
	s = nn_cpuset_format_list(&item(&cl, "/a/b")->c.cpus);
	assert_string_equal(s, "6");
	free(s);
	assert_null(item(&cl, "/rt"));		/* root partitions only when asked */
	assert_null(item(&cl, "/bad"));		/* invalid: claims nothing */
	/* cpuset.cpus.isolated names 7, which no partition read here holds */
	assert_non_null(item(&cl, "/"));
	assert_int_equal(item(&cl, "/")->source, NN_CLAIM_SRC_ROOT_ISOLATED);
	s = nn_cpuset_format_list(&cl.cpus);
	assert_string_equal(s, "2-3,6-7");
	free(s);
	nn_claims_free(&cl);
	assert_int_equal(nn_claims_read(&ctx, NN_CLAIMS_ROOT_PARTITIONS, &cl), 0);
	s = nn_cpuset_format_list(&cl.cpus);
	assert_string_equal(s, "2-7");
	free(s);
	nn_claims_free(&cl);
	/* no cgroup2 mount: said, nothing claimed */
	assert_int_equal(tmptree_put(d, "proc/self/mountinfo",
		"41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"), 0);
	assert_int_equal(tmptree_mkdir(d, "sys/fs/cgroup/unified"), 0);
	assert_int_equal(nn_claims_read(&ctx, 0, &cl), 0);
	assert_string_equal(cl.cgroup_note, "no cgroup v2 cpuset controller");
	assert_true(nn_cpuset_empty(&cl.cpus));
	nn_claims_free(&cl);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(d), 0);
}

/* Member cgroups without exclusive CPUs hold no partition: their subtree is
 * not read (a partition planted below one, which the kernel would refuse,
 * shows it). Past the cap of cgroups that can hold one, the read says it
 * was cut short and the CPUs of the cgroup cut short claim; the watcher's
 * last complete read stays claimed through nn_claims_keep_last. */
static void test_cgroup_walk_bounded(void **state)
{
	struct nn_cpuset last = NN_CPUSET_INIT;
	struct nn_ctx ctx;
	struct nn_claims cl;
	const char *tmp = getenv("TMPDIR");
	char d[256], p[128], *s;
	int i;

	(void)state;
	/* 20,001 directories: on tmpfs where there is one (seconds on a busy disk) */
	if (!tmp && access("/dev/shm", W_OK) == 0)
		setenv("TMPDIR", "/dev/shm", 1);
	assert_int_equal(tmptree_make(d, sizeof(d), "claims"), 0);
	if (!tmp)
		unsetenv("TMPDIR");
	cg_tree(d);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/user/cpuset.cpus.partition", "member\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/user/x/cpuset.cpus.partition", "isolated\n"), 0);
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/user/x/cpuset.cpus.effective", "1\n"), 0);
	assert_int_equal(nn_ctx_init(&ctx, d, false), 0);
	assert_int_equal(nn_claims_read(&ctx, 0, &cl), 0);
	assert_null(item(&cl, "/user/x"));
	assert_false(cl.truncated);
	assert_int_equal(nn_claims_cgroup_cpus(&cl, &last), 0);
	s = nn_cpuset_format_list(&last);
	assert_string_equal(s, "2-3,6-7");
	free(s);
	nn_claims_free(&cl);
	/* 20,001 cgroups with exclusive CPUs below /a: the walk stops */
	for (i = 0; i <= 20000; i++) {
		snprintf(p, sizeof(p), "sys/fs/cgroup/a/c%05d/cpuset.cpus.exclusive", i);
		assert_int_equal(tmptree_put(d, p, "6\n"), 0);
	}
	assert_int_equal(tmptree_put(d, "sys/fs/cgroup/cpuset.cpus.isolated", "\n"), 0);
	assert_int_equal(nn_claims_read(&ctx, 0, &cl), 0);
	assert_true(cl.truncated);
	assert_non_null(item(&cl, "/a"));	/* cut short: its exclusive CPUs claim */
	s = nn_cpuset_format_list(&item(&cl, "/a")->c.cpus);
	assert_string_equal(s, "6");
	free(s);
	assert_int_equal(nn_claims_keep_last(&ctx, &cl, &last), 0);
	s = nn_cpuset_format_list(&cl.cpus);
	assert_string_equal(s, "2-3,6-7");
	free(s);
	nn_claims_free(&cl);
	nn_cpuset_free(&last);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(d), 0);
}

/* The run's deadline (the OCI hook's) stops the cgroup walk with a
 * warning; the root's cpuset.cpus.isolated still claims what it names. */
static void test_cgroup_walk_deadline(void **state)
{
	struct nn_ctx ctx;
	struct nn_claims cl;
	char d[256], *s;
	size_t i;
	bool said = false;

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "claims"), 0);
	cg_tree(d);
	assert_int_equal(nn_ctx_init(&ctx, d, false), 0);
	ctx.deadline_ms = 1;	/* long past */
	assert_int_equal(nn_claims_read(&ctx, 0, &cl), 0);
	for (i = 0; i < ctx.nwarns; i++)
		said |= strstr(ctx.warns[i].msg, "deadline passed after 0 cgroups: the rest not read") != NULL;
	assert_true(said);
	assert_null(item(&cl, "/iso"));
	assert_non_null(item(&cl, "/"));
	s = nn_cpuset_format_list(&cl.cpus);
	assert_string_equal(s, "2-3,6-7");
	free(s);
	nn_claims_free(&cl);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(d), 0);
}

static void test_store_trust(void **state)
{
	struct nn_ctx ctx;
	struct nn_claims cl;
	struct nn_claim c = NN_CLAIM_INIT, r;
	char d[256], p[512], q[512], why[160];
	struct stat st;

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "claims"), 0);
	assert_int_equal(tmptree_mkdir(d, "proc"), 0);
	assert_int_equal(nn_ctx_init(&ctx, d, false), 0);
	c.name = strdup("web");
	c.owner = strdup("claim");
	c.created = 5;
	assert_int_equal(nn_cpuset_parse_list("1", &c.cpus), 0);
	assert_int_equal(nn_claim_store_write(&ctx, &c), 0);
	snprintf(p, sizeof(p), "%s/run/nicnuma/claims", d);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	snprintf(p, sizeof(p), "%s/run/nicnuma/claims/web.json", d);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(nn_claim_store_read(&ctx, "web", &r, why, sizeof(why)), 0);
	assert_true(nn_cpuset_equal(&r.cpus, &c.cpus));
	nn_claim_free(&r);

	/* group-readable: refused, and ignored with a warning by the list */
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(nn_claim_store_read(&ctx, "web", &r, why, sizeof(why)), -EPERM);
	assert_contains(why, "mode 0640");
	assert_int_equal(nn_claims_read(&ctx, 0, &cl), 0);
	assert_int_equal(cl.n, 0);
	assert_true(ctx.nwarns > 0);
	assert_contains(ctx.warns[ctx.nwarns - 1].msg, "refused and ignored");
	nn_claims_free(&cl);
	nn_warnings_clear(&ctx);
	assert_int_equal(chmod(p, 0600), 0);

	/* a second link: refused */
	snprintf(q, sizeof(q), "%s/run/nicnuma/claims/other.lnk", d);
	assert_int_equal(link(p, q), 0);
	assert_int_equal(nn_claim_store_read(&ctx, "web", &r, why, sizeof(why)), -EPERM);
	assert_contains(why, "one link");
	snprintf(q, sizeof(q), "%s/run/nicnuma/claims/other.lnk", d);
	assert_int_equal(unlink(q), 0);

	/* a symlink planted under a record's name: refused */
	assert_int_equal(tmptree_put(d, "etc/target", "x"), 0);
	snprintf(q, sizeof(q), "%s/run/nicnuma/claims/evil.json", d);
	assert_int_equal(symlink("/etc/passwd", q), 0);
	assert_int_equal(nn_claim_store_read(&ctx, "evil", &r, why, sizeof(why)), -ELOOP);
	assert_contains(why, "symbolic link");

	/* a record copied under another name is forged */
	snprintf(q, sizeof(q), "%s/run/nicnuma/claims/evil.json", d);
	assert_int_equal(unlink(q), 0);
	{
		char *text = nn_claim_format(&c);
		int fd = open(q, O_WRONLY | O_CREAT | O_EXCL, 0600);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
		close(fd);
		free(text);
	}
	assert_int_equal(nn_claim_store_read(&ctx, "evil", &r, why, sizeof(why)), -EINVAL);
	assert_contains(why, "is not its file name");

	/* a group-writable directory: nothing in it is read */
	snprintf(p, sizeof(p), "%s/run/nicnuma/claims", d);
	assert_int_equal(chmod(p, 0770), 0);
	assert_int_equal(nn_claim_store_read(&ctx, "web", &r, why, sizeof(why)), -EPERM);
	assert_int_equal(chmod(p, 0700), 0);

	assert_int_equal(nn_claim_store_remove(&ctx, "web"), 0);
	assert_int_equal(nn_claim_store_remove(&ctx, "web"), -ENOENT);
	nn_claim_free(&c);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(d), 0);
}

/* A record released while the list reads the directory is gone, not
 * refused: no warning, the other records still read. */
static void test_store_list_vanished(void **state)
{
	struct nn_ctx ctx;
	struct nn_claim_records recs;
	struct nn_claim c = NN_CLAIM_INIT;
	const char *names[] = { "a", "b" };
	char d[256];
	size_t i;

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "claims"), 0);
	assert_int_equal(tmptree_mkdir(d, "proc"), 0);
	assert_int_equal(nn_ctx_init(&ctx, d, false), 0);
	c.owner = strdup("claim");
	c.created = 5;
	assert_int_equal(nn_cpuset_parse_list("1", &c.cpus), 0);
	for (i = 0; i < 2; i++) {
		c.name = strdup(names[i]);
		assert_int_equal(nn_claim_store_write(&ctx, &c), 0);
		free(c.name);
		c.name = NULL;
	}
	vanish_next = "a.json";
	assert_int_equal(nn_claim_store_list(&ctx, &recs), 0);
	assert_null(vanish_next);	/* the list did open it */
	assert_int_equal(recs.n, 1);
	assert_string_equal(recs.v[0].name, "b");
	assert_int_equal(ctx.nwarns, 0);
	nn_claim_records_free(&recs);
	nn_claim_free(&c);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(d), 0);
}

/* Pruning removes only the very file it judged stale, and writers and
 * pruners take one lock: `claims` beside `claim --name web` after its old
 * owner died removed the fresh record (issue 36). */
static void test_store_prune_judged(void **state)
{
	struct nn_ctx ctx;
	struct nn_claim c = NN_CLAIM_INIT, r;
	struct nn_claim_records recs;
	char d[256], p[512], why[160];
	int lock, other;

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "claims"), 0);
	assert_int_equal(nn_ctx_init(&ctx, d, false), 0);
	assert_int_equal(nn_claim_store_lock(&ctx, false), -ENOENT);	/* no directory yet */
	c.name = strdup("web");
	c.owner = strdup("claim");
	c.created = 1;
	assert_int_equal(nn_cpuset_parse_list("1", &c.cpus), 0);
	assert_int_equal(nn_claim_store_write(&ctx, &c), 0);
	/* judged (listed), then written again under the same name */
	assert_int_equal(nn_claim_store_list(&ctx, &recs), 0);
	assert_int_equal(recs.n, 1);
	assert_true(recs.v[0].ino != 0);
	nn_cpuset_free(&c.cpus);
	assert_int_equal(nn_cpuset_parse_list("2", &c.cpus), 0);
	assert_int_equal(nn_claim_store_write(&ctx, &c), 0);
	assert_int_equal(nn_claim_store_remove_read(&ctx, &recs.v[0]), -ESTALE);
	assert_int_equal(nn_claim_store_read(&ctx, "web", &r, why, sizeof(why)), 0);
	assert_int_equal(nn_cpuset_first(&r.cpus), 2);	/* the fresh record stands */
	nn_claim_records_free(&recs);
	/* the record judged is the one removed */
	assert_int_equal(nn_claim_store_remove_read(&ctx, &r), 0);
	nn_claim_free(&r);
	assert_int_equal(nn_claim_store_read(&ctx, "web", &r, why, sizeof(why)), -ENOENT);
	/* one lock: a second holder waits */
	lock = nn_claim_store_lock(&ctx, false);
	assert_true(lock >= 0);
	snprintf(p, sizeof(p), "%s/run/nicnuma/claims", d);
	other = open(p, O_RDONLY | O_DIRECTORY);
	assert_true(other >= 0);
	assert_int_equal(flock(other, LOCK_EX | LOCK_NB), -1);
	assert_int_equal(errno, EWOULDBLOCK);
	close(lock);
	assert_int_equal(flock(other, LOCK_EX | LOCK_NB), 0);
	close(other);
	nn_claim_free(&c);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(d), 0);
}

/* A claim tied to a pid lasts while that pid runs with its start time. */
static void test_owner_liveness(void **state)
{
	struct nn_ctx ctx;
	struct nn_claim c = NN_CLAIM_INIT;
	struct nn_claims cl;
	char d[256], why[128];
	unsigned long long start;

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "claims"), 0);
	assert_int_equal(tmptree_put(d, "proc/77/stat",
		"77 (a) b) S 1 77 77 0 -1 4194560 1 0 0 0 5 6 0 0 20 0 1 0 4242 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 3 0 0\n"), 0);
	assert_int_equal(tmptree_put(d, "proc/78/stat",
		"78 (z) Z 1 78 78 0 -1 4194560 1 0 0 0 5 6 0 0 20 0 1 0 99 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 3 0 0\n"), 0);
	assert_int_equal(nn_ctx_init(&ctx, d, false), 0);
	assert_int_equal(nn_claim_pid_start(&ctx, 77, &start), 0);
	assert_true(start == 4242);
	assert_int_equal(nn_claim_pid_start(&ctx, 78, &start), -ESRCH);	/* a zombie */
	assert_int_equal(nn_claim_pid_start(&ctx, 79, &start), -ESRCH);
	c.name = strdup("p");
	c.owner = strdup("claim");
	c.pid = 77;
	c.pid_start = 4242;
	assert_int_equal(nn_cpuset_parse_list("1", &c.cpus), 0);
	assert_true(nn_claim_owner_alive(&ctx, &c, why, sizeof(why)));
	c.pid_start = 4241;	/* the pid was recycled */
	assert_false(nn_claim_owner_alive(&ctx, &c, why, sizeof(why)));
	assert_contains(why, "another process");
	c.pid = 79;
	assert_false(nn_claim_owner_alive(&ctx, &c, why, sizeof(why)));
	assert_contains(why, "is gone");
	/* stale records are listed, not counted */
	assert_int_equal(nn_claim_store_write(&ctx, &c), 0);
	assert_int_equal(nn_claims_read(&ctx, NN_CLAIMS_PRUNE, &cl), 0);
	assert_int_equal(cl.n, 1);	/* a fake root prunes nothing */
	assert_false(cl.items[0].live);
	assert_contains(cl.items[0].stale, "pid 79 is gone");
	assert_true(nn_cpuset_empty(&cl.cpus));
	nn_claims_free(&cl);
	nn_claim_free(&c);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(d), 0);
}

/* A claim runs at once: no settle, no gap; a busy lock retries soon. */
static void test_watch_claim_urgent(void **state)
{
	struct nn_wd wd;
	struct nn_wev link = { .type = NN_WEV_PERIODIC };
	struct nn_wev claim = { .type = NN_WEV_CLAIM };

	(void)state;
	nn_wd_init(&wd, 300);
	assert_int_equal(nn_wd_event(&wd, &link, 1000), 1);
	assert_int_equal(nn_wd_deadline(&wd), 1300);
	nn_wd_ran(&wd, 1300);
	/* inside the 1 s gap after a run, and with a settle of 300 ms */
	snprintf(claim.ifname, sizeof(claim.ifname), "web.json");
	assert_int_equal(nn_wd_event(&wd, &claim, 1400), 1);
	assert_int_equal(nn_wd_deadline(&wd), 1400);
	assert_true(nn_wd_due(&wd, 1400));
	assert_contains(wd.trigger, "claims changed: web.json");
	nn_wd_retry(&wd, 1400);
	assert_int_equal(nn_wd_deadline(&wd), 1400 + NN_WD_CLAIM_RETRY_MS);
	nn_wd_ran(&wd, 1420);
	/* an ordinary event after it waits as before */
	assert_int_equal(nn_wd_event(&wd, &link, 1500), 1);
	assert_int_equal(nn_wd_deadline(&wd), 2420);
	nn_wd_free(&wd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partition_parse),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_record_round_trip),
		cmocka_unit_test(test_record_refused),
		cmocka_unit_test(test_cgroup_partitions),
		cmocka_unit_test(test_cgroup_walk_bounded),
		cmocka_unit_test(test_cgroup_walk_deadline),
		cmocka_unit_test(test_store_trust),
		cmocka_unit_test(test_store_list_vanished),
		cmocka_unit_test(test_owner_liveness),
		cmocka_unit_test(test_store_prune_judged),
		cmocka_unit_test(test_watch_claim_urgent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
