// SPDX-License-Identifier: GPL-2.0-or-later
/* test_fsroot.c - root resolution, typed readers, writes, symlinks */
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

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/nodes.h"
#include "nicnuma/core/strbuf.h"
#include "tmptree.h"

static char tmp[PATH_MAX];

static void put(const char *rel, const char *content)
{
	assert_int_equal(tmptree_put(tmp, rel, content), 0);
}

static void mk(const char *rel)
{
	assert_int_equal(tmptree_mkdir(tmp, rel), 0);
}

static int setup(void **state)
{
	char p[PATH_MAX * 2];

	(void)state;
	if (tmptree_make(tmp, sizeof(tmp), "fsroot"))
		return -1;
	mk("sys");
	mk("sys/devices");
	mk("sys/devices/pci0000:00");
	mk("sys/devices/pci0000:00/0000:00:03.0");
	mk("sys/devices/pci0000:00/0000:00:03.0/virtio2");
	mk("sys/class");
	mk("sys/class/net");
	mk("sys/class/net/eth0");
	put("sys/devices/pci0000:00/0000:00:03.0/numa_node", "1\n");
	put("sys/devices/pci0000:00/0000:00:03.0/local_cpulist", "2-3\n");
	put("sys/class/net/eth0/bad", "12x\n");
	put("sys/class/net/eth0/mask", "0000000c\n");
	/* Relative link, as sysfs makes them. */
	snprintf(p, sizeof(p), "%s/sys/class/net/eth0/device", tmp);
	assert_int_equal(symlink("../../../devices/pci0000:00/0000:00:03.0/virtio2", p), 0);
	/* Absolute link: must resolve inside the root, never on the host. */
	snprintf(p, sizeof(p), "%s/sys/class/net/abs", tmp);
	assert_int_equal(symlink("/sys/devices/pci0000:00/0000:00:03.0", p), 0);
	/* Absolute link to a host directory that the root does not have. */
	snprintf(p, sizeof(p), "%s/sys/class/net/host", tmp);
	assert_int_equal(symlink("/proc/sys/kernel", p), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmptree_remove(tmp);
}

static void test_open(void **state)
{
	struct nn_root r;

	(void)state;
	assert_int_equal(nn_root_open(&r, "/"), 0);
	assert_true(nn_root_is_live(&r));
	nn_root_close(&r);
	assert_int_equal(nn_root_open(&r, tmp), 0);
	assert_false(nn_root_is_live(&r));
	nn_root_close(&r);
	assert_int_equal(nn_root_open(&r, "/nonexistent/nicnuma-root"), -ENOENT);
	nn_root_close(&r);
}

static void test_read(void **state)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	struct nn_root r;
	char buf[PATH_MAX];
	long v;

	(void)state;
	assert_int_equal(nn_root_open(&r, tmp), 0);
	assert_int_equal(nn_read_long(&r, "/sys/class/net/eth0/device/../numa_node", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(nn_read_long(&r, "/sys/class/net/eth0/bad", &v), -EINVAL);
	assert_int_equal(nn_read_long(&r, "/sys/class/net/eth0/missing", &v), -ENOENT);
	assert_int_equal(nn_read_cpulist(&r, "/sys/class/net/abs/local_cpulist", &s), 0);
	assert_int_equal(nn_cpuset_count(&s), 2);
	assert_int_equal(nn_read_cpumask(&r, "/sys/class/net/eth0/mask", &s), 0);
	assert_true(nn_cpuset_test(&s, 2) && nn_cpuset_test(&s, 3));
	assert_int_equal(nn_root_realpath(&r, "/sys/class/net/eth0/device", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/devices/pci0000:00/0000:00:03.0/virtio2");
	assert_int_equal(nn_root_realpath(&r, "/sys/class/net/abs/virtio2/..", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/devices/pci0000:00/0000:00:03.0");
	assert_int_equal(nn_root_readlink(&r, "/sys/class/net/eth0/device", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "../../../devices/pci0000:00/0000:00:03.0/virtio2");
	assert_int_equal(nn_root_access(&r, "/sys/class/net/eth0", 0), 0);
	assert_int_equal(nn_root_access(&r, "/sys/class/net/none", 0), -ENOENT);
	nn_cpuset_free(&s);
	nn_root_close(&r);
}

/* A directory view gives what the root gives, and never a host file: the
 * absolute links and ".." that leave the view are resolved from the root. */
static void test_view(void **state)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	struct nn_root r, v;
	char buf[64];
	long n;

	(void)state;
	assert_int_equal(access("/proc/sys/kernel/ostype", R_OK), 0);
	assert_int_equal(nn_root_open(&r, tmp), 0);
	assert_int_equal(nn_root_view_open(&r, "/sys/class/net", &v), 0);
	assert_true(v.dirfd >= 0);
	/* below the view, no link and no "..": the unscoped walk */
	assert_int_equal(nn_read_cpumask(&v, "/sys/class/net/eth0/mask", &s), 0);
	assert_true(nn_cpuset_test(&s, 2) && nn_cpuset_test(&s, 3));
	/* a name with dots that is no ".." component */
	assert_int_equal(nn_read_long(&v, "/sys/class/net/eth0/..x", &n), -ENOENT);
	/* below the view, through a relative link */
	assert_int_equal(nn_read_long(&v, "/sys/class/net/eth0/device/../numa_node", &n), 0);
	assert_int_equal(n, 1);
	/* an absolute link: inside the root, not the host's /sys */
	assert_int_equal(nn_read_cpulist(&v, "/sys/class/net/abs/local_cpulist", &s), 0);
	assert_int_equal(nn_cpuset_count(&s), 2);
	/* an absolute link to a host path the root lacks: not found */
	assert_int_equal(nn_read_str(&v, "/sys/class/net/host/ostype", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(nn_read_str(&r, "/sys/class/net/host/ostype", buf, sizeof(buf)), -ENOENT);
	/* ".." above the view, and far above the root */
	assert_int_equal(nn_read_long(&v, "/sys/class/net/../../devices/pci0000:00/0000:00:03.0/numa_node",
				      &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(nn_read_str(&v, "/sys/class/net/../../../../../../proc/sys/kernel/ostype",
				     buf, sizeof(buf)), -ENOENT);
	/* outside the view, and a prefix that is not the directory */
	assert_int_equal(nn_read_long(&v, "/sys/devices/pci0000:00/0000:00:03.0/numa_node", &n), 0);
	assert_int_equal(nn_read_long(&v, "/sys/class/netx/numa_node", &n), -ENOENT);
	assert_int_equal(nn_read_long(&v, "/sys/class/net/eth0/missing", &n), -ENOENT);
	nn_root_view_close(&v);
	assert_int_equal(v.dirfd, -1);

	/* A missing directory: the view still works, as the root. */
	assert_int_equal(nn_root_view_open(&r, "/sys/none", &v), -ENOENT);
	assert_int_equal(nn_read_long(&v, "/sys/class/net/eth0/device/../numa_node", &n), 0);
	nn_root_view_close(&v);
	nn_root_close(&r);

	/* Live: a plain shorter walk. */
	assert_int_equal(nn_root_open(&r, "/"), 0);
	assert_int_equal(nn_root_view_open(&r, "/proc/sys/kernel/", &v), 0);
	assert_int_equal(nn_read_str(&v, "/proc/sys/kernel/ostype", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Linux");
	nn_root_view_close(&v);
	nn_root_close(&r);
	nn_cpuset_free(&s);
}

struct lines {
	size_t n;
	size_t bytes;
	size_t longest;
	char last[32];
};

static int count_line(void *arg, const char *p, const char *end)
{
	struct lines *l = arg;
	size_t len = (size_t)(end - p);

	assert_null(memchr(p, '\n', len));
	l->n++;
	l->bytes += len;
	if (len > l->longest)
		l->longest = len;
	snprintf(l->last, sizeof(l->last), "%.*s", (int)(len < 31 ? len : 31), p);
	return 0;
}

static int stop_at_3(void *arg, const char *p, const char *end)
{
	(void)p;
	(void)end;
	return ++((struct lines *)arg)->n == 3 ? -ECANCELED : 0;
}

/* Streaming: lines cut by every chunk boundary, one line longer than the
 * buffer (it must grow), no final newline, text ending at a NUL. */
static void test_read_lines(void **state)
{
	struct lines l = { 0 };
	struct nn_sb big = NN_SB_INIT;
	struct nn_root r;
	size_t i, want = 0;

	(void)state;
	for (i = 0; i < 20000; i++)
		nn_sb_printf(&big, "%zu: %*s x\n", i, (int)(i % 37), "");
	want = big.len - 20000;
	for (i = 0; i < 200000; i++)	/* longer than the 64 KiB buffer */
		nn_sb_putc(&big, 'y');
	nn_sb_puts(&big, "\nend");
	want += 200000 + 3;
	assert_non_null(nn_sb_str(&big));
	put("proc_lines", nn_sb_str(&big));
	assert_int_equal(nn_root_open(&r, tmp), 0);
	assert_int_equal(nn_read_lines(&r, "/proc_lines", count_line, &l), 0);
	assert_int_equal(l.n, 20002);
	assert_int_equal(l.bytes, want);
	assert_int_equal(l.longest, 200000);
	assert_string_equal(l.last, "end");

	memset(&l, 0, sizeof(l));
	assert_int_equal(nn_read_lines(&r, "/proc_lines", stop_at_3, &l), -ECANCELED);
	assert_int_equal(nn_read_lines(&r, "/proc_none", count_line, &l), -ENOENT);
	{
		char p2[PATH_MAX * 2];
		FILE *f;

		snprintf(p2, sizeof(p2), "%s/nul_lines", tmp);
		f = fopen(p2, "w");
		assert_non_null(f);
		fwrite("a\nbb\0cc\ndd\n", 1, 12, f);
		fclose(f);
	}
	memset(&l, 0, sizeof(l));
	assert_int_equal(nn_read_lines(&r, "/nul_lines", count_line, &l), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.last, "bb");
	nn_sb_free(&big);
	nn_root_close(&r);
}

static void test_write(void **state)
{
	struct nn_root r;
	char buf[64];

	(void)state;
	assert_int_equal(nn_root_open(&r, tmp), 0);
	assert_int_equal(nn_write_str(&r, "/sys/class/net/eth0/mask", "3"), 0);
	assert_int_equal(nn_read_str(&r, "/sys/class/net/eth0/mask", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "3");
	/* No O_CREAT: a missing file is an error, as in sysfs. */
	assert_int_equal(nn_write_str(&r, "/sys/class/net/eth0/newfile", "1"), -ENOENT);
	assert_int_equal(nn_read_str(&r, "/sys/class/net/eth0/mask", buf, 1), -ENAMETOOLONG);
	nn_root_close(&r);
}

static void test_parse_long(void **state)
{
	long v;

	(void)state;
	assert_int_equal(nn_parse_long(" -1\n", &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(nn_parse_long("", &v), -EINVAL);
	assert_int_equal(nn_parse_long("1 2", &v), -EINVAL);
	assert_int_equal(nn_parse_long("99999999999999999999999", &v), -ERANGE);
}

/* A directory outside every root, with a link the host would show. */
static char outside[PATH_MAX];

static void ln(const char *target, const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	assert_int_equal(symlink(target, p), 0);
}

/* readlink and realpath under a fake root: every intermediate symlink,
 * absolute or chained, resolves inside the root, never on the live system. */
static void test_readlink_in_root(void **state)
{
	char p[PATH_MAX * 2], buf[PATH_MAX];
	struct nn_root r;

	(void)state;
	snprintf(outside, sizeof(outside), "/tmp/nn-fsroot-out-XXXXXX");
	assert_non_null(mkdtemp(outside));
	snprintf(p, sizeof(p), "%s/lnk", outside);
	assert_int_equal(symlink("HOST-SIDE", p), 0);
	mk("etc");
	ln("inside", "etc/lnk");
	put("etc/inside", "x\n");
	ln("/etc", "etc-abs");		/* absolute link to /etc */
	ln(outside, "hop");		/* absolute link to a host directory */
	ln("chain2", "chain1");		/* chain: chain1 -> chain2 -> /etc-abs -> /etc */
	ln("/etc-abs", "chain2");

	assert_int_equal(nn_root_open(&r, tmp), 0);
	/* The link itself, and links behind absolute and chained links. */
	assert_int_equal(nn_root_readlink(&r, "/etc/lnk", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "inside");
	assert_int_equal(nn_root_readlink(&r, "/etc-abs/lnk", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "inside");
	assert_int_equal(nn_root_readlink(&r, "/chain1/lnk", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "inside");
	/* The host's directory is not in the root: not found, never HOST-SIDE. */
	assert_int_equal(nn_root_readlink(&r, "/hop/lnk", buf, sizeof(buf)), -ENOENT);
	/* The last component is read, not followed. */
	assert_int_equal(nn_root_readlink(&r, "/chain1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "chain2");
	assert_int_equal(nn_root_readlink(&r, "/etc", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_root_readlink(&r, "/etc-abs/", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_root_readlink(&r, "/", buf, sizeof(buf)), -EINVAL);

	assert_int_equal(nn_root_realpath(&r, "/chain1/lnk", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/etc/inside");
	assert_int_equal(nn_root_realpath(&r, "/hop/lnk", buf, sizeof(buf)), -ENOENT);
	/* The component walk (no host name of the root for the one-open
	 * answer): the same canonical paths, never a host-side one. */
	{
		char *real = r.real;

		r.real = NULL;
		assert_int_equal(nn_root_realpath(&r, "/chain1/lnk", buf, sizeof(buf)), 0);
		assert_string_equal(buf, "/etc/inside");
		assert_int_equal(nn_root_realpath(&r, "/etc-abs/../etc/lnk", buf, sizeof(buf)), 0);
		assert_string_equal(buf, "/etc/inside");
		assert_int_equal(nn_root_realpath(&r, "/../../etc-abs", buf, sizeof(buf)), 0);
		assert_string_equal(buf, "/etc");
		assert_int_equal(nn_root_realpath(&r, "/hop/lnk", buf, sizeof(buf)), -ENOENT);
		assert_int_equal(nn_root_realpath(&r, "/etc/none", buf, sizeof(buf)), -ENOENT);
		r.real = real;
	}
	nn_root_close(&r);

	snprintf(p, sizeof(p), "rm -rf '%s'", outside);
	assert_int_equal(system(p), 0);
}

/* The one node lister: nodeN directories only, ascending by number, and
 * -ENOENT without the node directory (CONFIG_NUMA=n). */
static void test_node_dirs(void **state)
{
	struct nn_root r;
	size_t n = 0;
	int *ids = NULL;

	(void)state;
	assert_int_equal(nn_node_dir_id("node0"), 0);
	assert_int_equal(nn_node_dir_id("node252"), 252);
	assert_int_equal(nn_node_dir_id("node"), -1);
	assert_int_equal(nn_node_dir_id("node+3"), -1);
	assert_int_equal(nn_node_dir_id("node-1"), -1);
	assert_int_equal(nn_node_dir_id("node3a"), -1);
	assert_int_equal(nn_node_dir_id("node99999999999"), -1);
	assert_int_equal(nn_node_dir_id("online"), -1);
	assert_int_equal(nn_root_open(&r, tmp), 0);
	assert_int_equal(nn_node_dirs(&r, &ids, &n), -ENOENT);
	assert_null(ids);
	mk("sys/devices/system/node/node10");
	mk("sys/devices/system/node/node2");
	mk("sys/devices/system/node/node0");
	mk("sys/devices/system/node/nodeX");
	put("sys/devices/system/node/online", "0,2,10\n");
	assert_int_equal(nn_node_dirs(&r, &ids, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 2);
	assert_int_equal(ids[2], 10);
	free(ids);
	nn_root_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_read_lines),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_parse_long),
		cmocka_unit_test(test_readlink_in_root),
		cmocka_unit_test(test_node_dirs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
