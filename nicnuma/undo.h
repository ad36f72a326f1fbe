/* SPDX-License-Identifier: GPL-2.0-or-later */
/* undo.h - the snapshot/undo log every writing command keeps
 *
 * Before the first write, the value about to change is recorded and the log
 * is persisted (write, fsync, rename; mode 0600) under ctx->state_dir, which
 * is resolved inside the fs root like every other path. rollback replays the
 * "before" values in reverse order. One log per apply/reserve run:
 *   {"version":1,"command":"apply","created":"<iso8601>","host":{shape},
 *    "changes":[{"kind":"file","path","before","after"},
 *               {"kind":"irqbalance","before":"running|stopped","after",..}, ...]}
 */
#ifndef NICNUMA_UNDO_H
#define NICNUMA_UNDO_H

#include <stddef.h>

struct nn_ctx;
struct json_object;

enum nn_change_kind {
	NN_CHANGE_FILE = 0,	/* a sysfs/procfs value: path, before, after */
	NN_CHANGE_IRQBALANCE,	/* daemon state; detail holds how it was started */
	NN_CHANGE_CHANNELS,	/* ETHTOOL_SCHANNELS combined count; path = ifname */
	NN_CHANGE_MOUNT,	/* a hugetlbfs mount we made; path = mount point */
};

struct nn_change {
	enum nn_change_kind kind;
	char *path;
	char *before;
	char *after;
	char *detail;		/* kind-specific JSON text or NULL */
};

struct nn_undo {
	char *file;		/* snapshot path inside the root */
	char *command;
	struct nn_change *changes;
	size_t nchanges;
	struct json_object *host;	/* shape, for the report; may be NULL */
};

#endif
