// SPDX-License-Identifier: GPL-2.0-or-later
/* test_affinity.c - errno classes, online masking, readback, ENOSPC fallback
 * and XPS masks, on a writable fake /proc and /sys */
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
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "irq/affinity.h"
#include "tmptree.h"

static char tmp[PATH_MAX];
static struct nn_ctx ctx;

static void hpath(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s", tmp, rel);
}

static void mk(const char *rel)
{
	assert_int_equal(tmptree_mkdir(tmp, rel), 0);
}

static void put(const char *rel, const char *content)
{
	assert_int_equal(tmptree_put(tmp, rel, content), 0);
}

static char *get(const char *rel)
{
	static char buf[256];
	char *s = tmptree_get(tmp, rel);

	assert_non_null(s);
	snprintf(buf, sizeof(buf), "%s", s);
	free(s);
	return buf;
}

static void set_of(struct nn_cpuset *s, const char *list)
{
	assert_int_equal(nn_cpuset_parse_list(list, s), 0);
}

static int setup(void **state)
{
	(void)state;
	if (tmptree_make(tmp, sizeof(tmp), "affinity"))
		return -1;
	mk("proc");
	mk("proc/irq");
	mk("proc/irq/38");
	mk("proc/irq/39");
	mk("proc/irq/40");
	mk("proc/irq/40/smp_affinity_list");	/* a directory: every write fails EISDIR */
	put("proc/irq/38/smp_affinity_list", "0-3\n");
	put("proc/irq/38/effective_affinity_list", "2\n");
	put("proc/irq/39/smp_affinity_list", "0-3\n");
	mk("sys");
	mk("sys/class");
	mk("sys/class/net");
	mk("sys/class/net/eth0");
	mk("sys/class/net/eth0/queues");
	mk("sys/class/net/eth0/queues/tx-0");
	put("sys/class/net/eth0/queues/tx-0/xps_cpus", "00000000\n");
	return nn_ctx_init(&ctx, tmp, false);
}

static int teardown(void **state)
{
	(void)state;
	nn_ctx_free(&ctx);
	return tmptree_remove(tmp);
}

static void test_classify(void **state)
{
	(void)state;
	assert_int_equal(nn_aff_classify(0), NN_AFF_OK);
	assert_int_equal(nn_aff_classify(-EIO), NN_AFF_MANAGED);
	assert_int_equal(nn_aff_classify(-ENOSPC), NN_AFF_NOSPC);
	assert_int_equal(nn_aff_classify(-EINVAL), NN_AFF_BADMASK);
	assert_int_equal(nn_aff_classify(-ERANGE), NN_AFF_BADMASK);
	assert_int_equal(nn_aff_classify(-EOVERFLOW), NN_AFF_BADMASK);
	assert_int_equal(nn_aff_classify(-EBUSY), NN_AFF_RETRY);
	assert_int_equal(nn_aff_classify(-EAGAIN), NN_AFF_RETRY);
	assert_int_equal(nn_aff_classify(-EPERM), NN_AFF_FATAL);
	assert_int_equal(nn_aff_classify(-EISDIR), NN_AFF_FATAL);
	assert_int_equal(nn_aff_classify(-EROFS), NN_AFF_FATAL);
	assert_string_equal(nn_aff_class_name(NN_AFF_MANAGED), "managed");
}

static void test_write_masks_with_online_and_reads_back(void **state)
{
	struct nn_cpuset planned = NN_CPUSET_INIT, online = NN_CPUSET_INIT;
	struct nn_aff_result r;

	(void)state;
	set_of(&planned, "1-5");
	set_of(&online, "0-3");
	assert_int_equal(nn_irq_set_affinity(&ctx.root, 38, &planned, &online, NULL, &r), 0);
	assert_int_equal(r.cls, NN_AFF_OK);
	/* One write of the kernel form, offline CPUs 4-5 dropped. */
	assert_string_equal(get("proc/irq/38/smp_affinity_list"), "1-3\n");
	assert_int_equal(nn_cpuset_count(&r.after), 3);
	assert_true(r.has_effective);
	assert_int_equal(nn_cpuset_first(&r.effective), 2);
	nn_aff_result_free(&r);
	/* No effective_affinity_list (old kernel, IO-APIC): not an error. */
	assert_int_equal(nn_irq_set_affinity(&ctx.root, 39, &planned, &online, NULL, &r), 0);
	assert_false(r.has_effective);
	nn_aff_result_free(&r);
	nn_cpuset_free(&planned);
	nn_cpuset_free(&online);
}

static void test_no_online_cpu_is_bad_mask_and_writes_nothing(void **state)
{
	struct nn_cpuset planned = NN_CPUSET_INIT, online = NN_CPUSET_INIT;
	struct nn_aff_result r;

	(void)state;
	put("proc/irq/39/smp_affinity_list", "0-3\n");
	set_of(&planned, "6-7");
	set_of(&online, "0-3");
	assert_int_equal(nn_irq_set_affinity(&ctx.root, 39, &planned, &online, NULL, &r), -EINVAL);
	assert_int_equal(r.cls, NN_AFF_BADMASK);
	assert_contains(r.note, "online");
	assert_string_equal(get("proc/irq/39/smp_affinity_list"), "0-3\n");
	nn_aff_result_free(&r);
	nn_cpuset_free(&planned);
	nn_cpuset_free(&online);
}

static void test_unwritable_is_fatal(void **state)
{
	struct nn_cpuset planned = NN_CPUSET_INIT;
	struct nn_aff_result r;

	(void)state;
	set_of(&planned, "1");
	assert_int_equal(nn_irq_set_affinity(&ctx.root, 40, &planned, NULL, NULL, &r), -EISDIR);
	assert_int_equal(r.cls, NN_AFF_FATAL);
	nn_aff_result_free(&r);
	/* Missing IRQ: fatal too (the plan does not fit this host any more). */
	assert_int_equal(nn_irq_set_affinity(&ctx.root, 41, &planned, NULL, NULL, &r), -ENOENT);
	assert_int_equal(r.cls, NN_AFF_FATAL);
	nn_aff_result_free(&r);
	assert_int_equal(nn_irq_probe(&ctx.root, 40, "0-3"), -EISDIR);
	assert_int_equal(nn_irq_probe(&ctx.root, 38, "1-3"), 0);
	nn_cpuset_free(&planned);
}

static void test_enospc_walks_fallback(void **state)
{
	struct nn_cpuset planned = NN_CPUSET_INIT, fallback = NN_CPUSET_INIT;
	struct nn_aff_result r;
	char p[PATH_MAX * 2];

	(void)state;
	/* /dev/full answers every write with ENOSPC, as a CPU out of vectors
	 * does. The node itself is the value file: a write under a fake root
	 * never goes through a symlink as its last component (issue 22.1). */
	mk("proc/irq/42");
	hpath(p, sizeof(p), "proc/irq/42/smp_affinity_list");
	if (mknod(p, S_IFCHR | 0666, makedev(1, 7)) < 0)
		skip();	/* not root: cannot make the device node */
	set_of(&planned, "1");
	set_of(&fallback, "1-3");
	assert_int_equal(nn_irq_set_affinity(&ctx.root, 42, &planned, NULL, &fallback, &r), -ENOSPC);
	assert_int_equal(r.cls, NN_AFF_NOSPC);
	assert_contains(r.note, "every planned CPU");
	nn_aff_result_free(&r);
	nn_cpuset_free(&planned);
	nn_cpuset_free(&fallback);
}

static void test_xps(void **state)
{
	struct nn_cpuset cpus = NN_CPUSET_INIT, online = NN_CPUSET_INIT;
	struct nn_aff_result r;
	char path[256];

	(void)state;
	set_of(&cpus, "1,3,9");
	set_of(&online, "0-7");
	assert_int_equal(nn_xps_set(&ctx.root, "eth0", 0, &cpus, &online, &r), 0);
	assert_string_equal(get("sys/class/net/eth0/queues/tx-0/xps_cpus"), "0000000a\n");
	assert_int_equal(nn_cpuset_count(&r.after), 2);
	nn_aff_result_free(&r);
	/* A queue without xps_cpus (single-queue device): ENOENT, fatal for a write. */
	assert_int_equal(nn_xps_set(&ctx.root, "eth0", 1, &cpus, &online, &r), -ENOENT);
	nn_aff_result_free(&r);
	/* A NIC name from a plan file cannot climb out of /sys/class/net. */
	assert_int_equal(nn_xps_path(path, sizeof(path), "..", 0), -EINVAL);
	assert_int_equal(nn_xps_path(path, sizeof(path), "a/../../x", 0), -EINVAL);
	assert_int_equal(nn_xps_path(path, sizeof(path), "a$(x)", 0), 0);
	nn_cpuset_free(&cpus);
	nn_cpuset_free(&online);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_write_masks_with_online_and_reads_back),
		cmocka_unit_test(test_no_online_cpu_is_bad_mask_and_writes_nothing),
		cmocka_unit_test(test_unwritable_is_fatal),
		cmocka_unit_test(test_enospc_walks_fallback),
		cmocka_unit_test(test_xps),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
