// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_long.c - nn_parse_long, the strict integer parser behind every sysfs
 * number (numa_node, speed, hugepage counts): never crash; an accepted value
 * printed back parses to itself. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/core/fsroot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_str(data, size), back[32];
	long v = 0, w = 0;
	int err = nn_parse_long(in, &v);

	FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -ERANGE);
	if (!err) {
		snprintf(back, sizeof(back), "%ld", v);
		FUZZ_ASSERT(nn_parse_long(back, &w) == 0 && w == v);
	}
	free(in);
	return 0;
}
