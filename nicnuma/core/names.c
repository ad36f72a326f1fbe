// SPDX-License-Identifier: GPL-2.0-or-later
/* names.c - checked names for paths (see names.h) */
#include <errno.h>
#include <string.h>

#include "nicnuma/core/names.h"

static int no(const char **why, const char *rule)
{
	if (why)
		*why = rule;
	return -EINVAL;
}

/* The kernel's isspace() is Latin-1: 0xa0 (no-break space) counts too. */
static int kspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

int nn_name_ifname(const char *name, const char **why)
{
	const unsigned char *p = (const unsigned char *)name;

	if (!name || !*name)
		return no(why, "an interface name cannot be empty");
	if (strnlen(name, NN_IFNAMSIZ) >= NN_IFNAMSIZ)
		return no(why, "an interface name is at most 15 bytes");
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return no(why, "'.' and '..' are not interface names");
	for (; *p; p++) {
		if (*p == '/')
			return no(why, "'/' is not allowed in an interface name");
		if (*p == ':')
			return no(why, "':' is not allowed in an interface name");
		if (kspace(*p))
			return no(why, "whitespace is not allowed in an interface name");
	}
	return 0;
}

int nn_name_decimal(const char *s, unsigned long max, unsigned long *val, const char **why)
{
	unsigned long v = 0;
	const char *p;

	if (!s || !*s)
		return no(why, "not a number");
	if (s[0] == '0' && s[1])
		return no(why, "a leading zero");
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return no(why, "not a decimal number");
		/* the digit first: max - digit must not wrap (max 1, "2") */
		if ((unsigned long)(*p - '0') > max || v > (max - (unsigned long)(*p - '0')) / 10)
			return no(why, "out of range");
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (val)
		*val = v;
	return 0;
}

int nn_name_queue(const char *name, char *dir, int *index, const char **why)
{
	unsigned long v;

	if (!name || (strncmp(name, "rx-", 3) && strncmp(name, "tx-", 3)))
		return no(why, "a queue is rx-N or tx-N");
	if (nn_name_decimal(name + 3, NN_QUEUE_MAX, &v, why))
		return -EINVAL;
	if (dir)
		*dir = name[0];
	if (index)
		*index = (int)v;
	return 0;
}

int nn_name_irq(const char *s, int *irq, const char **why)
{
	unsigned long v;

	if (nn_name_decimal(s, NN_IRQ_MAX, &v, why))
		return -EINVAL;
	if (irq)
		*irq = (int)v;
	return 0;
}

int nn_name_node(const char *s, int *node, const char **why)
{
	unsigned long v;

	if (nn_name_decimal(s, NN_NODE_MAX, &v, why))
		return -EINVAL;
	if (node)
		*node = (int)v;
	return 0;
}

int nn_name_hugepage_dir(const char *name, unsigned long *kb, const char **why)
{
	char digits[24];
	const char *end;
	size_t n;

	if (!name || strncmp(name, "hugepages-", 10))
		return no(why, "a hugepage size directory is hugepages-NkB");
	end = strstr(name + 10, "kB");
	if (!end || end[2])
		return no(why, "a hugepage size directory is hugepages-NkB");
	n = (size_t)(end - (name + 10));
	if (n >= sizeof(digits))
		return no(why, "out of range");
	memcpy(digits, name + 10, n);
	digits[n] = '\0';
	/* 16 GiB pages are the largest any architecture has. */
	return nn_name_decimal(digits, 16UL << 20, kb, why);
}
