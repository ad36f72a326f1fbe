// SPDX-License-Identifier: GPL-2.0-or-later
/* irqbalance.c - stop or fence irqbalance for an apply, restore it on rollback
 *
 * irqbalance rewrites /proc/irq/N/smp_affinity every pass (10 s by default),
 * so a plan applied under a running daemon lasts until its next pass. The
 * daemon is not our child: it is signalled through a pidfd (no pid-reuse
 * race) and restarted detached (double fork, setsid) as /proc showed it was
 * started, within irqbalance_id.c's rules: the system's binary, irqbalance's
 * own options, its IRQBALANCE_* variables and nothing else of any environment.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/proc.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/trust.h"
#include "nicnuma/core/unitfile.h"
#include "nicnuma/state/undo.h"
#include "irq/irqbalance.h"
#include "irq/irqbalance_id.h"

const char *nn_irqbalance_action_name(enum nn_irqbalance_action a)
{
	switch (a) {
	case NN_IRQB_STOP: return "stop";
	case NN_IRQB_BAN: return "ban";
	case NN_IRQB_NONE: return "none";
	}
	return "none";
}

int nn_irqbalance_action_parse(const char *s, enum nn_irqbalance_action *a)
{
	if (!strcmp(s, "stop"))
		*a = NN_IRQB_STOP;
	else if (!strcmp(s, "ban"))
		*a = NN_IRQB_BAN;
	else if (!strcmp(s, "ignore") || !strcmp(s, "none"))
		*a = NN_IRQB_NONE;
	else
		return -EINVAL;
	return 0;
}

#define WAIT_MS 5000

static void free_vec(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static struct json_object *vec_json(char **v, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

/* The strings of a JSON array (nn_irqb_validate checked the types). */
static int vec_from_json(struct json_object *a, char ***out, size_t *n)
{
	size_t i, len;
	char **v;

	*out = NULL;
	*n = 0;
	if (!a || !json_object_is_type(a, json_type_array))
		return 0;
	len = json_object_array_length(a);
	v = calloc(len + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		v[i] = strdup(json_object_get_string(json_object_array_get_idx(a, i)));
		if (!v[i]) {
			free_vec(v, i);
			return -ENOMEM;
		}
	}
	*out = v;
	*n = len;
	return 0;
}

static int systemctl(const char *verb, const char *flag)
{
	const char *args[4] = { verb, flag ? flag : "irqbalance.service",
				flag ? "irqbalance.service" : NULL, NULL };

	return nn_irqb_systemctl(args, NULL, 0);
}

/* Starts @exe @argv detached from us (double fork, new session, stdio on
 * /dev/null) with a fixed PATH and @env, which is re-checked here: nothing
 * of our own environment (LD_*, IFS, ...) reaches a root daemon. */
static int spawn_detached(const char *exe, char **argv, char **env, size_t nenv)
{
	size_t i, k = 0;
	char **envp;
	int status;
	pid_t pid;

	envp = calloc(nenv + 2, sizeof(*envp));
	if (!envp)
		return -ENOMEM;
	envp[k++] = (char *)NN_HELPER_PATH;
	for (i = 0; i < nenv; i++)
		if (nn_irqb_env_ok(env[i]))
			envp[k++] = env[i];
	pid = fork();
	if (pid < 0) {
		free(envp);
		return -errno;
	}
	if (pid == 0) {
		int fd;

		if (setsid() < 0 || fork() != 0)
			_exit(0);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		if (chdir("/") < 0)
			_exit(127);
		execve(exe, argv, envp);
		_exit(127);
	}
	free(envp);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Waits until a system irqbalance other than @old runs (a restart takes a
 * moment, a daemonizing one forks first); its pid, or -ETIMEDOUT. */
static int wait_started(struct nn_ctx *ctx, int old)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int i, pid, seen = -1;

	/* The same pid twice in a row: a daemonizing irqbalance forks and its
	 * first process exits, so the first pid seen may not be the daemon. */
	for (i = 0; i < WAIT_MS / 50; i++) {
		pid = nn_irqb_find_pid(ctx, false);
		if (pid > 0 && pid != old && pid == seen)
			return pid;
		seen = pid;
		nanosleep(&ts, NULL);
	}
	return -ETIMEDOUT;
}

/* SIGTERM through a pidfd and wait for the exit; not our child, so poll. */
static int stop_pid(struct nn_ctx *ctx, int pid, char *why, size_t whylen)
{
	struct pollfd pfd;
	int fd, r;

	fd = nn_pidfd_open(pid);
	if (fd < 0) {
		if (fd == -ESRCH)
			return 0;	/* gone already */
		snprintf(why, whylen, "irqbalance pid %d: pidfd_open: %s", pid, strerror(-fd));
		return fd;
	}
	/* The pidfd pins the process: check it is still the system's daemon. */
	if (!nn_irqb_is_system_pid(ctx, pid)) {
		close(fd);
		snprintf(why, whylen, "pid %d is no longer the system's irqbalance: left alone", pid);
		return -ESRCH;
	}
	r = nn_pidfd_signal(fd, SIGTERM);
	if (r < 0) {
		close(fd);
		if (r == -ESRCH)
			return 0;
		snprintf(why, whylen, "irqbalance pid %d: SIGTERM: %s", pid, strerror(-r));
		return r;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	do
		r = poll(&pfd, 1, WAIT_MS);
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r <= 0) {
		snprintf(why, whylen, "irqbalance pid %d did not exit within %d s of SIGTERM",
			 pid, WAIT_MS / 1000);
		return -ETIMEDOUT;
	}
	return 0;
}

char *nn_irqb_ban_script(const int *irqs, size_t n, const char *chain)
{
	struct nn_sb sb = NN_SB_INIT;
	char *out;
	size_t i;

	nn_sb_puts(&sb, "#!/bin/sh\n"
		   "# nicnuma apply --irqbalance=ban: irqbalance calls this with the device\n"
		   "# path and IRQ number; the IRQs nicnuma placed are banned from balancing.\n"
		   "case \"$2\" in\n");
	for (i = 0; i < n; i++)
		nn_sb_printf(&sb, "%s%d", i ? "|" : "", irqs[i]);
	if (n)
		nn_sb_puts(&sb, ") echo ban=true; exit 0 ;;\n");
	nn_sb_puts(&sb, "*) ;;\nesac\n");
	if (chain) {
		nn_sb_puts(&sb, "exec ");
		nn_sb_shquote(&sb, chain);
		nn_sb_puts(&sb, " \"$@\"\n");
	} else {
		nn_sb_puts(&sb, "exit 0\n");
	}
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

char **nn_irqb_ban_argv(const struct nn_irqb_proc *p, const char *script)
{
	char **v = calloc(p->argc + 2, sizeof(*v));
	size_t i, k = 0;

	if (!v)
		return NULL;
	for (i = 0; i < p->argc; i++) {
		const char *a = p->argv[i];

		if (!strncmp(a, "--policyscript=", 15) || (!strncmp(a, "-l", 2) && a[2]))
			continue;
		if (!strcmp(a, "--policyscript") || !strcmp(a, "-l")) {
			i++;
			continue;
		}
		v[k++] = p->argv[i];
	}
	if (asprintf(&v[k], "--policyscript=%s", script) < 0) {
		free(v);
		return NULL;
	}
	return v;
}

static void free_ban_argv(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		if (!strncmp(argv[i], "--policyscript=", 15))
			free(argv[i]);
	free(argv);
}

static char *detail_json(const struct nn_irqb_op *op)
{
	struct json_object *d = json_object_new_object();
	char *text;

	if (!d)
		return NULL;
	json_object_object_add(d, "mode", json_object_new_string(nn_irqbalance_action_name(op->action)));
	json_object_object_add(d, "systemd", json_object_new_boolean(op->proc.systemd));
	json_object_object_add(d, "pid", json_object_new_int(op->proc.pid));
	json_object_object_add(d, "exe", op->proc.exe ? json_object_new_string(op->proc.exe) : NULL);
	json_object_object_add(d, "argv", vec_json(op->proc.argv, op->proc.argc));
	json_object_object_add(d, "env", vec_json(op->proc.env, op->proc.nenv));
	if (op->proc.systemd) {
		json_object_object_add(d, "unit_enabled",
				       json_object_new_boolean(systemctl("is-enabled", "--quiet") == 0));
		json_object_object_add(d, "unit_active",
				       json_object_new_boolean(systemctl("is-active", "--quiet") == 0));
	}
	/* The ban script and drop-in paths are derived again at rollback: not logged. */
	text = strdup(json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN |
						     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(d);
	return text;
}

/* What every prepare says first: before/after from op->proc, a no-op so
 * far. True when that is all (a fake root, or --irqbalance=ignore), with
 * the report's status set. */
static bool settled(struct nn_ctx *ctx, struct nn_irqb_op *op)
{
	snprintf(op->before, sizeof(op->before), "%s", op->proc.pid > 0 ? "running" : "stopped");
	snprintf(op->after, sizeof(op->after), "%s", op->before);
	op->noop = true;
	if (!nn_root_is_live(&ctx->root)) {
		snprintf(op->status, sizeof(op->status), "not touched (fake root)");
		return true;
	}
	if (op->action == NN_IRQB_NONE) {
		snprintf(op->status, sizeof(op->status), "%s, left alone (--irqbalance=ignore)",
			 op->before);
		return true;
	}
	return false;
}

void nn_irqb_prepare_ignore(struct nn_ctx *ctx, int pid, bool systemd, const int *irqs, size_t nirqs,
			    struct nn_irqb_op *op)
{
	memset(op, 0, sizeof(*op));
	op->action = NN_IRQB_NONE;
	op->irqs = irqs;
	op->nirqs = nirqs;
	op->proc.pid = pid > 0 ? pid : -1;
	op->proc.systemd = systemd;
	settled(ctx, op);
}

int nn_irqb_prepare(struct nn_ctx *ctx, enum nn_irqbalance_action action,
		    const int *irqs, size_t nirqs, struct nn_irqb_op *op)
{
	int err;

	memset(op, 0, sizeof(*op));
	op->action = action;
	op->irqs = irqs;
	op->nirqs = nirqs;
	err = nn_irqb_inspect(ctx, &op->proc);
	if (err)
		return err;
	if (settled(ctx, op))
		return 0;
	if (op->proc.pid < 0) {
		snprintf(op->status, sizeof(op->status), "nothing to do");
		return 0;
	}
	/* Restarting it (ban, or rollback of a stop) needs the checked binary. */
	if (!op->proc.exe && (action == NN_IRQB_BAN || !op->proc.systemd)) {
		snprintf(op->status, sizeof(op->status),
			 "pid %d left alone: its executable is not a verified system irqbalance",
			 op->proc.pid);
		return 0;
	}
	op->noop = false;
	if (action == NN_IRQB_BAN) {
		const char *chain = nn_irqb_policy_arg(&op->proc);

		op->script = nn_irqb_ban_path(ctx);
		if (!op->script)
			return -ENOMEM;
		if (chain && !strcmp(chain, op->script))
			chain = NULL;	/* our own from an earlier run: do not loop */
		op->script_text = nn_irqb_ban_script(irqs, nirqs, chain);
		if (!op->script_text)
			return -ENOMEM;
		if (nn_irqb_is_fenced(&op->proc) && !op->proc.systemd)
			snprintf(op->status, sizeof(op->status), "already fenced (pid %d)", op->proc.pid);
	}
	snprintf(op->after, sizeof(op->after), "%s", action == NN_IRQB_STOP ? "stopped" : "running");
	op->detail = detail_json(op);
	return op->detail ? 0 : -ENOMEM;
}

char *nn_irqb_dropin_text(const struct nn_irqb_proc *p, const char *script)
{
	char **argv = nn_irqb_ban_argv(p, script), *out = NULL;
	struct nn_sb sb = NN_SB_INIT;
	size_t i;

	if (!argv || !p->exe) {
		free_ban_argv(argv);
		return NULL;
	}
	nn_sb_puts(&sb, "# nicnuma apply --irqbalance=ban (removed by rollback)\n"
		   "[Service]\nExecStart=\nExecStart=");
	for (i = 0; argv[i]; i++) {
		char *q = nn_sd_quote(i ? argv[i] : p->exe, NN_SD_EXEC);

		if (!q) {
			free_ban_argv(argv);
			nn_sb_free(&sb);
			return NULL;
		}
		if (i)
			nn_sb_putc(&sb, ' ');
		nn_sb_puts(&sb, q);
		free(q);
	}
	nn_sb_putc(&sb, '\n');
	free_ban_argv(argv);
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

static int write_dropin(const struct nn_irqb_op *op)
{
	char *text = nn_irqb_dropin_text(&op->proc, op->script);
	int root = -1, dfd = -1, err = 0;

	if (!text)
		return -ENOMEM;
	root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		err = -errno;
		goto out;
	}
	dfd = nn_mkdirat_p(root, &NN_IRQB_DROPIN_DIR[1], 0755);
	if (dfd < 0) {
		err = dfd;
		goto out;
	}
	err = nn_write_atomic_at(dfd, strrchr(NN_IRQB_DROPIN, '/') + 1, text, strlen(text), 0644);
out:
	if (dfd >= 0)
		close(dfd);
	if (root >= 0)
		close(root);
	free(text);
	return err;
}

static int write_ban_script(struct nn_ctx *ctx, const struct nn_irqb_op *op)
{
	int dfd = nn_state_dir_open(ctx, 1), err;

	if (dfd < 0)
		return dfd;
	err = nn_write_atomic_at(dfd, NN_IRQB_BAN_SCRIPT, op->script_text,
				 strlen(op->script_text), 0700);
	close(dfd);
	return err;
}

int nn_irqb_act(struct nn_ctx *ctx, struct nn_irqb_op *op, char *why, size_t whylen)
{
	char **argv;
	int err, pid;

	if (op->noop)
		return 0;
	err = nn_require_live(ctx, "controlling irqbalance");
	if (err)
		return err;
	if (op->action == NN_IRQB_STOP) {
		if (op->proc.systemd) {
			err = systemctl("disable", "--now");
			if (err) {
				snprintf(why, whylen, "systemctl disable --now irqbalance.service: %s",
					 err < 0 ? strerror(-err) : "failed");
				return err < 0 ? err : -EIO;
			}
			snprintf(op->status, sizeof(op->status), "stopped and disabled (systemd unit)");
			return 0;
		}
		err = stop_pid(ctx, op->proc.pid, why, whylen);
		if (!err)
			snprintf(op->status, sizeof(op->status), "stopped pid %d (rollback restarts it)",
				 op->proc.pid);
		return err;
	}
	/* ban: script first, then the daemon restarted with it. */
	err = write_ban_script(ctx, op);
	if (err) {
		snprintf(why, whylen, "cannot write %s: %s", op->script, strerror(-err));
		return err;
	}
	if (op->proc.systemd) {
		err = write_dropin(op);
		if (!err)
			err = systemctl("daemon-reload", NULL);
		if (!err)
			err = systemctl("restart", NULL);
		if (err) {
			snprintf(why, whylen, "restarting irqbalance.service with %s failed",
				 NN_IRQB_DROPIN);
			return err < 0 ? err : -EIO;
		}
		snprintf(op->status, sizeof(op->status), "fenced: unit restarted with --policyscript=%s",
			 op->script);
		return 0;
	}
	err = stop_pid(ctx, op->proc.pid, why, whylen);
	if (err)
		return err;
	argv = nn_irqb_ban_argv(&op->proc, op->script);
	if (!argv)
		return -ENOMEM;
	err = spawn_detached(op->proc.exe, argv, op->proc.env, op->proc.nenv);
	free_ban_argv(argv);
	if (err) {
		snprintf(why, whylen, "cannot restart irqbalance: %s", strerror(-err));
		return err;
	}
	pid = wait_started(ctx, op->proc.pid);
	if (pid < 0) {
		snprintf(why, whylen, "irqbalance did not come back with --policyscript=%s", op->script);
		return pid;
	}
	snprintf(op->status, sizeof(op->status), "fenced: restarted as pid %d with --policyscript=%s",
		 pid, op->script);
	return 0;
}

void nn_irqb_op_free(struct nn_irqb_op *op)
{
	nn_irqb_proc_free(&op->proc);
	free(op->detail);
	free(op->script);
	free(op->script_text);
	memset(op, 0, sizeof(*op));
}

static bool jbool(struct json_object *d, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(d, k, &v) && json_object_get_boolean(v);
}

static const char *jstr(struct json_object *d, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(d, k, &v) && v ? json_object_get_string(v) : NULL;
}

/* Removes nicnuma's own ban script, found where it always is. */
static void remove_ban_script(struct nn_ctx *ctx)
{
	int dfd = nn_state_dir_open(ctx, 0);

	if (dfd < 0)
		return;
	if (unlinkat(dfd, NN_IRQB_BAN_SCRIPT, 0) < 0 && errno != ENOENT)
		nn_warn(ctx, ctx->state_dir, "cannot remove %s: %s", NN_IRQB_BAN_SCRIPT,
			strerror(errno));
	close(dfd);
}

static int restore_unit(struct nn_ctx *ctx, struct json_object *d, const char *mode, char *why,
			size_t whylen)
{
	int err = 0;

	if (!nn_irqb_pid1_systemd(ctx)) {
		snprintf(why, whylen, "the snapshot is from a systemd host, PID 1 is not systemd now");
		return -EINVAL;
	}
	if (!strcmp(mode, "ban")) {
		if (unlink(NN_IRQB_DROPIN) < 0 && errno != ENOENT)
			err = -errno;
		if (!err)
			err = systemctl("daemon-reload", NULL);
	}
	if (!err && jbool(d, "unit_enabled"))
		err = systemctl("enable", NULL);
	if (!err && jbool(d, "unit_active"))
		err = systemctl("restart", NULL);
	if (err) {
		snprintf(why, whylen, "systemctl could not restore irqbalance.service");
		return err < 0 ? err : -EIO;
	}
	return 0;
}

/* Starts the system's irqbalance again, as the (re-filtered) snapshot says. */
static int restore_daemon(struct nn_ctx *ctx, struct json_object *d, char *why, size_t whylen)
{
	char exe[PATH_MAX], **raw = NULL, **argv = NULL, **env = NULL, *ban = NULL;
	size_t nraw = 0, argc = 0, nenv = 0;
	struct json_object *v = NULL;
	int err, pid;

	err = nn_irqb_system_exe(ctx, jstr(d, "exe"), exe, sizeof(exe));
	if (err) {
		snprintf(why, whylen, "no system irqbalance binary (root-owned, in a system "
			 "directory) to restart");
		return err;
	}
	ban = nn_irqb_ban_path(ctx);
	json_object_object_get_ex(d, "argv", &v);
	err = ban ? vec_from_json(v, &raw, &nraw) : -ENOMEM;
	if (!err)
		err = nn_irqb_filter_argv(ctx, exe, raw, nraw, ban, false, &argv, &argc);
	free_vec(raw, nraw);
	raw = NULL;
	nraw = 0;
	v = NULL;
	json_object_object_get_ex(d, "env", &v);
	if (!err)
		err = vec_from_json(v, &raw, &nraw);
	if (!err)
		err = nn_irqb_filter_env(ctx, raw, nraw, &env, &nenv);
	if (err) {
		snprintf(why, whylen, "irqbalance restart: %s", strerror(-err));
		goto out;
	}
	pid = nn_irqb_find_pid(ctx, true);
	if (pid > 0) {
		struct nn_irqb_proc p;

		/* Ours (fenced) goes; anyone else's daemon is left as it is. */
		if (!nn_irqb_inspect(ctx, &p)) {
			bool fenced = nn_irqb_is_fenced(&p);

			nn_irqb_proc_free(&p);
			if (!fenced) {
				snprintf(why, whylen, "already running (pid %d)", pid);
				goto out;
			}
			err = stop_pid(ctx, pid, why, whylen);
			if (err)
				goto out;
		}
	}
	err = spawn_detached(exe, argv, env, nenv);
	if (err) {
		snprintf(why, whylen, "cannot restart %s: %s", exe, strerror(-err));
		goto out;
	}
	pid = wait_started(ctx, pid);
	if (pid < 0) {
		err = pid;
		snprintf(why, whylen, "restarted irqbalance did not appear within %d s",
			 WAIT_MS / 1000);
	}
out:
	free_vec(raw, nraw);
	free_vec(argv, argc);
	free_vec(env, nenv);
	free(ban);
	return err;
}

int nn_irqb_restore(struct nn_ctx *ctx, const char *before, const char *detail,
		    char *why, size_t whylen)
{
	struct json_object *d;
	const char *mode;
	int err;

	err = nn_require_live(ctx, "restoring irqbalance");
	if (err) {
		snprintf(why, whylen, "not touched (fake root)");
		return err;
	}
	/* The log is a file: what it says is checked before anything runs. */
	err = nn_irqb_validate(before, detail, why, whylen);
	if (err)
		return err;
	d = json_tokener_parse(detail);
	if (!d)
		return -ENOMEM;
	mode = jstr(d, "mode");
	if (jbool(d, "systemd"))
		err = restore_unit(ctx, d, mode, why, whylen);
	else if (!strcmp(before, "running"))
		err = restore_daemon(ctx, d, why, whylen);
	if (!err && !strcmp(mode, "ban"))
		remove_ban_script(ctx);
	json_object_put(d);
	return err;
}

/* An older log's "script": an absolute path without ".." whose last
 * component is the ban script's fixed name. */
static bool script_name_ok(const char *p)
{
	const char *base = strrchr(p, '/');

	return p[0] == '/' && !strstr(p, "/../") && !strstr(p, "/./") && !strstr(p, "//") &&
	       base && !strcmp(base + 1, NN_IRQB_BAN_SCRIPT);
}

/* The keys a detail may hold: apply's own, and older logs' "dropin" and
 * "script", which are ignored (both paths are derived, never read). */
static const char *const detail_keys[] = {
	"mode", "systemd", "pid", "exe", "argv", "env", "unit_enabled", "unit_active",
	"dropin", "script",
};

static bool known_key(const char *k)
{
	size_t i;

	for (i = 0; i < sizeof(detail_keys) / sizeof(detail_keys[0]); i++)
		if (!strcmp(k, detail_keys[i]))
			return true;
	return false;
}

static int strings_ok(struct json_object *a, const char *key, bool env, char *why, size_t whylen)
{
	size_t i, n;

	if (!json_object_is_type(a, json_type_array)) {
		snprintf(why, whylen, "irqbalance detail: %s is not an array", key);
		return -EINVAL;
	}
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		const char *s = json_object_get_string(e);

		if (!json_object_is_type(e, json_type_string) ||
		    (size_t)json_object_get_string_len(e) != strlen(s)) {
			snprintf(why, whylen, "irqbalance detail: %s[%zu] is not a plain string", key, i);
			return -EINVAL;
		}
		if (env ? nn_irqb_env_ok(s) : i ? nn_irqb_arg_ok(s)
		    : nn_irqb_exe_name_ok(s) || !strcmp(s, "irqbalance"))
			continue;
		snprintf(why, whylen, "irqbalance detail: %s[%zu] is not %s", key, i,
			 env ? "an IRQBALANCE_ variable" : i ? "one of irqbalance's options"
			 : "a system irqbalance");
		return -EINVAL;
	}
	return 0;
}

int nn_irqb_validate(const char *before, const char *detail, char *why, size_t whylen)
{
	struct json_object *d = NULL, *v;
	const char *mode;
	int err = -EINVAL;

	if (!before || (strcmp(before, "running") && strcmp(before, "stopped"))) {
		snprintf(why, whylen, "irqbalance: before must be running or stopped");
		return -EINVAL;
	}
	d = detail ? json_tokener_parse(detail) : NULL;
	if (!d || !json_object_is_type(d, json_type_object)) {
		snprintf(why, whylen, "irqbalance detail is not a JSON object");
		goto out;
	}
	json_object_object_foreach(d, key, val) {
		(void)val;
		if (!known_key(key)) {
			snprintf(why, whylen, "irqbalance detail: unknown key '%.32s'", key);
			goto out;
		}
	}
	mode = json_object_object_get_ex(d, "mode", &v) && json_object_is_type(v, json_type_string)
	       ? json_object_get_string(v) : NULL;
	if (!mode || (strcmp(mode, "stop") && strcmp(mode, "ban"))) {
		snprintf(why, whylen, "irqbalance detail: mode must be stop or ban");
		goto out;
	}
	for (const char *const *k = (const char *const[]){ "systemd", "unit_enabled",
							   "unit_active", NULL }; *k; k++) {
		if (json_object_object_get_ex(d, *k, &v) && !json_object_is_type(v, json_type_boolean)) {
			snprintf(why, whylen, "irqbalance detail: %s is not true or false", *k);
			goto out;
		}
	}
	if (json_object_object_get_ex(d, "pid", &v) && !json_object_is_type(v, json_type_int)) {
		snprintf(why, whylen, "irqbalance detail: pid is not a number");
		goto out;
	}
	if (json_object_object_get_ex(d, "exe", &v) && v &&
	    (!json_object_is_type(v, json_type_string) ||
	     !nn_irqb_exe_name_ok(json_object_get_string(v)))) {
		snprintf(why, whylen, "irqbalance detail: exe is not irqbalance in a system directory");
		goto out;
	}
	if (json_object_object_get_ex(d, "dropin", &v) && v &&
	    (!json_object_is_type(v, json_type_string) ||
	     strcmp(json_object_get_string(v), NN_IRQB_DROPIN))) {
		snprintf(why, whylen, "irqbalance detail: dropin is not %s", NN_IRQB_DROPIN);
		goto out;
	}
	/* Ignored when restoring, but a log naming any other file than the ban
	 * script's own name was not written by nicnuma: refuse it whole. */
	if (json_object_object_get_ex(d, "script", &v) && v &&
	    (!json_object_is_type(v, json_type_string) ||
	     !script_name_ok(json_object_get_string(v)))) {
		snprintf(why, whylen, "irqbalance detail: script is not nicnuma's %s",
			 NN_IRQB_BAN_SCRIPT);
		goto out;
	}
	if (json_object_object_get_ex(d, "argv", &v) && strings_ok(v, "argv", false, why, whylen))
		goto out;
	if (json_object_object_get_ex(d, "env", &v) && strings_ok(v, "env", true, why, whylen))
		goto out;
	err = 0;
out:
	json_object_put(d);
	return err;
}
