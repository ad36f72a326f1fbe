// SPDX-License-Identifier: GPL-2.0-or-later
/* persist.c - the nicnuma-watch unit: text, file, systemctl (see persist.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/plan/desired.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/act/persist.h"
#include "nicnuma/plan/unitfile.h"
#include "nicnuma/act/watch.h"
#include "nn_version.h"

bool nn_watch_notify_supported(void)
{
#ifdef HAVE_LIBSYSTEMD
	return true;
#else
	return false;
#endif
}

int nn_watch_unit_text(const struct nn_unit_opts *o, struct nn_sb *sb)
{
	char *exe, *cfg = NULL;

	if (!o->exe || o->exe[0] != '/')
		return -EINVAL;
	exe = nn_sd_quote(o->exe, NN_SD_EXEC);
	if (o->config)
		cfg = nn_sd_quote(o->config, NN_SD_EXEC);
	if (!exe || (o->config && !cfg)) {
		free(exe);
		free(cfg);
		return -ENOMEM;
	}
	nn_sb_printf(sb,
"# " NN_WATCH_UNIT " - written by 'nicnuma enable' (nicnuma " NICNUMA_VERSION ");\n"
"# 'nicnuma disable' removes it. Keeps the desired state of " NN_DESIRED_PATH "\n"
"# across link, driver, ethtool -L and hotplug events (docs/persist.md).\n"
"[Unit]\n"
"Description=nicnuma: keep NIC IRQ, XPS and hugepage placement\n"
"DefaultDependencies=no\n"
"After=local-fs.target systemd-udevd.service systemd-udev-settle.service\n"
"Wants=network-pre.target\n"
"Before=network-pre.target shutdown.target\n"
"Conflicts=shutdown.target%s\n"
"\n"
"[Service]\n"
"Type=%s\n"
"# The first reconcile (hugepages reserved, IRQs placed) runs before READY=1.\n"
"ExecStart=%s watch%s%s\n"
"ExecReload=/bin/kill -HUP $MAINPID\n"
"Restart=on-failure\n"
"RestartSec=2\n"
"TimeoutStartSec=300\n"
"%s"
"\n"
"[Install]\n"
"WantedBy=multi-user.target\n",
		o->conflicts_irqbalance ? " irqbalance.service" : "",
		o->notify ? "notify" : "simple", exe, cfg ? " --config " : "", cfg ? cfg : "",
		o->notify ? "WatchdogSec=" "60" "\n" : "");
	free(exe);
	free(cfg);
	return nn_sb_error(sb);
}

int nn_self_exe(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

int nn_watch_unit_packaged(struct nn_ctx *ctx, char *buf, size_t size)
{
	static const char *const dirs[] = { "/usr/lib/systemd/system", "/lib/systemd/system" };
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(buf, size, "%s/" NN_WATCH_UNIT, dirs[i]);
		if (!nn_root_access(&ctx->root, buf, F_OK))
			return 1;
	}
	buf[0] = '\0';
	return 0;
}

int nn_watch_unit_write(struct nn_ctx *ctx, const char *text, size_t len)
{
	int dfd = nn_root_mkdir_p(&ctx->root, "/etc/systemd/system", 0755), err;

	if (dfd < 0)
		return dfd;
	err = nn_write_atomic_at(dfd, NN_WATCH_UNIT, text, len, 0644);
	close(dfd);
	return err;
}

int nn_watch_unit_remove(struct nn_ctx *ctx, const char *path)
{
	int dfd, err;

	/* only the file enable writes: never a packaged one */
	if (strcmp(path, NN_WATCH_UNIT_PATH))
		return -EINVAL;
	dfd = nn_root_openat(&ctx->root, "/etc/systemd/system", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (dfd < 0)
		return dfd;
	err = unlinkat(dfd, NN_WATCH_UNIT, 0) < 0 ? -errno : 0;
	close(dfd);
	return err;
}

bool nn_systemd_booted(struct nn_ctx *ctx)
{
	return nn_root_is_live(&ctx->root) && !nn_root_access(&ctx->root, "/run/systemd/system", F_OK);
}

/* fork + exec with stdout to @out (NULL: /dev/null); the exit status. */
static int run(char *const argv[], char *out, size_t outlen)
{
	int p[2] = { -1, -1 }, status;
	pid_t pid;

	if (out && pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(out ? p[1] : fd, STDOUT_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (out) {
		size_t len = 0;
		ssize_t n;

		close(p[1]);
		while (len + 1 < outlen && (n = read(p[0], out + len, outlen - 1 - len)) > 0)
			len += (size_t)n;
		out[len] = '\0';
		close(p[0]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int nn_systemctl(struct nn_ctx *ctx, const char *verb, const char *flag, bool unit)
{
	char *argv[5];
	int i = 0, err = nn_require_live(ctx, "systemctl");

	if (err)
		return err;
	argv[i++] = (char *)"systemctl";
	argv[i++] = (char *)verb;
	if (flag)
		argv[i++] = (char *)flag;
	if (unit)
		argv[i++] = (char *)NN_WATCH_UNIT;
	argv[i] = NULL;
	return run(argv, NULL, 0);
}

int nn_watch_service_show(struct nn_ctx *ctx, char *active, size_t size, int *main_pid)
{
	char out[256], *nl;
	long pid = 0;
	int err = nn_require_live(ctx, "systemctl show");

	if (err)
		return err;
	err = run((char *[]){ "systemctl", "show", "-p", "ActiveState", "-p", "MainPID", "--value",
			      NN_WATCH_UNIT, NULL }, out, sizeof(out));
	if (err)
		return err < 0 ? err : -EIO;
	/* --value prints the properties in the order asked: state, pid */
	nl = strchr(out, '\n');
	if (nl)
		*nl++ = '\0';
	snprintf(active, size, "%s", out);
	if (nl) {
		nl[strcspn(nl, "\n")] = '\0';
		nn_parse_long(nl, &pid);
	}
	*main_pid = (int)pid;
	return 0;
}

int nn_watch_state_read(struct nn_ctx *ctx, struct json_object **doc)
{
	char *text = NULL;
	size_t len;
	int err = nn_read_file(&ctx->root, NN_WATCH_RUNDIR_JSON, &text, &len);

	*doc = NULL;
	if (err)
		return err;
	*doc = json_tokener_parse(text);
	free(text);
	if (*doc && !json_object_is_type(*doc, json_type_object)) {
		json_object_put(*doc);
		*doc = NULL;
	}
	return *doc ? 0 : -EINVAL;
}
