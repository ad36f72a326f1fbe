// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_cmdline.c - nn_parse_isolcpus (/proc/cmdline) and nn_parse_sys_cpulist
 * (cpu/isolated, cpu/nohz_full): never crash; on success the CPUs format
 * back to a list that parses to the same set and only known flags are set,
 * with domain implied by a flagless list; on failure nothing is left set
 * and a reported bad word lies inside the input. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_cpuset s = NN_CPUSET_INIT, back = NN_CPUSET_INIT;
	char *in = fuzz_str(data, size), *list, flags[64];
	const char *bad = NULL;
	unsigned int f = 0xff;
	int err, badlen = -1;

	err = nn_parse_isolcpus(in, &s, &f, &bad, &badlen);
	if (!err) {
		FUZZ_ASSERT(f && !(f & ~(unsigned int)(NN_ISOL_DOMAIN | NN_ISOL_MANAGED_IRQ | NN_ISOL_NOHZ)));
		list = nn_cpuset_format_list(&s);
		FUZZ_ASSERT(list);
		FUZZ_ASSERT(nn_cpuset_parse_list(list, &back) == 0);
		FUZZ_ASSERT(nn_cpuset_equal(&s, &back));
		free(list);
		nn_isol_flags_format(f, flags, sizeof(flags));
		FUZZ_ASSERT(flags[0] && strlen(flags) < sizeof(flags));
	} else {
		FUZZ_ASSERT(err == -ENOENT || err == -EINVAL || err == -ENOMEM);
		FUZZ_ASSERT(f == 0 && nn_cpuset_empty(&s));
		if (err == -EINVAL) {
			FUZZ_ASSERT(bad >= in && bad + badlen <= in + strlen(in));
			FUZZ_ASSERT(badlen >= 9 && !memcmp(bad, "isolcpus=", 9));
		}
	}
	if (nn_parse_sys_cpulist(in, &s) == 0) {
		list = nn_cpuset_format_list(&s);
		FUZZ_ASSERT(list);
		FUZZ_ASSERT(nn_cpuset_parse_list(list, &back) == 0);
		FUZZ_ASSERT(nn_cpuset_equal(&s, &back));
		free(list);
	}
	nn_cpuset_free(&s);
	nn_cpuset_free(&back);
	free(in);
	return 0;
}
