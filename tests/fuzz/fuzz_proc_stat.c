// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_proc_stat.c - the one /proc/PID/stat parser (core/proc.c) on any
 * text. Never crash; what it accepts is consistent: comm NUL-terminated
 * within its buffer, every kept field -1 (not reached) or in range, the CPU
 * time sum without overflow, the same text parsed twice gives the same. */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_proc_stat a, b;
	unsigned long long ticks;
	char *in = fuzz_str(data, size);
	int e1, e2;

	e1 = nn_proc_parse_stat(in, &a);
	FUZZ_ASSERT(e1 == 0 || e1 == -EINVAL);
	FUZZ_ASSERT(strnlen(a.comm, sizeof(a.comm)) < sizeof(a.comm));
	if (!e1) {
		FUZZ_ASSERT(a.nfields >= 2);
		FUZZ_ASSERT(a.flags >= -1 && a.utime >= -1 && a.stime >= -1 && a.starttime >= -1);
		FUZZ_ASSERT(a.processor >= -1 && a.processor < NN_CPU_MAX);
		FUZZ_ASSERT(a.nfields < 3 || a.state);
		if (!nn_proc_ticks(&a, &ticks))
			FUZZ_ASSERT(ticks >= (unsigned long long)a.utime && ticks >= (unsigned long long)a.stime);
		e2 = nn_proc_parse_stat(in, &b);
		FUZZ_ASSERT(!e2 && !strcmp(a.comm, b.comm) && a.state == b.state && a.flags == b.flags &&
			    a.utime == b.utime && a.stime == b.stime && a.starttime == b.starttime &&
			    a.processor == b.processor && a.nfields == b.nfields);
	}
	free(in);
	return 0;
}
