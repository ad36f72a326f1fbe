// SPDX-License-Identifier: GPL-2.0-or-later
/* irqbalance_id.c - the system's irqbalance by identity, not by name
 *
 * nicnuma runs as root and stops, restarts and re-runs irqbalance. A process
 * name proves nothing (any user can call a program irqbalance), and what a
 * snapshot says may have been edited since. So: the daemon is the unit's
 * MainPID under systemd, else a uid-0 process running a root-owned binary in
 * a system directory; it is restarted only as that binary (found again at
 * rollback by the same rule), with irqbalance's documented options and its
 * IRQBALANCE_* variables. Anything else is reported and left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/basic/fileio.h"
#include "nicnuma/basic/strbuf.h"
#include "nicnuma/ctx.h"
#include "irqbalance.h"
#include "irqbalance_id.h"

static const char *const sysdirs[] = {
	"/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin",
};
#define NSYSDIRS (sizeof(sysdirs) / sizeof(sysdirs[0]))

bool nn_irqb_exe_name_ok(const char *exe)
{
	size_t i, l;

	for (i = 0; exe && i < NSYSDIRS; i++) {
		l = strlen(sysdirs[i]);
		if (!strncmp(exe, sysdirs[i], l) && !strcmp(exe + l, "/irqbalance"))
			return true;
	}
	return false;
}

/* Root-owned, not writable by group or others, of type @type. */
static int check_node(const struct nn_root *r, const char *path, mode_t type, char *why,
		      size_t whylen)
{
	struct stat st;
	int fd, err = 0;

	fd = nn_root_openat(r, path, O_PATH | O_NOFOLLOW, 0);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st) < 0)
		err = -errno;
	close(fd);
	if (err)
		snprintf(why, whylen, "%s: %s", path, strerror(-err));
	else if ((st.st_mode & S_IFMT) != type)
		snprintf(why, whylen, "%s is not a %s", path, type == S_IFDIR ? "directory"
			 : "regular file"), err = -EPERM;
	else if (st.st_uid != 0)
		snprintf(why, whylen, "%s is owned by uid %u, not root", path,
			 (unsigned)st.st_uid), err = -EPERM;
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, whylen, "%s is writable by group or others", path), err = -EPERM;
	return err;
}

int nn_irqb_trusted_file(const struct nn_root *r, const char *path, char *why, size_t whylen)
{
	char dir[PATH_MAX];
	size_t i, len = strlen(path);
	int err;

	if (path[0] != '/' || len >= sizeof(dir) || strstr(path, "//") || strstr(path, "/../") ||
	    strstr(path, "/./") || path[len - 1] == '/') {
		snprintf(why, whylen, "'%s' is not a plain absolute path", path);
		return -EINVAL;
	}
	/* "/", then each directory down to the file: none may be a symlink,
	 * owned by a user or writable by one (who could swap what is below). */
	err = check_node(r, "/", S_IFDIR, why, whylen);
	for (i = 1; !err && i < len; i++) {
		if (path[i] != '/')
			continue;
		memcpy(dir, path, i);
		dir[i] = '\0';
		err = check_node(r, dir, S_IFDIR, why, whylen);
	}
	return err ? err : check_node(r, path, S_IFREG, why, whylen);
}

int nn_irqb_system_exe(struct nn_ctx *ctx, const char *hint, char *buf, size_t size)
{
	char why[PATH_MAX + 64], path[64];
	size_t i;

	if (hint && nn_irqb_exe_name_ok(hint) && !nn_irqb_trusted_file(&ctx->root, hint, why,
									  sizeof(why)))
		return snprintf(buf, size, "%s", hint) < (int)size ? 0 : -ENAMETOOLONG;
	for (i = 0; i < NSYSDIRS; i++) {
		snprintf(path, sizeof(path), "%s/irqbalance", sysdirs[i]);
		if (!nn_irqb_trusted_file(&ctx->root, path, why, sizeof(why)))
			return snprintf(buf, size, "%s", path) < (int)size ? 0 : -ENAMETOOLONG;
	}
	return -ENOENT;
}

/* irqbalance(1)'s options and what each takes. */
enum argkind { FLAG, NUM, FLOAT, POWER, MODULE, PIDFILE, SCRIPT };
static const struct opt {
	char s;
	const char *l;
	enum argkind kind;
} opts[] = {
	{ 'o', "oneshot", FLAG },	{ 'd', "debug", FLAG },
	{ 'f', "foreground", FLAG },	{ 'j', "journal", FLAG },
	{ 'p', "powerthresh", POWER },	{ 'i', "banirq", NUM },
	{ 'm', "banmod", MODULE },	{ 'c', "deepestcache", NUM },
	{ 'l', "policyscript", SCRIPT }, { 'e', "migrateval", FLOAT },
	{ 's', "pid", PIDFILE },	{ 't', "interval", NUM },
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static bool only(const char *v, const char *set, size_t max)
{
	size_t n = strlen(v);

	return n && n <= max && strspn(v, set) == n;
}

#define DIGITS "0123456789"
#define WORD DIGITS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"

/* A value's syntax; a policy script's trust is the caller's (filesystem). */
static bool value_ok(enum argkind k, const char *v)
{
	switch (k) {
	case FLAG:
		return false;
	case NUM:
		return only(v, DIGITS, 10);
	case FLOAT:
		return only(v, DIGITS ".", 16);
	case POWER:
		return !strcmp(v, "off") || only(v, DIGITS, 10);
	case MODULE:
		return only(v, WORD, 64);
	case PIDFILE:	/* root writes it: only below /run */
		return (!strncmp(v, "/run/", 5) || !strncmp(v, "/var/run/", 9)) &&
		       only(v, WORD "./", 255) && !strstr(v, "..") && !strstr(v, "//");
	case SCRIPT:
		return v[0] == '/' && only(v, WORD "./+,:@", PATH_MAX - 1) && !strstr(v, "/../") &&
		       !strstr(v, "/./") && !strstr(v, "//");
	}
	return false;
}

static const struct opt *find_long(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (strlen(opts[i].l) == len && !strncmp(opts[i].l, name, len))
			return &opts[i];
	return NULL;
}

static const struct opt *find_short(char c)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (opts[i].s == c)
			return &opts[i];
	return NULL;
}

bool nn_irqb_arg_ok(const char *arg)
{
	const char *eq;
	const struct opt *o;

	if (strncmp(arg, "--", 2))
		return false;
	eq = strchr(arg, '=');
	o = find_long(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
	if (!o)
		return false;
	return o->kind == FLAG ? !eq : eq && value_ok(o->kind, eq + 1);
}

bool nn_irqb_env_ok(const char *kv)
{
	const char *eq = strchr(kv, '=');
	const char *v;
	size_t n;

	if (strncmp(kv, "IRQBALANCE_", 11) || !eq || eq == kv + 11)
		return false;
	n = (size_t)(eq - kv - 11);
	if (strspn(kv + 11, "ABCDEFGHIJKLMNOPQRSTUVWXYZ" DIGITS "_") != n)
		return false;
	for (v = eq + 1; *v; v++)
		if ((unsigned char)*v < 0x20 || (unsigned char)*v >= 0x7f)
			return false;
	return v - eq < 4096;
}

static void dropped(struct nn_ctx *ctx, const char *what, const char *word, const char *reason)
{
	struct nn_sb sb = NN_SB_INIT;

	if (!ctx)
		return;
	nn_sb_escape(&sb, word);
	nn_warn(ctx, NULL, "irqbalance %s '%s' dropped: %s", what,
		nn_sb_str(&sb) ? nn_sb_str(&sb) : "?", reason);
	nn_sb_free(&sb);
}

/* One option word (and maybe the next) as "--long[=VALUE]" in @sb; the
 * number of words used, with @sb empty when the option is dropped. */
static size_t one_arg(struct nn_ctx *ctx, char *const *in, size_t n, size_t i, const char *ban,
		      bool keep_ban, struct nn_sb *sb)
{
	const char *a = in[i], *v = NULL, *eq;
	const struct opt *o = NULL;
	size_t used = 1;
	char why[PATH_MAX + 64];

	if (!strncmp(a, "--", 2)) {
		eq = strchr(a, '=');
		o = find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (o && eq)
			v = eq + 1;
	} else if (a[0] == '-' && a[1]) {
		o = find_short(a[1]);
		if (o && a[2])
			v = a + 2;
		if (o && o->kind == FLAG && v)
			o = NULL;	/* bundled flags: not a form irqbalance's own unit uses */
	}
	if (!o) {
		dropped(ctx, "argument", a, "not one of irqbalance's documented options");
		return 1;
	}
	if (o->kind != FLAG && !v) {
		if (i + 1 >= n) {
			dropped(ctx, "argument", a, "no value");
			return 1;
		}
		v = in[i + 1];
		used = 2;
	}
	if (o->kind == FLAG && v) {
		dropped(ctx, "argument", a, "takes no value");
		return used;
	}
	if (v && !value_ok(o->kind, v)) {
		dropped(ctx, o->l, v, "not a valid value for it");
		return used;
	}
	if (o->kind == SCRIPT && ban && !strcmp(v, ban)) {
		if (!keep_ban)
			return used;	/* our own fence goes with the restore */
	} else if (o->kind == SCRIPT && ctx &&
		   nn_irqb_trusted_file(&ctx->root, v, why, sizeof(why))) {
		dropped(ctx, "policy script", v, why);
		return used;
	}
	nn_sb_printf(sb, "--%s%s%s", o->l, v ? "=" : "", v ? v : "");
	return used;
}

static int vec_push(char ***v, size_t *n, size_t *cap, char *s)
{
	if (!s)
		return -ENOMEM;
	if (NN_GROW(*v, *n + 1, *cap)) {
		free(s);
		return -ENOMEM;
	}
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
	return 0;
}

static void vec_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

int nn_irqb_filter_argv(struct nn_ctx *ctx, const char *exe, char *const *in, size_t n,
			const char *ban, bool keep_ban, char ***out, size_t *nout)
{
	struct nn_sb sb = NN_SB_INIT;
	char **v = NULL;
	size_t k = 0, cap = 0, i;
	int err;

	/* No checked exe (a captured tree): the name it showed, if a plain one. */
	if (!exe)
		exe = n && (nn_irqb_exe_name_ok(in[0]) || !strcmp(in[0], "irqbalance")) ? in[0]
		      : "irqbalance";
	err = vec_push(&v, &k, &cap, strdup(exe));
	for (i = 1; !err && i < n;) {
		nn_sb_reset(&sb);
		i += one_arg(ctx, in, n, i, ban, keep_ban, &sb);
		err = nn_sb_error(&sb);
		if (!err && sb.len)
			err = vec_push(&v, &k, &cap, strdup(nn_sb_str(&sb)));
	}
	nn_sb_free(&sb);
	if (err) {
		vec_free(v, k);
		return err;
	}
	*out = v;
	*nout = k;
	return 0;
}

int nn_irqb_filter_env(struct nn_ctx *ctx, char *const *in, size_t n, char ***out, size_t *nout)
{
	char **v = NULL;
	size_t k = 0, cap = 0, i;
	int err = 0;

	err = NN_GROW(v, 0, cap);
	if (!err)
		v[0] = NULL;
	for (i = 0; !err && i < n; i++) {
		if (strncmp(in[i], "IRQBALANCE_", 11))
			continue;	/* not irqbalance's: silently not ours to pass on */
		if (!nn_irqb_env_ok(in[i])) {
			dropped(ctx, "environment entry", in[i], "not NAME=printable text");
			continue;
		}
		err = vec_push(&v, &k, &cap, strdup(in[i]));
	}
	if (err) {
		vec_free(v, k);
		return err;
	}
	*out = v;
	*nout = k;
	return 0;
}

int nn_irqb_systemctl(const char *const *args, char *out, size_t outlen)
{
	const char *argv[8] = { "systemctl" };
	int pfd[2] = { -1, -1 }, status, fd;
	size_t i, len = 0;
	ssize_t r;
	pid_t pid;

	for (i = 0; args[i] && i + 2 < sizeof(argv) / sizeof(argv[0]); i++)
		argv[i + 1] = args[i];
	if (out && pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		status = -errno;
		goto out;
	}
	if (pid == 0) {
		/* A fixed binary and environment: nothing of the caller's PATH. */
		static char *const envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL };

		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(out ? pfd[1] : fd, STDOUT_FILENO);
		}
		execve("/usr/bin/systemctl", (char *const *)argv, envp);
		execve("/bin/systemctl", (char *const *)argv, envp);
		_exit(127);
	}
	if (out) {
		close(pfd[1]);
		pfd[1] = -1;
		while (len + 1 < outlen && (r = read(pfd[0], out + len, outlen - 1 - len)) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				break;
			len += (size_t)r;
		}
		out[len] = '\0';
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -errno;
			goto out;
		}
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	return status;
}

char *nn_irqb_ban_path(const struct nn_ctx *ctx)
{
	char *p;

	return asprintf(&p, "%s/%s", ctx->state_dir, NN_IRQB_BAN_SCRIPT) < 0 ? NULL : p;
}

/* A process that has exited (zombie, dead) or vanished is not running. */
static bool alive(struct nn_ctx *ctx, int pid)
{
	char path[64], *stat = NULL, *rp;
	bool ok;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	err = nn_read_file(&ctx->root, path, &stat, NULL);
	if (err)	/* gone; or a captured tree, which keeps no stat */
		return err == -ENOENT && !nn_root_is_live(&ctx->root);
	rp = strrchr(stat, ')');
	ok = rp && rp[1] == ' ' && rp[2] && rp[2] != 'Z' && rp[2] != 'X';
	free(stat);
	return ok;
}

/* "Uid:\treal\teffective\t..." of /proc/PID/status; -ENOENT when absent. */
static int read_uids(struct nn_ctx *ctx, int pid, long *ruid, long *euid)
{
	char path[64], *text = NULL, *l;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	err = nn_read_file(&ctx->root, path, &text, NULL);
	if (err)
		return err;
	l = strstr(text, "\nUid:");
	err = l && sscanf(l + 5, "%ld %ld", ruid, euid) == 2 ? 0 : -EINVAL;
	free(text);
	return err;
}

/* Whether @pid is the system's irqbalance (0), not an irqbalance at all
 * (-ESRCH), or one named so that fails the rule (-EPERM, @why says how).
 * @exe: its checked executable, "" for a captured tree that lacks it. */
static int judge(struct nn_ctx *ctx, int pid, char *exe, size_t exelen, long *uid, char *why,
		 size_t whylen)
{
	char path[64], comm[64], *del;
	long euid = -1;
	int err, lerr;

	*uid = -1;
	exe[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (nn_read_str(&ctx->root, path, comm, sizeof(comm)) || strcmp(comm, "irqbalance") ||
	    !alive(ctx, pid))
		return -ESRCH;
	err = read_uids(ctx, pid, uid, &euid);
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	lerr = nn_root_readlink(&ctx->root, path, exe, exelen);
	if (lerr)
		exe[0] = '\0';
	/* A captured tree keeps only comm and cmdline (scripts/capture-host):
	 * its word is taken for reporting; nothing is ever done under it. */
	if (!nn_root_is_live(&ctx->root) && err == -ENOENT && lerr == -ENOENT)
		return 0;
	if (err) {
		snprintf(why, whylen, "its uid is unknown");
		return -EPERM;
	}
	if (*uid != 0 || euid != 0) {
		snprintf(why, whylen, "not run by root");
		return -EPERM;
	}
	if (lerr) {
		snprintf(why, whylen, "its executable is unknown");
		return -EPERM;
	}
	/* After a package upgrade the running file is gone; the path is what starts it. */
	del = strstr(exe, " (deleted)");
	if (del && !del[10])
		*del = '\0';
	if (!nn_irqb_exe_name_ok(exe)) {
		snprintf(why, whylen, "its executable is not irqbalance in a system directory");
		return -EPERM;
	}
	return nn_irqb_trusted_file(&ctx->root, exe, why, whylen) ? -EPERM : 0;
}

static void report_other(struct nn_ctx *ctx, int pid, long uid, const char *exe, const char *why)
{
	struct nn_sb sb = NN_SB_INIT;

	nn_sb_escape(&sb, *exe ? exe : "?");
	nn_warn(ctx, NULL, "a process named irqbalance (pid %d, uid %ld, exe %s) is not the "
		"system's irqbalance (%s): left alone", pid, uid,
		nn_sb_str(&sb) ? nn_sb_str(&sb) : "?", why);
	nn_sb_free(&sb);
}

bool nn_irqb_is_system_pid(struct nn_ctx *ctx, int pid)
{
	char exe[PATH_MAX], why[PATH_MAX + 64];
	long uid;

	return !judge(ctx, pid, exe, sizeof(exe), &uid, why, sizeof(why));
}

/* The unit's MainPID: systemd started it, whatever its name or binary. */
static int unit_pid(void)
{
	static const char *const args[] = { "show", "-p", "MainPID", "--value",
					    "irqbalance.service", NULL };
	char out[32];
	long pid;

	if (nn_irqb_systemctl(args, out, sizeof(out)))
		return -1;
	out[strcspn(out, "\n")] = '\0';
	return !nn_parse_long(out, &pid) && pid > 0 && pid <= 1 << 22 ? (int)pid : -1;
}

bool nn_irqb_pid1_systemd(struct nn_ctx *ctx)
{
	char comm[64];

	return !nn_read_str(&ctx->root, "/proc/1/comm", comm, sizeof(comm)) &&
	       !strcmp(comm, "systemd");
}

int nn_irqb_find_pid(struct nn_ctx *ctx, bool report)
{
	char exe[PATH_MAX], why[PATH_MAX + 64];
	bool by_unit = nn_root_is_live(&ctx->root) && nn_irqb_pid1_systemd(ctx);
	int best = -1, upid = -1, r;
	struct dirent *de;
	long pid, uid;
	DIR *d;

	if (by_unit) {
		upid = unit_pid();
		if (upid > 0 && alive(ctx, upid))
			best = upid;
		if (!report)
			return best;
	}
	if (nn_root_opendir(&ctx->root, "/proc", &d))
		return best;
	while ((de = readdir(d))) {
		if (nn_parse_long(de->d_name, &pid) || pid <= 0 || pid > 1 << 22 || pid == upid)
			continue;
		r = judge(ctx, (int)pid, exe, sizeof(exe), &uid, why, sizeof(why));
		if (r == -ESRCH)
			continue;
		if (by_unit && !r)
			snprintf(why, sizeof(why), "not irqbalance.service's main process"), r = -EPERM;
		if (r) {
			if (report)
				report_other(ctx, (int)pid, uid, exe, why);
			continue;
		}
		/* Lowest pid: the answer does not depend on readdir order. */
		if (best < 0 || pid < best)
			best = (int)pid;
	}
	closedir(d);
	return best;
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
