// SPDX-License-Identifier: GPL-2.0-or-later
/* persist.c - the nicnuma-watch unit: text, file, systemctl (see persist.h) */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/jsondoc.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/plan/desired.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/trust.h"
#include "nicnuma/service/persist.h"
#include "nicnuma/service/sd_notify.h"
#include "nicnuma/core/unitfile.h"
#include "nicnuma/service/watch.h"
#include "nn_version.h"

bool nn_watch_notify_supported(void)
{
	return nn_sd_supported();
}

/* ConditionPathExists= takes the rest of the line as the path, specifiers
 * expanded: % doubled; no control byte (a newline would end the line) and
 * no blank at either end (systemd strips it). */
static int condition_path(const char *path, struct nn_sb *sb)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t n = strlen(path);

	if (path[0] != '/' || path[n - 1] == ' ' || path[n - 1] == '\t')
		return -EINVAL;
	for (; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return -EINVAL;
	for (p = (const unsigned char *)path; *p; p++) {
		if (*p == '%')
			nn_sb_putc(sb, '%');
		nn_sb_putc(sb, (char)*p);
	}
	return 0;
}

int nn_watch_unit_text(const struct nn_unit_opts *o, struct nn_sb *sb)
{
	struct nn_sb cond = NN_SB_INIT;
	char *exe, *cfg = NULL;
	int err;

	if (!o->exe || o->exe[0] != '/')
		return -EINVAL;
	err = condition_path(o->config ? o->config : NN_DESIRED_PATH, &cond);
	if (err || nn_sb_error(&cond)) {
		nn_sb_free(&cond);
		return err ? err : -ENOMEM;
	}
	exe = nn_sd_quote(o->exe, NN_SD_EXEC);
	if (o->config)
		cfg = nn_sd_quote(o->config, NN_SD_EXEC);
	if (!exe || (o->config && !cfg)) {
		free(exe);
		free(cfg);
		nn_sb_free(&cond);
		return -ENOMEM;
	}
	if (o->packaged)
		nn_sb_puts(sb,
"# " NN_WATCH_UNIT " - installed by the nicnuma package (nicnuma " NICNUMA_VERSION "),\n"
"# disabled: 'nicnuma enable' writes /etc/systemd/system/" NN_WATCH_UNIT "\n"
"# from the same template with this host's specifics (its binary, and\n"
"# Conflicts=irqbalance.service when irqbalance = stop), which\n"
"# overrides this file, and enables it; 'nicnuma disable' removes it.\n");
	else
		nn_sb_puts(sb,
"# " NN_WATCH_UNIT " - written by 'nicnuma enable' (nicnuma " NICNUMA_VERSION ");\n"
"# 'nicnuma disable' removes it. Keeps the desired state of " NN_DESIRED_PATH "\n"
"# across link, driver, ethtool -L and hotplug events (docs/persist.md).\n");
	nn_sb_printf(sb,
"[Unit]\n"
"Description=nicnuma: keep NIC IRQ, XPS and hugepage placement\n"
"Documentation=man:nicnuma-watch(8) man:nicnuma-enable(8)\n"
"DefaultDependencies=no\n"
"After=local-fs.target systemd-udevd.service systemd-udev-settle.service\n"
"Wants=network-pre.target\n"
"Before=network-pre.target shutdown.target\n"
"Conflicts=shutdown.target%s\n"
"ConditionPathExists=%s\n"
"\n"
"[Service]\n"
"Type=%s\n"
"# The first reconcile (hugepages reserved, IRQs placed) runs before READY=1.\n"
"%s"
"ExecStart=%s watch%s%s\n"
"ExecReload=/bin/kill -HUP $MAINPID\n"
"Restart=on-failure\n"
"RestartSec=2\n"
"TimeoutStartSec=300\n"
"%s%.0d%s"
"# A claim's move must not wait behind a loaded host's threads: the lowest\n"
"# real-time priority, below every RT thread, and no child inherits it\n"
"# (docs/claims.md, Latency; a drop-in with CPUSchedulingPolicy=other and\n"
"# CPUSchedulingPriority=0 turns it off). RestrictRealtime= below still\n"
"# refuses it to the process itself.\n"
"CPUSchedulingPolicy=fifo\n"
"CPUSchedulingPriority=1\n"
"CPUSchedulingResetOnFork=yes\n"
"# Sandbox (docs/persist.md): it writes /proc/irq, sysfs (xps_cpus,\n"
"# nr_hugepages), /proc/sys/vm/compact_memory, its state and run directories\n"
"# and irqbalance's runtime drop-in; the rest of the system is read-only.\n"
"# CAP_NET_ADMIN: xps_cpus, ethtool -L and the RSS queries; CAP_SYS_PTRACE:\n"
"# /proc/PID/exe and environ of the system's irqbalance; CAP_KILL: signals\n"
"# to an irqbalance outside systemd; CAP_SYS_NICE: sched_setaffinity of the\n"
"# NAPI kthreads (their permitted set is not a subset of this one's).\n"
"CapabilityBoundingSet=CAP_NET_ADMIN CAP_SYS_PTRACE CAP_KILL CAP_SYS_NICE\n"
"NoNewPrivileges=yes\n"
"ProtectSystem=strict\n"
"StateDirectory=nicnuma\n"
"StateDirectoryMode=0700\n"
"RuntimeDirectory=nicnuma\n"
"RuntimeDirectoryMode=0755\n"
"RuntimeDirectoryPreserve=yes\n"
"ReadWritePaths=-/run/systemd/system\n"
"ProtectHome=yes\n"
"PrivateTmp=yes\n"
"PrivateMounts=yes\n"
"PrivateDevices=yes\n"
"ProtectKernelModules=yes\n"
"ProtectKernelLogs=yes\n"
"ProtectControlGroups=yes\n"
"ProtectClock=yes\n"
"ProtectHostname=yes\n"
"RestrictNamespaces=yes\n"
"RestrictRealtime=yes\n"
"RestrictSUIDSGID=yes\n"
"RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6\n"
"IPAddressDeny=any\n"
"LockPersonality=yes\n"
"MemoryDenyWriteExecute=yes\n"
"RemoveIPC=yes\n"
"SystemCallArchitectures=native\n"
"SystemCallFilter=@system-service\n"
"SystemCallFilter=~@mount\n"
"SystemCallErrorNumber=EPERM\n"
"UMask=0022\n"
"\n"
"[Install]\n"
"WantedBy=multi-user.target\n",
		o->conflicts_irqbalance ? " irqbalance.service" : "", nn_sb_str(&cond),
		o->notify ? "notify" : "simple",
		/* the sandbox below keeps the watcher from loading modules: the
		 * DPDK ports' driver is loaded first, outside it ('+'); a failure
		 * ('-') leaves the ports to the watcher's checks */
		o->load_vfio ? "# vfio-pci for the desired DPDK ports (dpdk_port), outside the sandbox.\n"
			       "ExecStartPre=-+/sbin/modprobe vfio-pci\n" : "",
		exe, cfg ? " --config " : "", cfg ? cfg : "",
		o->notify ? "WatchdogSec=" : "", o->notify ? NN_WATCH_WATCHDOG_SEC : 0,
		o->notify ? "\n" : "");
	free(exe);
	free(cfg);
	nn_sb_free(&cond);
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

/* Every helper by absolute path with the fixed environment (core/trust.h):
 * a root shell's PATH never picks the systemctl that runs. */
static int run(char *const argv[], char *out, size_t outlen)
{
	return nn_run_helper(argv, out, outlen);
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

int nn_watch_service_parse(const char *out, char *active, size_t size, int *main_pid)
{
	bool found = false;
	long pid = 0;

	if (size)
		active[0] = '\0';
	*main_pid = 0;
	while (out && *out) {
		size_t len = strcspn(out, "\n");
		char val[64];

		if (len > 12 && !strncmp(out, "ActiveState=", 12)) {
			snprintf(active, size, "%.*s", (int)(len - 12), out + 12);
			found = true;
		} else if (len > 8 && !strncmp(out, "MainPID=", 8) && len - 8 < sizeof(val)) {
			snprintf(val, sizeof(val), "%.*s", (int)(len - 8), out + 8);
			if (nn_parse_long(val, &pid) || pid < 0 || pid > INT_MAX)
				pid = 0;
		}
		out += len + (out[len] == '\n');
	}
	*main_pid = (int)pid;
	return found ? 0 : -EINVAL;
}

int nn_watch_service_show(struct nn_ctx *ctx, char *active, size_t size, int *main_pid)
{
	char out[256];
	int err = nn_require_live(ctx, "systemctl show");

	if (err)
		return err;
	/* KEY=VALUE lines, not --value: systemctl prints the properties in its
	 * D-Bus order (MainPID before ActiveState), not in the order of -p. */
	err = run((char *[]){ "systemctl", "show", "-p", "ActiveState", "-p", "MainPID",
			      NN_WATCH_UNIT, NULL }, out, sizeof(out));
	if (err)
		return err < 0 ? err : -EIO;
	return nn_watch_service_parse(out, active, size, main_pid);
}

static char *jstr_dup(struct json_object *o, const char *key, int *err)
{
	struct json_object *v;
	char *d;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	d = strdup(json_object_get_string(v));
	if (!d)
		*err = -ENOMEM;
	return d;
}

/* A non-negative integer, else -1. */
static long long jcount(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v) < 0 ? -1 : json_object_get_int64(v);
}

static void state_init(struct nn_watch_state *st)
{
	memset(st, 0, sizeof(*st));
	st->ethtool_monitor = -1;
	st->changed = st->events = st->relevant = st->applies = st->values_written = -1;
	st->elapsed_ms = -1;
}

int nn_watch_state_parse(const char *text, size_t len, struct nn_watch_state *st)
{
	struct json_object *doc = NULL, *la = NULL, *c = NULL, *v;
	struct nn_json_doc_err jerr;
	int err = 0;
	long long pid;

	state_init(st);
	/* one document: only blanks after it */
	doc = nn_json_doc_parse(text, len, 0, 0, &jerr);
	if (!doc && jerr.nomem)
		return -ENOMEM;
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		err = -EINVAL;
		goto out;
	}
	pid = jcount(doc, "pid");
	st->pid = pid > 0 && pid <= INT_MAX ? (int)pid : 0;
	st->started = jstr_dup(doc, "started", &err);
	st->config = jstr_dup(doc, "config", &err);
	if (json_object_object_get_ex(doc, "ethtool_monitor", &v) &&
	    json_object_is_type(v, json_type_boolean))
		st->ethtool_monitor = json_object_get_boolean(v);
	if (json_object_object_get_ex(doc, "last_action", &la) &&
	    json_object_is_type(la, json_type_object)) {
		st->has_action = true;
		st->time = jstr_dup(la, "time", &err);
		st->trigger = jstr_dup(la, "trigger", &err);
		st->result = jstr_dup(la, "result", &err);
		st->changed = jcount(la, "changed");
		if (json_object_object_get_ex(la, "elapsed_ms", &v) &&
		    (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) &&
		    json_object_get_double(v) >= 0)
			st->elapsed_ms = json_object_get_double(v);
	}
	if (json_object_object_get_ex(doc, "counters", &c) && json_object_is_type(c, json_type_object)) {
		st->events = jcount(c, "events");
		st->relevant = jcount(c, "relevant");
		st->applies = jcount(c, "applies");
		st->values_written = jcount(c, "values_written");
	}
out:
	json_object_put(doc);
	if (err)
		nn_watch_state_free(st);
	return err;
}

int nn_watch_state_read(struct nn_ctx *ctx, struct nn_watch_state *st)
{
	char *text = NULL;
	size_t len;
	int err = nn_read_file(&ctx->root, NN_WATCH_RUNDIR_JSON, &text, &len);

	state_init(st);
	if (err == -ENOTDIR)
		err = -ENOENT;
	if (err)
		return err;
	err = nn_watch_state_parse(text, len, st);
	free(text);
	return err;
}

void nn_watch_state_free(struct nn_watch_state *st)
{
	free(st->started);
	free(st->config);
	free(st->time);
	free(st->trigger);
	free(st->result);
	state_init(st);
}

bool nn_watch_result_ok(const char *result)
{
	/* skipped: none of the desired NICs is on the host, nothing to do;
	 * not a failed apply (nicnuma_desired_nics_present says it). */
	return result && (!strcmp(result, "applied") || !strcmp(result, "unchanged") ||
			  !strcmp(result, "skipped"));
}
