/* SPDX-License-Identifier: GPL-2.0-or-later */
/* persist.h - the nicnuma-watch unit and the service around it
 *
 * The unit text comes from one template here: `enable` writes it to
 * /etc/systemd/system unless a package ships one in /lib or /usr/lib
 * systemd/system. Every path in it goes through nn_sd_quote() (unitfile.h:
 * % -> %%, $ -> $$, double quotes with \ and " escaped).
 */
#ifndef NICNUMA_PERSIST_H
#define NICNUMA_PERSIST_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_sb;
struct json_object;

#define NN_WATCH_UNIT "nicnuma-watch.service"
#define NN_WATCH_UNIT_PATH "/etc/systemd/system/" NN_WATCH_UNIT
#define NN_WATCH_WATCHDOG_SEC 60

struct nn_unit_opts {
	const char *exe;	/* absolute path of the nicnuma binary */
	const char *config;	/* NULL: the default desired-state path */
	bool conflicts_irqbalance;	/* desired irqbalance = stop */
	bool notify;		/* built with libsystemd: Type=notify, else simple */
};

/* Pure: the unit file text. -EINVAL when exe is not absolute. */
int nn_watch_unit_text(const struct nn_unit_opts *o, struct nn_sb *sb);
/* Whether this binary speaks sd_notify (built with libsystemd). */
bool nn_watch_notify_supported(void);
/* The running binary's path (readlink of our own /proc/self/exe). */
int nn_self_exe(char *buf, size_t size);

/* A packaged unit inside the root: its path in @buf and 1, else 0. */
int nn_watch_unit_packaged(struct nn_ctx *ctx, char *buf, size_t size);
/* Atomic write (0644) / removal of NN_WATCH_UNIT_PATH inside the root. */
int nn_watch_unit_write(struct nn_ctx *ctx, const char *text, size_t len);
int nn_watch_unit_remove(struct nn_ctx *ctx, const char *path);

/* Live root with systemd as PID 1 (/run/systemd/system exists). */
bool nn_systemd_booted(struct nn_ctx *ctx);
/* systemctl VERB [FLAG] nicnuma-watch.service (or no unit when @unit is
 * false: daemon-reload); live only. The exit status, or -errno. */
int nn_systemctl(struct nn_ctx *ctx, const char *verb, const char *flag, bool unit);
/* ActiveState and MainPID of the unit (systemctl show); live only. */
int nn_watch_service_show(struct nn_ctx *ctx, char *active, size_t size, int *main_pid);

/* The watcher's /run/nicnuma/watch.json, parsed; -ENOENT when none. */
int nn_watch_state_read(struct nn_ctx *ctx, struct json_object **doc);

#endif
