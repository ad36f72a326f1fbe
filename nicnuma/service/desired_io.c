// SPDX-License-Identifier: GPL-2.0-or-later
/* desired_io.c - the desired-state file (/etc/nicnuma/nicnuma.conf) read,
 * written and removed through the fs root; its parsing and formatting are
 * plan/desired.c's, pure */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/service/desired_io.h"
#include "nicnuma/discover/coexist.h"

/* "/etc/nicnuma/nicnuma.conf" -> dir "/etc/nicnuma", base "nicnuma.conf" */
static int split(const char *path, char **dir, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (path[0] != '/' || !slash || !slash[1])
		return -EINVAL;
	*base = slash + 1;
	*dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	return *dir ? 0 : -ENOMEM;
}

int nn_desired_read(struct nn_ctx *ctx, const char *path, struct nn_desired *d)
{
	char why[512], *text = NULL;
	size_t len = 0;
	int err;

	path = path ? path : NN_DESIRED_PATH;
	nn_desired_init(d);
	err = nn_read_file(&ctx->root, path, &text, &len);
	if (err == -ENOENT)
		return err;
	if (err) {
		nn_err(ctx, "cannot read %s: %s", path, nn_read_strerror(err));
		return err;
	}
	err = nn_desired_parse(path, text, len, d, why, sizeof(why));
	if (err == -ENOMEM)
		nn_err(ctx, "out of memory");
	else if (err)
		nn_err(ctx, "%s", why);
	free(text);
	return err;
}

int nn_desired_write(struct nn_ctx *ctx, const char *path, const struct nn_desired *d)
{
	struct nn_sb sb = NN_SB_INIT;
	const char *base;
	char *dir = NULL;
	int dfd = -1, err;

	path = path ? path : NN_DESIRED_PATH;
	err = split(path, &dir, &base);
	if (err)
		goto out;
	err = nn_desired_format(d, &sb);
	if (err)
		goto out;
	dfd = nn_root_mkdir_p(&ctx->root, dir, 0755);
	if (dfd < 0) {
		err = dfd;
		goto out;
	}
	err = nn_write_atomic_at(dfd, base, sb.buf, sb.len, 0644);
out:
	if (err)
		nn_err(ctx, "cannot write %s: %s", path, strerror(-err));
	if (dfd >= 0)
		close(dfd);
	free(dir);
	nn_sb_free(&sb);
	return err;
}

int nn_desired_remove(struct nn_ctx *ctx, const char *path)
{
	const char *base;
	char *dir = NULL;
	int dfd, err;

	path = path ? path : NN_DESIRED_PATH;
	err = split(path, &dir, &base);
	if (err)
		return err;
	dfd = nn_root_openat(&ctx->root, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	free(dir);
	if (dfd < 0)
		return dfd;
	err = unlinkat(dfd, base, 0) < 0 ? -errno : 0;
	close(dfd);
	return err;
}

bool nn_desired_watcher_keeps(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan)
{
	struct nn_desired d;
	struct nn_plan dp;
	const char **missing = NULL;
	size_t nmissing = 0;
	bool keeps = false;

	if (nn_watch_lock_held(ctx, NULL) <= 0)
		return false;
	memset(&dp, 0, sizeof(dp));
	/* An unreadable or bad config is said by nn_desired_read; the watcher
	 * then counts as another owner. */
	if (!nn_desired_read(ctx, NULL, &d) && !nn_desired_make_plan(&d, host, &dp, &missing, &nmissing))
		keeps = nn_desired_keeps(&dp, plan);
	free(missing);
	nn_plan_free(&dp);
	nn_desired_free(&d);
	return keeps;
}

unsigned int nn_desired_claim_flags(const struct nn_desired *d)
{
	return d->claim_root_partitions ? NN_CLAIMS_ROOT_PARTITIONS : 0;
}

int nn_desired_claims(struct nn_ctx *ctx, const struct nn_desired *d, struct nn_host *host)
{
	unsigned int flags = nn_desired_claim_flags(d);

	return flags ? nn_host_claims_read(ctx, host, flags) : 0;
}
