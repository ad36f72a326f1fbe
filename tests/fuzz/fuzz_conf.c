// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_conf.c - nn_desired_parse, the reader of /etc/nicnuma/nicnuma.conf the
 * watcher acts on as root: never crash; an error says why and names the
 * file; an accepted state formats to a text that parses to the same text. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/desired.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_desired d, e;
	struct nn_sb a = NN_SB_INIT, b = NN_SB_INIT;
	char why[256] = "";
	int err = nn_desired_parse("f.conf", (const char *)data, size, &d, why, sizeof(why));

	FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -EFBIG || err == -ENOMEM);
	if (err) {
		FUZZ_ASSERT(!strncmp(why, "f.conf", 6) || err == -ENOMEM);
		return 0;
	}
	FUZZ_ASSERT(d.nnics > 0 && d.interval_s >= 1 && d.settle_ms >= 10);
	FUZZ_ASSERT(nn_desired_format(&d, &a) == 0);
	FUZZ_ASSERT(nn_desired_parse("f.conf", a.buf, a.len, &e, why, sizeof(why)) == 0);
	FUZZ_ASSERT(nn_desired_format(&e, &b) == 0);
	FUZZ_ASSERT(a.len == b.len && !memcmp(a.buf, b.buf, a.len));
	nn_desired_free(&d);
	nn_desired_free(&e);
	nn_sb_free(&a);
	nn_sb_free(&b);
	return 0;
}
