// SPDX-License-Identifier: GPL-2.0-or-later
/* topo_cpuinfo.c - the CPU model and hypervisor flag, from /proc/cpuinfo as each arch spells it */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/discover/topo.h"
#include "nicnuma/discover/topo_internal.h"

struct cpuinfo_scan {
	struct nn_knobs *k;
	bool have_model, have_flags;
	/* Other architectures' spellings, used when there is no "model name":
	 * POWER "cpu", LoongArch "Model Name", RISC-V "uarch"/"isa", arm64 "CPU
	 * implementer"/"CPU part", s390 "vendor_id" + "machine". */
	char power[96], loong[96], uarch[96], isa[96], vendor[32], machine[32];
	long implementer, part;
};

static bool is_word(const char *p, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - p) == n && !memcmp(p, w, n);
}

static void keep(char *dst, size_t size, const char *v, const char *end)
{
	if (!dst[0])
		snprintf(dst, size, "%.*s", (int)(end - v), v);
}

static long hex_field(const char *v, const char *end)
{
	char buf[24], *e;
	long x;

	snprintf(buf, sizeof(buf), "%.*s", (int)(end - v), v);
	errno = 0;
	x = strtol(buf, &e, 0);
	return errno || e == buf || *e ? -1 : x;
}

static int cpuinfo_line(void *arg, const char *line, const char *end)
{
	struct cpuinfo_scan *s = arg;
	const char *colon = memchr(line, ':', (size_t)(end - line)), *key_end, *v;

	if (!colon)
		return 0;
	key_end = colon;
	while (key_end > line && (key_end[-1] == ' ' || key_end[-1] == '\t'))
		key_end--;
	v = colon + 1;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (!s->have_model && is_word(line, key_end, "model name")) {
		snprintf(s->k->cpu_model, sizeof(s->k->cpu_model), "%.*s", (int)(end - v), v);
		s->have_model = true;
	} else if (!s->have_flags && is_word(line, key_end, "flags")) {
		s->have_flags = true;
		s->k->hypervisor = 0;
		while (v < end) {
			const char *f = v;

			while (v < end && *v != ' ' && *v != '\t')
				v++;
			if (is_word(f, v, "hypervisor"))
				s->k->hypervisor = 1;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
		}
	} else if (is_word(line, key_end, "cpu")) {
		keep(s->power, sizeof(s->power), v, end);
	} else if (is_word(line, key_end, "Model Name")) {
		keep(s->loong, sizeof(s->loong), v, end);
	} else if (is_word(line, key_end, "uarch")) {
		keep(s->uarch, sizeof(s->uarch), v, end);
	} else if (is_word(line, key_end, "isa")) {
		keep(s->isa, sizeof(s->isa), v, end);
	} else if (is_word(line, key_end, "CPU implementer")) {
		if (s->implementer < 0)
			s->implementer = hex_field(v, end);
	} else if (is_word(line, key_end, "CPU part")) {
		if (s->part < 0)
			s->part = hex_field(v, end);
	} else if (is_word(line, key_end, "vendor_id")) {
		keep(s->vendor, sizeof(s->vendor), v, end);
	} else if (is_word(line, key_end, "machine")) {
		keep(s->machine, sizeof(s->machine), v, end);
	}
	return s->have_model && s->have_flags;	/* 1 stops the read */
}

/* arm64 parts as lscpu names them (the common server and board cores). */
static const char *arm_part(long impl, long part, const char **vendor)
{
	static const struct { long impl, part; const char *vendor, *name; } parts[] = {
		{ 0x41, 0xd03, "ARM", "Cortex-A53" }, { 0x41, 0xd08, "ARM", "Cortex-A72" },
		{ 0x41, 0xd0b, "ARM", "Cortex-A76" }, { 0x41, 0xd0c, "ARM", "Neoverse-N1" },
		{ 0x41, 0xd40, "ARM", "Neoverse-V1" }, { 0x41, 0xd49, "ARM", "Neoverse-N2" },
		{ 0x41, 0xd4f, "ARM", "Neoverse-V2" }, { 0x41, 0xd8e, "ARM", "Neoverse-N3" },
		{ 0x48, 0xd01, "HiSilicon", "Kunpeng-920" }, { 0x46, 0x001, "Fujitsu", "A64FX" },
		{ 0x43, 0x0af, "Cavium", "ThunderX2" }, { 0xc0, 0xac3, "Ampere", "Ampere-1" },
		{ 0xc0, 0xac4, "Ampere", "Ampere-1a" }, { 0x61, 0x039, "Apple", "M2" },
	};
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].impl == impl && parts[i].part == part) {
			*vendor = parts[i].vendor;
			return parts[i].name;
		}
	return NULL;
}

/* The CPU model as the architecture's /proc/cpuinfo spells it, when there is
 * no x86-style "model name". */
static void other_model(struct cpuinfo_scan *s)
{
	char *m = s->k->cpu_model;
	size_t n = sizeof(s->k->cpu_model);
	const char *vendor = NULL, *name;

	if (s->loong[0])
		snprintf(m, n, "%s", s->loong);
	else if (s->power[0])
		snprintf(m, n, "%s", s->power);
	else if (s->uarch[0])
		snprintf(m, n, "%s", s->uarch);
	else if (s->isa[0])
		snprintf(m, n, "RISC-V %s", s->isa);
	else if (s->implementer >= 0 && s->part >= 0 && (name = arm_part(s->implementer, s->part, &vendor)))
		snprintf(m, n, "%s %s", vendor, name);
	else if (s->implementer >= 0 && s->part >= 0)
		snprintf(m, n, "arm64 implementer 0x%02lx part 0x%03lx", s->implementer, s->part);
	else if (!strncmp(s->vendor, "IBM/S390", 8) && s->machine[0])
		snprintf(m, n, "%s machine %s", s->vendor, s->machine);
	s->have_model = m[0] != '\0';
}

/* First "model name" and the "flags" line of /proc/cpuinfo, streamed: on x86
 * the first CPU's block is all it takes (the whole file is 1.5 KB per CPU);
 * other architectures name the model their own way (other_model). */
void nn__topo_read_cpuinfo(struct nn_ctx *ctx, struct nn_knobs *k)
{
	const char *path = "/proc/cpuinfo";
	struct cpuinfo_scan s = { .k = k, .implementer = -1, .part = -1 };
	int err;

	k->hypervisor = -1;
	k->cpu_model[0] = '\0';
	k->cpu_vendor[0] = '\0';
	err = nn_read_lines(&ctx->root, path, cpuinfo_line, &s);
	if (err < 0) {
		nn_warn(ctx, path, "cannot read: %s; CPU model and hypervisor flag unknown",
			strerror(-err));
		return;
	}
	/* x86's vendor_id comes before its model name: the IOMMU's boot
	 * arguments are the vendor's (intel_iommu=, AMD's on by default) */
	snprintf(k->cpu_vendor, sizeof(k->cpu_vendor), "%s", s.vendor);
	if (!s.have_model)
		other_model(&s);
	if (!s.have_model && !s.have_flags)
		nn_warn(ctx, path, "no CPU model line (model name, cpu, Model Name, uarch, isa, "
			"CPU implementer/part, machine) and no 'flags' line: CPU model and hypervisor flag unknown");
}
