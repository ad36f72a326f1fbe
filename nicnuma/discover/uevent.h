/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uevent.h - kernel uevents (NETLINK_KOBJECT_UEVENT group 1), parsed (pure)
 *
 * A kernel uevent datagram is "ACTION@DEVPATH\0KEY=VAL\0KEY=VAL\0...".
 * udev's re-broadcasts (group 2) start with "libudev" and are refused: the
 * watcher wants the kernel's word, not udev's rules applied to it.
 */
#ifndef NICNUMA_UEVENT_H
#define NICNUMA_UEVENT_H

#include <stddef.h>

struct nn_uevent {
	char action[16];	/* add, remove, bind, unbind, change, move... */
	const char *devpath;	/* the rest point into the parsed buffer; NULL absent */
	const char *subsystem;
	const char *interface;	/* net: the interface name */
	const char *driver;
	char pci[20];		/* PCI_SLOT_NAME, else the last PCI address in DEVPATH */
	char ifname[16];	/* INTERFACE, or "eth1" of ".../net/eth1/queues/rx-3" */
};

/* 0, or -EINVAL when @buf (@len bytes) is not a kernel uevent. */
int nn_uevent_parse(const char *buf, size_t len, struct nn_uevent *ev);

#endif
