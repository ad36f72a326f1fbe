/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nic_print.h - the "nicnuma nics" report of a host snapshot */
#ifndef NICNUMA_NIC_PRINT_H
#define NICNUMA_NIC_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/discover/host.h"
#include "nicnuma/discover/irq_place.h"

struct nn_out;

/* The NIC table (or the "nics" array) with, unless @brief, each device's
 * locality, RSS, PCIe, queue and IRQ lines; only the devices named in
 * @names (all when @nnames is 0); then "irqbalance". Each IRQ's placement is
 * judged against @planned(@plan, irq) (NULL: no plan, irq_place.h). */
void nn_nics_print(struct nn_out *o, const struct nn_host *h, char *const *names, size_t nnames,
		   bool brief, nn_planned_cpus_fn planned, const void *plan);

#endif
