// SPDX-License-Identifier: GPL-2.0-or-later
/* topo_knobs.c - the kernel knobs: NUMA balancing, zone reclaim, THP, CPU isolation
 *
 * Rules: docs/discovery.md, "The knobs" and "Isolated CPUs".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/discover/topo.h"
#include "nicnuma/discover/topo_internal.h"

/* A knob file: 0, or -ENOENT when it is not there (the caller decides
 * whether that is a kernel without the feature or a fault); other failures
 * warn here. */
static int read_int_knob(struct nn_ctx *ctx, const char *path, const char *what, int *out)
{
	long v;
	int err = nn_read_long(&ctx->root, path, &v);

	*out = err ? -1 : nn__topo_int(v);
	if (err == -EINVAL || err == -ERANGE)
		nn_warn(ctx, path, "malformed %s (not an integer): unknown", what);
	else if (err && err != -ENOENT)
		nn_warn(ctx, path, "cannot read %s: %s", what, strerror(-err));
	return err == -ENOENT ? err : 0;
}

static void read_choice_knob(struct nn_ctx *ctx, const char *path, char *buf, size_t size)
{
	char *text;
	int err;

	buf[0] = '\0';
	err = nn_read_file(&ctx->root, path, &text, NULL);
	if (err) {
		nn_warn(ctx, path, "cannot read: %s", strerror(-err));
		return;
	}
	err = nn_parse_bracketed(text, buf, size);
	free(text);
	if (err) {
		buf[0] = '\0';
		nn_warn(ctx, path, "no [selected] value in it: unknown");
	}
}

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* A knob of a feature the kernel was built without has no file: that is
 * "not available", not a fault. It is a fault when the feature's other
 * files say it is there: zone_reclaim_mode exists with CONFIG_NUMA (@numa:
 * node directories were found), THP's files with their directory. */
void nn__topo_read_knobs(struct nn_ctx *ctx, struct nn_knobs *k, bool numa, bool cpu)
{
	const char *zr = "/proc/sys/vm/zone_reclaim_mode";
	DIR *d = NULL;

	k->absent = 0;
	if (read_int_knob(ctx, "/proc/sys/kernel/numa_balancing", "kernel.numa_balancing",
			  &k->numa_balancing))
		k->absent |= NN_KNOB_NUMA_BALANCING;
	if (read_int_knob(ctx, zr, "vm.zone_reclaim_mode", &k->zone_reclaim_mode)) {
		if (numa)
			nn_warn(ctx, zr, "missing although the kernel has NUMA nodes: unknown");
		else
			k->absent |= NN_KNOB_ZONE_RECLAIM;
	}
	k->thp_enabled[0] = k->thp_defrag[0] = '\0';
	if (nn_root_opendir(&ctx->root, THP_DIR, &d) == -ENOENT) {
		k->absent |= NN_KNOB_THP;
	} else {
		if (d)
			closedir(d);
		read_choice_knob(ctx, THP_DIR "/enabled", k->thp_enabled, sizeof(k->thp_enabled));
		read_choice_knob(ctx, THP_DIR "/defrag", k->thp_defrag, sizeof(k->thp_defrag));
	}
	/* The CPU model and hypervisor flag only where they are shown: the
	 * kernel formats /proc/cpuinfo per CPU (and on x86 asks each for its
	 * clock), a cost apply, nics and observe need not pay. */
	if (cpu) {
		nn__topo_read_cpuinfo(ctx, k);
	} else {
		k->hypervisor = -1;
		k->cpu_model[0] = '\0';
	}
}

/* A sysfs CPU list of the isolation files: true when read. A missing file
 * is not a fault (nohz_full needs CONFIG_NO_HZ_FULL; a capture may predate
 * these files): unknown, no warning. */
static bool read_isol_list(struct nn_ctx *ctx, const char *path, struct nn_cpuset *set)
{
	char *text = NULL;
	int err = nn_read_file(&ctx->root, path, &text, NULL);

	if (!err)
		err = nn_parse_sys_cpulist(text, set);
	free(text);
	if (err && err != -ENOENT)
		nn_warn(ctx, path, "%s: isolated CPUs of this source unknown",
			err == -EINVAL || err == -ERANGE ? "malformed cpulist" : strerror(-err));
	return !err;
}

/* isolated, nohz_full and the isolcpus= words of the command line. */
void nn__topo_read_isolation(struct nn_ctx *ctx, struct nn_isolation *is)
{
	const char *cmdline = "/proc/cmdline", *bad = NULL;
	char *text = NULL;
	int err, badlen = 0;

	is->isolated_known = read_isol_list(ctx, CPU_DIR "/isolated", &is->isolated);
	is->nohz_full_known = read_isol_list(ctx, CPU_DIR "/nohz_full", &is->nohz_full);
	err = nn_read_file(&ctx->root, cmdline, &text, NULL);
	if (err) {
		if (err != -ENOENT)
			nn_warn(ctx, cmdline, "cannot read: %s; isolcpus= unknown", strerror(-err));
		return;
	}
	is->cmdline_known = true;
	err = nn_parse_isolcpus(text, &is->isolcpus, &is->isolcpus_flags, &bad, &badlen);
	if (err == -EINVAL)
		nn_warn(ctx, cmdline, "'%.*s': unknown isolcpus= flag or bad CPU list "
			"(flags: nohz, domain, managed_irq): ignored", badlen, bad ? bad : "");
	else if (err && err != -ENOENT)
		nn_warn(ctx, cmdline, "cannot parse isolcpus=: %s", strerror(-err));
	free(text);
}
