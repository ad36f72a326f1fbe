// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_hugepages_release.c - "nicnuma hugepages release": pages given back
 * from each node's pool (act/hugepages_change.c does it) */
#include <stdio.h>

#include "cli.h"
#include "nicnuma/act/hugepages_change.h"

enum { OPT_NODES = NN_OPT_OWN, OPT_SIZE, OPT_COUNT, OPT_ALL };

static const struct nn_opt opts[] = {
	{ "nodes", 0, NN_ARG_REQUIRED, "NODES", "node ids: 0, 0,2, 1-3, or all (every node with memory)", OPT_NODES,
	  NN_STORE_STR(struct nn_hp_change, nodes) },
	{ "node", 0, NN_ARG_REQUIRED, "NODES", "old spelling of --nodes", OPT_NODES,
	  NN_STORE_STR(struct nn_hp_change, nodes), .deprecated = "nodes" },
	{ "size", 0, NN_ARG_REQUIRED, "SIZE", "page size: 2M, 1G, 2048kB (default: the kernel's default)", OPT_SIZE,
	  NN_STORE_STR(struct nn_hp_change, size) },
	{ "count", 0, NN_ARG_REQUIRED, "N", "pages to give back on each node; more than a node holds is an error", OPT_COUNT,
	  NN_STORE_STR(struct nn_hp_change, count) },
	{ "all", 0, NN_ARG_NONE, NULL, "give back every page of SIZE on each node", OPT_ALL,
	  NN_STORE_BOOL(struct nn_hp_change, all) },
	{ "dry-run", 'n', NN_ARG_NONE, NULL, "show what would change; write nothing", 'n',
	  NN_STORE_BOOL(struct nn_hp_change, dry_run) },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "where the undo log goes (default /var/lib/nicnuma)", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_hugepages_release = {
	.name = "hugepages release",
	.usage = "nicnuma hugepages release --nodes NODES --size SIZE (--count N | --all)\n"
		 "                                 [-n|--dry-run] [--state-dir DIR]",
	.intro =
"Gives N pages (or all) of SIZE back from each node's pool, writing nr_hugepages\n"
"and reading it back. Pages still mapped are not taken from their users: the\n"
"kernel turns them into surplus pages and frees them at unmap (a warning says\n"
"how many). Recorded in the undo log; 'nicnuma rollback' re-reserves them.\n",
	.opts = opts,
	.outro =
"Exit status: 0 done, 2 error (nothing changed, or restored).\n",
};

int nn_cmd_hugepages_release(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_hp_change c = { .release = true };
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int opt;

	st.dest = &c;
	while ((opt = nn_opt_next(ctx, &nn_desc_hugepages_release, &st)) > 0)
		if (opt == NN_OPT_STATE_DIR)
			ctx->state_dir = st.arg;
	if (opt < 0)
		return nn_opt_exit(opt);
	if (!c.nodes) {
		nn_err(ctx, "hugepages release: --nodes is required (a node id, a list, or all)");
		return NN_EXIT_ERROR;
	}
	if (!!c.count + c.all != 1) {
		nn_err(ctx, "hugepages release: give exactly one of --count N or --all");
		return NN_EXIT_ERROR;
	}
	return nn_hugepages_change(ctx, &c);
}
