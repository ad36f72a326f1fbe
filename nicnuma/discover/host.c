// SPDX-License-Identifier: GPL-2.0-or-later
/* host.c - the whole host snapshot: topology, NICs, irqbalance
 *
 * irqbalance matters to every later stage: while it runs it rewrites the IRQ
 * affinities a plan sets. It is found the way ps would, by scanning
 * /proc/[0-9]*\/comm through the fs root, so a captured tree shows it too.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/core/pathf.h"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* argv in /proc/PID/cmdline is NUL-separated: join it with spaces. */
static char *read_cmdline(struct nn_ctx *ctx, const char *path)
{
	size_t len, i;
	char *text;

	if (nn_read_file(&ctx->root, path, &text, &len))
		return NULL;
	while (len && text[len - 1] == '\0')
		len--;
	for (i = 0; i < len; i++)
		if (text[i] == '\0')
			text[i] = ' ';
	text[len] = '\0';
	return text;
}

int nn_host_find_irqbalance(struct nn_ctx *ctx, struct nn_irqbalance_state *st)
{
	struct dirent *de;
	char comm[64];
	DIR *d;
	int err;

	st->running = false;
	st->pid = -1;
	st->cmdline = NULL;
	st->systemd = !nn_read_str(&ctx->root, "/proc/1/comm", comm, sizeof(comm)) &&
		      !strcmp(comm, "systemd");
	err = nn_root_opendir(&ctx->root, "/proc", &d);
	if (err) {
		nn_warn(ctx, "/proc", "cannot list processes (%s): irqbalance state unknown",
			strerror(-err));
		return 0;
	}
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		long pid;

		if (!all_digits(de->d_name) || nn_parse_long(de->d_name, &pid) || pid > INT_MAX)
			continue;
		if (nn_pathf(path, sizeof(path), "/proc/%s/comm", de->d_name))
			continue;
		/* Processes come and go while we scan: a vanished one is not an error. */
		if (nn_read_str(&ctx->root, path, comm, sizeof(comm)) || strcmp(comm, "irqbalance"))
			continue;
		/* Lowest PID wins, so the answer does not depend on readdir order. */
		if (st->running && st->pid < pid)
			continue;
		free(st->cmdline);
		nn_pathf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
		st->cmdline = read_cmdline(ctx, path);
		st->running = true;
		st->pid = (int)pid;
	}
	closedir(d);
	return 0;
}

static int host_discover(struct nn_ctx *ctx, struct nn_host *host, bool cpu_detail,
			 unsigned int nic_flags)
{
	int err;

	memset(host, 0, sizeof(*host));
	host->irqbalance.pid = -1;
	err = cpu_detail ? nn_topo_discover(ctx, &host->topo) : nn_topo_discover_basic(ctx, &host->topo);
	if (err)
		return err;
	err = nn_nics_discover(ctx, &host->topo, nic_flags, &host->nics, &host->nnics);
	if (err == -ENOMEM)
		goto fail;
	/* No /sys/class/net is a warning already; the topology still stands. */
	err = nn_host_find_irqbalance(ctx, &host->irqbalance);
	if (err)
		goto fail;
	return 0;
fail:
	nn_host_free(host);
	return err;
}

int nn_host_discover(struct nn_ctx *ctx, struct nn_host *host)
{
	return host_discover(ctx, host, true, 0);
}

int nn_host_discover_flags(struct nn_ctx *ctx, struct nn_host *host, unsigned int nic_flags)
{
	return host_discover(ctx, host, true, nic_flags);
}

int nn_host_discover_nics(struct nn_ctx *ctx, struct nn_host *host)
{
	return host_discover(ctx, host, false, 0);
}

void nn_host_free(struct nn_host *host)
{
	nn_topo_free(&host->topo);
	nn_nics_free(host->nics, host->nnics);
	free(host->irqbalance.cmdline);
	memset(host, 0, sizeof(*host));
	host->irqbalance.pid = -1;
}
