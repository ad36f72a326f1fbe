// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_hugepages.c - hugepage parsers (hugepages/hp_parse.c): /proc/mounts
 * text, page sizes, counts, memory amounts, meminfo fields. Never crash; a
 * parsed size is a power of two >= 4 kB that formats back to itself; counts
 * and pages are never negative; every hugetlbfs mount has a path. */
#include "fuzz.h"
#include "hugepages/hugepages.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_str(data, size), buf[32];
	struct nn_hp_mount *m = NULL;
	unsigned long kb, again;
	unsigned long long mem;
	size_t n = 0, bad = 0, i;
	long v;

	if (nn_hp_parse_mounts(in, 2048, &m, &n, &bad) == 0) {
		for (i = 0; i < n; i++) {
			FUZZ_ASSERT(m[i].path);
			FUZZ_ASSERT(m[i].size_kb == 0 ||
				    (m[i].size_kb >= 4 && !(m[i].size_kb & (m[i].size_kb - 1))));
		}
		nn_hp_mounts_free(m, n);
	}
	if (nn_hp_parse_size(in, &kb) == 0) {
		FUZZ_ASSERT(kb >= 4 && !(kb & (kb - 1)));
		FUZZ_ASSERT(nn_hp_format_size(kb, buf, sizeof(buf)) == 0);
		FUZZ_ASSERT(nn_hp_parse_size(buf, &again) == 0 && again == kb);
		if (nn_hp_parse_mem(in, &mem) == 0 && nn_hp_pages_for_mem(mem, 2048, &v) == 0)
			FUZZ_ASSERT(v >= 0 && (unsigned long long)v >= mem / 2048);
	}
	if (nn_hp_parse_count(in, &v) == 0)
		FUZZ_ASSERT(v >= 0);
	if (nn_hp_parse_dirname(in, &kb) == 0)
		FUZZ_ASSERT(kb >= 4 && !(kb & (kb - 1)));
	if (nn_hp_meminfo_kb(in, "MemTotal", &v) == 0)
		FUZZ_ASSERT(v >= 0);
	free(in);
	return 0;
}
