// SPDX-License-Identifier: GPL-2.0-or-later
/* boot_args.c - the words of --boot-args, and an argument list's memory */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "boot/boot.h"

static const struct {
	const char *name;
	unsigned int bit;
} names[] = {
	{ "hugepages", NN_BARG_HUGEPAGES },
	{ "iommu", NN_BARG_IOMMU },
	{ "isolcpus", NN_BARG_ISOLCPUS },
	{ "nohz_full", NN_BARG_NOHZ_FULL },
	{ "rcu_nocbs", NN_BARG_RCU_NOCBS },
	{ "irqaffinity", NN_BARG_IRQAFFINITY },
};

#define NNAMES (sizeof(names) / sizeof(names[0]))

void nn_boot_args_free(struct nn_boot_arg *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(a[i].name);
		free(a[i].text);
		free(a[i].source);
		free(a[i].reason);
	}
	free(a);
}

void nn_boot_skips_free(struct nn_boot_skip *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].name);
		free(s[i].source);
		free(s[i].reason);
	}
	free(s);
}

unsigned int nn_boot_name_bit(const char *name)
{
	size_t i;

	if (!strcmp(name, "intel_iommu") || !strcmp(name, "iommu.passthrough"))
		return NN_BARG_IOMMU;
	for (i = 0; i < NNAMES; i++)
		if (!strcmp(name, names[i].name))
			return names[i].bit;
	return 0;
}

int nn_boot_mode_parse(const char *s, enum nn_boot_mode *mode, unsigned int *bits, char *bad, size_t badlen)
{
	const char *p = s;

	*bits = 0;
	if (!s || !*s) {
		snprintf(bad, badlen, "%s", "");
		return -EINVAL;
	}
	if (!strcmp(s, "auto") || !strcmp(s, "none")) {
		*mode = !strcmp(s, "auto") ? NN_BOOT_AUTO : NN_BOOT_NONE;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < NNAMES; i++)
			if (strlen(names[i].name) == n && !memcmp(p, names[i].name, n))
				break;
		if (i == NNAMES) {
			snprintf(bad, badlen, "%.*s", (int)n, p);
			return -EINVAL;
		}
		*bits |= names[i].bit;
		p += n;
		if (*p == ',' && p[1])
			p++;
		else if (*p) {
			snprintf(bad, badlen, "%s", p);
			return -EINVAL;
		}
	}
	*mode = NN_BOOT_NAMED;
	return 0;
}

void nn_boot_names_format(unsigned int bits, char *buf, size_t len)
{
	struct nn_sb sb = NN_SB_INIT;
	size_t i;

	for (i = 0; i < NNAMES; i++)
		if (bits & names[i].bit)
			nn_sb_printf(&sb, "%s%s", sb.len ? "," : "", names[i].name);
	snprintf(buf, len, "%s", nn_sb_str(&sb) ? nn_sb_str(&sb) : "");
	nn_sb_free(&sb);
}
