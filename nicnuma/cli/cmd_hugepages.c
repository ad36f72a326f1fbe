// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_hugepages.c - "nicnuma hugepages show|reserve|release": the command's
 * own --help, its subcommands, and show (reserve and release:
 * cmd_hugepages_reserve.c, cmd_hugepages_release.c) */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hugepages/hp_print.h"

const struct nn_cmd_desc nn_desc_hugepages = {
	.name = "hugepages",
	.usage = "nicnuma hugepages show\n"
		 "       nicnuma hugepages reserve --nodes NODES --size SIZE (--count N | --mem AMOUNT)\n"
		 "                                 [--partial] [--mount DIR] [-n|--dry-run] [--state-dir DIR]\n"
		 "       nicnuma hugepages release --nodes NODES --size SIZE (--count N | --all)\n"
		 "                                 [-n|--dry-run] [--state-dir DIR]",
	.intro =
"Per-node hugepage pools for DPDK and other user-space data planes: packet memory\n"
"belongs on the node of the NIC that DMAs into it. 'COMMAND --help' for details.\n"
"\n"
"Every change is written to an undo log first; 'nicnuma rollback' puts the\n"
"previous page counts back and unmounts what --mount mounted.\n",
	.args = "COMMAND",
};

const struct nn_cmd_desc nn_desc_hugepages_show = {
	.name = "hugepages show",
	.usage = "nicnuma [--root DIR] [--json] hugepages show",
	.intro =
"Lists every NUMA node's hugepage pools, one row per node and page size:\n"
"  TOTAL    nr_hugepages: persistent pages in the pool\n"
"  FREE     free_hugepages: not mapped by anyone\n"
"  SURPLUS  surplus_hugepages: overcommitted pages, freed when unmapped\n"
"then the host-wide pools (/sys/kernel/mm/hugepages) with RESERVED\n"
"(resv_hugepages: promised to a mapping, not yet faulted in; the kernel keeps\n"
"this count host-wide only), and the hugetlbfs mounts with their page size.\n",
	.outro =
"--json: {\"hugepages\":[{\"node\",\"size_kb\",\"total\",\"free\",\"surplus\"}],\n"
"         \"totals\":[{\"size_kb\",\"total\",\"free\",\"surplus\",\"reserved\"}],\n"
"         \"mounts\":[{\"path\",\"size_kb\"}],\"default_size_kb\"}\n"
"Counts the kernel did not give are null (\"-\" in the table).\n"
"\n"
"Exit status: 0 clean, 1 some file unreadable (named on stderr), 2 no hugepage\n"
"support at all.\n",
};

int nn_cmd_hugepages_show(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate os = NN_OPTSTATE(argc, argv);
	struct nn_out *o = &ctx->out;
	struct nn_hp_state st;
	int c, err;

	while ((c = nn_opt_next(ctx, &nn_desc_hugepages_show, &os)) > 0)
		;
	if (c < 0)
		return nn_opt_exit(c);
	err = nn_hp_state_read(ctx, &st);
	if (err) {
		nn_err(ctx, "no hugepage support: %s: %s", NN_HP_SYS_MM, strerror(-err));
		return NN_EXIT_ERROR;
	}
	nn_open_object(o, NULL);
	nn_hp_state_print(o, &st);
	nn_print_warnings(ctx);
	nn_close_object(o);
	nn_hp_state_free(&st);
	return nn_cli_status(ctx, 0);
}

int nn_cmd_hugepages(struct nn_ctx *ctx, int argc, char **argv)
{
	if (argc < 2) {
		nn_opt_help(ctx, &nn_desc_hugepages, stderr);
		return NN_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		nn_opt_help(ctx, &nn_desc_hugepages, stdout);
		return NN_EXIT_OK;
	}
	if (!strcmp(argv[1], "show"))
		return nn_cmd_hugepages_show(ctx, argc - 1, argv + 1);
	if (!strcmp(argv[1], "reserve"))
		return nn_cmd_hugepages_reserve(ctx, argc - 1, argv + 1);
	if (!strcmp(argv[1], "release"))
		return nn_cmd_hugepages_release(ctx, argc - 1, argv + 1);
	nn_err(ctx, "hugepages: unknown subcommand '%s' (show, reserve, release)", argv[1]);
	return NN_EXIT_ERROR;
}
