// SPDX-License-Identifier: GPL-2.0-or-later
/* irqb_change.c - the undo log's "irqbalance" kind: the daemon's state put
 * back by irqbalance.c, from a detail that names nothing to run */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/act/irqbalance.h"

/* TODO(merge): use nn_irqb_validate (branch irqb) and drop this stand-in.
 * Until then: the state is "running" or "stopped" and the detail is an
 * object that carries no program, argv, environment or file to delete, so
 * a log cannot make rollback run or remove anything it names. */
static int irqb_validate_detail(const char *before, const char *detail, char *why, size_t whylen)
{
	static const char *const refused[] = { "exe", "argv", "env", "script", "dropin" };
	struct json_object *d;
	size_t i;
	int err = 0;

	if (!before || (strcmp(before, "running") && strcmp(before, "stopped"))) {
		snprintf(why, whylen, "state must be running or stopped");
		return -EINVAL;
	}
	d = detail ? json_tokener_parse(detail) : NULL;
	if (!d || !json_object_is_type(d, json_type_object)) {
		snprintf(why, whylen, "detail is not an object");
		err = -EINVAL;
		goto out;
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (json_object_object_get_ex(d, refused[i], NULL)) {
			snprintf(why, whylen, "detail names a program, environment or path (\"%s\"): "
				 "rollback takes none from a file", refused[i]);
			err = -EINVAL;
			goto out;
		}
out:
	json_object_put(d);
	return err;
}

static int irqb_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c,
			 char *why, size_t whylen)
{
	(void)ctx;
	(void)u;
	return irqb_validate_detail(c->before, c->detail, why, whylen);
}

static int irqb_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	res->current = c->after ? strdup(c->after) : NULL;
	return nn_irqb_restore(ctx, c->before, c->detail, res->why, sizeof(res->why));
}

const struct nn_change_ops nn_irqb_change_ops = {
	.name = "irqbalance",
	.live_only = true,
	.validate = irqb_validate,
	.restore = irqb_restore,
};
