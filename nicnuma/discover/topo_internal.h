/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topo_internal.h - what topo.c, topo_knobs.c and topo_cpuinfo.c share */
#ifndef NICNUMA_DISCOVER_TOPO_INTERNAL_H
#define NICNUMA_DISCOVER_TOPO_INTERNAL_H

#include <limits.h>
#include <stdbool.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/topo.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* A kernel integer as an int: -1 when negative (unknown) or too large. */
static inline int nn__topo_int(long v)
{
	return (v < 0 || v > INT_MAX) ? -1 : (int)v;
}

/* topo_knobs.c: NUMA balancing, zone reclaim and THP into @k (@numa: node
 * directories were found), with the CPU model when @cpu (full discovery;
 * else unknown); warnings into @ctx. */
void nn__topo_read_knobs(struct nn_ctx *ctx, struct nn_knobs *k, bool numa, bool cpu);
/* topo_knobs.c: cpu/isolated, cpu/nohz_full and isolcpus= of /proc/cmdline. */
void nn__topo_read_isolation(struct nn_ctx *ctx, struct nn_isolation *is);
/* topo_cpuinfo.c: the CPU model and hypervisor flag of /proc/cpuinfo into @k. */
void nn__topo_read_cpuinfo(struct nn_ctx *ctx, struct nn_knobs *k);

#endif
