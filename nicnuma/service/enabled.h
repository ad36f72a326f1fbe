/* SPDX-License-Identifier: GPL-2.0-or-later */
/* enabled.h - STATE_DIR/enabled.json: what `nicnuma enable` set up
 *
 * {"enabled":true,"since":"<iso8601>","snapshot":"<log name>"|null,
 *  "unit":"/etc/systemd/system/nicnuma-watch.service"|null}
 * "snapshot" names the ONE undo log holding the values from before enable:
 * the first enable's apply starts it, later enables and the watcher extend
 * it (nn_apply_opts.log), disable rolls it back. "unit" is the unit file
 * enable wrote (NULL: a packaged one, or none), removed by disable.
 */
#ifndef NICNUMA_ENABLED_H
#define NICNUMA_ENABLED_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_undo;
struct nn_tx;

struct nn_enabled {
	bool enabled;		/* false: only the watcher's snapshot is recorded */
	char *since;
	char *snapshot;
	char *unit;
};

/* -ENOENT quietly when there is none; other errors printed. */
int nn_enabled_read(struct nn_ctx *ctx, struct nn_enabled *e);
int nn_enabled_write(struct nn_ctx *ctx, const struct nn_enabled *e);
int nn_enabled_remove(struct nn_ctx *ctx);
/* 'nicnuma enable' is in effect (its record says enabled). */
bool nn_enabled_on(struct nn_ctx *ctx);
void nn_enabled_free(struct nn_enabled *e);
/* The before-enable log, opened in @tx (its lock taken unless held): the
 * one @e names, or a new "enable" log (nothing written until the first
 * record). */
int nn_enabled_log(struct nn_ctx *ctx, const struct nn_enabled *e, struct nn_tx *tx);
/* After an apply with the log: records its name in @e (and on disk) the first
 * time it was saved. */
int nn_enabled_note_log(struct nn_ctx *ctx, struct nn_enabled *e, const struct nn_undo *u);

/* enable's first step, before anything is written: the binary the unit's
 * ExecStart= will name (this one, else /usr/sbin/nicnuma) into @exe, and on a
 * live root the check that nobody but root could have written it. 0, or -1
 * with the refusal printed. */
int nn_enable_exe(struct nn_ctx *ctx, char *exe, size_t size);
/* enable's last step: the nicnuma-watch unit running @exe written (it
 * overrides a packaged one; Conflicts=irqbalance.service with
 * @conflicts_irqbalance; with @load_vfio, ExecStartPre= loading vfio-pci
 * outside the sandbox for the desired DPDK ports) and, on a live host under systemd, reloaded,
 * enabled and (unless @no_start) restarted; @e->unit names it once written.
 * Printed (JSON "unit"). 0, 1 when skipped with a warning (systemd is not
 * PID 1), -1 failed (message printed). */
int nn_enable_unit(struct nn_ctx *ctx, const char *exe, bool conflicts_irqbalance, bool load_vfio,
		   bool no_start, struct nn_enabled *e);

#endif
