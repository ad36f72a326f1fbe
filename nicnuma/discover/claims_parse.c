// SPDX-License-Identifier: GPL-2.0-or-later
/* claims_parse.c - pure parsers of mountinfo's cgroup2 line and cpuset partition files */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hugepages/hugepages.h"
#include "nicnuma/discover/claims_parse.h"

/* mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE SOURCE SUPER */
static int mountinfo_line(const char *line, size_t len, char **mount)
{
	char *copy = strndup(line, len), *sep, *f[5], *tok, *sp = NULL, *fstype;
	int i = 0, found = 0;

	if (!copy)
		return -ENOMEM;
	sep = strstr(copy, " - ");
	if (!sep)
		goto out;
	*sep = '\0';
	fstype = strtok_r(sep + 3, " ", &sp);
	for (tok = strtok_r(copy, " ", &sp); tok && i < 5; tok = strtok_r(NULL, " ", &sp))
		f[i++] = tok;
	if (i < 5 || !fstype || strcmp(fstype, "cgroup2") || strcmp(f[3], "/") || f[4][0] != '/')
		goto out;
	nn_hp_mount_unescape(f[4]);
	*mount = strdup(f[4]);
	found = *mount ? 1 : -ENOMEM;
out:
	free(copy);
	return found;
}

int nn_cg_mountinfo_cgroup2(const char *text, char **mount)
{
	const char *p = text;

	*mount = NULL;
	while (p && *p) {
		size_t len = strcspn(p, "\n");
		int r = mountinfo_line(p, len, mount);

		if (r)
			return r < 0 ? r : 0;
		p += len;
		p += *p == '\n';
	}
	return -ENOENT;
}

static const char *const part_names[] = { "member", "root", "isolated" };

const char *nn_cg_part_name(enum nn_cg_part kind)
{
	return (unsigned int)kind < 3 ? part_names[kind] : "?";
}

int nn_cg_partition_parse(const char *text, enum nn_cg_part *kind, bool *invalid,
			  const char **reason, size_t *reason_len)
{
	size_t len, i, n;
	const char *p;

	*kind = NN_CG_PART_MEMBER;
	*invalid = false;
	*reason = NULL;
	*reason_len = 0;
	if (!text)
		return -EINVAL;
	len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	for (i = 0; i < 3; i++) {
		n = strlen(part_names[i]);
		if (len >= n && !strncmp(text, part_names[i], n) && (len == n || text[n] == ' '))
			break;
	}
	if (i == 3)
		return -EINVAL;
	*kind = (enum nn_cg_part)i;
	if (len == n)
		return 0;
	/* "isolated invalid (Parent is not a partition root)" */
	p = text + n;
	if (strncmp(p, " invalid", 8))
		return -EINVAL;
	p += 8;
	*invalid = true;
	if (p == text + len)
		return 0;
	if (p[0] != ' ' || p[1] != '(' || text[len - 1] != ')' || p + 2 > text + len - 1)
		return -EINVAL;
	*reason = p + 2;
	*reason_len = (size_t)(text + len - 1 - (p + 2));
	return 0;
}

bool nn_cg_has_controller(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text;

	while (p && *p) {
		size_t w;

		p += strspn(p, " \t\n");
		w = strcspn(p, " \t\n");
		if (w == n && !strncmp(p, name, n))
			return true;
		p += w;
	}
	return false;
}
