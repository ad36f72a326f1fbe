// SPDX-License-Identifier: GPL-2.0-or-later
/* undo.c - the snapshot/undo log: persisted before each write, replayed in reverse
 *
 * The log lives in ctx->state_dir resolved inside the fs root, so a fixture
 * run keeps its snapshots in its own tree and never touches /var/lib. Every
 * save goes through nn_write_atomic_at(): after a crash the log is either the
 * previous or the new version, never a torn one.
 *
 * Replaying a log is acting as root on what a file says, so reading one is
 * strict (see undo.h): owner and mode of the directory and the file, a
 * regular file with one link, a size cap, every change validated by its
 * kind before the first one is restored. The log itself knows no kind: each
 * change carries its struct nn_change_ops.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/state/undo.h"

#define LOG_SUFFIX ".json"
#define MIB(x) ((unsigned int)((x) >> 20))

/* Owned by root, or by the euid when that is not root (a user replaying a
 * file of their own gains nothing), and writable by nobody else. */
static int trusted(const struct stat *st, char *why, size_t whylen)
{
	uid_t me = geteuid();

	if (st->st_uid != 0 && st->st_uid != me) {
		snprintf(why, whylen, "owned by uid %u, not by root", (unsigned int)st->st_uid);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, whylen, "group- or world-writable (mode %04o)",
			 (unsigned int)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* Opens directory @dir inside the root (created 0700 when @create) and
 * checks it may hold logs. Prints why not. */
static int open_dir(struct nn_ctx *ctx, const char *dir, int create)
{
	char why[128];
	struct stat st;
	int fd, err;

	if (!dir || dir[0] != '/') {
		nn_err(ctx, "state directory '%s' must be an absolute path", dir ? dir : "");
		return -EINVAL;
	}
	fd = nn_root_openat(&ctx->root, dir, O_RDONLY | O_DIRECTORY, 0);
	if (fd == -ENOENT && create)
		fd = nn_root_mkdir_p(&ctx->root, dir, 0700);
	if (fd < 0)
		return fd;
	err = fstat(fd, &st) < 0 ? -errno : trusted(&st, why, sizeof(why));
	if (err) {
		nn_err(ctx, "refusing state directory %s: %s", dir,
		       err == -EPERM ? why : strerror(-err));
		close(fd);
		return err;
	}
	return fd;
}

int nn_state_dir_open(struct nn_ctx *ctx, int create)
{
	return open_dir(ctx, ctx->state_dir, create);
}

/* ".NAME.XXXXXX" of nn_write_atomic_at, or ".NAME.tmp" of older versions. */
static bool is_temp_name(const char *n)
{
	size_t len = strlen(n), i;

	if (n[0] != '.' || len < 9)
		return false;
	if (!strcmp(n + len - 4, ".tmp"))
		return true;
	if (n[len - 7] != '.')
		return false;
	for (i = len - 6; i < len; i++)
		if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= 'A' && n[i] <= 'Z') ||
		      (n[i] >= '0' && n[i] <= '9')))
			return false;
	return true;
}

/* Under the lock every writer is us: a temp file from before we took it was
 * left by a run that was killed. */
static void prune_temps(struct nn_ctx *ctx, int dfd, time_t since)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (is_temp_name(de->d_name) &&
		    !fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		    st.st_mtime < since && unlinkat(dfd, de->d_name, 0) < 0)
			nn_warn(ctx, ctx->state_dir, "cannot remove stale %s: %s", de->d_name,
				strerror(errno));
	closedir(d);
}

int nn_state_lock(struct nn_ctx *ctx)
{
	char pid[32];
	struct stat st;
	time_t now = time(NULL);
	int dfd, fd, err;

	dfd = nn_state_dir_open(ctx, 1);
	if (dfd < 0) {
		nn_err(ctx, "cannot open state directory %s: %s", ctx->state_dir, strerror(-dfd));
		return dfd;
	}
	/* No O_TRUNC: the file is checked before anything is written to it. */
	fd = openat(dfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	err = fd < 0 ? -errno : 0;
	if (err) {
		nn_err(ctx, "cannot open %s/lock: %s", ctx->state_dir, strerror(-err));
		goto fail;
	}
	/* A hard link to /etc/shadow would otherwise be truncated below. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != geteuid()) {
		nn_err(ctx, "refusing %s/lock: not a regular file with one link owned by uid %u",
		       ctx->state_dir, (unsigned int)geteuid());
		err = -EPERM;
		goto fail;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n;

		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
		n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		nn_err(ctx, "another nicnuma run holds %s/lock%s%s%s; try again when it is done",
		       ctx->state_dir, *pid ? " (pid " : "", pid, *pid ? ")" : "");
		goto fail;
	}
	/* The pid is a hint for the message above; the flock is the lock. */
	if (ftruncate(fd, 0) == 0) {
		int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());

		if (pwrite(fd, pid, (size_t)len, 0) < 0)
			nn_warn(ctx, "lock", "cannot record pid in lock file: %s", strerror(errno));
	}
	prune_temps(ctx, dfd, now);
	close(dfd);
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	close(dfd);
	return err;
}

void nn_state_unlock(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}

static char *log_name(const char *command)
{
	struct timespec ts;
	char stamp[64], cmd[64];
	struct tm tm;
	size_t i;
	char *name;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	/* The timestamp leads so that name order is time order across commands. */
	for (i = 0; command[i] && i < sizeof(cmd) - 1; i++) {
		char c = command[i];

		cmd[i] = ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) ? c : '-';
	}
	cmd[i] = '\0';
	if (asprintf(&name, "%s.%09ldZ-%s" LOG_SUFFIX, stamp, ts.tv_nsec, cmd) < 0)
		return NULL;
	return name;
}

int nn_undo_begin(struct nn_ctx *ctx, struct nn_undo *u, const char *command)
{
	char *name;
	int n;

	memset(u, 0, sizeof(*u));
	u->command = strdup(command);
	name = log_name(command);
	if (!u->command || !name) {
		free(name);
		nn_undo_free(u);
		return -ENOMEM;
	}
	n = asprintf(&u->file, "%s/%s", ctx->state_dir, name);
	free(name);
	if (n < 0) {
		u->file = NULL;
		nn_undo_free(u);
		return -ENOMEM;
	}
	return 0;
}

static char *dupz(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void change_free(struct nn_change *c)
{
	free(c->path);
	free(c->before);
	free(c->after);
	free(c->detail);
}

int nn_undo_add(struct nn_undo *u, const struct nn_change_ops *ops, const char *path,
		const char *before, const char *after, const char *detail)
{
	struct nn_change *c;
	int err;

	if (!ops)
		return -EINVAL;
	err = NN_GROW(u->changes, u->nchanges, u->cap);
	if (err)
		return err;
	c = &u->changes[u->nchanges];
	memset(c, 0, sizeof(*c));
	c->ops = ops;
	c->path = dupz(path);
	c->before = dupz(before);
	c->after = dupz(after);
	c->detail = dupz(detail);
	if ((path && !c->path) || (before && !c->before) || (after && !c->after) ||
	    (detail && !c->detail)) {
		change_free(c);
		return -ENOMEM;
	}
	u->nchanges++;
	return 0;
}

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *to_json(const struct nn_undo *u, const char *rolled_back)
{
	struct json_object *doc = json_object_new_object(), *arr = json_object_new_array();
	char created[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(doc, "version", json_object_new_int(1));
	json_object_object_add(doc, "command", jstr(u->command));
	json_object_object_add(doc, "created", json_object_new_string(created));
	json_object_object_add(doc, "host", u->host ? json_object_get(u->host) : NULL);
	if (rolled_back)
		json_object_object_add(doc, "rolled_back", json_object_new_string(rolled_back));
	for (i = 0; i < u->nchanges; i++) {
		const struct nn_change *c = &u->changes[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "kind", json_object_new_string(c->ops->name));
		json_object_object_add(o, "path", jstr(c->path));
		json_object_object_add(o, "before", jstr(c->before));
		json_object_object_add(o, "after", jstr(c->after));
		if (c->detail) {
			/* Detail is JSON text: embed it as an object when it parses. */
			struct json_object *d = json_tokener_parse(c->detail);

			json_object_object_add(o, "detail", d ? d : json_object_new_string(c->detail));
		}
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "changes", arr);
	return doc;
}

/* Splits a log path "DIR/NAME" into its directory (malloc'd) and name. */
static int split_path(const char *path, char **dir, const char **name)
{
	const char *s = strrchr(path, '/');

	if (!s || !s[1])
		return -EINVAL;
	*name = s + 1;
	*dir = s == path ? strdup("/") : strndup(path, (size_t)(s - path));
	return *dir ? 0 : -ENOMEM;
}

/* Writes @u to u->file: the file it was loaded from, or the new one in the
 * state dir. */
static int save(struct nn_ctx *ctx, const struct nn_undo *u, const char *rolled_back)
{
	struct json_object *doc = to_json(u, rolled_back);
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	const char *name;
	char *dir = NULL;
	size_t len = text ? strlen(text) : 0;
	int dfd = -1, err;

	if (!text) {
		err = -ENOMEM;
		goto out;
	}
	/* Checked before any kernel write: a log rollback cannot read back would
	 * make the run irreversible. */
	if (len > NN_DOC_MAX_BYTES) {
		nn_err(ctx, "the snapshot of this %s would be %zu bytes, more than rollback reads "
		       "(%u MiB)", u->command && !strcmp(u->command, "apply") ? "plan" :
		       u->command ? u->command : "run", len, MIB(NN_DOC_MAX_BYTES));
		err = -EFBIG;
		goto quiet;
	}
	err = split_path(u->file, &dir, &name);
	if (err)
		goto out;
	dfd = open_dir(ctx, dir, !strcmp(dir, ctx->state_dir));
	if (dfd < 0) {
		err = dfd;
		goto out;
	}
	err = nn_write_atomic_at(dfd, name, text, len, 0600);
out:
	if (err)
		nn_err(ctx, "cannot save snapshot %s: %s", u->file, strerror(-err));
quiet:
	if (dfd >= 0)
		close(dfd);
	free(dir);
	json_object_put(doc);
	return err;
}

int nn_undo_save(struct nn_ctx *ctx, struct nn_undo *u)
{
	return save(ctx, u, NULL);
}

int nn_undo_record(struct nn_ctx *ctx, struct nn_undo *u, const struct nn_change_ops *ops,
		   const char *path, const char *before, const char *after, const char *detail)
{
	int err = nn_undo_add(u, ops, path, before, after, detail);

	if (err)
		return err;
	err = nn_undo_save(ctx, u);
	if (err)	/* not persisted: the caller must not write, so forget it too */
		change_free(&u->changes[--u->nchanges]);
	return err;
}

int nn_undo_mark_rolled_back(struct nn_ctx *ctx, const struct nn_undo *u)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return save(ctx, u, stamp);
}

/* A string member, or NULL when absent or null; -EINVAL for another type. */
static int jget_str(struct json_object *o, const char *key, const char **out)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	*out = json_object_get_string(v);
	return 0;
}

static const struct nn_change_ops *kind_find(const struct nn_change_ops *const *kinds,
					     const char *name)
{
	for (; kinds && *kinds; kinds++)
		if (!strcmp((*kinds)->name, name))
			return *kinds;
	return NULL;
}

static int parse_change(struct json_object *c, size_t i, const struct nn_change_ops *const *kinds,
			struct nn_undo *u, char *why, size_t whylen)
{
	const char *ks, *path, *before, *after, *detail = NULL;
	const struct nn_change_ops *ops;
	struct json_object *d;
	int err;

	if (!json_object_is_type(c, json_type_object)) {
		snprintf(why, whylen, "change %zu is not an object", i);
		return -EINVAL;
	}
	if (jget_str(c, "kind", &ks) || !ks || !(ops = kind_find(kinds, ks))) {
		snprintf(why, whylen, "change %zu has an unknown kind", i);
		return -EINVAL;
	}
	if (jget_str(c, "path", &path) || jget_str(c, "before", &before) ||
	    jget_str(c, "after", &after)) {
		snprintf(why, whylen, "change %zu (%s): path, before and after must be strings",
			 i, ks);
		return -EINVAL;
	}
	if (json_object_object_get_ex(c, "detail", &d) && d)
		detail = json_object_is_type(d, json_type_string) ? json_object_get_string(d)
			: json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	err = nn_undo_add(u, ops, path, before, after, detail);
	if (err) {
		snprintf(why, whylen, "%s", strerror(-err));
		return err;
	}
	return 0;
}

/* Runs every change's validate(); @ctx NULL for the document-only checks. */
static int validate_all(struct nn_ctx *ctx, const struct nn_undo *u, char *why, size_t whylen)
{
	char r[256];
	size_t i;
	int err;

	for (i = 0; i < u->nchanges; i++) {
		const struct nn_change *c = &u->changes[i];

		r[0] = '\0';
		err = c->ops->validate(ctx, u, c, r, sizeof(r));
		if (err) {
			snprintf(why, whylen, "change %zu (%s %s): %s", i, c->ops->name,
				 c->path ? c->path : "-", r[0] ? r : strerror(-err));
			return err;
		}
	}
	return 0;
}

int nn_undo_parse(const char *text, size_t len, const struct nn_change_ops *const *kinds,
		  struct nn_undo *u, char *why, size_t whylen)
{
	struct json_object *doc = NULL, *arr, *v;
	struct json_tokener *tok;
	const char *s;
	size_t i, n;
	int err = -EINVAL;

	memset(u, 0, sizeof(*u));
	if (len > NN_DOC_MAX_BYTES) {
		snprintf(why, whylen, "%zu bytes, more than the %u MiB a snapshot may have", len,
			 MIB(NN_DOC_MAX_BYTES));
		return -EFBIG;
	}
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	doc = json_tokener_parse_ex(tok, text, (int)len);
	/* One whole document: nothing but whitespace after it, no NUL inside. */
	if (doc && json_tokener_get_error(tok) == json_tokener_success) {
		for (i = json_tokener_get_parse_end(tok); i < len; i++)
			if (!strchr(" \t\r\n", text[i]))
				break;
		if (i < len) {
			json_object_put(doc);
			doc = NULL;
		}
	} else {
		json_object_put(doc);
		doc = NULL;
	}
	json_tokener_free(tok);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		snprintf(why, whylen, "not a nicnuma snapshot (bad JSON)");
		goto out;
	}
	if (!json_object_object_get_ex(doc, "version", &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != 1) {
		snprintf(why, whylen, "unsupported snapshot version");
		goto out;
	}
	if (!json_object_object_get_ex(doc, "changes", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		snprintf(why, whylen, "snapshot has no \"changes\" array");
		goto out;
	}
	if (jget_str(doc, "command", &s) || (u->command = dupz(s), s && !u->command)) {
		snprintf(why, whylen, "\"command\" is not a string");
		goto out;
	}
	if (jget_str(doc, "rolled_back", &s)) {
		snprintf(why, whylen, "\"rolled_back\" is not a string");
		goto out;
	}
	u->rolled_back = s != NULL;
	if (json_object_object_get_ex(doc, "host", &v) && v) {
		if (!json_object_is_type(v, json_type_object)) {
			snprintf(why, whylen, "\"host\" is not an object");
			goto out;
		}
		u->host = json_object_get(v);
	}
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		err = parse_change(json_object_array_get_idx(arr, i), i, kinds, u, why, whylen);
		if (err)
			goto out;
	}
	err = validate_all(NULL, u, why, whylen);
out:
	json_object_put(doc);
	if (err)
		nn_undo_free(u);
	return err;
}

/* Reads a log under the trust rule: no symlink, no FIFO (O_NONBLOCK: an
 * open never waits for a writer), a regular file with one link, owned by
 * root, writable by nobody else, at most the cap. */
static int read_trusted(int dfd, const char *name, char **text, size_t *len, char *why,
			size_t whylen)
{
	struct stat st;
	size_t off = 0;
	int fd, err = 0;

	*text = NULL;
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen, "%s", err == -ELOOP ? "a symbolic link" : strerror(-err));
		return err;
	}
	if (fstat(fd, &st) < 0) {
		err = -errno;
		snprintf(why, whylen, "%s", strerror(-err));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
		snprintf(why, whylen, "not a regular file with one link");
		err = -EPERM;
		goto out;
	}
	err = trusted(&st, why, whylen);
	if (err)
		goto out;
	if ((unsigned long long)st.st_size > NN_DOC_MAX_BYTES) {
		snprintf(why, whylen, "%lld bytes, more than the %u MiB a snapshot may have",
			 (long long)st.st_size, MIB(NN_DOC_MAX_BYTES));
		err = -EFBIG;
		goto out;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		err = -ENOMEM;
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		goto out;
	}
	while (off < (size_t)st.st_size) {
		ssize_t n = read(fd, *text + off, (size_t)st.st_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			snprintf(why, whylen, "%s", n < 0 ? strerror(errno) : "shorter than its size");
			break;
		}
		off += (size_t)n;
	}
	(*text)[off] = '\0';
	*len = off;
out:
	close(fd);
	if (err) {
		free(*text);
		*text = NULL;
	}
	return err;
}

/* Reads and parses DIR/NAME; prints why not, naming @shown. */
static int load_one(struct nn_ctx *ctx, int dfd, const char *name, const char *shown,
		    const struct nn_change_ops *const *kinds, struct nn_undo *u)
{
	char why[320], *text;
	size_t len = 0;
	int err;

	err = read_trusted(dfd, name, &text, &len, why, sizeof(why));
	if (!err) {
		err = nn_undo_parse(text, len, kinds, u, why, sizeof(why));
		free(text);
	}
	if (!err) {
		u->file = strdup(shown);
		if (!u->file) {
			nn_undo_free(u);
			err = -ENOMEM;
			snprintf(why, sizeof(why), "%s", strerror(ENOMEM));
		}
	}
	if (err)
		nn_err(ctx, "cannot use snapshot %s: %s", shown, why);
	return err;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);	/* newest first */
}

static bool is_log_name(const char *n)
{
	size_t len = strlen(n), sl = strlen(LOG_SUFFIX);

	return n[0] >= '0' && n[0] <= '9' && len > sl && !strcmp(n + len - sl, LOG_SUFFIX);
}

static void names_free(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

/* The log names in @dfd, newest first. */
static int list_logs(int dfd, char ***out, size_t *nout)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		err = -errno;
		close(fd);
		return err;
	}
	while ((de = readdir(d))) {
		if (!is_log_name(de->d_name))
			continue;
		err = NN_GROW(names, n, cap);
		if (!err && !(names[n] = strdup(de->d_name)))
			err = -ENOMEM;
		if (err)
			break;
		n++;
	}
	closedir(d);
	if (err) {
		names_free(names, n);
		return err;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	*out = names;
	*nout = n;
	return 0;
}

int nn_undo_load(struct nn_ctx *ctx, const char *file, const struct nn_change_ops *const *kinds,
		 struct nn_undo *u)
{
	char **names = NULL, *dir = NULL, *path = NULL;
	const char *name;
	size_t n = 0, i;
	int dfd, err;

	memset(u, 0, sizeof(*u));
	if (file) {
		/* A bare name is looked up in the state dir; a path is taken
		 * inside the fs root like every other path. */
		if (strchr(file, '/')) {
			if (file[0] != '/') {
				nn_err(ctx, "snapshot %s: give an absolute path (inside --root)", file);
				return -EINVAL;
			}
			err = split_path(file, &dir, &name);
			if (err) {
				nn_err(ctx, "snapshot %s: not a file path", file);
				return err;
			}
			dfd = open_dir(ctx, dir, 0);
			path = strdup(file);
		} else {
			name = file;
			dfd = nn_state_dir_open(ctx, 0);
			if (asprintf(&path, "%s/%s", ctx->state_dir, file) < 0)
				path = NULL;
		}
		if (dfd < 0) {
			nn_err(ctx, "cannot open the directory of snapshot %s: %s", file, strerror(-dfd));
			err = dfd;
		} else {
			err = path ? load_one(ctx, dfd, name, path, kinds, u) : -ENOMEM;
			close(dfd);
		}
		free(dir);
		free(path);
		return err;
	}

	dfd = nn_state_dir_open(ctx, 0);
	if (dfd < 0) {
		nn_err(ctx, "no snapshot: cannot open state directory %s: %s", ctx->state_dir,
		       strerror(-dfd));
		return dfd;
	}
	err = list_logs(dfd, &names, &n);
	if (err)
		nn_err(ctx, "cannot list %s: %s", ctx->state_dir, strerror(-err));
	for (i = 0; !err && i < n; i++) {
		if (asprintf(&path, "%s/%s", ctx->state_dir, names[i]) < 0) {
			err = -ENOMEM;
			break;
		}
		/* Never skipped: one that cannot be used stops the walk here. */
		err = load_one(ctx, dfd, names[i], path, kinds, u);
		free(path);
		if (err || !u->rolled_back)
			goto out;
		nn_undo_free(u);
	}
	if (!err) {
		nn_err(ctx, "no snapshot to roll back in %s (none, or all already rolled back)",
		       ctx->state_dir);
		err = -ENOENT;
	}
out:
	names_free(names, n);
	close(dfd);
	return err;
}

/* Whether log @name says it was rolled back; -errno when it cannot tell. */
static int is_rolled_back(int dfd, const char *name)
{
	struct json_object *doc, *v;
	char why[128], *text;
	size_t len;
	int err = read_trusted(dfd, name, &text, &len, why, sizeof(why));

	if (err)
		return err;
	doc = json_tokener_parse(text);
	free(text);
	if (!doc)
		return -EINVAL;
	err = json_object_object_get_ex(doc, "rolled_back", &v) && v;
	json_object_put(doc);
	return err;
}

int nn_undo_prune(struct nn_ctx *ctx)
{
	char **names = NULL;
	size_t n = 0, i, kept = 0;
	int dfd, err;

	dfd = nn_state_dir_open(ctx, 0);
	if (dfd < 0)
		return dfd;
	err = list_logs(dfd, &names, &n);
	for (i = 0; !err && i < n; i++) {
		/* Only rolled-back logs go; one we cannot read is left alone. */
		if (is_rolled_back(dfd, names[i]) != 1 || kept++ < NN_UNDO_KEEP)
			continue;
		if (unlinkat(dfd, names[i], 0) < 0)
			nn_warn(ctx, ctx->state_dir, "cannot prune %s: %s", names[i], strerror(errno));
	}
	names_free(names, n);
	close(dfd);
	return err;
}

static void report(struct nn_ctx *ctx, const struct nn_change *c, const char *current,
		   const char *status, const char *error)
{
	struct nn_out *o = &ctx->out;

	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_ANY, "kind", "%-10s ", c->ops->name);
	nn_print_string(o, PRINT_ANY, "path", "%-44s ", c->path);
	nn_print_string(o, PRINT_ANY, "current", "%-12s ", current);
	nn_print_string(o, PRINT_ANY, "restored", "%-12s ", c->before);
	nn_print_string(o, PRINT_ANY, "status", "%s", status);
	nn_print_string(o, PRINT_ANY, "error", error ? " (%s)" : NULL, error);
	nn_printf(o, "\n");
	nn_close_object(o);
}

int nn_undo_validate(struct nn_ctx *ctx, const struct nn_undo *u)
{
	char why[512];
	int err = validate_all(ctx, u, why, sizeof(why));

	if (err)
		nn_err(ctx, "cannot use snapshot %s: %s; nothing was restored", u->file, why);
	return err;
}

int nn_undo_rollback(struct nn_ctx *ctx, const struct nn_undo *u)
{
	int first = 0, err;
	size_t i;

	/* Every change is checked against the host before the first is
	 * restored: a log that fails anywhere changes nothing. */
	err = nn_undo_validate(ctx, u);
	if (err)
		return err;
	nn_print_string(&ctx->out, PRINT_ANY, "snapshot", "snapshot %s\n", u->file);
	nn_printf(&ctx->out, "%-10s %-44s %-12s %-12s %s\n", "KIND", "PATH", "CURRENT",
		  "RESTORED", "STATUS");
	nn_open_array(&ctx->out, "values");
	for (i = u->nchanges; i-- > 0;) {
		const struct nn_change *c = &u->changes[i];
		struct nn_restore res = { 0 };

		if (c->ops->live_only && !nn_root_is_live(&ctx->root)) {
			report(ctx, c, NULL, "skipped", "not touched (fake root)");
			continue;
		}
		err = c->ops->restore(ctx, c, &res);
		report(ctx, c, res.current, err ? "failed" : res.unchanged ? "unchanged" : "restored",
		       err ? (res.why[0] ? res.why : strerror(-err)) : NULL);
		free(res.current);
		if (err && !first)
			first = err;
	}
	nn_close_array(&ctx->out);
	return first;
}

void nn_undo_free(struct nn_undo *u)
{
	size_t i;

	for (i = 0; i < u->nchanges; i++)
		change_free(&u->changes[i]);
	free(u->changes);
	free(u->file);
	free(u->command);
	json_object_put(u->host);
	memset(u, 0, sizeof(*u));
}
