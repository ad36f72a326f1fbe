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

#include "nicnuma/core/parse.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/proc.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/trust.h"
#include "nicnuma/core/ctx.h"
#include "irq/irqbalance_id.h"

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

int nn_irqb_system_exe(struct nn_ctx *ctx, const char *hint, char *buf, size_t size)
{
	char why[PATH_MAX + 64], path[64];
	size_t i;

	if (hint && nn_irqb_exe_name_ok(hint) && !nn_trusted_file(&ctx->root, hint, why,
									  sizeof(why)))
		return snprintf(buf, size, "%s", hint) < (int)size ? 0 : -ENAMETOOLONG;
	for (i = 0; i < NSYSDIRS; i++) {
		snprintf(path, sizeof(path), "%s/irqbalance", sysdirs[i]);
		if (!nn_trusted_file(&ctx->root, path, why, sizeof(why)))
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
		   nn_trusted_file(&ctx->root, v, why, sizeof(why))) {
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
	char *argv[8] = { (char *)"systemctl" };
	size_t i;

	for (i = 0; args[i] && i + 2 < sizeof(argv) / sizeof(argv[0]); i++)
		argv[i + 1] = (char *)args[i];
	/* By absolute path, with the one fixed environment (core/trust.h). */
	return nn_run_helper(argv, out, outlen);
}

char *nn_irqb_ban_path(const struct nn_ctx *ctx)
{
	char *p;

	return asprintf(&p, "%s/%s", ctx->state_dir, NN_IRQB_BAN_SCRIPT) < 0 ? NULL : p;
}

/* A process that has exited (zombie, dead) or vanished is not running. */
static bool alive(struct nn_ctx *ctx, int pid)
{
	struct nn_proc_stat ps;
	int err;

	err = nn_proc_read_stat(&ctx->root, NULL, pid, &ps);
	if (err)	/* gone; or a captured tree, which keeps no stat */
		return err == -ESRCH && !nn_root_is_live(&ctx->root);
	return ps.state && ps.state != 'Z' && ps.state != 'X';
}

/* The real and effective uid of @pid (core/proc.h's status reader); -ESRCH
 * when its status is absent. */
static int read_uids(struct nn_ctx *ctx, int pid, long *ruid, long *euid)
{
	struct nn_proc_status st;
	int err = nn_proc_read_status(&ctx->root, pid, &st);

	if (!err && !st.has_uid)
		err = -EINVAL;
	if (!err) {
		*ruid = st.uid_real;
		*euid = st.uid_eff;
	}
	nn_proc_status_free(&st);
	return err;
}

/* " (deleted)" after a package upgrade: the running file is gone, but the
 * path is still the one that starts it. */
static void undeleted(char *exe)
{
	char *del = strstr(exe, " (deleted)");

	if (del && !del[10])
		*del = '\0';
}

/* Whether @pid runs a program called irqbalance at all: the file name of its
 * executable, whatever it named itself since (comm is the process's to
 * change). One readlink per process: a kernel thread or an exited process has
 * no executable and is none. Where the link cannot be read (another user's
 * process when we are not root; a captured tree, which keeps only comm and
 * cmdline), its comm. @exe receives the link (undeleted), "" when unknown;
 * *@lerr the readlink's result. */
static bool named_irqbalance(struct nn_ctx *ctx, const struct nn_root *proc, int pid, char *exe,
			     size_t exelen, int *lerr)
{
	char comm[NN_PROC_COMM_MAX];
	const char *base;

	*lerr = nn_proc_read_exe(proc, pid, exe, exelen);
	if (!*lerr) {
		undeleted(exe);
		base = strrchr(exe, '/');
		return !strcmp(base ? base + 1 : exe, "irqbalance");
	}
	exe[0] = '\0';
	if (*lerr == -ENOENT && nn_root_is_live(&ctx->root))
		return false;
	return !nn_proc_read_comm(&ctx->root, pid, comm, sizeof(comm)) &&
	       !strcmp(comm, "irqbalance");
}

/* Whether @pid is the system's irqbalance (0), not an irqbalance at all
 * (-ESRCH), or one named so that fails the rule (-EPERM, @why says how).
 * @exe: its checked executable, "" for a captured tree that lacks it.
 * @proc: ctx->root, or a view of /proc for a scan (one lookup fewer per
 * process: the scan's cost grows with every process on the host). */
static int judge(struct nn_ctx *ctx, const struct nn_root *proc, int pid, char *exe, size_t exelen,
		 long *uid, char *why, size_t whylen)
{
	long euid = -1;
	int err, lerr;

	*uid = -1;
	if (!named_irqbalance(ctx, proc, pid, exe, exelen, &lerr) || !alive(ctx, pid))
		return -ESRCH;
	err = read_uids(ctx, pid, uid, &euid);
	/* A captured tree keeps only comm and cmdline (scripts/capture-host):
	 * its word is taken for reporting; nothing is ever done under it. */
	if (!nn_root_is_live(&ctx->root) && err == -ESRCH && lerr == -ENOENT)
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
	if (!nn_irqb_exe_name_ok(exe)) {
		snprintf(why, whylen, "its executable is not irqbalance in a system directory");
		return -EPERM;
	}
	return nn_trusted_file(&ctx->root, exe, why, whylen) ? -EPERM : 0;
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

	return !judge(ctx, &ctx->root, pid, exe, sizeof(exe), &uid, why, sizeof(why));
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

	return !nn_proc_read_comm(&ctx->root, 1, comm, sizeof(comm)) &&
	       !strcmp(comm, "systemd");
}

/* @pid1_systemd: nn_irqb_pid1_systemd's answer, read once by the caller. */
static int find_pid(struct nn_ctx *ctx, bool report, bool pid1_systemd)
{
	char exe[PATH_MAX], why[PATH_MAX + 64];
	bool by_unit = nn_root_is_live(&ctx->root) && pid1_systemd;
	int best = -1, upid = -1, r;
	struct nn_root procv;
	struct dirent *de;
	long pid, uid, *kt = NULL;
	size_t nkt = 0;
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
	/* Without the view (no fd left) each path is walked from the root. */
	nn_root_view_open(&ctx->root, "/proc", &procv);
	/* The kernel's threads need no readlink each: 2,000 on a 512-CPU host. */
	if (nn_root_is_live(&ctx->root))
		kt = nn_proc_kthreadd_children(&ctx->root, &nkt);
	while ((de = readdir(d))) {
		if (nn_parse_long(de->d_name, &pid) || pid <= 0 || pid > 1 << 22 || pid == upid)
			continue;
		if (nn_proc_pid_listed(kt, nkt, pid))
			continue;
		r = judge(ctx, &procv, (int)pid, exe, sizeof(exe), &uid, why, sizeof(why));
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
	nn_root_view_close(&procv);
	free(kt);
	closedir(d);
	return best;
}

int nn_irqb_find_pid(struct nn_ctx *ctx, bool report)
{
	return find_pid(ctx, report, nn_root_is_live(&ctx->root) && nn_irqb_pid1_systemd(ctx));
}

void nn_irqb_proc_free(struct nn_irqb_proc *p)
{
	free(p->exe);
	vec_free(p->argv, p->argc);
	vec_free(p->env, p->nenv);
	memset(p, 0, sizeof(*p));
	p->pid = -1;
}

/* The daemon's executable if it passes the exe rule, else NULL. */
static char *checked_exe(struct nn_ctx *ctx, int pid)
{
	char link[PATH_MAX], why[PATH_MAX + 64];

	if (nn_proc_read_exe(&ctx->root, pid, link, sizeof(link)))
		return NULL;
	undeleted(link);
	if (!nn_irqb_exe_name_ok(link)) {
		nn_warn(ctx, link, "irqbalance pid %d: its executable is not a system irqbalance", pid);
		return NULL;
	}
	if (nn_trusted_file(&ctx->root, link, why, sizeof(why))) {
		nn_warn(ctx, link, "irqbalance pid %d: its executable is not a system irqbalance: %s",
			pid, why);
		return NULL;
	}
	return strdup(link);
}

int nn_irqb_inspect(struct nn_ctx *ctx, struct nn_irqb_proc *p)
{
	char **raw = NULL, *ban = NULL;
	size_t n = 0;
	int err = 0;

	memset(p, 0, sizeof(*p));
	p->pid = -1;
	p->systemd = nn_irqb_pid1_systemd(ctx);
	p->pid = find_pid(ctx, true, p->systemd);
	if (p->pid < 0)
		return 0;
	p->exe = checked_exe(ctx, p->pid);
	ban = nn_irqb_ban_path(ctx);
	if (!ban)
		return -ENOMEM;
	/* Only what irqbalance documents travels with a restart (and the log). */
	if (!nn_proc_read_cmdline(&ctx->root, p->pid, &raw, &n))
		err = nn_irqb_filter_argv(ctx, p->exe, raw, n, ban, true, &p->argv, &p->argc);
	else
		err = nn_irqb_filter_argv(ctx, p->exe, NULL, 0, ban, true, &p->argv, &p->argc);
	vec_free(raw, n);
	raw = NULL;
	n = 0;
	if (!err && !nn_proc_read_environ(&ctx->root, p->pid, &raw, &n))
		err = nn_irqb_filter_env(ctx, raw, n, &p->env, &p->nenv);
	vec_free(raw, n);
	free(ban);
	if (err)
		nn_irqb_proc_free(p);
	return err;
}

static bool is_ban_script(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && !strcmp(slash + 1, NN_IRQB_BAN_SCRIPT);
}

bool nn_irqb_is_fenced(const struct nn_irqb_proc *p)
{
	size_t i;

	for (i = 0; i < p->argc; i++) {
		const char *a = p->argv[i];

		/* The whole word: "--policyscript=" has no '/', so its last
		 * component is the value's (and GCC's -O2 inliner does not
		 * misjudge a + 15 as past the end). */
		if (!strncmp(a, "--policyscript=", 15) && is_ban_script(a))
			return true;
		if ((!strcmp(a, "--policyscript") || !strcmp(a, "-l")) && i + 1 < p->argc &&
		    is_ban_script(p->argv[i + 1]))
			return true;
	}
	return false;
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
