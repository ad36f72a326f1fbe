// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_boot_diff.c - kernel command lines and the plan's diff: the first
 * byte picks the planned arguments, the rest is "running|next|another
 * owner's|nicnuma's" lines. Never crash; every parsed word is split as
 * written; a refusal is a parse error naming where; and the diff's promises:
 * nicnuma's words after it are planned words or its own words before (never
 * another owner's), and applying it twice changes nothing the second time
 * (the same words, no change, no reboot asked for by a second apply). */
#include <errno.h>

#include "fuzz.h"
#include "boot/cmdline.h"

static const struct nn_boot_arg menu[] = {
	{ "hugepages", "hugepagesz=1G hugepages=0:4,1:4", "hugepages", "r" },
	{ "intel_iommu", "intel_iommu=on", "iommu", "r" },
	{ "iommu", "iommu=pt", "iommu", "r" },
	{ "isolcpus", "isolcpus=managed_irq,domain,2-7", "isolation", "r" },
	{ "nohz_full", "nohz_full=2-7", "isolation", "r" },
	{ "rcu_nocbs", "rcu_nocbs=2-7", "isolation", "r" },
	{ "irqaffinity", "irqaffinity=0-1", "isolation", "r" },
};

static bool has_word(const char *line, const char *w)
{
	struct nn_kline l;
	char why[128];
	bool in = false;

	if (!line || nn_kline_parse(line, false, &l, why, sizeof(why)))
		return false;
	for (size_t i = 0; i < l.n && !in; i++)
		in = !strcmp(l.w[i].text, w);
	nn_kline_free(&l);
	return in;
}

static char *join(const struct nn_boot_diff *d)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < d->nours; i++)
		len += strlen(d->ours[i]) + 1;
	s = calloc(1, len);
	FUZZ_ASSERT(s);
	for (i = 0; i < d->nours; i++) {
		strcat(s, i ? " " : "");
		strcat(s, d->ours[i]);
	}
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_boot_arg planned[7];
	struct nn_boot_source src;
	struct nn_boot_diff d, d2;
	struct nn_kline l;
	char *in, *part[4] = { NULL, NULL, NULL, NULL }, *p, why[512], *after, *again;
	size_t n = 0, i, k;
	int err;

	if (!size)
		return 0;
	for (i = 0; i < 7; i++)
		if (data[0] & (1u << i))
			planned[n++] = menu[i];
	in = fuzz_str(data + 1, size - 1);
	p = in;
	for (k = 0; k < 4; k++) {
		part[k] = p;
		p = strchr(p, '|');
		if (!p)
			break;
		*p++ = '\0';
	}
	/* every word as written */
	if (!nn_kline_parse(part[0], false, &l, why, sizeof(why))) {
		for (i = 0; i < l.n; i++)
			FUZZ_ASSERT(l.w[i].text && l.w[i].key && strlen(l.w[i].text) >= strlen(l.w[i].key));
		nn_kline_free(&l);
	}
	src.owner = "GRUB_CMDLINE_LINUX (/etc/default/grub)";
	src.text = part[2] ? part[2] : "";
	err = nn_boot_diff_make(planned, n, part[0], part[1], &src, 1, part[3], &d, why, sizeof(why));
	if (err) {
		FUZZ_ASSERT(err == -EINVAL || err == -ENOMEM);
		FUZZ_ASSERT(err == -ENOMEM || !strncmp(why, "in ", 3));
		free(in);
		return 0;
	}
	FUZZ_ASSERT(d.n >= n);
	for (i = 0; i < d.nours; i++) {
		bool mine = has_word(part[3], d.ours[i]), plan = false;

		for (k = 0; k < n && !plan; k++)
			plan = has_word(planned[k].text, d.ours[i]);
		FUZZ_ASSERT(mine || plan);
	}
	if (!d.nconflicts) {
		after = join(&d);
		err = nn_boot_diff_make(planned, n, part[0], part[1], &src, 1, after, &d2, why, sizeof(why));
		FUZZ_ASSERT(!err);
		FUZZ_ASSERT(d2.nchanges == 0 && d2.nconflicts == 0);
		again = join(&d2);
		FUZZ_ASSERT(!strcmp(after, again));
		free(again);
		free(after);
		nn_boot_diff_free(&d2);
	}
	nn_boot_diff_free(&d);
	free(in);
	return 0;
}
