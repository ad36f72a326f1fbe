/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ports_gate.h - the ports a command or the watcher is about to bind, read
 * and checked on the host as it is now: the one gate plan, apply, enable,
 * check and the watcher's start share (docs/ports.md, "The checks") */
#ifndef NICNUMA_ACT_PORTS_GATE_H
#define NICNUMA_ACT_PORTS_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"

/* Each of @pci's facts read into host->ports and checked
 * (nn_port_verdict): every refusal printed as an error "@who: WHY", every
 * allowed-but-unsafe note as a warning. @refused (NULL or @npci entries)
 * marks the ports refused. 0, the last refusal's -errno, or the read's
 * -errno (printed). */
int nn_ports_check(struct nn_ctx *ctx, struct nn_host *host, char *const *pci, size_t npci, bool noiommu,
		   bool force, const char *who, bool *refused);

#endif
