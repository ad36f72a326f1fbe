/* SPDX-License-Identifier: GPL-2.0-or-later */
/* change_kinds.h - every kind of change an undo log may hold, and the table
 * rollback reads logs with
 *
 * Each kind's ops live beside what it changes: file values in
 * value_restore.c, channels in channels_change.c, irqbalance in
 * irqb_change.c, a hugetlbfs mount in hp_mount.c (all in nicnuma/act/).
 */
#ifndef NICNUMA_IRQ_CHANGE_KINDS_H
#define NICNUMA_IRQ_CHANGE_KINDS_H

#include "nicnuma/act/undo.h"
#include "nicnuma/act/value_restore.h"

/* ETHTOOL_SCHANNELS combined count; path = ifname of a NIC in the log's host. */
extern const struct nn_change_ops nn_channels_change_ops;
/* Daemon state; detail says how (mode, systemd unit), never what to run. */
extern const struct nn_change_ops nn_irqb_change_ops;
/* A hugetlbfs mount we made; path = mount point. */
extern const struct nn_change_ops nn_mount_change_ops;

/* NULL-terminated: what nn_undo_load()/nn_undo_parse() accept. */
extern const struct nn_change_ops *const nn_change_kinds[];

#endif
