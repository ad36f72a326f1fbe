// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_rollback.c - "nicnuma rollback": put back what an apply (or reserve) changed */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/rollback.h"

enum { OPT_LIST = 256 };

static const struct nn_opt opts[] = {
	{ "dry-run", 'n', NN_ARG_NONE, NULL, "show the snapshot and each value it would put back; write nothing", 'n' },
	{ "list", 0, NN_ARG_NONE, NULL, "list the snapshots, newest first: command, values, rolled back or not",
	  OPT_LIST },
	{ "state-dir", 0, NN_ARG_REQUIRED, "DIR", "where snapshots are (default /var/lib/nicnuma, or $NICNUMA_STATE_DIR); "
	  "resolved inside --root", NN_OPT_STATE_DIR },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_rollback = {
	.name = "rollback",
	.usage = "nicnuma [--root DIR] [--json] rollback [--state-dir DIR] [--dry-run | --list] [SNAPSHOT]",
	.intro =
"Restore every value a writing command (apply, hugepages reserve) saved in its\n"
"snapshot before changing it: in reverse order, each value read first (one\n"
"already as it was is left alone and reported 'unchanged'), written back with\n"
"one write(2) and read back. irqbalance is brought back last, the way it was\n"
"started (or its systemd unit re-enabled and started).\n"
"\n"
"Without SNAPSHOT the newest snapshot in the state directory that was not\n"
"rolled back yet is used; a rolled-back snapshot is marked so, so a second\n"
"rollback walks back to the run before. SNAPSHOT is a file name in the state\n"
"directory or a path (inside --root, like every path); that file is the one\n"
"marked rolled back. When every snapshot was rolled back already (or there is\n"
"none) rollback says so and exits 0: there is nothing left to put back.\n"
"\n"
"--list shows every snapshot, newest first, with the command that wrote it, how\n"
"many values it holds and whether it was rolled back; --dry-run shows the one\n"
"rollback would use and each value it would put back, and writes nothing.\n"
"\n"
"A snapshot is acted on as root, so it is used only when its directory and\n"
"the file are owned by root and writable by nobody else, the file is a\n"
"regular file with one link (no symlink, no FIFO) of at most 16 MiB, and\n"
"every change in it passes its kind's check before any is restored: a file\n"
"change names only a value nicnuma writes (/proc/irq/N/smp_affinity_list,\n"
"/sys/class/net/IF/queues/tx-N/xps_cpus, .../hugepages-SIZEkB/nr_hugepages),\n"
"a channels change only a NIC the snapshot's host lists, a mount change only\n"
"a hugetlbfs mounted there now, and irqbalance names nothing to run or\n"
"delete. A snapshot that fails any check stops rollback (exit 2) naming the\n"
"file and the reason; the newest one is never skipped for an older one.\n"
"\n"
"Pruning, after a successful rollback: the newest 20 rolled-back snapshots\n"
"are kept and older rolled-back ones removed; a snapshot not rolled back is\n"
"never removed. Temp files (.NAME.XXXXXX) a killed run left are removed by\n"
"whichever run next takes the lock.\n",
	.opts = opts,
	.args = "[SNAPSHOT]",
	.outro =
"Output: one row per value: KIND, PATH, CURRENT, RESTORED, STATUS (restored,\n"
"unchanged, failed, skipped). --json: {\"rollback\":{\"snapshot\",\"values\":\n"
"[{\"kind\",\"path\",\"current\",\"restored\",\"status\",\"error\"}]},\"warnings\":[..]};\n"
"nothing left: {\"rollback\":{\"snapshot\":null}}; --dry-run: {\"rollback\":{\"dry_run\",\n"
"\"snapshot\",\"command\",\"values\":[{\"kind\",\"path\",\"restored\"}]}}; --list:\n"
"{\"snapshots\":[{\"file\",\"command\",\"nchanges\",\"usable\",\"rolled_back\"}]}.\n"
"\n"
"Exit status: 0 everything restored (or nothing left to restore), 1 warnings,\n"
"2 a value could not be restored (it is named), or a snapshot that cannot be\n"
"used.\n",
};

int nn_cmd_rollback(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	const char *file = NULL;
	bool dry = false, list = false;
	int opt;

	while ((opt = nn_opt_next(ctx, &nn_desc_rollback, &st)) > 0) {
		switch (opt) {
		case NN_OPT_STATE_DIR:
			ctx->state_dir = st.arg;
			break;
		case 'n':
			dry = true;
			break;
		case OPT_LIST:
			list = true;
			break;
		}
	}
	if (opt < 0)
		return nn_opt_exit(opt);
	if (st.ind < argc)
		file = argv[st.ind++];
	if (st.ind < argc) {
		nn_err(ctx, "rollback: one snapshot at a time ('%s' is extra)", argv[st.ind]);
		return NN_EXIT_ERROR;
	}
	if (list && (dry || file)) {
		nn_err(ctx, "rollback: --list takes no SNAPSHOT and no --dry-run");
		return NN_EXIT_ERROR;
	}
	if (list)
		return nn_rollback_list(ctx);
	return dry ? nn_rollback_preview(ctx, file) : nn_rollback(ctx, file);
}
