// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_claims.c - the claim parsers root acts on: a claim record
 * (nn_claim_parse: an accepted record validates and formats to a text that
 * parses to the same text), a cpuset.cpus.partition state and mountinfo's
 * cgroup2 line (never crash; a reason lies inside the input). The first
 * byte picks the parser. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/discover/claims_parse.h"
#include "nicnuma/state/claims_store.h"

static void record(const char *text, size_t len)
{
	struct nn_claim c, d;
	char why[160] = "", *a, *b;
	int err = nn_claim_parse(text, len, &c, why, sizeof(why));

	FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -ENOMEM);
	if (err) {
		FUZZ_ASSERT(why[0] || err == -ENOMEM);
		return;
	}
	FUZZ_ASSERT(nn_claim_validate(&c, why, sizeof(why)) == 0);
	FUZZ_ASSERT(nn_claim_name_ok(c.name) && !nn_cpuset_empty(&c.cpus));
	a = nn_claim_format(&c);
	FUZZ_ASSERT(a);
	FUZZ_ASSERT(nn_claim_parse(a, strlen(a), &d, why, sizeof(why)) == 0);
	b = nn_claim_format(&d);
	FUZZ_ASSERT(b && !strcmp(a, b));
	free(a);
	free(b);
	nn_claim_free(&c);
	nn_claim_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (!size)
		return 0;
	s = fuzz_str(data + 1, size - 1);
	switch (data[0] % 3) {
	case 0:
		record((const char *)data + 1, size - 1);
		break;
	case 1: {
		enum nn_cg_part k;
		bool inv;
		const char *r;
		size_t rl;

		if (!nn_cg_partition_parse(s, &k, &inv, &r, &rl)) {
			FUZZ_ASSERT(k == NN_CG_PART_MEMBER || k == NN_CG_PART_ROOT || k == NN_CG_PART_ISOLATED);
			FUZZ_ASSERT(!r || (r >= s && r + rl <= s + strlen(s)));
			FUZZ_ASSERT(!r || inv);
		}
		break;
	}
	default: {
		char *m = NULL;
		int err = nn_cg_mountinfo_cgroup2(s, &m);

		FUZZ_ASSERT(err == 0 || err == -ENOENT || err == -ENOMEM);
		FUZZ_ASSERT(err || (m && m[0] == '/'));
		free(m);
		nn_cg_has_controller(s, "cpuset");
		break;
	}
	}
	free(s);
	return 0;
}
