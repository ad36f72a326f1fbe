/* SPDX-License-Identifier: GPL-2.0-or-later */
/* status.h - the parts of "nicnuma status", each read and printed on ctx->out (table and JSON) */
#ifndef NICNUMA_SERVICE_STATUS_H
#define NICNUMA_SERVICE_STATUS_H

#include <stdbool.h>

struct nn_ctx;

/* The nicnuma-watch service (systemctl show): 1 active, 0 not, -1 unknown
 * (no systemd, or under --root). JSON "service". */
int nn_status_service(struct nn_ctx *ctx);
/* The watcher: 1 running (its lock is held), 0 not; its pid, start, last
 * action and counters. JSON "watcher". */
int nn_status_watcher(struct nn_ctx *ctx);
/* The host against the desired state, each drift and note listed: 1
 * matches, 0 drift, -1 no desired state, < -1 error (message printed).
 * JSON "drift", "notes", "matches_desired", "claim_spills" (NICs whose node
 * the claims left no CPU, null without a plan). */
int nn_status_desired(struct nn_ctx *ctx);
/* The CPU claims now (discover/claims.h): how many, their CPUs, each with
 * its owner. JSON "claims" {"claimed", "count", "items":[{name, source,
 * owner, cpus}]}. Stale records are not claims: not listed here. */
void nn_status_claims(struct nn_ctx *ctx);

/* The kernel arguments nicnuma put into the bootloader's configuration
 * (the boot record) and each one's state: in effect, pending a reboot, or
 * drift. JSON "boot" (boot/boot_print.h's object; "args" from the record),
 * null when nicnuma never wrote one. The number of arguments in drift, or
 * -1 when none are recorded, < -1 an error (printed). *@pending: a reboot
 * is pending. */
int nn_status_boot(struct nn_ctx *ctx, bool *pending);

#endif
