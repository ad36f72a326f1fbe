// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_interrupts.c - nn_parse_interrupts on any text: never crash, the
 * result is sorted by IRQ and every entry can be found again. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/core/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_interrupt *v = NULL;
	size_t n = 0, bad = 0, i;
	char *in = fuzz_str(data, size);
	int err;

	err = nn_parse_interrupts(in, &v, &n, &bad);
	FUZZ_ASSERT(err == 0 || err == -ENOMEM);
	if (!err) {
		for (i = 0; i < n; i++) {
			const struct nn_interrupt *f;

			FUZZ_ASSERT(v[i].irq >= 0);
			if (i)
				FUZZ_ASSERT(v[i - 1].irq <= v[i].irq);
			f = nn_interrupts_find(v, n, v[i].irq);
			FUZZ_ASSERT(f && f->irq == v[i].irq);
			if (v[i].name)
				FUZZ_ASSERT(strlen(v[i].name) <= size);
		}
		FUZZ_ASSERT(!nn_interrupts_find(v, n, -1));
	}
	nn_interrupts_free(v, n);
	free(in);
	return 0;
}
