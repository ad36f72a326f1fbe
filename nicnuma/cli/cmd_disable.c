// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_disable.c - "nicnuma disable": stop the watcher, roll back to before enable */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/service/disable.h"

enum { OPT_KEEP = NN_OPT_OWN };

static const struct nn_opt opts[] = {
	{ "keep-config", 0, NN_ARG_NONE, NULL, "keep /etc/nicnuma/nicnuma.conf for a later enable", OPT_KEEP },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "snapshots, the lock and enabled.json", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_disable = {
	.name = "disable",
	.usage = "nicnuma [--root DIR] [--json] disable [--keep-config] [--state-dir DIR]",
	.intro =
"Undo 'nicnuma enable': systemctl disable --now nicnuma-watch.service (under\n"
"--root: not touched (fake root)), roll back to the before-enable snapshot\n"
"named in STATE_DIR/enabled.json (every value enable and the watcher\n"
"changed, as it was before the first enable), remove the unit file enable\n"
"wrote (never a packaged one) and /etc/nicnuma/nicnuma.conf (unless\n"
"--keep-config), then the enable record.\n",
	.opts = opts,
	.outro =
"Exit status: 0 disabled; 1 done with warnings (some value not restored);\n"
"2 error (not enabled, a watcher still running, an untrusted snapshot).\n",
};

int nn_cmd_disable(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	bool keep = false;
	int opt;

	while ((opt = nn_opt_next(ctx, &nn_desc_disable, &st)) > 0) {
		switch (opt) {
		case OPT_KEEP:
			keep = true;
			break;
		case NN_OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		}
	}
	if (opt < 0)
		return nn_opt_exit(opt);
	return nn_disable(ctx, keep);
}
