/* SPDX-License-Identifier: GPL-2.0-or-later */
/* port_bind.h - a PCI function handed to a driver the kernel's way, and the "port" undo kind
 *
 * The sysfs ABI (Documentation/ABI/testing/sysfs-bus-pci): driver_override
 * names the one driver that may take the function, unbind releases it from
 * the driver it is on, drivers_probe makes the kernel match it again. Every
 * write goes through the fs root; under a fake root they are file writes
 * and the kernel's probe is not there to see (the caller's test stands in).
 */
#ifndef NICNUMA_PORTS_PORT_BIND_H
#define NICNUMA_PORTS_PORT_BIND_H

#include <stddef.h>

#include "nicnuma/state/undo.h"

struct nn_ctx;

/* Hands @pci to @driver ("" none: released, no probe) with driver_override
 * @override ("" cleared): override written, unbound from another driver,
 * probed. On the live root the driver link is read back: -EIO naming the
 * driver found when it is not @driver. 0 or -errno with @why naming the
 * file. */
int nn_port_bind(struct nn_ctx *ctx, const char *pci, const char *driver, const char *override,
		 char *why, size_t whylen);

/* vfio-pci's driver loaded for a bind: 0 when /sys/bus/pci/drivers/vfio-pci
 * is there or `modprobe vfio-pci` (the live root only, nn_run_helper) made
 * it; 1 not loaded under a fake root (nothing run); -errno with @why. The
 * module is never unloaded again (a rollback leaves it). */
int nn_vfio_load(struct nn_ctx *ctx, char *why, size_t whylen);

/* Pure: a driver name as sysfs has it ("mlx5_core", "vfio-pci"); "" none. */
int nn_port_driver_valid(const char *s);

/* The "port" undo kind: path the PCI address, before the driver it was on
 * ("" none), after the one it was bound to ("vfio-pci"), detail its
 * driver_override before ("" none). Rollback binds the original driver
 * back with the original override. */
extern const struct nn_change_ops nn_port_change_ops;

#endif
