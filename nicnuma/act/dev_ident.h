/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dev_ident.h - which device an interface name stood for when a value was
 * logged, and whether it still does when the log is rolled back
 *
 * A value of one interface (RPS, XPS, coalescing, rings, channels, the RSS
 * table, NAPI settings, device-wide NAPI files) is logged with
 *   "device":{"nic":"IF","ifindex":N,"pci":"DDDD:BB:DD.F"}
 * ("pci" absent for a device without one: a veth is its ifindex alone). An
 * interface name is not a device: a NIC replaced, or renamed over, keeps the
 * name and changes both. Rollback discovers the logged names afresh and
 * skips, with a warning naming both devices, a value whose name now belongs
 * to another device (another ifindex or PCI address), so old masks are never
 * written into hardware they were not read from. A name that is gone is left
 * to its kind's restore (which fails naming the file). A value logged
 * without "device" (by a nicnuma before it was recorded) is still restored
 * by name, and the rollback warns once that it could not check.
 */
#ifndef NICNUMA_ACT_DEV_IDENT_H
#define NICNUMA_ACT_DEV_IDENT_H

#include <stddef.h>

struct nn_ctx;
struct nn_nic;
struct nn_undo;

/* The "device" text of @nic as discovered, in @buf (>= 96 bytes).
 * 0, or -ENOENT when its ifindex is unknown (nothing to record). */
int nn_dev_ident_text(const struct nn_nic *nic, char *buf, size_t len);

/* Pure: @device (a log's "device" text) against @now, the device of that
 * name as discovered now (NULL: no such interface). 0 the same device or
 * none there now; 1 another device (@why names both); -EINVAL a malformed
 * device (@why says how). */
int nn_dev_ident_compare(const char *device, const struct nn_nic *now, char *why, size_t whylen);

/* Before a replay of @u: discovers the interfaces its "device" entries
 * name and sets c->skip (with a warning) on every change whose device is
 * now another; warns once when per-interface changes carry no device.
 * 0, or a negative errno with the message printed (nothing to replay then). */
int nn_dev_ident_mark(struct nn_ctx *ctx, struct nn_undo *u);

#endif
