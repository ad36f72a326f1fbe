// SPDX-License-Identifier: GPL-2.0-or-later
/* test_cpuset.c - cpulist and hex-mask parsing/formatting */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/strbuf.h"

static void roundtrip(const char *in, const char *want)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	char *out;

	assert_int_equal(nn_cpuset_parse_list(in, &s), 0);
	out = nn_cpuset_format_list(&s);
	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
	nn_cpuset_free(&s);
}

static void test_list_forms(void **state)
{
	(void)state;
	roundtrip("0-3,8\n", "0-3,8");
	roundtrip("", "");
	roundtrip("\n", "");
	roundtrip("5", "5");
	roundtrip("3,1,2", "1-3");
	roundtrip("0-27,56-83", "0-27,56-83");
	roundtrip("0-15:2/4", "0-1,4-5,8-9,12-13");
	roundtrip("1000-1001", "1000-1001");
}

static void test_list_errors(void **state)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	const char *bad[] = { "a", "1-", "3-1", "1,,2", "0-3:5/4", "0-3:0/4", "1 2",
			      "-1", "99999999", "0-7:2", ",", "1-2-3", NULL };
	int i;

	(void)state;
	nn_cpuset_set(&s, 7);
	for (i = 0; bad[i]; i++) {
		int err = nn_cpuset_parse_list(bad[i], &s);

		assert_true(err == -EINVAL || err == -ERANGE);
		/* A failed parse leaves the set as it was. */
		assert_true(nn_cpuset_test(&s, 7));
		assert_int_equal(nn_cpuset_count(&s), 1);
	}
	nn_cpuset_free(&s);
}

static void test_mask(void **state)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	char *m;

	(void)state;
	assert_int_equal(nn_cpuset_parse_mask("3\n", &s), 0);
	assert_int_equal(nn_cpuset_count(&s), 2);
	assert_true(nn_cpuset_test(&s, 0) && nn_cpuset_test(&s, 1));

	/* Groups of 32 bits, most significant first: CPU 32 and CPU 0. */
	assert_int_equal(nn_cpuset_parse_mask("00000001,00000001", &s), 0);
	assert_int_equal(nn_cpuset_count(&s), 2);
	assert_true(nn_cpuset_test(&s, 32) && nn_cpuset_test(&s, 0));

	assert_int_equal(nn_cpuset_parse_mask("ff,00000000,00000000,00000000", &s), 0);
	assert_int_equal(nn_cpuset_first(&s), 96);
	assert_int_equal(nn_cpuset_last(&s), 103);
	m = nn_cpuset_format_mask(&s, 0);
	assert_string_equal(m, "000000ff,00000000,00000000,00000000");
	free(m);

	assert_int_equal(nn_cpuset_parse_list("0,33", &s), 0);
	m = nn_cpuset_format_mask(&s, 128);
	assert_string_equal(m, "00000000,00000000,00000002,00000001");
	free(m);

	assert_int_equal(nn_cpuset_parse_mask("xyz", &s), -EINVAL);
	assert_int_equal(nn_cpuset_parse_mask("", &s), -EINVAL);
	assert_int_equal(nn_cpuset_parse_mask("1,2", &s), -EINVAL);	/* short group */
	assert_int_equal(nn_cpuset_parse_mask(",00000001", &s), -EINVAL);
	nn_cpuset_free(&s);
}

static void test_ops(void **state)
{
	struct nn_cpuset a = NN_CPUSET_INIT, b = NN_CPUSET_INIT, c = NN_CPUSET_INIT;
	int cpu, n = 0;

	(void)state;
	assert_int_equal(nn_cpuset_parse_list("0-3,200", &a), 0);
	assert_int_equal(nn_cpuset_parse_list("2-5", &b), 0);
	assert_true(nn_cpuset_intersects(&a, &b));
	assert_false(nn_cpuset_subset(&a, &b));
	assert_int_equal(nn_cpuset_copy(&c, &a), 0);
	nn_cpuset_and(&c, &b);
	assert_int_equal(nn_cpuset_count(&c), 2);
	assert_int_equal(nn_cpuset_copy(&c, &a), 0);
	nn_cpuset_andnot(&c, &b);
	assert_true(nn_cpuset_test(&c, 0) && nn_cpuset_test(&c, 200) && !nn_cpuset_test(&c, 2));
	assert_int_equal(nn_cpuset_or(&c, &b), 0);
	assert_int_equal(nn_cpuset_count(&c), 7);
	nn_cpuset_foreach(cpu, &c)
		n++;
	assert_int_equal(n, 7);
	assert_true(nn_cpuset_equal(&c, &c));
	nn_cpuset_zero(&c);
	assert_true(nn_cpuset_empty(&c));
	assert_int_equal(nn_cpuset_first(&c), -1);
	assert_int_equal(nn_cpuset_last(&c), -1);
	/* Equal regardless of allocated size. */
	nn_cpuset_free(&b);
	assert_true(nn_cpuset_equal(&c, &b));
	assert_int_equal(nn_cpuset_set(&a, NN_CPU_MAX), -ERANGE);
	nn_cpuset_free(&a);
	nn_cpuset_free(&c);
}

/* The word-at-a-time range setter, run finder and nibble parser against a
 * bit-by-bit reference, on random sets whose runs cross word boundaries. */
static void ref_list(const bool *bits, int n, char *buf, size_t size)
{
	struct nn_sb sb = NN_SB_INIT;
	int i = 0;

	while (i < n) {
		int j;

		if (!bits[i]) {
			i++;
			continue;
		}
		for (j = i; j + 1 < n && bits[j + 1]; j++)
			;
		nn_sb_printf(&sb, j > i ? "%s%d-%d" : "%s%d", sb.len ? "," : "", i, j);
		i = j + 1;
	}
	assert_non_null(nn_sb_str(&sb));
	assert_true(sb.len < size);
	snprintf(buf, size, "%s", nn_sb_str(&sb));
	nn_sb_free(&sb);
}

static void test_random_vs_reference(void **state)
{
	enum { N = 300 };
	unsigned int seed = 12345;
	int round;

	(void)state;
	for (round = 0; round < 500; round++) {
		struct nn_cpuset s = NN_CPUSET_INIT, back = NN_CPUSET_INIT;
		bool bits[N] = { false };
		char want[4096];
		char *list, *mask;
		int i, runs = 1 + (int)(rand_r(&seed) % 6);

		for (i = 0; i < runs; i++) {
			int a = (int)(rand_r(&seed) % N), len = (int)(rand_r(&seed) % 140), c;

			for (c = a; c < N && c <= a + len; c++) {
				bits[c] = true;
				assert_int_equal(nn_cpuset_set(&s, (unsigned int)c), 0);
			}
		}
		ref_list(bits, N, want, sizeof(want));
		list = nn_cpuset_format_list(&s);
		assert_non_null(list);
		assert_string_equal(list, want);
		assert_int_equal(nn_cpuset_parse_list(list, &back), 0);
		assert_true(nn_cpuset_equal(&s, &back));
		mask = nn_cpuset_format_mask(&s, N);
		assert_non_null(mask);
		assert_int_equal(nn_cpuset_parse_mask(mask, &back), 0);
		assert_true(nn_cpuset_equal(&s, &back));
		for (i = 0; i < N; i++)
			assert_int_equal(nn_cpuset_test(&back, (unsigned int)i), bits[i]);
		free(list);
		free(mask);
		nn_cpuset_free(&s);
		nn_cpuset_free(&back);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_forms),
		cmocka_unit_test(test_list_errors),
		cmocka_unit_test(test_mask),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_random_vs_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
