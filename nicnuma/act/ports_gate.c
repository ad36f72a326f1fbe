// SPDX-License-Identifier: GPL-2.0-or-later
/* ports_gate.c - the ports' facts read and checked before a bind (ports_gate.h) */
#include <errno.h>
#include <string.h>

#include "nicnuma/act/ports_gate.h"
#include "ports/port.h"

int nn_ports_check(struct nn_ctx *ctx, struct nn_host *host, char *const *pci, size_t npci, bool noiommu,
		   bool force, const char *who, bool *refused)
{
	struct nn_port_ask ask = { .noiommu = noiommu, .force = force, .ports = pci, .nports = npci };
	char why[512], note[256];
	size_t i, k;
	int ret = nn_host_ports_read(ctx, host, pci, npci), bad = 0;

	if (ret) {
		nn_err(ctx, "%s: cannot read the ports under %s: %s", who, ctx->root.path, strerror(-ret));
		return ret;
	}
	for (i = 0; i < host->nports; i++) {
		ret = nn_port_verdict(&host->ports[i], &host->vfio, &ask, why, sizeof(why), note, sizeof(note));
		if (ret) {
			nn_err(ctx, "%s: %s", who, why);
			bad = ret;
			for (k = 0; refused && k < npci; k++)
				refused[k] |= !strcmp(pci[k], host->ports[i].fn.pci);
		} else if (note[0]) {
			nn_warn(ctx, NULL, "%s: %s", who, note);
		}
	}
	return bad;
}
