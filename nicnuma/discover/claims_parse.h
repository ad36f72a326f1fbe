/* SPDX-License-Identifier: GPL-2.0-or-later */
/* claims_parse.h - pure parsers of the cgroup v2 files claims are found in (fuzzed) */
#ifndef NICNUMA_DISCOVER_CLAIMS_PARSE_H
#define NICNUMA_DISCOVER_CLAIMS_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* The mount point of the cgroup2 file system in /proc/self/mountinfo text
 * (the first cgroup2 mount of the hierarchy's root "/"; escapes decoded),
 * malloc'd into *@mount. 0, -ENOENT when there is none, -ENOMEM. Malformed
 * lines are skipped. */
int nn_cg_mountinfo_cgroup2(const char *text, char **mount);

enum nn_cg_part {
	NN_CG_PART_MEMBER,	/* not a partition */
	NN_CG_PART_ROOT,	/* "root" */
	NN_CG_PART_ISOLATED,	/* "isolated" */
};
/* cpuset.cpus.partition's text: "member", "root", "isolated", each maybe
 * followed by " invalid (REASON)" (then *@invalid, and *@reason points at
 * REASON's first character with *@reason_len its length; else NULL/0).
 * 0, or -EINVAL for anything else. */
int nn_cg_partition_parse(const char *text, enum nn_cg_part *kind, bool *invalid,
			  const char **reason, size_t *reason_len);
const char *nn_cg_part_name(enum nn_cg_part kind);

/* "cpuset" among the words of cgroup.controllers / cgroup.subtree_control. */
bool nn_cg_has_controller(const char *text, const char *name);

#endif
