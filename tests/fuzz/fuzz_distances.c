// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_distances.c - nn_parse_distances: never crash; an accepted row is
 * non-empty and holds no negative distance. */
#include "fuzz.h"
#include "nicnuma/core/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_str(data, size);
	int *d = NULL;
	size_t n = 0, i;

	if (nn_parse_distances(in, &d, &n) == 0) {
		FUZZ_ASSERT(d && n > 0 && n <= size);
		for (i = 0; i < n; i++)
			FUZZ_ASSERT(d[i] >= 0);
	} else {
		FUZZ_ASSERT(!d && n == 0);
	}
	free(d);
	free(in);
	return 0;
}
