/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sd_notify.h - the watcher's readiness and watchdog through libsystemd,
 * loaded only when systemd asked for them
 *
 * Linking libsystemd into the one nicnuma binary pulled six more shared
 * libraries (zstd, lzma, lz4, gcrypt, gpg-error, cap) into every command's
 * start: a millisecond each run of topo, nics or plan paid for a service
 * only `watch` is. libsystemd is still the implementation: it is dlopen'ed
 * by the watcher when $NOTIFY_SOCKET is set, and its prototypes come from
 * its own header at build time.
 */
#ifndef NICNUMA_SERVICE_SD_NOTIFY_H
#define NICNUMA_SERVICE_SD_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

struct nn_sd {
	void *lib;
	int (*notify)(int unset_environment, const char *state);
	int (*watchdog_enabled)(int unset_environment, uint64_t *usec);
};

/* Loads libsystemd when this process runs under a Type=notify unit
 * ($NOTIFY_SOCKET); 0 (also when there is nothing to load), or -ENOENT with
 * @sd left inert when the library cannot be had. */
int nn_sd_open(struct nn_sd *sd);
void nn_sd_close(struct nn_sd *sd);
/* sd_notify(0, @msg) when loaded, else nothing. */
void nn_sd_notify(const struct nn_sd *sd, const char *msg);
/* The unit's WatchdogSec= in microseconds, 0 when none or not loaded. */
uint64_t nn_sd_watchdog_usec(const struct nn_sd *sd);
/* Whether this build can speak sd_notify at all (built with libsystemd's
 * headers): the unit is Type=notify then, else Type=simple. */
bool nn_sd_supported(void);

/* One line in the journal at syslog priority @prio (the OCI hook: the
 * runtime may throw its stderr away). libsystemd's sd_journal_print,
 * dlopen'ed for this call, only when journald's socket is there; returns
 * 0 sent, else a negative errno (no journal, no library) and sends nothing. */
int nn_sd_journal(int prio, const char *msg);

#endif
