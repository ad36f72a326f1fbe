/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rps.h - Receive Packet Steering and Receive Flow Steering values: their
 * paths, their forms, and the undo kind "rps"
 *
 * RPS (Documentation/networking/scaling.rst) lets the CPU that polls an rx
 * queue hand each packet's protocol work to another CPU chosen by the flow
 * hash: /sys/class/net/IF/queues/rx-N/rps_cpus (a hex mask, 0: off). RFS
 * steers a flow to the CPU its socket was last read on, within those CPUs:
 * the global table /proc/sys/net/core/rps_sock_flow_entries and each queue's
 * rps_flow_cnt (both rounded up to a power of two by the kernel, 0: off).
 * A change is logged as
 *   {"kind":"rps","path":"/sys/class/net/eth0/queues/rx-0/rps_cpus","before":"0","after":"1"}
 * and put back by the one value restorer (nicnuma/state/value_restore.c);
 * validate() refuses any path but those three forms and any value not of
 * the form the kernel prints there.
 */
#ifndef NICNUMA_IRQ_RPS_H
#define NICNUMA_IRQ_RPS_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/state/undo.h"

#define NN_RPS_SOCK_FLOW_PATH "/proc/sys/net/core/rps_sock_flow_entries"
/* scaling.rst: "a value of 32768 for rps_sock_flow_entries works fairly well
 * on a moderately loaded server"; a queue's rps_flow_cnt is that over the
 * device's rx queues. */
#define NN_RFS_SOCK_FLOW_ENTRIES 32768L
/* The largest count either file takes here (the kernel caps the socket
 * table at 2^29 entries on 64-bit hosts, rps_flow_cnt at 2^30 or less). */
#define NN_RFS_MAX 536870912L

/* The files of one rx queue. */
#define NN_RPS_CPUS "rps_cpus"
#define NN_RPS_FLOW_CNT "rps_flow_cnt"

/* "/sys/class/net/NIC/queues/rx-Q/FILE" for FILE rps_cpus or rps_flow_cnt:
 * 0, -EINVAL (a name that is no interface name, another file) or -ENAMETOOLONG. */
int nn_rps_path(char *buf, size_t size, const char *nic, int queue, const char *file);
/* Whether @path is one of the three values above in canonical form. */
bool nn_rps_path_valid(const char *path);
/* Whether @value has the form the kernel prints at @path (a hex mask with
 * optional commas; a decimal count up to NN_RFS_MAX). */
bool nn_rps_value_valid(const char *path, const char *value);
/* The power of two at or above @n (the kernel's roundup_pow_of_two), at
 * most NN_RFS_MAX; 0 for 0. Pure. */
long nn_rfs_round(long n);

extern const struct nn_change_ops nn_rps_change_ops;

#endif
