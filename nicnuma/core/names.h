/* SPDX-License-Identifier: GPL-2.0-or-later */
/* names.h - the one checker for every name that becomes part of a path
 *
 * A plan file, a captured tree or a command line can carry names that end up
 * in "/sys/class/net/NAME/queues/tx-N/xps_cpus" or "/proc/irq/N/...": each is
 * checked here by the kernel's own rule before it is used, so a "../" never
 * climbs out of the directory it was meant for, whichever command reads it.
 * Each checker returns 0 or -EINVAL and, when @why is not NULL, points it at
 * a static phrase naming the rule broken ("'/' is not allowed").
 */
#ifndef NICNUMA_NAMES_H
#define NICNUMA_NAMES_H

#include <stddef.h>

/* The kernel's IFNAMSIZ: a name and its NUL. */
#define NN_IFNAMSIZ 16
/* Largest IRQ number, queue index and NUMA node id we accept from a file:
 * above the kernel's own limits (NR_IRQS ceiling, 4096 queues, MAX_NUMNODES). */
#define NN_IRQ_MAX (1 << 24)
#define NN_QUEUE_MAX (1 << 20)
#define NN_NODE_MAX 65535

/* An interface name by the kernel's dev_valid_name(): not empty, shorter
 * than IFNAMSIZ, not "." or "..", no '/', ':' or whitespace (the kernel's
 * isspace(), which also counts 0xa0). */
int nn_name_ifname(const char *name, const char **why);

/* A decimal number as the kernel prints one: digits only, no sign, no
 * leading zero (except "0" itself), at most @max. */
int nn_name_decimal(const char *s, unsigned long max, unsigned long *val, const char **why);

/* "rx-N" or "tx-N" (/sys/class/net/IF/queues/): *@dir 'r' or 't'. */
int nn_name_queue(const char *name, char *dir, int *index, const char **why);

/* An IRQ number ("/proc/irq/N"), a NUMA node id ("nodeN" without "node"). */
int nn_name_irq(const char *s, int *irq, const char **why);
int nn_name_node(const char *s, int *node, const char **why);

/* "hugepages-2048kB" (/sys/kernel/mm/hugepages/): the size in kB. */
int nn_name_hugepage_dir(const char *name, unsigned long *kb, const char **why);

#endif
