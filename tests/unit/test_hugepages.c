// SPDX-License-Identifier: GPL-2.0-or-later
/* test_hugepages.c - hugepage size/count/memory parsers, /proc/mounts lines,
 * boot arguments, pool paths and the pure target check */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "nicnuma/core/parse.h"
#include "hugepages/hp_set.h"
#include "hugepages/hp_target.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/state/undo.h"
#include "tmptree.h"

static void test_size(void **state)
{
	unsigned long kb;

	(void)state;
	assert_int_equal(nn_hp_parse_size("2M", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(nn_hp_parse_size("2MB", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(nn_hp_parse_size("1G", &kb), 0);
	assert_int_equal(kb, 1048576);
	assert_int_equal(nn_hp_parse_size("1GiB", &kb), 0);
	assert_int_equal(kb, 1048576);
	assert_int_equal(nn_hp_parse_size("2048kB", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(nn_hp_parse_size("1048576kB", &kb), 0);
	assert_int_equal(kb, 1048576);
	assert_int_equal(nn_hp_parse_size("1024M", &kb), 0);	/* as /proc/mounts shows 1G */
	assert_int_equal(kb, 1048576);
	assert_int_equal(nn_hp_parse_size("64K", &kb), 0);	/* arm64 contiguous PTE */
	assert_int_equal(kb, 64);
	assert_int_equal(nn_hp_parse_size(" 16G\n", &kb), 0);
	assert_int_equal(kb, 16777216);

	kb = 7;
	assert_int_equal(nn_hp_parse_size("2048", &kb), -EINVAL);	/* unit required */
	assert_int_equal(nn_hp_parse_size("", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_size("M", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_size("-2M", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_size("3M", &kb), -EINVAL);	/* not a power of two */
	assert_int_equal(nn_hp_parse_size("2K", &kb), -EINVAL);	/* below a base page */
	assert_int_equal(nn_hp_parse_size("0M", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_size("2Mx", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_size("2 M", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_size("2X", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_size("99999999999999999999M", &kb), -ERANGE);
	assert_int_equal(nn_hp_parse_size("9007199254740992P", &kb), -ERANGE);
	assert_int_equal(nn_hp_parse_size(NULL, &kb), -EINVAL);
	assert_int_equal(kb, 7);	/* untouched on error */
}

/* "SIZE:COUNT" (plan --hugepages, the desired state's hugepages=): the one
 * parser of both, built on nn_hp_parse_size and nn_hp_parse_count. */
static void test_size_count(void **state)
{
	unsigned long kb = 7;
	long n = 7;

	(void)state;
	assert_int_equal(nn_hp_parse_size_count("2M:512", &kb, &n), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(n, 512);
	assert_int_equal(nn_hp_parse_size_count("1GiB:4", &kb, &n), 0);
	assert_int_equal(kb, 1048576);
	assert_int_equal(n, 4);
	kb = 7;
	n = 7;
	assert_int_equal(nn_hp_parse_size_count("2M", &kb, &n), -EINVAL);
	assert_int_equal(nn_hp_parse_size_count("2M:0", &kb, &n), -EINVAL);
	assert_int_equal(nn_hp_parse_size_count("2M:-1", &kb, &n), -EINVAL);
	assert_int_equal(nn_hp_parse_size_count("2048:1", &kb, &n), -EINVAL);
	assert_int_equal(nn_hp_parse_size_count("3M:1", &kb, &n), -EINVAL);
	assert_int_equal(nn_hp_parse_size_count(":1", &kb, &n), -EINVAL);
	assert_int_equal(nn_hp_parse_size_count("2M:", &kb, &n), -EINVAL);
	assert_int_equal(nn_hp_parse_size_count("1G:9223372036854775807", &kb, &n), -ERANGE);
	assert_int_equal(nn_hp_parse_size_count("0123456789012345678901234567890123M:1", &kb, &n),
			 -EINVAL);
	assert_int_equal(nn_hp_parse_size_count(NULL, &kb, &n), -EINVAL);
	assert_int_equal(kb, 7);	/* untouched on error */
	assert_int_equal(n, 7);
}

static void test_dirname(void **state)
{
	unsigned long kb;

	(void)state;
	assert_int_equal(nn_hp_parse_dirname("hugepages-2048kB", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(nn_hp_parse_dirname("hugepages-1048576kB", &kb), 0);
	assert_int_equal(kb, 1048576);
	assert_int_equal(nn_hp_parse_dirname("hugepages-2048", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_dirname("hugepages-kB", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_dirname("hugepages-3000kB", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_dirname("hugepages-2048kB.bak", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_dirname("transparent_hugepage", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_dirname(".", &kb), -EINVAL);
}

static void test_count(void **state)
{
	long c;
	char buf[64];

	(void)state;
	assert_int_equal(nn_hp_parse_count("64", &c), 0);
	assert_int_equal(c, 64);
	assert_int_equal(nn_hp_parse_count("0", &c), 0);
	assert_int_equal(c, 0);
	assert_int_equal(nn_hp_parse_count("12\n", &c), 0);
	assert_int_equal(c, 12);
	snprintf(buf, sizeof(buf), "%ld", LONG_MAX);
	assert_int_equal(nn_hp_parse_count(buf, &c), 0);
	assert_int_equal(c, LONG_MAX);
	snprintf(buf, sizeof(buf), "%lu", (unsigned long)LONG_MAX + 1);
	assert_int_equal(nn_hp_parse_count(buf, &c), -ERANGE);
	assert_int_equal(nn_hp_parse_count("99999999999999999999999", &c), -ERANGE);
	assert_int_equal(nn_hp_parse_count("-1", &c), -EINVAL);
	assert_int_equal(nn_hp_parse_count("+1", &c), -EINVAL);
	assert_int_equal(nn_hp_parse_count("12x", &c), -EINVAL);
	assert_int_equal(nn_hp_parse_count("1 2", &c), -EINVAL);
	assert_int_equal(nn_hp_parse_count("4G", &c), -EINVAL);
	assert_int_equal(nn_hp_parse_count("", &c), -EINVAL);
	assert_int_equal(nn_hp_parse_count("0x10", &c), -EINVAL);
}

static void test_mem(void **state)
{
	unsigned long long kb;
	long pages;

	(void)state;
	assert_int_equal(nn_hp_parse_mem("4G", &kb), 0);
	assert_int_equal(kb, 4ULL << 20);
	assert_int_equal(nn_hp_parse_mem("512M", &kb), 0);
	assert_int_equal(kb, 512ULL << 10);
	assert_int_equal(nn_hp_parse_mem("1T", &kb), 0);
	assert_int_equal(kb, 1ULL << 30);
	assert_int_equal(nn_hp_parse_mem("4GiB", &kb), 0);
	assert_int_equal(kb, 4ULL << 20);
	assert_int_equal(nn_hp_parse_mem("3M", &kb), 0);	/* amounts need not be powers of two */
	assert_int_equal(kb, 3072);
	assert_int_equal(nn_hp_parse_mem("4096", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_mem("4Q", &kb), -EINVAL);
	assert_int_equal(nn_hp_parse_mem("18014398509481984P", &kb), -ERANGE);

	assert_int_equal(nn_hp_pages_for_mem(4ULL << 20, 2048, &pages), 0);
	assert_int_equal(pages, 2048);
	assert_int_equal(nn_hp_pages_for_mem(4ULL << 20, 1048576, &pages), 0);
	assert_int_equal(pages, 4);
	assert_int_equal(nn_hp_pages_for_mem(3072, 2048, &pages), 0);	/* rounded up */
	assert_int_equal(pages, 2);
	assert_int_equal(nn_hp_pages_for_mem(1, 1048576, &pages), 0);
	assert_int_equal(pages, 1);
	assert_int_equal(nn_hp_pages_for_mem(0, 2048, &pages), 0);
	assert_int_equal(pages, 0);
	assert_int_equal(nn_hp_pages_for_mem(ULLONG_MAX, 2, &pages), -ERANGE);
	assert_int_equal(nn_hp_pages_for_mem(4096, 0, &pages), -EINVAL);
}

static void test_pages_kb(void **state)
{
	unsigned long long kb;

	(void)state;
	assert_int_equal(nn_hp_pages_kb(64, 2048, &kb), 0);
	assert_int_equal(kb, 131072);
	assert_int_equal(nn_hp_pages_kb(LONG_MAX, 1048576, &kb), -ERANGE);
	assert_int_equal(nn_hp_pages_kb(-1, 2048, &kb), -EINVAL);
}

static void test_format_size(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(nn_hp_format_size(2048, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2M");
	assert_int_equal(nn_hp_format_size(1048576, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1G");
	assert_int_equal(nn_hp_format_size(64, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "64K");
	assert_int_equal(nn_hp_format_size(16777216, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "16G");
	assert_int_equal(nn_hp_format_size(32768, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "32M");
	assert_int_equal(nn_hp_format_size(2048, buf, 2), -ENAMETOOLONG);
}

static void test_nodes(void **state)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	bool all = true;

	(void)state;
	assert_int_equal(nn_hp_parse_nodes("0", &s, &all), 0);
	assert_false(all);
	assert_int_equal(nn_cpuset_count(&s), 1);
	assert_true(nn_cpuset_test(&s, 0));
	assert_int_equal(nn_hp_parse_nodes("1-3,7", &s, &all), 0);
	assert_int_equal(nn_cpuset_count(&s), 4);
	assert_true(nn_cpuset_test(&s, 7));
	assert_int_equal(nn_hp_parse_nodes("all", &s, &all), 0);
	assert_true(all);
	assert_true(nn_cpuset_empty(&s));
	assert_int_equal(nn_hp_parse_nodes("", &s, &all), -EINVAL);
	assert_int_equal(nn_hp_parse_nodes("alll", &s, &all), -EINVAL);
	assert_int_equal(nn_hp_parse_nodes("-1", &s, &all), -EINVAL);
	assert_int_equal(nn_hp_parse_nodes("a", &s, &all), -EINVAL);
	assert_int_equal(nn_hp_parse_nodes("3-1", &s, &all), -EINVAL);
	nn_cpuset_free(&s);
}

static void test_meminfo(void **state)
{
	const char *node = "Node 1 MemTotal:       65608864 kB\n"
			   "Node 1 MemFree:        54455357 kB\n"
			   "Node 1 HugePages_Total:   576\n";
	const char *proc = "MemTotal:       24576000 kB\nHugepagesize:       2048 kB\n";
	long kb;

	(void)state;
	assert_int_equal(nn_parse_meminfo_kb(node, "MemTotal", &kb), 0);
	assert_int_equal(kb, 65608864);
	assert_int_equal(nn_parse_meminfo_kb(node, "MemFree", &kb), 0);
	assert_int_equal(kb, 54455357);
	assert_int_equal(nn_parse_meminfo_kb(node, "HugePages_Total", &kb), 0);
	assert_int_equal(kb, 576);
	assert_int_equal(nn_parse_meminfo_kb(proc, "Hugepagesize", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(nn_parse_meminfo_kb(proc, "Mem", &kb), -ENOENT);	/* whole keys only */
	assert_int_equal(nn_parse_meminfo_kb(proc, "SwapTotal", &kb), -ENOENT);
	assert_int_equal(nn_parse_meminfo_kb("MemTotal: lots kB\n", "MemTotal", &kb), -EINVAL);
	assert_int_equal(nn_parse_meminfo_kb("MemTotal: 12 MB\n", "MemTotal", &kb), -EINVAL);
	assert_int_equal(nn_parse_meminfo_kb("", "MemTotal", &kb), -ENOENT);
}

static void test_mount_line(void **state)
{
	struct nn_hp_mount m;

	(void)state;
	assert_int_equal(nn_hp_parse_mount_line(
		"hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0", 0, &m), 1);
	assert_string_equal(m.path, "/dev/hugepages");
	assert_int_equal(m.size_kb, 2048);
	free(m.path);
	/* Kernels print 1G pages as 1024M. */
	assert_int_equal(nn_hp_parse_mount_line(
		"nodev /mnt/huge1g hugetlbfs rw,relatime,pagesize=1024M 0 0", 2048, &m), 1);
	assert_int_equal(m.size_kb, 1048576);
	free(m.path);
	/* pagesize= not first, and a path with an escaped space and tab. */
	assert_int_equal(nn_hp_parse_mount_line(
		"none /mnt/my\\040huge\\011pages hugetlbfs rw,pagesize=1G,mode=1770,gid=10 0 0",
		0, &m), 1);
	assert_string_equal(m.path, "/mnt/my huge\tpages");
	assert_int_equal(m.size_kb, 1048576);
	free(m.path);
	/* Backslash escape, and no pagesize: the default size stands in. */
	assert_int_equal(nn_hp_parse_mount_line("none /a\\134b hugetlbfs rw 0 0", 2048, &m), 1);
	assert_string_equal(m.path, "/a\\b");
	assert_int_equal(m.size_kb, 2048);
	free(m.path);
	/* A trailing lone backslash is kept, not read past. */
	assert_int_equal(nn_hp_parse_mount_line("none /a\\13 hugetlbfs rw 0 0", 0, &m), 1);
	assert_string_equal(m.path, "/a\\13");
	assert_int_equal(m.size_kb, 0);
	free(m.path);

	assert_int_equal(nn_hp_parse_mount_line("proc /proc proc rw,nosuid 0 0", 0, &m), 0);
	assert_int_equal(nn_hp_parse_mount_line("/dev/sda2 /hugetlbfs ext4 rw 0 0", 0, &m), 0);
	assert_int_equal(nn_hp_parse_mount_line("hugetlbfs /x hugetlbfsx rw 0 0", 0, &m), 0);
	assert_int_equal(nn_hp_parse_mount_line("hugetlbfs /x", 0, &m), -EINVAL);
	assert_int_equal(nn_hp_parse_mount_line("", 0, &m), -EINVAL);
	assert_int_equal(nn_hp_parse_mount_line("h /x hugetlbfs rw,pagesize=3M 0 0", 0, &m), -EINVAL);
	assert_int_equal(nn_hp_parse_mount_line("h /x hugetlbfs rw,pagesize= 0 0", 0, &m), -EINVAL);
}

static void test_mounts(void **state)
{
	const char *text =
		"sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
		"hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0\n"
		"garbage\n"
		"\n"
		"nodev /mnt/huge1g hugetlbfs rw,relatime,pagesize=1024M 0 0";	/* no final newline */
	struct nn_hp_mount *m = NULL;
	size_t n = 0, bad = 0;

	(void)state;
	assert_int_equal(nn_hp_parse_mounts(text, 2048, &m, &n, &bad), 0);
	assert_int_equal(n, 2);
	assert_int_equal(bad, 1);
	assert_string_equal(m[0].path, "/dev/hugepages");
	assert_int_equal(m[0].size_kb, 2048);
	assert_string_equal(m[1].path, "/mnt/huge1g");
	assert_int_equal(m[1].size_kb, 1048576);
	nn_hp_mounts_free(m, n);

	assert_int_equal(nn_hp_parse_mounts("", 0, &m, &n, NULL), 0);
	assert_int_equal(n, 0);
	nn_hp_mounts_free(m, n);
}

static void test_boot_args(void **state)
{
	struct nn_plan_hugepages e[] = {
		{ .node = 1, .size_kb = 1048576, .current = 0, .target = 3 },
		{ .node = 0, .size_kb = 1048576, .current = 0, .target = 1 },
		{ .node = 2, .size_kb = 1048576, .current = 4, .target = 0 },	/* skipped */
		{ .node = 3, .size_kb = 2048, .current = 0, .target = 512 },	/* other size */
	};
	struct nn_plan_hugepages dup[] = {
		{ .node = 1, .size_kb = 2048, .target = 3 },
		{ .node = 1, .size_kb = 2048, .target = 4 },
	};
	char buf[128];
	int len;

	(void)state;
	len = nn_hp_format_boot_args(1048576, e, 4, buf, sizeof(buf));
	assert_string_equal(buf, "hugepagesz=1G hugepages=0:1,1:3");
	assert_int_equal(len, (int)strlen(buf));
	len = nn_hp_format_boot_args(2048, e, 4, buf, sizeof(buf));
	assert_string_equal(buf, "hugepagesz=2M hugepages=3:512");
	assert_int_equal(nn_hp_format_boot_args(64, e, 4, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(nn_hp_format_boot_args(1048576, e, 4, buf, 20), -ENAMETOOLONG);
	assert_int_equal(nn_hp_format_boot_args(1048576, e, 4, buf, 30), -ENAMETOOLONG);
	assert_int_equal(nn_hp_format_boot_args(2048, dup, 2, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_hp_format_boot_args(2048, NULL, 0, buf, sizeof(buf)), -ENOENT);
}

static void test_pool_path(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(nn_hp_pool_path(true, 3, 2048, "nr_hugepages", buf, sizeof(buf)), 0);
	assert_string_equal(buf,
		"/sys/devices/system/node/node3/hugepages/hugepages-2048kB/nr_hugepages");
	assert_int_equal(nn_hp_pool_path(false, 0, 1048576, "free_hugepages", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages");
	assert_int_equal(nn_hp_pool_path(false, 1, 2048, "nr_hugepages", buf, sizeof(buf)), -ENODEV);
	assert_int_equal(nn_hp_pool_path(true, 0, 2048, "nr_hugepages", buf, 16), -ENAMETOOLONG);
}

/* A snapshot: node 0 (64 GB), node 1 memory-less, node 2 (4 MB only). */
static void mkstate(struct nn_hp_state *st, unsigned long *sizes, struct nn_hp_node *nodes,
		    struct nn_hp_pool *pools)
{
	size_t i, j;

	memset(st, 0, sizeof(*st));
	sizes[0] = 2048;
	sizes[1] = 1048576;
	st->sizes = sizes;
	st->nsizes = 2;
	st->numa = true;
	nodes[0] = (struct nn_hp_node){ .id = 0, .mem_total_kb = 64L << 20, .mem_free_kb = 60L << 20 };
	nodes[1] = (struct nn_hp_node){ .id = 1, .mem_total_kb = 0, .mem_free_kb = 0 };
	nodes[2] = (struct nn_hp_node){ .id = 2, .mem_total_kb = 4096, .mem_free_kb = 4096 };
	st->nodes = nodes;
	st->nnodes = 3;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			pools[i * 2 + j] = (struct nn_hp_pool){ .node = nodes[i].id,
				.size_kb = sizes[j], .total = i == 1 ? -1 : 2, .free = 1,
				.surplus = 0, .reserved = -1 };
	st->pools = pools;
	st->npools = 6;
}

static void test_check_target(void **state)
{
	unsigned long sizes[2];
	struct nn_hp_node nodes[3];
	struct nn_hp_pool pools[6];
	struct nn_hp_result res[2];
	struct nn_hp_state st;
	char why[256], buf[128];

	(void)state;
	mkstate(&st, sizes, nodes, pools);
	assert_int_equal(nn_hp_check_target(&st, 0, 2048, 64, why, sizeof(why)), 0);
	assert_int_equal(nn_hp_check_target(&st, 0, 1048576, 64, why, sizeof(why)), 0);
	assert_int_equal(nn_hp_check_target(&st, 7, 2048, 1, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "node 7 does not exist (nodes: 0 1 2)");
	assert_int_equal(nn_hp_check_target(&st, 0, 4096, 1, why, sizeof(why)), -EOPNOTSUPP);
	assert_string_equal(why, "page size 4M is not supported here (sizes: 2M 1G)");
	assert_int_equal(nn_hp_check_target(&st, 1, 2048, 1, why, sizeof(why)), -ENOMEM);
	assert_contains(why, "node 1 has no memory");
	/* 3 x 2 MB do not fit in node 2's 4 MB; 2 do. */
	assert_int_equal(nn_hp_check_target(&st, 2, 2048, 2, why, sizeof(why)), 0);
	assert_int_equal(nn_hp_check_target(&st, 2, 2048, 3, why, sizeof(why)), -ERANGE);
	assert_contains(why, "the node has 4096 kB");
	assert_int_equal(nn_hp_check_target(&st, 0, 1048576, LONG_MAX, why, sizeof(why)), -ERANGE);
	assert_contains(why, "overflow");
	assert_int_equal(nn_hp_check_target(&st, 0, 2048, -1, why, sizeof(why)), -ERANGE);
	/* An unreadable pool is not guessed at. */
	pools[1].total = -1;
	assert_int_equal(nn_hp_check_target(&st, 0, 1048576, 1, why, sizeof(why)), -EIO);
	pools[1].total = 2;

	/* Boot arguments: asked-for nodes at their target, the others as they are. */
	memset(res, 0, sizeof(res));
	res[0] = (struct nn_hp_result){ .node = 2, .size_kb = 1048576, .before = 2, .target = 6 };
	assert_true(nn_hp_boot_args(&st, 1048576, res, 1, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "hugepagesz=1G hugepages=0:2,2:6");

	assert_non_null(nn_hp_state_pool(&st, 2, 1048576));
	assert_null(nn_hp_state_pool(&st, 3, 2048));
	assert_true(nn_hp_state_has_size(&st, 2048));
	assert_false(nn_hp_state_has_size(&st, 4096));
	assert_null(nn_hp_state_mount(&st, 2048));
}

/* reserve/release targets from the user's words, on mkstate's snapshot. */
/* The pools' walk's check of @t's targets against @st (borrowed). */
static int walk_check(const struct nn_hp_state *st, const struct nn_hp_targets *t, char *why,
		      size_t whylen)
{
	struct nn_hp_walk w = NN_HP_WALK_INIT;
	struct nn_hp_result *res = calloc(t->n ? t->n : 1, sizeof(*res));
	int err;

	assert_non_null(res);
	w.st = *st;	/* borrowed: have_state stays false, nn_hp_walk_free leaves it */
	err = nn_hp_walk_check(&w, t->want, t->n, res, why, whylen);
	nn_hp_walk_free(&w);
	free(res);
	return err;
}

static void test_targets(void **state)
{
	unsigned long sizes[2];
	struct nn_hp_node nodes[3];
	struct nn_hp_pool pools[6];
	struct nn_hp_targets t;
	struct nn_hp_state st;
	char why[512];

	(void)state;
	mkstate(&st, sizes, nodes, pools);
	st.default_kb = 2048;
	/* reserve: current + count, default size */
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "0",
				.count = "4" }, &t, why, sizeof(why)), 0);
	assert_int_equal(t.size_kb, 2048);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.want[0].node, 0);
	assert_int_equal(t.want[0].current, 2);
	assert_int_equal(t.want[0].target, 6);
	nn_hp_targets_free(&t);
	/* --mem rounds up to whole pages: 3M of 2M pages is 2 */
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "0",
				.size = "2M", .mem = "3M" }, &t, why, sizeof(why)), 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(t.want[0].target, 4);
	nn_hp_targets_free(&t);
	/* "all" leaves the memory-less node out and says so */
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .release = true,
				.nodes = "all", .count = "1" }, &t, why, sizeof(why)), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.want[1].target, 1);
	assert_int_equal(t.want[1].node, 2);
	assert_int_equal(t.nskipped, 1);
	assert_int_equal(t.skipped[0], 1);
	nn_hp_targets_free(&t);
	/* release: current - count, --all to 0; pages in use are reported */
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .release = true,
				.nodes = "0", .count = "2" }, &t, why, sizeof(why)), 0);
	assert_int_equal(t.want[0].target, 0);
	assert_int_equal(t.in_use[0], 1);
	nn_hp_targets_free(&t);
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .release = true,
				.nodes = "0", .all = true }, &t, why, sizeof(why)), 0);
	assert_int_equal(t.want[0].target, 0);
	nn_hp_targets_free(&t);
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .release = true,
				.nodes = "0", .count = "3" }, &t, why, sizeof(why)), -ERANGE);
	assert_string_equal(why, "--count 3: node 0 holds only 2 pages of 2M");
	nn_hp_targets_free(&t);

	/* refusals name the value */
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "0",
				.count = "9223372036854775807" }, &t, why, sizeof(why)), -ERANGE);
	assert_string_equal(why, "--count 9223372036854775807: node 0 already holds 2 pages of 2M; "
			    "the sum overflows");
	nn_hp_targets_free(&t);
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "0",
				.count = "0" }, &t, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--count '0': nothing to reserve");
	nn_hp_targets_free(&t);
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "0",
				.size = "4M", .count = "1" }, &t, why, sizeof(why)), -EOPNOTSUPP);
	assert_string_equal(why, "--size '4M': page size 4M is not supported here (sizes: 2M 1G)");
	nn_hp_targets_free(&t);
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "x",
				.count = "1" }, &t, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--nodes 'x': not a node list (0, 0,2, 1-3 or all)");
	nn_hp_targets_free(&t);
	/* a node that is not there, or pages that do not fit: the targets are
	 * made, the pools' walk checks them (once, before any write) */
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "7",
				.count = "1" }, &t, why, sizeof(why)), 0);
	assert_int_equal(walk_check(&st, &t, why, sizeof(why)), -ENODEV);
	assert_string_equal(why, "node 7 does not exist (nodes: 0 1 2)");
	nn_hp_targets_free(&t);
	/* 3 x 2M do not fit in node 2's 4 MB */
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "2",
				.count = "1" }, &t, why, sizeof(why)), 0);
	assert_int_equal(walk_check(&st, &t, why, sizeof(why)), -ERANGE);
	assert_contains(why, "the node has 4096 kB");
	nn_hp_targets_free(&t);
	/* the same pool twice is refused before anything is written */
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "0",
				.count = "1" }, &t, why, sizeof(why)), 0);
	{
		struct nn_plan_hugepages twice[2] = { t.want[0], t.want[0] };
		struct nn_hp_result res[2];
		struct nn_hp_walk w = NN_HP_WALK_INIT;

		w.st = st;	/* borrowed: have_state stays false */
		assert_int_equal(nn_hp_walk_check(&w, twice, 2, res, why, sizeof(why)), -EINVAL);
		assert_contains(why, "asked twice");
		nn_hp_walk_free(&w);
	}
	nn_hp_targets_free(&t);
	st.default_kb = 0;
	assert_int_equal(nn_hp_targets_make(&st, &(struct nn_hp_request){ .nodes = "0",
				.count = "1" }, &t, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--size not given and /proc/meminfo has no Hugepagesize");
	nn_hp_targets_free(&t);
}

/* ---- the writers on a small tree: two nodes, 2M and 1G pools ---- */

static char tmp[PATH_MAX];

static void put(const char *rel, const char *content)
{
	assert_int_equal(tmptree_put(tmp, rel, content), 0);
}

static long get(int node, unsigned long kb)
{
	char p[PATH_MAX * 2];
	long v = -1;
	FILE *f;

	snprintf(p, sizeof(p), "%s/sys/devices/system/node/node%d/hugepages/hugepages-%lukB/nr_hugepages",
		 tmp, node, kb);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &v), 1);
	fclose(f);
	return v;
}

static int tree_setup(void **state)
{
	static const unsigned long sizes[] = { 2048, 1048576 };
	char rel[256];
	int n;
	size_t i;

	(void)state;
	if (tmptree_make(tmp, sizeof(tmp), "hugepages"))
		return -1;
	for (n = 0; n < 2; n++) {
		snprintf(rel, sizeof(rel), "sys/devices/system/node/node%d/meminfo", n);
		put(rel, n == 0 ? "Node 0 MemTotal: 8388608 kB\nNode 0 MemFree: 8000000 kB\n"
				: "Node 1 MemTotal: 8388608 kB\nNode 1 MemFree: 8000000 kB\n");
		for (i = 0; i < 2; i++) {
			static const char *const files[] = { "nr_hugepages", "free_hugepages",
							      "surplus_hugepages" };
			size_t f;

			for (f = 0; f < 3; f++) {
				snprintf(rel, sizeof(rel),
					 "sys/devices/system/node/node%d/hugepages/hugepages-%lukB/%s",
					 n, sizes[i], files[f]);
				put(rel, f == 0 && n == 0 && i == 0 ? "4\n" : (f == 1 && n == 0 && i == 0 ? "4\n" : "0\n"));
			}
		}
	}
	for (i = 0; i < 2; i++) {
		static const char *const files[] = { "nr_hugepages", "free_hugepages",
						      "surplus_hugepages", "resv_hugepages" };
		size_t f;

		for (f = 0; f < 4; f++) {
			snprintf(rel, sizeof(rel), "sys/kernel/mm/hugepages/hugepages-%lukB/%s",
				 sizes[i], files[f]);
			put(rel, "0\n");
		}
	}
	put("proc/meminfo", "MemTotal: 16777216 kB\nHugepagesize: 2048 kB\n");
	put("proc/mounts", "proc /proc proc rw 0 0\n");
	put("proc/sys/vm/compact_memory", "");
	return 0;
}

static int tree_teardown(void **state)
{
	(void)state;
	return tmptree_remove(tmp);
}

static void ctx_open(struct nn_ctx *ctx, FILE **devnull)
{
	assert_int_equal(nn_ctx_init(ctx, tmp, false), 0);
	*devnull = fopen("/dev/null", "w");
	ctx->out.fp = *devnull;
	ctx->state_dir = "/var/lib/nicnuma";
}

static void test_state_read(void **state)
{
	struct nn_hp_state st;
	struct nn_ctx ctx;
	FILE *devnull;

	(void)state;
	ctx_open(&ctx, &devnull);
	assert_int_equal(nn_hp_state_read(&ctx, &st), 0);
	assert_true(st.numa);
	assert_int_equal(st.nsizes, 2);
	assert_int_equal(st.nnodes, 2);
	assert_int_equal(st.default_kb, 2048);
	assert_int_equal(nn_hp_state_node(&st, 1)->mem_total_kb, 8388608);
	assert_int_equal(nn_hp_state_pool(&st, 0, 2048)->total, 4);
	assert_int_equal(nn_hp_state_pool(&st, 0, 2048)->free, 4);
	assert_int_equal(nn_hp_state_pool(&st, 0, 2048)->reserved, -1);
	assert_int_equal(st.totals[0].reserved, 0);
	assert_int_equal(st.nmounts, 0);
	assert_int_equal(ctx.nwarns, 0);
	nn_hp_state_free(&st);
	nn_ctx_free(&ctx);
	fclose(devnull);
}

static void test_apply_plan(void **state)
{
	struct nn_plan_hugepages good[] = {
		{ .node = 0, .size_kb = 2048, .current = 4, .target = 6 },
		{ .node = 1, .size_kb = 1048576, .current = 0, .target = 2 },
	};
	struct nn_plan_hugepages badsize[] = {
		{ .node = 0, .size_kb = 2048, .current = 6, .target = 1 },
		{ .node = 1, .size_kb = 4096, .current = 0, .target = 1 },
	};
	struct nn_plan_hugepages badnode[] = {
		{ .node = 0, .size_kb = 2048, .current = 6, .target = 1 },
		{ .node = 5, .size_kb = 2048, .current = 0, .target = 1 },
	};
	struct nn_ctx ctx;
	struct nn_undo u;
	FILE *devnull;

	(void)state;
	ctx_open(&ctx, &devnull);
	assert_int_equal(nn_undo_begin(&ctx, &u, "apply"), 0);
	assert_int_equal(nn_hugepages_apply_plan(&ctx, &u, good, 2, 0, NULL), 0);
	assert_int_equal(get(0, 2048), 6);
	assert_int_equal(get(1, 1048576), 2);
	assert_int_equal(u.nchanges, 2);
	assert_string_equal(u.changes[0].path,
		"/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages");
	assert_string_equal(u.changes[0].before, "4");
	assert_string_equal(u.changes[0].after, "6");
	assert_string_equal(u.changes[1].before, "0");
	assert_string_equal(u.changes[1].after, "2");
	assert_int_equal(ctx.nwarns, 0);
	/* Already there: nothing written, nothing recorded; the plan's stale
	 * "current" counts are pointed out. */
	assert_int_equal(nn_hugepages_apply_plan(&ctx, &u, good, 2, 0, NULL), 0);
	assert_int_equal(u.nchanges, 2);
	assert_int_equal(ctx.nwarns, 2);
	assert_contains(ctx.warns[0].msg, "holds 6 pages, the plan saw 4");

	/* One bad entry: checked before any write, so node 0 stays at 6. */
	assert_int_equal(nn_hugepages_apply_plan(&ctx, &u, badsize, 2, 0, NULL), -EOPNOTSUPP);
	assert_int_equal(get(0, 2048), 6);
	assert_int_equal(nn_hugepages_apply_plan(&ctx, &u, badnode, 2, 0, NULL), -ENODEV);
	assert_int_equal(get(0, 2048), 6);
	assert_int_equal(u.nchanges, 2);
	assert_true(ctx.nwarns >= 2);

	/* Rollback puts both pools back. */
	assert_int_equal(nn_undo_rollback(&ctx, &u), 0);
	assert_int_equal(get(0, 2048), 4);
	assert_int_equal(get(1, 1048576), 0);
	nn_undo_free(&u);
	nn_ctx_free(&ctx);
	fclose(devnull);
}

static void test_reserve_release(void **state)
{
	struct nn_hp_result r;
	struct nn_ctx ctx;
	struct nn_undo u;
	FILE *devnull;

	(void)state;
	ctx_open(&ctx, &devnull);
	assert_int_equal(nn_undo_begin(&ctx, &u, "hugepages reserve"), 0);
	assert_int_equal(nn_hugepages_reserve(&ctx, &u, 0, 2048, 3, 0, &r), 0);
	assert_int_equal(r.before, 4);
	assert_int_equal(r.target, 7);
	assert_int_equal(r.got, 7);
	assert_int_equal(r.after, 7);
	assert_false(r.compacted);
	assert_int_equal(get(0, 2048), 7);
	/* Dry run: read and checked, not written. */
	assert_int_equal(nn_hugepages_reserve(&ctx, &u, 0, 2048, 3, NN_HP_DRY_RUN, &r), 0);
	assert_int_equal(r.target, 10);
	assert_int_equal(get(0, 2048), 7);
	assert_int_equal(nn_hugepages_release(&ctx, &u, 0, 2048, 2, 0, &r), 0);
	assert_int_equal(get(0, 2048), 5);
	assert_int_equal(nn_hugepages_release(&ctx, &u, 0, 2048, 6, 0, &r), -ERANGE);
	assert_int_equal(get(0, 2048), 5);
	assert_int_equal(nn_hugepages_release(&ctx, &u, 0, 2048, -1, 0, &r), 0);
	assert_int_equal(get(0, 2048), 0);
	assert_int_equal(nn_hugepages_reserve(&ctx, &u, 0, 4096, 1, 0, &r), -EOPNOTSUPP);
	assert_int_equal(nn_hugepages_reserve(&ctx, &u, 3, 2048, 1, 0, &r), -ENODEV);
	assert_int_equal(nn_hugepages_reserve(&ctx, &u, 0, 2048, -1, 0, &r), -EINVAL);
	/* 5000 2M pages (10 GB) do not fit in node 0's 8 GB. */
	assert_int_equal(nn_hugepages_reserve(&ctx, &u, 0, 2048, 5000, 0, &r), -ERANGE);
	assert_int_equal(u.nchanges, 3);
	/* Mounting is live-only: refused under a fake root, nothing recorded. */
	assert_int_equal(nn_hp_mount(&ctx, &u, "/mnt", 2048), -EPERM);
	assert_int_equal(u.nchanges, 3);
	assert_int_equal(nn_undo_rollback(&ctx, &u), 0);
	assert_int_equal(get(0, 2048), 4);
	nn_undo_free(&u);
	nn_ctx_free(&ctx);
	fclose(devnull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_size_count),
		cmocka_unit_test(test_dirname),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_pages_kb),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_mount_line),
		cmocka_unit_test(test_mounts),
		cmocka_unit_test(test_boot_args),
		cmocka_unit_test(test_pool_path),
		cmocka_unit_test(test_check_target),
		cmocka_unit_test(test_targets),
		cmocka_unit_test_setup_teardown(test_state_read, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_apply_plan, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_reserve_release, tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
