// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_snapshot.c - nn_undo_parse, the reader of the undo log rollback acts
 * on as root: never crash; an accepted log holds only changes its kind's
 * document checks accept (a file change names a value nicnuma writes, in
 * the form the kernel prints), and parses again to the same changes. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/state/undo.h"
#include "nicnuma/act/change_kinds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_undo u;
	char why[256];
	size_t i;
	int err = nn_undo_parse((const char *)data, size, nn_change_kinds, &u, why, sizeof(why));

	FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -EFBIG || err == -ENOMEM);
	if (err) {
		FUZZ_ASSERT(why[0] != '\0' || err == -ENOMEM);
		return 0;
	}
	for (i = 0; i < u.nchanges; i++) {
		const struct nn_change *c = &u.changes[i];

		FUZZ_ASSERT(c->ops);
		if (c->ops == &nn_file_change_ops)
			FUZZ_ASSERT(nn_value_text_valid(c->path, c->before));
		if (c->ops == &nn_channels_change_ops)
			FUZZ_ASSERT(c->path && nn_ifname_valid(c->path));
	}
	nn_undo_free(&u);
	return 0;
}
