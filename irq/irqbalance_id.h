/* SPDX-License-Identifier: GPL-2.0-or-later */
/* irqbalance_id.h - which process is the system's irqbalance, and what of its
 * command line and environment may go back to it: the inspector
 *
 * The reading half of irqbalance: it reads (/proc, through the fs root, and
 * systemctl's MainPID) and decides identity; it changes nothing. The host
 * snapshot (host.c) and the stop/ban/restore (irq/irqbalance.h) both ask it.
 *
 * The rules (irqbalance_id.c says why):
 *   exe   "<system dir>/irqbalance", system dir one of NN_IRQB_SYSDIRS, a
 *         regular root-owned file not writable by group or others, every
 *         directory above it root-owned and not writable by group or others;
 *   pid   live with PID 1 systemd: irqbalance.service's MainPID; otherwise a
 *         process named irqbalance, not a zombie, uid 0 (real and effective),
 *         whose /proc/PID/exe passes the exe rule;
 *   argv  irqbalance(1)'s options only, each as "--long" or "--long=VALUE";
 *   env   IRQBALANCE_[A-Z0-9_]+=VALUE, VALUE printable ASCII.
 */
#ifndef NICNUMA_IRQ_IRQBALANCE_ID_H
#define NICNUMA_IRQ_IRQBALANCE_ID_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_root;

#define NN_IRQB_BAN_SCRIPT "irqbalance-ban.sh"
#define NN_IRQB_DROPIN_DIR "/run/systemd/system/irqbalance.service.d"
#define NN_IRQB_DROPIN NN_IRQB_DROPIN_DIR "/50-nicnuma-ban.conf"

/* "<sysdir>/irqbalance" with a system dir: the name part of the exe rule. */
bool nn_irqb_exe_name_ok(const char *exe);
/* The file part of the rules is nn_trusted_file() (core/trust.h). */
/* The system's irqbalance binary found again: @hint when it is one of the
 * candidates and passes, else the first candidate that passes. */
int nn_irqb_system_exe(struct nn_ctx *ctx, const char *hint, char *buf, size_t size);

/* One argument in the normalized form the filter produces, syntax only. */
bool nn_irqb_arg_ok(const char *arg);
bool nn_irqb_env_ok(const char *kv);
/* @in[0..n) (argv[0] ignored) to a NULL-terminated vector that starts with
 * @exe and holds only irqbalance's options, normalized. A policy script must
 * be @ban (kept only when @keep_ban) or a trusted file. Every dropped word is
 * a warning through @ctx. */
int nn_irqb_filter_argv(struct nn_ctx *ctx, const char *exe, char *const *in, size_t n,
			const char *ban, bool keep_ban, char ***out, size_t *nout);
int nn_irqb_filter_env(struct nn_ctx *ctx, char *const *in, size_t n, char ***out, size_t *nout);

/* Lowest pid of the system's irqbalance, or -1. @report: a warning for each
 * process running a program called irqbalance (its executable's file name;
 * its comm where the executable cannot be read) that fails the rule. */
int nn_irqb_find_pid(struct nn_ctx *ctx, bool report);
/* PID 1 is systemd (through the root, so a captured tree says it too). */
bool nn_irqb_pid1_systemd(struct nn_ctx *ctx);
/* Whether @pid is (still) the system's irqbalance. */
bool nn_irqb_is_system_pid(struct nn_ctx *ctx, int pid);
/* The host path of nicnuma's ban script: derived, never read from a log. */
char *nn_irqb_ban_path(const struct nn_ctx *ctx);

/* The system's irqbalance, as /proc shows it (identity rules: above). */
struct nn_irqb_proc {
	int pid;		/* -1: not running */
	char *exe;		/* its checked executable; NULL when it failed or is unknown */
	char **argv;		/* argv[0] = exe, then irqbalance's options only, normalized */
	size_t argc;
	char **env;		/* checked IRQBALANCE_* entries of /proc/PID/environ */
	size_t nenv;
	bool systemd;		/* PID 1 is systemd */
};

/* Finds the system's irqbalance: live under systemd, irqbalance.service's
 * MainPID; otherwise the lowest uid-0 process running a root-owned system
 * binary <sysdir>/irqbalance (found by its executable, whatever its comm). A zombie is not running. Any other process named
 * irqbalance is a warning and is left alone. pid -1 when none. Works under a
 * fake root too (a captured /proc), for reporting. */
int nn_irqb_inspect(struct nn_ctx *ctx, struct nn_irqb_proc *p);
void nn_irqb_proc_free(struct nn_irqb_proc *p);
/* "--policyscript=FILE" in its argv names a nicnuma ban script (check uses it
 * to tell a fenced daemon from one that will undo the plan). */
bool nn_irqb_is_fenced(const struct nn_irqb_proc *p);
/* The daemon's own --policyscript/-l argument, NULL when it has none. */
const char *nn_irqb_policy_arg(const struct nn_irqb_proc *p);

/* Runs /usr/bin/systemctl (or /bin/systemctl) with @args (NULL-terminated,
 * without argv[0]); stdout into @out when @out. Its exit status or -errno. */
int nn_irqb_systemctl(const char *const *args, char *out, size_t outlen);

#endif
