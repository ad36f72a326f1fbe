// SPDX-License-Identifier: GPL-2.0-or-later
/* hp_parse.c - pure parsers and formatters for hugepage sizes, counts,
 * memory amounts and /proc/mounts lines */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/fileio.h"
#include "hugepages/hugepages.h"
#include "nicnuma/core/cpuset.h"

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool only_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return !*s;
}

/* Unsigned decimal digits at *@p (at least one, no sign); advances *@p. */
static int parse_digits(const char **p, unsigned long long *val)
{
	const char *s = *p;
	unsigned long long v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		unsigned int d = (unsigned int)(*s - '0');

		if (v > (ULLONG_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
		s++;
	}
	*p = s;
	*val = v;
	return 0;
}

/* A value's number: blanks, then digits; *p after them. */
static int lead_digits(const char *str, const char **p, unsigned long long *val)
{
	if (!str)
		return -EINVAL;
	*p = skip_ws(str);
	return parse_digits(p, val);
}

/* Binary unit suffix in kB: K/k -> 1, M -> 1024, G, T, P; optional "B",
 * "iB" after it ("2MB", "4GiB", "2048kB"). 0 when @s is not a unit. */
static unsigned long long unit_kb(const char *s)
{
	unsigned long long mult;

	switch (*s) {
	case 'k': case 'K': mult = 1; break;
	case 'm': case 'M': mult = 1ULL << 10; break;
	case 'g': case 'G': mult = 1ULL << 20; break;
	case 't': case 'T': mult = 1ULL << 30; break;
	case 'p': case 'P': mult = 1ULL << 40; break;
	default: return 0;
	}
	s++;
	if (*s == 'i')
		s++;
	if (*s == 'B' || *s == 'b')
		s++;
	return only_ws(s) ? mult : 0;
}

/* "<digits><unit>" in kB. */
static int parse_amount_kb(const char *str, unsigned long long *kb)
{
	const char *p;
	unsigned long long v, mult;
	int err;

	err = lead_digits(str, &p, &v);
	if (err)
		return err;
	mult = unit_kb(p);
	if (!mult)
		return -EINVAL;
	if (v > ULLONG_MAX / mult)
		return -ERANGE;
	*kb = v * mult;
	return 0;
}

int nn_hp_parse_size(const char *str, unsigned long *size_kb)
{
	unsigned long long kb;
	int err = parse_amount_kb(str, &kb);

	if (err)
		return err;
	if (kb > ULONG_MAX)
		return -ERANGE;
	/* Hugepage sizes are powers of two above the base page. */
	if (kb < 4 || (kb & (kb - 1)))
		return -EINVAL;
	*size_kb = (unsigned long)kb;
	return 0;
}

int nn_hp_parse_size_count(const char *str, unsigned long *size_kb, long *count)
{
	const char *colon = str ? strchr(str, ':') : NULL;
	char size[32];
	unsigned long kb;
	long c;
	int err;

	if (!colon || (size_t)(colon - str) >= sizeof(size))
		return -EINVAL;
	memcpy(size, str, (size_t)(colon - str));
	size[colon - str] = '\0';
	err = nn_hp_parse_size(size, &kb) ?: nn_hp_parse_count(colon + 1, &c);
	if (err)
		return err;
	if (c < 1)
		return -EINVAL;
	/* The reservation in kB must fit a long (and any sane machine). */
	if ((unsigned long)c > (unsigned long)(LONG_MAX / 2) / kb)
		return -ERANGE;
	*size_kb = kb;
	*count = c;
	return 0;
}

int nn_hp_parse_dirname(const char *name, unsigned long *size_kb)
{
	static const char pfx[] = "hugepages-";
	const char *p;
	unsigned long long v;
	int err;

	if (!name || strncmp(name, pfx, sizeof(pfx) - 1))
		return -EINVAL;
	p = name + sizeof(pfx) - 1;
	err = parse_digits(&p, &v);
	if (err)
		return err;
	if (strcmp(p, "kB"))
		return -EINVAL;
	if (v > ULONG_MAX)
		return -ERANGE;
	if (v < 4 || (v & (v - 1)))
		return -EINVAL;
	*size_kb = (unsigned long)v;
	return 0;
}

int nn_hp_parse_count(const char *str, long *count)
{
	const char *p;
	unsigned long long v;
	int err;

	err = lead_digits(str, &p, &v);
	if (err)
		return err;
	if (!only_ws(p))
		return -EINVAL;
	if (v > LONG_MAX)
		return -ERANGE;
	*count = (long)v;
	return 0;
}

int nn_hp_parse_mem(const char *str, unsigned long long *kb)
{
	return parse_amount_kb(str, kb);
}

int nn_hp_pages_for_mem(unsigned long long kb, unsigned long size_kb, long *count)
{
	unsigned long long pages;

	if (size_kb == 0)
		return -EINVAL;
	pages = kb / size_kb + (kb % size_kb ? 1 : 0);
	if (pages > LONG_MAX)
		return -ERANGE;
	*count = (long)pages;
	return 0;
}

int nn_hp_pages_kb(long count, unsigned long size_kb, unsigned long long *kb)
{
	if (count < 0)
		return -EINVAL;
	if (size_kb && (unsigned long long)count > ULLONG_MAX / size_kb)
		return -ERANGE;
	*kb = (unsigned long long)count * size_kb;
	return 0;
}

int nn_hp_format_size(unsigned long size_kb, char *buf, size_t size)
{
	static const char units[] = "KMGTP";
	unsigned long v = size_kb;
	int u = 0, n;

	while (v && !(v & 1023) && units[u + 1]) {
		v >>= 10;
		u++;
	}
	n = snprintf(buf, size, "%lu%c", v, units[u]);
	return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

int nn_hp_parse_nodes(const char *str, struct nn_cpuset *nodes, bool *all)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	int err;

	if (!str)
		return -EINVAL;
	str = skip_ws(str);
	if (!strncmp(str, "all", 3) && only_ws(str + 3)) {
		*all = true;
		nn_cpuset_zero(nodes);
		return 0;
	}
	/* Same syntax as the kernel's node lists (has_memory, cpulist). */
	err = nn_cpuset_parse_list(str, &s);
	if (err)
		return err;
	if (nn_cpuset_empty(&s)) {
		nn_cpuset_free(&s);
		return -EINVAL;
	}
	*all = false;
	nn_cpuset_free(nodes);
	*nodes = s;
	return 0;
}

void nn_hp_mount_unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* Next whitespace-separated field of a mounts line. */
static const char *field(const char **p, size_t *len)
{
	const char *s = *p, *start;

	while (*s == ' ' || *s == '\t')
		s++;
	start = s;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n')
		s++;
	*len = (size_t)(s - start);
	*p = s;
	return *len ? start : NULL;
}

int nn_hp_parse_mount_line(const char *line, unsigned long default_kb, struct nn_hp_mount *m)
{
	const char *p = line, *dev, *dir, *type, *opts;
	size_t dlen, plen, tlen, olen;
	unsigned long size_kb = default_kb;

	dev = field(&p, &dlen);
	dir = field(&p, &plen);
	type = field(&p, &tlen);
	opts = field(&p, &olen);
	if (!dev || !dir || !type || !opts)
		return -EINVAL;
	if (tlen != 9 || strncmp(type, "hugetlbfs", 9))
		return 0;
	/* Options are comma-separated; the kernel shows "pagesize=2M". */
	while (olen) {
		const char *comma = memchr(opts, ',', olen);
		size_t n = comma ? (size_t)(comma - opts) : olen;

		if (n >= 9 && !strncmp(opts, "pagesize=", 9)) {
			char val[32];
			unsigned long kb;

			if (n - 9 >= sizeof(val))
				return -EINVAL;
			memcpy(val, opts + 9, n - 9);
			val[n - 9] = '\0';
			if (nn_hp_parse_size(val, &kb))
				return -EINVAL;
			size_kb = kb;
		}
		if (!comma)
			break;
		olen -= n + 1;
		opts = comma + 1;
	}
	m->path = strndup(dir, plen);
	if (!m->path)
		return -ENOMEM;
	nn_hp_mount_unescape(m->path);
	m->size_kb = size_kb;
	return 1;
}

void nn_hp_mounts_free(struct nn_hp_mount *mounts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(mounts[i].path);
	free(mounts);
}

int nn_hp_parse_mounts(const char *text, unsigned long default_kb,
		       struct nn_hp_mount **mounts, size_t *n, size_t *bad)
{
	struct nn_hp_mount *v = NULL;
	size_t cnt = 0, cap = 0, nbad = 0;
	const char *line = text;
	char *buf = NULL;
	int err = 0;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		struct nn_hp_mount m;
		int r;

		buf = strndup(line, len);
		if (!buf) {
			err = -ENOMEM;
			goto fail;
		}
		line = nl ? nl + 1 : NULL;
		if (only_ws(buf)) {
			free(buf);
			buf = NULL;
			continue;
		}
		r = nn_hp_parse_mount_line(buf, default_kb, &m);
		free(buf);
		buf = NULL;
		if (r == -ENOMEM) {
			err = r;
			goto fail;
		}
		if (r < 0) {
			nbad++;
			continue;
		}
		if (r == 0)
			continue;
		if (NN_GROW(v, cnt, cap)) {
			free(m.path);
			err = -ENOMEM;
			goto fail;
		}
		v[cnt++] = m;
	}
	*mounts = v;
	*n = cnt;
	if (bad)
		*bad = nbad;
	return 0;
fail:
	nn_hp_mounts_free(v, cnt);
	return err;
}
