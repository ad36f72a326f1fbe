// SPDX-License-Identifier: GPL-2.0-or-later
/* uevent.c - parse one kernel uevent datagram (format in uevent.h) */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "nicnuma/core/names.h"
#include "nicnuma/discover/uevent.h"

static bool hexc(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* "dddd:bb:dd.f" at @s (4-digit domain, as sysfs names PCI devices). */
static bool is_pci(const char *s, size_t n)
{
	static const char pat[] = "xxxx:xx:xx.x";
	size_t i;

	if (n != sizeof(pat) - 1)
		return false;
	for (i = 0; i < n; i++)
		if (pat[i] == 'x' ? !hexc(s[i]) : s[i] != pat[i])
			return false;
	return true;
}

/* The last PCI address component of a DEVPATH, and the name after "/net/". */
static void from_devpath(const char *p, struct nn_uevent *ev)
{
	const char *c = p, *net;

	while (c && *c) {
		const char *s = c + (*c == '/'), *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (is_pci(s, n))
			snprintf(ev->pci, sizeof(ev->pci), "%.*s", (int)n, s);
		c = e;
	}
	net = strstr(p, "/net/");
	if (net && !ev->ifname[0]) {
		size_t n = strcspn(net + 5, "/");

		if (n && n < sizeof(ev->ifname)) {
			snprintf(ev->ifname, sizeof(ev->ifname), "%.*s", (int)n, net + 5);
			if (nn_name_ifname(ev->ifname, NULL))
				ev->ifname[0] = '\0';
		}
	}
}

int nn_uevent_parse(const char *buf, size_t len, struct nn_uevent *ev)
{
	const char *p = buf, *end = buf + len, *at;
	size_t n;

	memset(ev, 0, sizeof(*ev));
	/* the header must be a C string inside the buffer */
	if (!len || !memchr(buf, '\0', len))
		return -EINVAL;
	if (!strncmp(buf, "libudev", 7))
		return -EINVAL;
	at = strchr(buf, '@');
	if (!at || at == buf || (size_t)(at - buf) >= sizeof(ev->action) || at[1] != '/')
		return -EINVAL;
	memcpy(ev->action, buf, (size_t)(at - buf));
	ev->devpath = at + 1;
	for (p += strlen(p) + 1; p < end; p += n + 1) {
		const char *z = memchr(p, '\0', (size_t)(end - p));

		n = z ? (size_t)(z - p) : (size_t)(end - p);
		if (!z)
			break;	/* an unterminated last field: ignored */
		if (!strncmp(p, "SUBSYSTEM=", 10))
			ev->subsystem = p + 10;
		else if (!strncmp(p, "INTERFACE=", 10))
			ev->interface = p + 10;
		else if (!strncmp(p, "DRIVER=", 7))
			ev->driver = p + 7;
		else if (!strncmp(p, "PCI_SLOT_NAME=", 14) && is_pci(p + 14, strlen(p + 14)))
			snprintf(ev->pci, sizeof(ev->pci), "%s", p + 14);
		else if (!strncmp(p, "DEVPATH=", 8))
			ev->devpath = p + 8;
	}
	if (ev->interface && !nn_name_ifname(ev->interface, NULL))
		snprintf(ev->ifname, sizeof(ev->ifname), "%s", ev->interface);
	if (!ev->pci[0] || !ev->ifname[0]) {
		char pci[20];

		snprintf(pci, sizeof(pci), "%s", ev->pci);
		from_devpath(ev->devpath, ev);
		if (pci[0])
			snprintf(ev->pci, sizeof(ev->pci), "%s", pci);
	}
	return 0;
}
