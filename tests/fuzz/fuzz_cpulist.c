// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_cpulist.c - nn_cpuset_parse_list: never crash; whatever it accepts
 * formats back to a list and a mask that parse to the same set. */
#include "fuzz.h"
#include "nicnuma/core/cpuset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_cpuset s = NN_CPUSET_INIT, back = NN_CPUSET_INIT;
	char *in = fuzz_str(data, size), *list = NULL, *mask = NULL;

	if (nn_cpuset_parse_list(in, &s) == 0) {
		list = nn_cpuset_format_list(&s);
		FUZZ_ASSERT(list);
		FUZZ_ASSERT(nn_cpuset_parse_list(list, &back) == 0);
		FUZZ_ASSERT(nn_cpuset_equal(&s, &back));
		mask = nn_cpuset_format_mask(&s, 0);
		FUZZ_ASSERT(mask);
		FUZZ_ASSERT(nn_cpuset_parse_mask(mask, &back) == 0);
		FUZZ_ASSERT(nn_cpuset_equal(&s, &back));
		FUZZ_ASSERT(nn_cpuset_last(&s) < NN_CPU_MAX);
	}
	free(list);
	free(mask);
	nn_cpuset_free(&s);
	nn_cpuset_free(&back);
	free(in);
	return 0;
}
