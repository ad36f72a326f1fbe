// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_meminfo.c - nn_parse_node_meminfo and nn_parse_bracketed (THP knobs):
 * never crash; values are -1 (unknown) or >= 0; a choice always fits. */
#include "fuzz.h"
#include "nicnuma/core/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_str(data, size), small[8], big[64];
	long total = -2, freekb = -2;

	nn_parse_node_meminfo(in, &total, &freekb);
	FUZZ_ASSERT(total >= -1 && freekb >= -1);
	if (nn_parse_bracketed(in, small, sizeof(small)) == 0)
		FUZZ_ASSERT(strlen(small) < sizeof(small));
	if (nn_parse_bracketed(in, big, sizeof(big)) == 0)
		FUZZ_ASSERT(strlen(big) < sizeof(big));
	free(in);
	return 0;
}
