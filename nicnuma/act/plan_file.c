// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_file.c - reading a saved plan (--plan FILE, - for standard input):
 * the file I/O the pure plan layer does not do */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/act/plan_file.h"
#include "nicnuma/state/applied_plan.h"

int nn_plan_read_file(const char *path, struct nn_plan *plan, char *why, size_t whylen)
{
	const char *name = strcmp(path, "-") ? path : "on standard input";
	char *buf = NULL;
	size_t len = 0;
	int fd, ret;

	memset(plan, 0, sizeof(*plan));
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (fd < 0) {
		ret = -errno;
		snprintf(why, whylen, "cannot open plan %s: %s", name, strerror(-ret));
		return ret;
	}
	ret = nn_read_fd_bounded(fd, NN_DOC_MAX_BYTES, &buf, &len);
	if (fd != STDIN_FILENO)
		close(fd);
	if (ret == -EFBIG)
		snprintf(why, whylen, "plan %s is larger than %u MiB", name, NN_DOC_MAX_BYTES >> 20);
	else if (ret)
		snprintf(why, whylen, "cannot read plan %s: %s", name, strerror(-ret));
	else
		ret = nn_plan_parse(name, buf, len, plan, why, whylen);
	free(buf);
	return ret;
}


int nn_plan_read_applied(struct nn_ctx *ctx, struct nn_plan *plan, char **path, char *why, size_t whylen)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	memset(plan, 0, sizeof(*plan));
	ret = nn_applied_plan_read(ctx, &text, &len, path, why, whylen);
	if (!ret)
		ret = nn_plan_parse(*path, text, len, plan, why, whylen);
	if (ret && ret != -ENODATA) {
		free(*path);
		*path = NULL;
	}
	free(text);
	return ret;
}
