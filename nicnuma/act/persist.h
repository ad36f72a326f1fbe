/* SPDX-License-Identifier: GPL-2.0-or-later */
/* persist.h - the nicnuma-watch unit and the service around it
 *
 * ONE template makes both units (nn_watch_unit_text):
 *  - the packaged one, /lib/systemd/system/nicnuma-watch.service, generated
 *    at build time by `nicnuma watch --print-unit --exec SBINDIR/nicnuma`
 *    (systemd/meson.build): generic, no Conflicts=irqbalance.service;
 *  - the one `enable` writes to /etc/systemd/system (overriding the packaged
 *    one; `disable` removes it): the running binary, the desired state's
 *    --config, and Conflicts=irqbalance.service when irqbalance = stop.
 * Both carry ConditionPathExists= on the desired-state file, so a unit
 * enabled without one is skipped instead of failing in a restart loop.
 * Every word in ExecStart= goes through nn_sd_quote() (nicnuma/core/unitfile.h: the
 * one systemd quoter); the condition path has % doubled and may hold no
 * control character or surrounding blank.
 */
#ifndef NICNUMA_PERSIST_H
#define NICNUMA_PERSIST_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/plan/desired.h"	/* NN_WATCH_UNIT */

struct nn_ctx;
struct nn_sb;

#define NN_WATCH_UNIT_PATH "/etc/systemd/system/" NN_WATCH_UNIT
#define NN_WATCH_WATCHDOG_SEC 60

struct nn_unit_opts {
	const char *exe;	/* absolute path of the nicnuma binary */
	const char *config;	/* NULL: the default desired-state path */
	bool conflicts_irqbalance;	/* desired irqbalance = stop */
	bool notify;		/* built with libsystemd: Type=notify, else simple */
	bool packaged;		/* the package's generic unit (header says so) */
};

/* Pure: the unit file text. -EINVAL when exe or config is not absolute, or
 * config holds a control character or a leading/trailing blank. */
int nn_watch_unit_text(const struct nn_unit_opts *o, struct nn_sb *sb);
/* Whether this binary speaks sd_notify (built with libsystemd). */
bool nn_watch_notify_supported(void);
/* The running binary's path (readlink of our own /proc/self/exe). */
int nn_self_exe(char *buf, size_t size);

/* A packaged unit inside the root (which enable's overrides): its path in
 * @buf and 1, else 0. */
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
/* Pure: the KEY=VALUE lines of `systemctl show -p ActiveState -p MainPID`,
 * in any order (systemctl prints them in its own). -EINVAL without an
 * ActiveState line; *@main_pid 0 when absent or not a pid. */
int nn_watch_service_parse(const char *out, char *active, size_t size, int *main_pid);

/* What the watcher's /run/nicnuma/watch.json says (watch.c writes it:
 * {"pid","started","config","ethtool_monitor","last_action":{"time",
 * "trigger","result","changed","elapsed_ms"}|null,"counters":{"events",
 * "relevant","applies","values_written"}}). The one reader: status and
 * metrics both go through nn_watch_state_read(). What a file lacks, or has
 * with another type, stays absent. */
struct nn_watch_state {
	int pid;			/* 0 absent */
	char *started;			/* ISO 8601 UTC; NULL absent */
	char *config;
	int ethtool_monitor;		/* 1/0, -1 absent */
	bool has_action;		/* last_action is an object */
	char *time, *trigger, *result;	/* result: applied, unchanged, skipped, failed */
	long long changed;		/* -1 absent */
	double elapsed_ms;		/* < 0 absent */
	long long events, relevant, applies, values_written;	/* -1 absent */
};

/* Pure: parses @len bytes of @text. -EINVAL when it is not a JSON object,
 * -ENOMEM; @st is initialised (all absent) either way. */
int nn_watch_state_parse(const char *text, size_t len, struct nn_watch_state *st);
/* The file through the root: -ENOENT quietly when there is none, -EINVAL
 * when it is malformed, else 0. */
int nn_watch_state_read(struct nn_ctx *ctx, struct nn_watch_state *st);
void nn_watch_state_free(struct nn_watch_state *st);
/* The last action did not fail: "applied", "unchanged", or "skipped" (no
 * desired NIC present: nothing to do, not a failed apply); "failed": not. */
bool nn_watch_result_ok(const char *result);

#endif
