// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_obs_counters.c - observe's counter parsers on any text: the per-CPU
 * /proc/interrupts rows (watched IRQs 0, 24, 38, 1000), /proc/softirqs,
 * (/proc/PID/stat: fuzz_proc_stat.c). Never crash; whatever is accepted is
 * consistent: CPU ids ascend below NN_CPU_MAX, a row is seen only with a
 * header, the same text parsed twice into the same memory gives the same
 * counts (rows are reused from sample to sample). */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/obs/obs.h"

static void check_counts(const struct nn_obs_counts *c, size_t nrows)
{
	for (size_t i = 0; i < c->ncols; i++) {
		FUZZ_ASSERT(c->cpu[i] >= 0 && c->cpu[i] < NN_CPU_MAX);
		if (i)
			FUZZ_ASSERT(c->cpu[i - 1] < c->cpu[i]);
	}
	if (c->ncols)
		FUZZ_ASSERT(c->nrows == nrows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int want[] = { 0, 24, 38, 1000 };
	struct nn_obs_counts a = { 0 }, b = { 0 };
	char *in = fuzz_str(data, size);
	int e1, e2;

	e1 = nn_obs_parse_interrupts(in, &a, want, 4);
	FUZZ_ASSERT(e1 == 0 || e1 == -EINVAL || e1 == -ENOMEM);
	if (!e1) {
		check_counts(&a, 4);
		/* again, into memory that already holds rows */
		e2 = nn_obs_parse_interrupts(in, &a, want, 4);
		FUZZ_ASSERT(e2 == 0 || e2 == -ENOMEM);
		e2 = nn_obs_parse_interrupts(in, &b, want, 4);
		if (!e2) {
			FUZZ_ASSERT(a.ncols == b.ncols);
			for (size_t r = 0; r < 4; r++) {
				FUZZ_ASSERT(a.seen[r] == b.seen[r]);
				for (size_t c = 0; c < a.ncols; c++)
					FUZZ_ASSERT(nn_obs_row(&a, r)[c] == nn_obs_row(&b, r)[c]);
			}
		}
	}
	e1 = nn_obs_parse_softirqs(in, &a);
	FUZZ_ASSERT(e1 == 0 || e1 == -EINVAL || e1 == -ENOMEM);
	if (!e1)
		check_counts(&a, NN_OBS_NSOFT);
	nn_obs_counts_free(&a);
	nn_obs_counts_free(&b);
	free(in);
	return 0;
}
