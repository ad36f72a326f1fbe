/* SPDX-License-Identifier: GPL-2.0-or-later */
/* irq_names.h - the role of a NIC IRQ from the name its driver requested
 *
 * The fallback when the kernel does not say (netdev genl napi-get gives no
 * IRQ): one table of the drivers' own IRQ name formats (docs/discovery.md
 * names the source file of each row).
 */
#ifndef NICNUMA_IRQ_IRQ_NAMES_H
#define NICNUMA_IRQ_IRQ_NAMES_H

#include <stddef.h>

#include "nicnuma/core/parse.h"

enum nn_irq_role {
	NN_IRQ_ROLE_UNKNOWN = 0,	/* no row matched: nicnuma cannot tell */
	NN_IRQ_ROLE_QUEUE,		/* serves queue @queue (direction @dir); @queue -1: other
					 * functions' queues (mlx5 SF pool), placed like one */
	NN_IRQ_ROLE_MISC,		/* misc/async/control/mailbox: not a data queue */
};

const char *nn_irq_role_name(enum nn_irq_role r);

/* Role of the IRQ action @name on a NIC whose driver is @driver (NULL:
 * unknown), current interface name @ifname and PCI address @pci (either may be
 * NULL). The rows of @driver are tried first, then every row not tied to its
 * driver, so a driver renamed or unknown still matches by its format. For
 * NN_IRQ_ROLE_QUEUE, *@queue is the index in the name and *@dir its direction;
 * otherwise -1 and NN_QDIR_NONE. A name with another function's PCI address
 * matches no row. *@flags (may be NULL) gets the matching row's NN_IRQ_ROW_*. */
enum nn_irq_role nn_irq_name_role(const char *name, const char *driver, const char *ifname,
				  const char *pci, int *queue, enum nn_qdir *dir, int *flags);

/* The table itself, for docs and tests: row @i (NULL past the end). */
struct nn_irq_name_row {
	const char *driver;		/* the driver link's name ("mlx5_core"...) */
	const char *pattern;		/* %q queue index, %n any number, %p PCI address,
					 * %i the interface name, %s any non-empty text */
	enum nn_irq_role role;
	enum nn_qdir dir;		/* for queue rows */
	int flags;			/* NN_IRQ_ROW_* */
};
#define NN_IRQ_ROW_STRICT 0x1		/* only for its own driver (too broad otherwise) */
#define NN_IRQ_ROW_HALVES 0x2		/* queue blocks: first half tx, second half rx */
#define NN_IRQ_ROW_RANGE 0x4		/* serves the rings %q..%n: the queues after %q that
					 * have no vector of their own go with it */
const struct nn_irq_name_row *nn_irq_name_row(size_t i);

/* Queue index and direction encoded in an IRQ action name for the NIC
 * @ifname (may be NULL) at @pci (may be NULL), by the table without knowing
 * the driver. Returns 1 and fills @queue/@dir for a queue IRQ, 0 for any other IRQ. */
int nn_irq_name_queue(const char *name, const char *ifname, const char *pci,
		      int *queue, enum nn_qdir *dir);

#endif
