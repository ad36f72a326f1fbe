/* SPDX-License-Identifier: GPL-2.0-or-later */
/* limits.h - sizes shared by every reader of nicnuma's own documents */
#ifndef NICNUMA_BASIC_LIMITS_H
#define NICNUMA_BASIC_LIMITS_H

/* The largest plan or snapshot nicnuma reads or writes. One cap for both, so
 * apply can refuse a plan whose snapshot rollback could not read back. A
 * 512-CPU host with 16 NICs x 64 queues writes ~1 MB; 16 MiB leaves room
 * without letting /dev/zero or a 2,000,000-entry plan exhaust memory. */
#define NN_DOC_MAX_BYTES (16u << 20)

/* PID_MAX_LIMIT on 64-bit kernels (include/linux/threads.h): no pid is larger. */
#define NN_PID_MAX 4194304

#endif
