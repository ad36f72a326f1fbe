// SPDX-License-Identifier: GPL-2.0-or-later
/* test_names.c - the one name checker, and the plan reader that uses it */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/core/limits.h"
#include "nicnuma/core/names.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/act/plan_file.h"
#include "tmptree.h"

static void test_ifname(void **state)
{
	static const char *const good[] = { "eth0", ".hidden", "a..b", "...", "x", "enp129s0f1np1x",
					    "veth-1_2.3", "\xc3\xa9th0", "a\x1b[31m" };
	static const char *const bad[] = { "", ".", "..", "../x", "a/b", "eth0:1", "a b", "a\tb",
					   "a\nb", "a\240b", "0123456789abcdef", "a\vb" };
	const char *why = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(nn_name_ifname(good[i], &why), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(nn_name_ifname(bad[i], &why), -EINVAL);
		assert_non_null(why);
	}
	/* 15 bytes is the longest (IFNAMSIZ 16 with the NUL). */
	assert_int_equal(nn_name_ifname("0123456789abcde", NULL), 0);
	assert_int_equal(nn_name_ifname("../x", &why), -EINVAL);
	assert_string_equal(why, "'/' is not allowed in an interface name");
}

static void test_numbers(void **state)
{
	unsigned long v;
	char dir;
	int n;

	(void)state;
	assert_int_equal(nn_name_decimal("0", 10, &v, NULL), 0);
	assert_int_equal(v, 0);
	assert_int_equal(nn_name_decimal("10", 10, &v, NULL), 0);
	assert_int_equal(nn_name_decimal("11", 10, &v, NULL), -EINVAL);
	/* a digit above a one-digit max: max - digit must not wrap */
	assert_int_equal(nn_name_decimal("2", 1, &v, NULL), -EINVAL);
	assert_int_equal(nn_name_decimal("1", 1, &v, NULL), 0);
	assert_int_equal(nn_name_decimal("01", 10, &v, NULL), -EINVAL);
	assert_int_equal(nn_name_decimal("-1", 10, &v, NULL), -EINVAL);
	assert_int_equal(nn_name_decimal("+1", 10, &v, NULL), -EINVAL);
	assert_int_equal(nn_name_decimal(" 1", 10, &v, NULL), -EINVAL);
	assert_int_equal(nn_name_decimal("", 10, &v, NULL), -EINVAL);
	assert_int_equal(nn_name_decimal("99999999999999999999999", (unsigned long)-1, &v, NULL), -EINVAL);

	assert_int_equal(nn_name_queue("tx-12", &dir, &n, NULL), 0);
	assert_int_equal(dir, 't');
	assert_int_equal(n, 12);
	assert_int_equal(nn_name_queue("rx-0", &dir, &n, NULL), 0);
	assert_int_equal(nn_name_queue("rx-00", &dir, &n, NULL), -EINVAL);
	assert_int_equal(nn_name_queue("rx-", &dir, &n, NULL), -EINVAL);
	assert_int_equal(nn_name_queue("rx-1/../..", &dir, &n, NULL), -EINVAL);
	assert_int_equal(nn_name_queue("xx-1", &dir, &n, NULL), -EINVAL);

	assert_int_equal(nn_name_irq("16777216", &n, NULL), 0);
	assert_int_equal(nn_name_irq("16777217", &n, NULL), -EINVAL);
	assert_int_equal(nn_name_irq("../1", &n, NULL), -EINVAL);
	assert_int_equal(nn_name_node("65535", &n, NULL), 0);
	assert_int_equal(nn_name_node("65536", &n, NULL), -EINVAL);

	assert_int_equal(nn_name_hugepage_dir("hugepages-2048kB", &v, NULL), 0);
	assert_int_equal(v, 2048);
	assert_int_equal(nn_name_hugepage_dir("hugepages-kB", &v, NULL), -EINVAL);
	assert_int_equal(nn_name_hugepage_dir("hugepages-2048kBx", &v, NULL), -EINVAL);
	assert_int_equal(nn_name_hugepage_dir("hugepages-../kB", &v, NULL), -EINVAL);
	assert_int_equal(nn_name_hugepage_dir("hugepages-02048kB", &v, NULL), -EINVAL);
}

#define PLAN_HEAD "{\"plan\":{\"shape\":{\"ncpus\":4,\"nnodes\":1,\"pci\":[]}," \
	"\"irqbalance\":{\"running\":false,\"action\":\"none\"},\"irqs\":[],"
#define NIC(n) "{\"nic\":\"" n "\",\"queues\":1,\"cpus\":\"1\"}"

static int parse(const char *text, char *why, size_t len)
{
	struct nn_plan p;
	int ret = nn_plan_parse("p.json", text, strlen(text), &p, why, len);

	if (!ret)
		nn_plan_free(&p);
	return ret;
}

static void test_plan_reader(void **state)
{
	char why[512];

	(void)state;
	assert_int_equal(parse(PLAN_HEAD "\"nics\":[" NIC("eth0") "],\"xps\":[],"
			       "\"channels\":[{\"nic\":\"eth0\",\"target\":2}]}}\n", why, sizeof(why)), 0);
	/* A NIC name that would climb out of /sys/class/net. */
	assert_int_equal(parse(PLAN_HEAD "\"nics\":[" NIC("eth0") "],"
			       "\"xps\":[{\"nic\":\"../x\",\"queue\":0,\"cpus\":\"1\"}]}}", why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "plan p.json: plan.xps[0].nic: '../x' is not an interface name: "
			    "'/' is not allowed in an interface name");
	assert_int_equal(parse(PLAN_HEAD "\"nics\":[" NIC("..") "],\"xps\":[]}}", why, sizeof(why)), -EINVAL);
	/* Channels only for the plan's own NICs. */
	assert_int_equal(parse(PLAN_HEAD "\"nics\":[" NIC("eth0") "],\"xps\":[],"
			       "\"channels\":[{\"nic\":\"eth9\",\"target\":2}]}}", why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "plan p.json: channels for eth9, which the plan does not name "
			    "(plan.channels[0])");
	/* One document, nothing after it but whitespace. */
	assert_int_equal(parse(PLAN_HEAD "\"nics\":[],\"xps\":[]}} {}", why, sizeof(why)), -EINVAL);
	assert_int_equal(parse("{\"plan\":", why, sizeof(why)), -EINVAL);
	assert_contains(why, "ends too early");
}

static void test_plan_size(void **state)
{
	size_t len = NN_DOC_MAX_BYTES + 1;
	char *big = malloc(len), why[256];
	struct nn_plan p;

	(void)state;
	assert_non_null(big);
	memset(big, ' ', len);
	assert_int_equal(nn_plan_parse("big.json", big, len, &p, why, sizeof(why)), -EFBIG);
	assert_string_equal(why, "plan big.json is larger than 16 MiB");
	free(big);
	assert_int_equal(nn_plan_read_file("/dev/zero", &p, why, sizeof(why)), -EFBIG);
	assert_string_equal(why, "plan /dev/zero is larger than 16 MiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifname),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_plan_reader),
		cmocka_unit_test(test_plan_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
