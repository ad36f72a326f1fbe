// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_hugepages_reserve.c - "nicnuma hugepages reserve": pages added to
 * each node's pool (act/hugepages_change.c does it) */
#include <stdio.h>

#include "cli.h"
#include "nicnuma/act/hugepages_change.h"

enum { OPT_NODES = NN_OPT_OWN, OPT_SIZE, OPT_COUNT, OPT_MEM, OPT_PARTIAL, OPT_MOUNT };

static const struct nn_opt opts[] = {
	{ "nodes", 0, NN_ARG_REQUIRED, "NODES", "node ids: 0, 0,2, 1-3, or all (every node with memory)", OPT_NODES,
	  NN_STORE_STR(struct nn_hp_change, nodes) },
	{ "node", 0, NN_ARG_REQUIRED, "NODES", "old spelling of --nodes", OPT_NODES,
	  NN_STORE_STR(struct nn_hp_change, nodes), .deprecated = "nodes" },
	{ "size", 0, NN_ARG_REQUIRED, "SIZE", "page size: 2M, 1G, 2048kB, 1048576kB; must be one the kernel offers "
	  "(/sys/kernel/mm/hugepages). Default: the kernel's default size "
	  "(Hugepagesize in /proc/meminfo)", OPT_SIZE,
	  NN_STORE_STR(struct nn_hp_change, size) },
	{ "count", 0, NN_ARG_REQUIRED, "N", "pages to add on each node", OPT_COUNT,
	  NN_STORE_STR(struct nn_hp_change, count) },
	{ "mem", 0, NN_ARG_REQUIRED, "AMOUNT", "memory to add on each node: 512M, 4G, 1T (binary units); rounded up to "
	  "whole pages", OPT_MEM,
	  NN_STORE_STR(struct nn_hp_change, mem) },
	{ "partial", 0, NN_ARG_NONE, NULL, "keep a short result instead of restoring the old counts", OPT_PARTIAL,
	  NN_STORE_BOOL(struct nn_hp_change, partial) },
	{ "mount", 0, NN_ARG_REQUIRED, "DIR", "also mount hugetlbfs with pagesize=SIZE on DIR (an existing directory) "
	  "unless a hugetlbfs mount of SIZE already exists; live machine only, "
	  "undone by rollback", OPT_MOUNT,
	  NN_STORE_STR(struct nn_hp_change, mount_dir) },
	{ "dry-run", 'n', NN_ARG_NONE, NULL, "check everything and show what would change; write nothing", 'n',
	  NN_STORE_BOOL(struct nn_hp_change, dry_run) },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "where the undo log goes (default /var/lib/nicnuma, "
	  "$NICNUMA_STATE_DIR); inside --root when one is given", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_hugepages_reserve = {
	.name = "hugepages reserve",
	.usage = "nicnuma hugepages reserve --nodes NODES --size SIZE (--count N | --mem AMOUNT)\n"
		 "                                 [--partial] [--mount DIR] [-n|--dry-run] [--state-dir DIR]",
	.intro =
"Adds N pages of SIZE to each node's pool by writing\n"
"  /sys/devices/system/node/nodeN/hugepages/hugepages-<SIZE>kB/nr_hugepages\n"
"and reading it back. The kernel hands out what contiguous memory it finds; on\n"
"a shortfall nicnuma writes /proc/sys/vm/compact_memory and tries once more,\n"
"then reports exactly what it got. By default a short result is undone: every\n"
"node is put back to its previous count (all or nothing). --partial keeps what\n"
"was got. Pages the running kernel cannot supply (typically 1G pages on a\n"
"fragmented host) can be reserved at boot: the kernel arguments that would do\n"
"it per node are printed (hugepagesz=1G hugepages=0:N,1:M; Linux 5.16+).\n",
	.opts = opts,
	.outro =
"Refused with exit status 2 and nothing changed: an unknown node, a node\n"
"without memory, an unsupported size, a count that overflows or exceeds the\n"
"node's memory, not root on the live machine, --mount under --root.\n"
"\n"
"Exit status: 0 every node got its pages; 1 short but kept (--partial);\n"
"2 error, or short and restored.\n"
"\n"
"Example: nicnuma hugepages reserve --nodes 1 --size 1G --count 4 --mount /dev/hugepages-1G\n",
};

int nn_cmd_hugepages_reserve(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_hp_change c = { .release = false };
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int opt;

	st.dest = &c;
	while ((opt = nn_opt_next(ctx, &nn_desc_hugepages_reserve, &st)) > 0)
		if (opt == NN_OPT_STATE_DIR)
			ctx->state_dir = st.arg;
	if (opt < 0)
		return nn_opt_exit(opt);
	if (!c.nodes) {
		nn_err(ctx, "hugepages reserve: --nodes is required (a node id, a list, or all)");
		return NN_EXIT_ERROR;
	}
	if (!!c.count + !!c.mem != 1) {
		nn_err(ctx, "hugepages reserve: give exactly one of --count N or --mem AMOUNT");
		return NN_EXIT_ERROR;
	}
	if (c.mount_dir && !*c.mount_dir) {
		nn_err(ctx, "--mount: empty directory name");
		return NN_EXIT_ERROR;
	}
	return nn_hugepages_change(ctx, &c);
}
