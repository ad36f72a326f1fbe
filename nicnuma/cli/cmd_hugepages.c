// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_hugepages.c - "nicnuma hugepages show|reserve|release": per-node
 * hugepage pools, reserved and given back reversibly */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hugepages/hp_print.h"
#include "hugepages/hp_set.h"
#include "hugepages/hp_target.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/state/tx.h"

struct change_opts {
	bool release;
	const char *nodes_arg;
	const char *size_arg;
	const char *count_arg;
	const char *mem_arg;
	const char *mount_dir;
	bool all;		/* release --all */
	bool partial;
	bool dry_run;
};

enum { OPT_NODE = NN_OPT_OWN, OPT_SIZE, OPT_COUNT, OPT_MEM, OPT_PARTIAL, OPT_MOUNT, OPT_DRY_RUN,
       OPT_STATE_DIR, OPT_ALL };

const struct nn_cmd_desc nn_desc_hugepages = {
	.name = "hugepages",
	.usage = "nicnuma hugepages show\n"
		 "       nicnuma hugepages reserve --node NODES --size SIZE (--count K | --mem AMOUNT)\n"
		 "                                 [--partial] [--mount DIR] [--dry-run] [--state-dir DIR]\n"
		 "       nicnuma hugepages release --node NODES --size SIZE (--count K | --all)\n"
		 "                                 [--dry-run] [--state-dir DIR]",
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

static const struct nn_opt reserve_opts[] = {
	{ "node", 0, NN_ARG_REQUIRED, "NODES", "node ids: 0, 0,2, 1-3, or all (every node with memory)", OPT_NODE,
	  NN_STORE_STR(struct change_opts, nodes_arg) },
	{ "size", 0, NN_ARG_REQUIRED, "SIZE", "page size: 2M, 1G, 2048kB, 1048576kB; must be one the kernel offers "
	  "(/sys/kernel/mm/hugepages). Default: the kernel's default size "
	  "(Hugepagesize in /proc/meminfo)", OPT_SIZE,
	  NN_STORE_STR(struct change_opts, size_arg) },
	{ "count", 0, NN_ARG_REQUIRED, "K", "pages to add on each node", OPT_COUNT,
	  NN_STORE_STR(struct change_opts, count_arg) },
	{ "mem", 0, NN_ARG_REQUIRED, "AMOUNT", "memory to add on each node: 512M, 4G, 1T (binary units); rounded up to "
	  "whole pages", OPT_MEM,
	  NN_STORE_STR(struct change_opts, mem_arg) },
	{ "partial", 0, NN_ARG_NONE, NULL, "keep a short result instead of restoring the old counts", OPT_PARTIAL,
	  NN_STORE_BOOL(struct change_opts, partial) },
	{ "mount", 0, NN_ARG_REQUIRED, "DIR", "also mount hugetlbfs with pagesize=SIZE on DIR (an existing directory) "
	  "unless a hugetlbfs mount of SIZE already exists; live machine only, "
	  "undone by rollback", OPT_MOUNT,
	  NN_STORE_STR(struct change_opts, mount_dir) },
	{ "dry-run", 0, NN_ARG_NONE, NULL, "check everything and show what would change; write nothing", OPT_DRY_RUN,
	  NN_STORE_BOOL(struct change_opts, dry_run) },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "where the undo log goes (default /var/lib/nicnuma, "
	  "$NICNUMA_STATE_DIR); inside --root when one is given", OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_hugepages_reserve = {
	.name = "hugepages reserve",
	.usage = "nicnuma hugepages reserve --node NODES --size SIZE (--count K | --mem AMOUNT)\n"
		 "                                 [--partial] [--mount DIR] [--dry-run] [--state-dir DIR]",
	.intro =
"Adds K pages of SIZE to each node's pool by writing\n"
"  /sys/devices/system/node/nodeN/hugepages/hugepages-<SIZE>kB/nr_hugepages\n"
"and reading it back. The kernel hands out what contiguous memory it finds; on\n"
"a shortfall nicnuma writes /proc/sys/vm/compact_memory and tries once more,\n"
"then reports exactly what it got. By default a short result is undone: every\n"
"node is put back to its previous count (all or nothing). --partial keeps what\n"
"was got. Pages the running kernel cannot supply (typically 1G pages on a\n"
"fragmented host) can be reserved at boot: the kernel arguments that would do\n"
"it per node are printed (hugepagesz=1G hugepages=0:N,1:M; Linux 5.16+).\n",
	.opts = reserve_opts,
	.outro =
"Refused with exit status 2 and nothing changed: an unknown node, a node\n"
"without memory, an unsupported size, a count that overflows or exceeds the\n"
"node's memory, not root on the live machine, --mount under --root.\n"
"\n"
"Exit status: 0 every node got its pages; 1 short but kept (--partial);\n"
"2 error, or short and restored.\n"
"\n"
"Example: nicnuma hugepages reserve --node 1 --size 1G --count 4 --mount /dev/hugepages-1G\n",
};

static const struct nn_opt release_opts[] = {
	{ "node", 0, NN_ARG_REQUIRED, "NODES", "node ids: 0, 0,2, 1-3, or all (every node with memory)", OPT_NODE,
	  NN_STORE_STR(struct change_opts, nodes_arg) },
	{ "size", 0, NN_ARG_REQUIRED, "SIZE", "page size: 2M, 1G, 2048kB (default: the kernel's default)", OPT_SIZE,
	  NN_STORE_STR(struct change_opts, size_arg) },
	{ "count", 0, NN_ARG_REQUIRED, "K", "pages to give back on each node; more than a node holds is an error", OPT_COUNT,
	  NN_STORE_STR(struct change_opts, count_arg) },
	{ "all", 0, NN_ARG_NONE, NULL, "give back every page of SIZE on each node", OPT_ALL,
	  NN_STORE_BOOL(struct change_opts, all) },
	{ "dry-run", 0, NN_ARG_NONE, NULL, "show what would change; write nothing", OPT_DRY_RUN,
	  NN_STORE_BOOL(struct change_opts, dry_run) },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "where the undo log goes (default /var/lib/nicnuma)", OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_hugepages_release = {
	.name = "hugepages release",
	.usage = "nicnuma hugepages release --node NODES --size SIZE (--count K | --all)\n"
		 "                                 [--dry-run] [--state-dir DIR]",
	.intro =
"Gives K pages (or all) of SIZE back from each node's pool, writing nr_hugepages\n"
"and reading it back. Pages still mapped are not taken from their users: the\n"
"kernel turns them into surplus pages and frees them at unmap (a warning says\n"
"how many). Recorded in the undo log; 'nicnuma rollback' re-reserves them.\n",
	.opts = release_opts,
	.outro =
"Exit status: 0 done, 2 error (nothing changed, or restored).\n",
};

/* ---- show ---------------------------------------------------------------- */

static int cmd_show(struct nn_ctx *ctx, int argc, char **argv)
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

/* ---- reserve / release ---------------------------------------------------- */


static int parse_change(struct nn_ctx *ctx, int argc, char **argv, struct change_opts *co)
{
	const struct nn_cmd_desc *d = co->release ? &nn_desc_hugepages_release : &nn_desc_hugepages_reserve;
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int c;

	st.dest = co;
	while ((c = nn_opt_next(ctx, d, &st)) > 0)
		if (c == OPT_STATE_DIR)
			ctx->state_dir = st.arg;
	if (c < 0)
		return c == NN_OPT_HELP ? 1 : -EINVAL;
	if (!co->nodes_arg) {
		nn_err(ctx, "hugepages %s: --node is required (a node id, a list, or all)", argv[0]);
		return -EINVAL;
	}
	if (!co->release && !!co->count_arg + !!co->mem_arg != 1) {
		nn_err(ctx, "hugepages reserve: give exactly one of --count K or --mem AMOUNT");
		return -EINVAL;
	}
	if (co->release && !!co->count_arg + co->all != 1) {
		nn_err(ctx, "hugepages release: give exactly one of --count K or --all");
		return -EINVAL;
	}
	if (co->mount_dir && !*co->mount_dir) {
		nn_err(ctx, "--mount: empty directory name");
		return -EINVAL;
	}
	return 0;
}

static int cmd_change(struct nn_ctx *ctx, int argc, char **argv, bool release)
{
	struct change_opts co = { .release = release };
	const char *verb = release ? "release" : "reserve";
	struct nn_hp_targets tg = { 0 };
	struct nn_plan_hugepages *want;
	const struct nn_hp_mount *existing = NULL;
	struct nn_hp_result *res = NULL;
	struct nn_out *o = &ctx->out;
	struct nn_tx tx = NN_TX_INIT;
	struct nn_hp_state st;
	bool state_open = false, shortfall = false;
	unsigned long size_kb;
	int err, status = NN_EXIT_ERROR, flags = 0;
	size_t n, i;
	char why[512], sz[32];

	err = parse_change(ctx, argc, argv, &co);
	if (err)
		return err > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
	err = nn_hp_state_read(ctx, &st);
	if (err) {
		nn_err(ctx, "no hugepage support: %s: %s", NN_HP_SYS_MM, strerror(-err));
		return NN_EXIT_ERROR;
	}
	state_open = true;
	err = nn_hp_targets_make(&st, &(struct nn_hp_request){ .release = release,
				 .nodes = co.nodes_arg, .size = co.size_arg, .count = co.count_arg,
				 .mem = co.mem_arg, .all = co.all }, &tg, why, sizeof(why));
	for (i = 0; i < tg.nskipped; i++)
		nn_printf(o, "node %d: no memory, skipped\n", tg.skipped[i]);
	if (err) {
		nn_err(ctx, "%s", why);
		goto out;
	}
	want = tg.want;
	n = tg.n;
	size_kb = tg.size_kb;
	nn_hp_size_name(size_kb, sz, sizeof(sz));
	for (i = 0; i < n; i++)
		if (tg.in_use[i])
			nn_warn(ctx, NULL, "node %d: %ld %s pages are in use; the kernel frees them "
				"as surplus when unmapped", want[i].node, tg.in_use[i], sz);
	res = calloc(n, sizeof(*res));
	if (!res) {
		nn_err(ctx, "out of memory");
		goto out;
	}
	if (co.mount_dir && nn_hp_mount_check(ctx, &st, co.mount_dir, size_kb, co.dry_run, &existing))
		goto out;
	if (!co.dry_run && nn_root_is_live(&ctx->root) && geteuid() != 0) {
		nn_err(ctx, "hugepages %s writes %s/nodeN/hugepages/...: run as root (uid %u)",
		       verb, NN_HP_SYS_NODE, (unsigned int)geteuid());
		goto out;
	}
	if (co.partial)
		flags |= NN_HP_PARTIAL;
	if (co.dry_run)
		flags |= NN_HP_DRY_RUN;
	if (!co.dry_run) {
		/* One writer at a time: apply and rollback take the same lock. */
		if (nn_tx_lock(ctx, &tx))
			goto out;
		err = nn_tx_begin(ctx, &tx, release ? "hugepages release" : "hugepages reserve");
		if (err) {
			nn_err(ctx, "cannot start the undo log in %s: %s", ctx->state_dir,
			       strerror(-err));
			goto out;
		}
	}

	err = nn_hugepages_set_many(ctx, tx.begun ? &tx.log : NULL, &st, want, n, flags, res);
	shortfall = err == -ENOMEM;

	nn_open_object(o, NULL);
	nn_print_bool(o, PRINT_JSON, "dry_run", NULL, co.dry_run);
	nn_print_bool(o, PRINT_JSON, "partial", NULL, co.partial);
	nn_hp_results_print(o, res, n, co.dry_run);

	if (shortfall) {
		nn_hp_shortfall_print(o, &st, res, n, size_kb, co.partial, release);
	} else if (err) {
		nn_hp_set_many_error(ctx, &st, want, res, n, err);
	}

	/* A mount only where the pages are (all of them, or --partial's share). */
	if (co.mount_dir) {
		int merr = nn_hp_mount_step(ctx, &tx.log, co.mount_dir, existing, size_kb, co.dry_run,
					    err && !(shortfall && co.partial));

		if (merr && !err)
			err = merr;
	}
	if (tx.begun && tx.log.nchanges) {
		nn_print_string(o, PRINT_ANY, "undo_log", "undo log: %s (nicnuma rollback)\n",
				tx.log.file);
	} else {
		nn_print_null(o, PRINT_JSON, "undo_log", NULL);
	}
	nn_print_warnings(ctx);
	nn_close_object(o);
	if (shortfall && co.partial)
		status = NN_EXIT_WARN;
	else
		status = nn_cli_status(ctx, err);
out:
	nn_tx_end(&tx);
	if (state_open)
		nn_hp_state_free(&st);
	nn_hp_targets_free(&tg);
	free(res);
	return status;
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
		return cmd_show(ctx, argc - 1, argv + 1);
	if (!strcmp(argv[1], "reserve"))
		return cmd_change(ctx, argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "release"))
		return cmd_change(ctx, argc - 1, argv + 1, true);
	nn_err(ctx, "hugepages: unknown subcommand '%s' (show, reserve, release)", argv[1]);
	return NN_EXIT_ERROR;
}
