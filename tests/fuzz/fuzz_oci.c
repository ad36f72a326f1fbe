// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_oci.c - the OCI hook's readers of the container state (stdin, from
 * the runtime) and config.json, and the decision: never crash; a refusal
 * says why; an accepted state names a valid claim, its pid is -1 or in
 * range, its bundle absolute; a claim decision has CPUs and an owner. The
 * first byte picks the reader, the rest is the document. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/service/oci_hook.h"
#include "nicnuma/state/claims_store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_oci_state s;
	struct nn_oci_config c;
	struct nn_oci_decision d;
	struct nn_cpuset out = NN_CPUSET_INIT;
	char why[256] = "", name[NN_CLAIM_NAME_MAX + 8];
	const char *text = (const char *)data + 1;
	int err;

	if (!size)
		return 0;
	size--;
	if (data[0] & 1) {
		err = nn_oci_config_parse(text, size, &c, why, sizeof(why));
		FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -EFBIG || err == -ENOMEM);
		if (err) {
			FUZZ_ASSERT(why[0]);
			return 0;
		}
		FUZZ_ASSERT(c.has_cpus == !nn_cpuset_empty(&c.cpus));
		FUZZ_ASSERT(nn_cpuset_last(&c.cpus) < NN_CPU_MAX);
		FUZZ_ASSERT(nn_oci_claim_cpus(&c.cpus, NN_OCI_MODE_HOUSEKEEPING, NULL, &out) == 0);
		FUZZ_ASSERT(nn_cpuset_count(&out) + (c.has_cpus ? 1 : 0) == nn_cpuset_count(&c.cpus));
		nn_cpuset_free(&out);
		nn_oci_config_free(&c);
		return 0;
	}
	err = nn_oci_state_parse(text, size, &s, why, sizeof(why));
	FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -EFBIG || err == -ENOMEM);
	if (err) {
		FUZZ_ASSERT(why[0] && !s.id);
		return 0;
	}
	FUZZ_ASSERT(s.id && s.status && s.oci_version);
	FUZZ_ASSERT(nn_oci_claim_name(s.id, name, sizeof(name)) == 0 && nn_claim_name_ok(name));
	FUZZ_ASSERT(s.pid == -1 || (s.pid > 0 && s.pid <= (1 << 22)));
	FUZZ_ASSERT(!s.bundle || s.bundle[0] == '/');
	nn_oci_decide(&s, NULL, NN_OCI_STAGE_NONE, &d);
	/* without a config there is no cpuset: never a claim */
	FUZZ_ASSERT(d.action != NN_OCI_CLAIM);
	FUZZ_ASSERT(d.action == NN_OCI_RELEASE || d.why);
	nn_oci_state_free(&s);
	return 0;
}
