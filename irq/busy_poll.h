/* SPDX-License-Identifier: GPL-2.0-or-later */
/* busy_poll.h - the global busy-poll sysctls and the undo kind "busy_poll"
 *
 * net.core.busy_poll (poll and select) and net.core.busy_read (blocking
 * reads without SO_BUSY_POLL of their own) are how long, in microseconds, a
 * socket call spins on the device queue before it sleeps
 * (Documentation/admin-guide/sysctl/net.rst, napi.rst: busy polling); 0 is
 * off, the kernel's default. A change is logged as
 *   {"kind":"busy_poll","path":"/proc/sys/net/core/busy_poll","before":"0","after":"50"}
 * and put back by the one value restorer (nicnuma/state/value_restore.c);
 * validate() refuses any path but those two and any value not a decimal in
 * the range the kernel takes.
 */
#ifndef NICNUMA_IRQ_BUSY_POLL_H
#define NICNUMA_IRQ_BUSY_POLL_H

#include <stdbool.h>

#include "nicnuma/state/undo.h"

enum nn_busy_sysctl {
	NN_BUSY_POLL = 0,	/* net.core.busy_poll */
	NN_BUSY_READ,		/* net.core.busy_read */
	NN_BUSY_NSYSCTL,
};

/* The kernel's bound on both (an int of microseconds, min 0). */
#define NN_BUSY_MAX 2147483647LL

/* "/proc/sys/net/core/busy_poll" / ".../busy_read"; its sysctl name
 * "net.core.busy_poll"; parse: the sysctl name back, 0 or -EINVAL. */
const char *nn_busy_path(enum nn_busy_sysctl s);
const char *nn_busy_name(enum nn_busy_sysctl s);
int nn_busy_name_parse(const char *name, enum nn_busy_sysctl *s);
/* Whether @path is one of the two, in canonical form. */
bool nn_busy_path_valid(const char *path);
/* Whether @value is a decimal 0..NN_BUSY_MAX as the kernel prints it. */
bool nn_busy_value_valid(const char *value);

extern const struct nn_change_ops nn_busy_poll_change_ops;

#endif
