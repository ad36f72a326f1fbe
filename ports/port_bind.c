// SPDX-License-Identifier: GPL-2.0-or-later
/* port_bind.c - driver_override, unbind, drivers_probe through the fs root; the "port" undo kind */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/trust.h"
#include "ports/port.h"
#include "ports/port_bind.h"

int nn_port_driver_valid(const char *s)
{
	size_t i, n = s ? strlen(s) : 0;

	if (!s || n >= 32)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
			return 0;
	}
	return n != 1 || s[0] != '.';
}

#define VFIO_DRIVER "/sys/bus/pci/drivers/vfio-pci"

int nn_vfio_load(struct nn_ctx *ctx, char *why, size_t whylen)
{
	char *const argv[] = { "modprobe", "vfio-pci", NULL };
	int rc;

	if (!nn_root_access(&ctx->root, VFIO_DRIVER, F_OK))
		return 0;
	/* Under --root the tree's modules.dep stands in: nothing runs. */
	if (!nn_root_is_live(&ctx->root))
		return 1;
	rc = nn_run_helper(argv, NULL, 0);
	if (rc < 0) {
		snprintf(why, whylen, "modprobe vfio-pci: %s", strerror(-rc));
		return rc;
	}
	if (rc) {
		snprintf(why, whylen, "modprobe vfio-pci exited %d", rc);
		return -EIO;
	}
	if (nn_root_access(&ctx->root, VFIO_DRIVER, F_OK)) {
		snprintf(why, whylen, "modprobe vfio-pci succeeded, but %s is not there", VFIO_DRIVER);
		return -ENOENT;
	}
	return 0;
}

static int put(struct nn_ctx *ctx, const char *path, const char *val, char *why, size_t whylen)
{
	int err = nn_write_value(&ctx->root, path, val);

	if (err)
		snprintf(why, whylen, "%s: writing '%s': %s", path, val, strerror(-err));
	return err;
}

int nn_port_bind(struct nn_ctx *ctx, const char *pci, const char *driver, const char *override,
		 char *why, size_t whylen)
{
	char path[128], now[64];
	int err;

	*why = '\0';
	if (!nn_port_pci_valid(pci) || !nn_port_driver_valid(driver) || !nn_port_driver_valid(override)) {
		snprintf(why, whylen, "not a PCI address and driver: '%.16s' '%.32s'", pci ? pci : "",
			 driver ? driver : "");
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override", pci);
	/* an empty line clears it (the kernel takes "\n" as none) */
	err = put(ctx, path, override, why, whylen);
	if (err)
		return err;
	nn_port_driver_now(ctx, pci, now, sizeof(now));
	if (now[0] && strcmp(now, driver)) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver/unbind", pci);
		err = put(ctx, path, pci, why, whylen);
		if (err)
			return err;
	}
	if (driver[0] && strcmp(now, driver)) {
		err = put(ctx, "/sys/bus/pci/drivers_probe", pci, why, whylen);
		if (err)
			return err;
	}
	if (!nn_root_is_live(&ctx->root))
		return 0;
	nn_port_driver_now(ctx, pci, now, sizeof(now));
	if (strcmp(now, driver)) {
		snprintf(why, whylen, "%s: on %s after the probe, not %s", pci, now[0] ? now : "no driver",
			 driver[0] ? driver : "none");
		return -EIO;
	}
	return 0;
}

static int port_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c, char *why,
			 size_t whylen)
{
	(void)ctx;
	(void)u;
	if (!nn_port_pci_valid(c->path)) {
		snprintf(why, whylen, "'%.32s' is not a PCI address", c->path ? c->path : "");
		return -EINVAL;
	}
	if (!nn_port_driver_valid(c->before ? c->before : "") || !nn_port_driver_valid(c->detail ? c->detail : "")) {
		snprintf(why, whylen, "%s: the driver or override before is not a driver name", c->path);
		return -EINVAL;
	}
	if (!c->after || strcmp(c->after, "vfio-pci")) {
		snprintf(why, whylen, "%s: nicnuma binds ports to vfio-pci only, not '%.32s'", c->path,
			 c->after ? c->after : "");
		return -EINVAL;
	}
	return 0;
}

static int port_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	const char *before = c->before ? c->before : "";
	char now[64];

	nn_port_driver_now(ctx, c->path, now, sizeof(now));
	res->current = strdup(now);
	if (!res->current)
		return -ENOMEM;
	return nn_port_bind(ctx, c->path, before, c->detail ? c->detail : "", res->why, sizeof(res->why));
}

const struct nn_change_ops nn_port_change_ops = {
	.name = "port",
	.validate = port_validate,
	.restore = port_restore,
};
