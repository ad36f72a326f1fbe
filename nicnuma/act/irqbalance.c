// SPDX-License-Identifier: GPL-2.0-or-later
/* irqbalance.c - stop or fence irqbalance for an apply, restore it on rollback
 *
 * irqbalance rewrites /proc/irq/N/smp_affinity every pass (10 s by default),
 * so a plan applied under a running daemon lasts until its next pass. The
 * daemon is not our child: it is signalled through a pidfd (no pid-reuse
 * race) and restarted detached (double fork, setsid) exactly as /proc showed
 * it was started: same executable, argv and IRQBALANCE_* environment.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/act/undo.h"
#include "nicnuma/act/irqbalance.h"

#define BAN_SCRIPT "irqbalance-ban.sh"
#define DROPIN_DIR "/run/systemd/system/irqbalance.service.d"
#define DROPIN DROPIN_DIR "/50-nicnuma-ban.conf"
#define WAIT_MS 5000

extern char **environ;

/* Splits NUL-separated /proc text into a NULL-terminated vector. */
static int split_nul(const char *buf, size_t len, char ***out, size_t *n)
{
	size_t i, cnt = 0, k = 0;
	char **v;

	for (i = 0; i < len; i++)
		if (!buf[i])
			cnt++;
	if (len && buf[len - 1])
		cnt++;
	v = calloc(cnt + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < len && k < cnt;) {
		size_t l = strnlen(buf + i, len - i);

		v[k] = strndup(buf + i, l);
		if (!v[k]) {
			while (k--)
				free(v[k]);
			free(v);
			return -ENOMEM;
		}
		k++;
		i += l + 1;
	}
	*out = v;
	*n = k;
	return 0;
}

static void free_vec(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void nn_irqb_proc_free(struct nn_irqb_proc *p)
{
	free(p->exe);
	free_vec(p->argv, p->argc);
	free_vec(p->env, p->nenv);
	memset(p, 0, sizeof(*p));
	p->pid = -1;
}

static bool comm_is(struct nn_ctx *ctx, int pid, const char *name)
{
	char path[64], comm[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	return !nn_read_str(&ctx->root, path, comm, sizeof(comm)) && !strcmp(comm, name);
}

/* Lowest pid whose comm is irqbalance and that is not a zombie, or -1. */
static int find_pid(struct nn_ctx *ctx)
{
	struct dirent *de;
	DIR *d;
	int best = -1;

	if (nn_root_opendir(&ctx->root, "/proc", &d))
		return -1;
	while ((de = readdir(d))) {
		char path[64], *stat = NULL, *rp;
		long pid;

		if (nn_parse_long(de->d_name, &pid) || pid <= 0 || pid > 1 << 30)
			continue;
		if (!comm_is(ctx, (int)pid, "irqbalance"))
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		/* A zombie has exited already: "pid (comm) Z ..." */
		if (!nn_read_file(&ctx->root, path, &stat, NULL) && (rp = strrchr(stat, ')')) &&
		    rp[1] == ' ' && rp[2] == 'Z') {
			free(stat);
			continue;
		}
		free(stat);
		if (best < 0 || pid < best)
			best = (int)pid;
	}
	closedir(d);
	return best;
}

int nn_irqb_inspect(struct nn_ctx *ctx, struct nn_irqb_proc *p)
{
	char path[64], link[4096], *buf = NULL;
	size_t len, i, n = 0;
	char **env = NULL;
	int err;

	memset(p, 0, sizeof(*p));
	p->pid = -1;
	p->systemd = comm_is(ctx, 1, "systemd");
	p->pid = find_pid(ctx);
	if (p->pid < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/exe", p->pid);
	if (!nn_root_readlink(&ctx->root, path, link, sizeof(link))) {
		/* " (deleted)" after a package upgrade: the path is still the way to start it. */
		char *del = strstr(link, " (deleted)");

		if (del)
			*del = '\0';
		p->exe = strdup(link);
	}
	snprintf(path, sizeof(path), "/proc/%d/cmdline", p->pid);
	err = nn_read_file(&ctx->root, path, &buf, &len);
	if (!err) {
		err = split_nul(buf, len, &p->argv, &p->argc);
		free(buf);
		buf = NULL;
	}
	if (err)
		goto fail;
	snprintf(path, sizeof(path), "/proc/%d/environ", p->pid);
	if (!nn_read_file(&ctx->root, path, &buf, &len)) {
		err = split_nul(buf, len, &env, &n);
		free(buf);
		if (err)
			goto fail;
		p->env = calloc(n + 1, sizeof(*p->env));
		if (!p->env) {
			free_vec(env, n);
			err = -ENOMEM;
			goto fail;
		}
		/* Only what changes irqbalance's behaviour travels with a restart. */
		for (i = 0; i < n; i++) {
			if (!strncmp(env[i], "IRQBALANCE_", 11)) {
				p->env[p->nenv++] = env[i];
				env[i] = NULL;
			}
		}
		free_vec(env, n);
	}
	return 0;
fail:
	nn_irqb_proc_free(p);
	return err;
}

bool nn_irqb_is_fenced(const struct nn_irqb_proc *p)
{
	size_t i;

	for (i = 0; i < p->argc; i++) {
		const char *a = p->argv[i];

		if (!strncmp(a, "--policyscript=", 15) && strstr(a, BAN_SCRIPT))
			return true;
		if ((!strcmp(a, "--policyscript") || !strcmp(a, "-l")) && i + 1 < p->argc &&
		    strstr(p->argv[i + 1], BAN_SCRIPT))
			return true;
	}
	return false;
}

static struct json_object *vec_json(char **v, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

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

/* Runs argv (no shell) and returns its exit status, or -errno. */
static int run(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int systemctl(const char *verb, const char *flag)
{
	char *argv[5];
	int i = 0;

	argv[i++] = (char *)"systemctl";
	argv[i++] = (char *)verb;
	if (flag)
		argv[i++] = (char *)flag;
	argv[i++] = (char *)"irqbalance.service";
	argv[i] = NULL;
	return run(argv);
}

/* Starts @exe @argv detached from us (double fork, new session, stdio on
 * /dev/null), with our environment minus IRQBALANCE_* plus @env. */
static int spawn_detached(const char *exe, char **argv, char **env, size_t nenv)
{
	size_t n = 0, i, k = 0;
	char **envp;
	int status;
	pid_t pid;

	while (environ[n])
		n++;
	envp = calloc(n + nenv + 1, sizeof(*envp));
	if (!envp)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "IRQBALANCE_", 11))
			envp[k++] = environ[i];
	for (i = 0; i < nenv; i++)
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
		if (exe)
			execve(exe, argv, envp);
		execvpe(argv[0], argv, envp);
		_exit(127);
	}
	free(envp);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Waits until an irqbalance other than @old runs (a restart takes a moment,
 * a daemonizing one forks first); its pid, or -ETIMEDOUT. */
static int wait_started(struct nn_ctx *ctx, int old)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int i, pid, seen = -1;

	/* The same pid twice in a row: a daemonizing irqbalance forks and its
	 * first process exits, so the first pid seen may not be the daemon. */
	for (i = 0; i < WAIT_MS / 50; i++) {
		pid = find_pid(ctx);
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

	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0) {
		if (errno == ESRCH)
			return 0;	/* gone already */
		snprintf(why, whylen, "irqbalance pid %d: pidfd_open: %s", pid, strerror(errno));
		return -errno;
	}
	/* The pidfd pins the process: check it is still the daemon we saw. */
	if (!comm_is(ctx, pid, "irqbalance")) {
		close(fd);
		return 0;
	}
	if (syscall(SYS_pidfd_send_signal, fd, SIGTERM, NULL, 0) < 0) {
		r = -errno;
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

static int write_file(const char *path, const char *text, mode_t mode)
{
	char tmp[4200];
	size_t len = strlen(text);
	int fd, err = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, mode) < 0 || write(fd, text, len) != (ssize_t)len || fsync(fd) < 0)
		err = errno ? -errno : -EIO;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

const char *nn_irqb_policy_arg(const struct nn_irqb_proc *p)
{
	size_t i;

	for (i = 0; i < p->argc; i++) {
		if (!strncmp(p->argv[i], "--policyscript=", 15))
			return p->argv[i] + 15;
		if ((!strcmp(p->argv[i], "--policyscript") || !strcmp(p->argv[i], "-l")) &&
		    i + 1 < p->argc)
			return p->argv[i + 1];
		if (!strncmp(p->argv[i], "-l", 2) && p->argv[i][2])
			return p->argv[i] + 2;
	}
	return NULL;
}

/* Single-quoted for sh: ' becomes '\'' . */
static int sh_quote(char **out, const char *s)
{
	size_t n = 2, i, k = 0;
	char *q;

	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	q = malloc(n + 1);
	if (!q)
		return -ENOMEM;
	q[k++] = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(q + k, "'\\''", 4);
			k += 4;
		} else {
			q[k++] = s[i];
		}
	}
	q[k++] = '\'';
	q[k] = '\0';
	*out = q;
	return 0;
}

char *nn_irqb_ban_script(const int *irqs, size_t n, const char *chain)
{
	size_t cap = 256 + n * 12 + (chain ? strlen(chain) * 4 + 32 : 0), len = 0, i;
	char *s = malloc(cap), *q = NULL;

	if (!s)
		return NULL;
	len += (size_t)snprintf(s + len, cap - len,
		"#!/bin/sh\n"
		"# nicnuma apply --irqbalance=ban: irqbalance calls this with the device\n"
		"# path and IRQ number; the IRQs nicnuma placed are banned from balancing.\n"
		"case \"$2\" in\n");
	if (n) {
		for (i = 0; i < n; i++)
			len += (size_t)snprintf(s + len, cap - len, "%s%d", i ? "|" : "", irqs[i]);
		len += (size_t)snprintf(s + len, cap - len, ") echo ban=true; exit 0 ;;\n");
	}
	len += (size_t)snprintf(s + len, cap - len, "*) ;;\nesac\n");
	if (chain && !sh_quote(&q, chain)) {
		len += (size_t)snprintf(s + len, cap - len, "exec %s \"$@\"\n", q);
		free(q);
	} else {
		len += (size_t)snprintf(s + len, cap - len, "exit 0\n");
	}
	return s;
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

int nn_irqb_prepare(struct nn_ctx *ctx, enum nn_irqbalance_action action,
		    const int *irqs, size_t nirqs, struct nn_irqb_op *op)
{
	struct json_object *d;
	int err;

	memset(op, 0, sizeof(*op));
	op->action = action;
	op->irqs = irqs;
	op->nirqs = nirqs;
	err = nn_irqb_inspect(ctx, &op->proc);
	if (err)
		return err;
	snprintf(op->before, sizeof(op->before), "%s", op->proc.pid > 0 ? "running" : "stopped");
	snprintf(op->after, sizeof(op->after), "%s", op->before);
	if (!nn_root_is_live(&ctx->root)) {
		op->noop = true;
		snprintf(op->status, sizeof(op->status), "not touched (fake root)");
		return 0;
	}
	if (action == NN_IRQB_NONE) {
		op->noop = true;
		snprintf(op->status, sizeof(op->status), "%s, left alone (--irqbalance=ignore)",
			 op->before);
		return 0;
	}
	if (op->proc.pid < 0) {
		op->noop = true;
		snprintf(op->status, sizeof(op->status), "nothing to do");
		return 0;
	}
	if (action == NN_IRQB_BAN && nn_irqb_is_fenced(&op->proc) && !op->proc.systemd) {
		/* Fenced by an earlier apply: refresh the IRQ list in its script. */
		snprintf(op->status, sizeof(op->status), "already fenced (pid %d)", op->proc.pid);
	}
	if (action == NN_IRQB_BAN) {
		const char *chain = nn_irqb_policy_arg(&op->proc);

		if (chain && strstr(chain, BAN_SCRIPT))
			chain = NULL;	/* our own from an earlier run: do not loop */
		if (asprintf(&op->script, "%s/%s", ctx->state_dir, BAN_SCRIPT) < 0) {
			op->script = NULL;
			return -ENOMEM;
		}
		op->script_text = nn_irqb_ban_script(irqs, nirqs, chain);
		if (!op->script_text)
			return -ENOMEM;
	}
	snprintf(op->after, sizeof(op->after), "%s", action == NN_IRQB_STOP ? "stopped" : "running");
	d = json_object_new_object();
	json_object_object_add(d, "mode", json_object_new_string(nn_irqbalance_action_name(action)));
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
		if (action == NN_IRQB_BAN)
			json_object_object_add(d, "dropin", json_object_new_string(DROPIN));
	}
	if (op->script)
		json_object_object_add(d, "script", json_object_new_string(op->script));
	op->detail = strdup(json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(d);
	return op->detail ? 0 : -ENOMEM;
}

static int write_dropin(const struct nn_irqb_op *op)
{
	char **argv = nn_irqb_ban_argv(&op->proc, op->script), *text = NULL, *q;
	size_t cap = 256, len, i;
	int err = 0;

	if (!argv)
		return -ENOMEM;
	for (i = 0; argv[i]; i++)
		cap += strlen(argv[i]) * 4 + 3;
	text = malloc(cap);
	if (!text) {
		err = -ENOMEM;
		goto out;
	}
	len = (size_t)snprintf(text, cap, "# nicnuma apply --irqbalance=ban (removed by rollback)\n"
			       "[Service]\nExecStart=\nExecStart=%s", op->proc.exe ? op->proc.exe
			       : argv[0]);
	for (i = 1; argv[i]; i++) {
		/* systemd unit quoting: double quotes, backslash-escaped. */
		len += (size_t)snprintf(text + len, cap - len, " \"");
		for (q = argv[i]; *q; q++) {
			if (*q == '"' || *q == '\\')
				text[len++] = '\\';
			text[len++] = *q == '%' ? '%' : *q;
			if (*q == '%')
				text[len++] = '%';
		}
		len += (size_t)snprintf(text + len, cap - len, "\"");
	}
	snprintf(text + len, cap - len, "\n");
	if (mkdir(DROPIN_DIR, 0755) < 0 && errno != EEXIST)
		err = -errno;
	else
		err = write_file(DROPIN, text, 0644);
out:
	free(text);
	for (i = 0; argv[i]; i++)
		if (!strncmp(argv[i], "--policyscript=", 15))
			free(argv[i]);
	free(argv);
	return err;
}

int nn_irqb_act(struct nn_ctx *ctx, struct nn_irqb_op *op, char *why, size_t whylen)
{
	char **argv;
	size_t i;
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
	err = write_file(op->script, op->script_text, 0700);
	if (err) {
		snprintf(why, whylen, "cannot write %s: %s", op->script, strerror(-err));
		return err;
	}
	if (op->proc.systemd) {
		err = write_dropin(op);
		if (!err)
			err = run((char *[]){ "systemctl", "daemon-reload", NULL });
		if (!err)
			err = systemctl("restart", NULL);
		if (err) {
			snprintf(why, whylen, "restarting irqbalance.service with %s failed", DROPIN);
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
	for (i = 0; argv[i]; i++)
		if (!strncmp(argv[i], "--policyscript=", 15))
			free(argv[i]);
	free(argv);
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

int nn_irqb_restore(struct nn_ctx *ctx, const char *before, const char *detail,
		    char *why, size_t whylen)
{
	struct json_object *d, *v;
	char **argv = NULL, **env = NULL;
	size_t argc = 0, nenv = 0;
	const char *mode, *script;
	int err = 0, pid;

	err = nn_require_live(ctx, "restoring irqbalance");
	if (err) {
		snprintf(why, whylen, "not touched (fake root)");
		return err;
	}
	d = detail ? json_tokener_parse(detail) : NULL;
	if (!d) {
		snprintf(why, whylen, "snapshot has no irqbalance detail to restore from");
		return -EINVAL;
	}
	mode = jstr(d, "mode");
	script = jstr(d, "script");
	if (jbool(d, "systemd")) {
		if (mode && !strcmp(mode, "ban")) {
			if (unlink(DROPIN) < 0 && errno != ENOENT)
				err = -errno;
			if (!err)
				err = run((char *[]){ "systemctl", "daemon-reload", NULL });
		}
		if (!err && jbool(d, "unit_enabled"))
			err = systemctl("enable", NULL);
		if (!err && jbool(d, "unit_active"))
			err = systemctl("restart", NULL);
		if (err)
			snprintf(why, whylen, "systemctl could not restore irqbalance.service");
		goto out;
	}
	if (!before || strcmp(before, "running"))
		goto out;	/* it was not running: nothing to bring back */
	json_object_object_get_ex(d, "argv", &v);
	err = vec_from_json(v, &argv, &argc);
	if (!err && json_object_object_get_ex(d, "env", &v))
		err = vec_from_json(v, &env, &nenv);
	if (err || !argc) {
		snprintf(why, whylen, "snapshot lacks how irqbalance was started");
		err = err ? err : -EINVAL;
		goto out;
	}
	pid = find_pid(ctx);
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
	err = spawn_detached(jstr(d, "exe"), argv, env, nenv);
	if (!err) {
		pid = wait_started(ctx, pid);
		if (pid < 0) {
			err = pid;
			snprintf(why, whylen, "restarted irqbalance did not appear within %d s",
				 WAIT_MS / 1000);
		}
	} else {
		snprintf(why, whylen, "cannot restart irqbalance: %s", strerror(-err));
	}
out:
	if (!err && script && unlink(script) < 0 && errno != ENOENT)
		nn_warn(ctx, script, "cannot remove ban script: %s", strerror(errno));
	free_vec(argv, argc);
	free_vec(env, nenv);
	json_object_put(d);
	return err;
}
