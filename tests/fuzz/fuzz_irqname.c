// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_irqname.c - nn_irq_name_queue: the input is "NAME\nIFNAME\nPCI"
 * (missing parts are NULL). A queue IRQ has an index >= 0 and a direction;
 * anything else has neither. */
#include "fuzz.h"
#include "irq/irq_names.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_str(data, size), *part[3] = { in, NULL, NULL }, *nl;
	enum nn_qdir dir = NN_QDIR_RXTX;
	int queue = 12345, r, i;

	for (i = 1; i < 3 && part[i - 1]; i++) {
		nl = strchr(part[i - 1], '\n');
		if (!nl)
			break;
		*nl = '\0';
		part[i] = nl + 1;
	}
	r = nn_irq_name_queue(part[0], part[1], part[2], &queue, &dir);
	FUZZ_ASSERT(r == 0 || r == 1);
	if (r == 1)
		FUZZ_ASSERT(queue >= 0 && dir != NN_QDIR_NONE);
	else
		FUZZ_ASSERT(queue == -1 && dir == NN_QDIR_NONE);
	free(in);
	return 0;
}
