// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_plan.c - nn_plan_parse, the reader of `apply/script/check --plan`:
 * never crash; an accepted plan names only interface names the kernel
 * allows, has channels only for its own NICs, and written back as JSON
 * reads back to the same text. */
#include <errno.h>

#include <json-c/json.h>

#include "fuzz.h"
#include "nicnuma/core/names.h"
#include "nicnuma/plan/plan.h"

static char *text_of(const struct nn_plan *p)
{
	struct json_object *doc = nn_plan_to_json(p);
	char *s;

	FUZZ_ASSERT(doc);
	s = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	FUZZ_ASSERT(s);
	json_object_put(doc);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_plan p, q;
	char why[512], *a, *b;
	size_t i, k;
	int err = nn_plan_parse("fuzz", (const char *)data, size, &p, why, sizeof(why));

	FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -ENOMEM);
	if (err) {
		FUZZ_ASSERT(!strncmp(why, "plan fuzz", 9));
		return 0;
	}
	for (i = 0; i < p.nnics; i++)
		FUZZ_ASSERT(nn_name_ifname(p.nics[i].nic, NULL) == 0);
	for (i = 0; i < p.nirqs; i++)
		FUZZ_ASSERT(nn_name_ifname(p.irqs[i].nic, NULL) == 0);
	for (i = 0; i < p.nxps; i++)
		FUZZ_ASSERT(nn_name_ifname(p.xps[i].nic, NULL) == 0);
	for (i = 0; i < p.nchannels; i++) {
		for (k = 0; k < p.nnics && strcmp(p.nics[k].nic, p.channels[i].nic); k++)
			;
		FUZZ_ASSERT(k < p.nnics);
	}
	a = text_of(&p);
	err = nn_plan_parse("fuzz", a, strlen(a), &q, why, sizeof(why));
	if (err)
		fprintf(stderr, "%s\n", why);
	FUZZ_ASSERT(err == 0);
	b = text_of(&q);
	FUZZ_ASSERT(!strcmp(a, b));
	free(a);
	free(b);
	nn_plan_free(&q);
	nn_plan_free(&p);
	return 0;
}
