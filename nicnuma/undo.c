// SPDX-License-Identifier: GPL-2.0-or-later
/* undo.c - the snapshot/undo log: persisted before each write, replayed in reverse
 *
 * The log lives in ctx->state_dir resolved inside the fs root, so a fixture
 * run keeps its snapshots in its own tree and never touches /var/lib. Every
 * save rewrites the whole log to a temporary file in the same directory,
 * fsyncs it, renames it over the old one and fsyncs the directory: after a
 * crash the log is either the previous or the new version, never a torn one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cpuset.h"
#include "ctx.h"
#include "undo.h"
#include "irq/affinity.h"
#include "irq/channels.h"
#include "irq/irqbalance.h"

#define LOG_SUFFIX ".json"

static const char *const kind_names[] = {
	[NN_CHANGE_FILE] = "file",
	[NN_CHANGE_IRQBALANCE] = "irqbalance",
	[NN_CHANGE_CHANNELS] = "channels",
	[NN_CHANGE_MOUNT] = "mount",
};

const char *nn_change_kind_name(enum nn_change_kind kind)
{
	if ((size_t)kind < sizeof(kind_names) / sizeof(kind_names[0]))
		return kind_names[kind];
	return "unknown";
}

static int kind_parse(const char *s, enum nn_change_kind *kind)
{
	size_t i;

	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(s, kind_names[i])) {
			*kind = (enum nn_change_kind)i;
			return 0;
		}
	return -EINVAL;
}

/* mkdir -p inside the root; components are created 0700 (snapshots hold the
 * machine's previous state and are nobody else's business). */
static int mkdir_p(const struct nn_root *r, const char *path)
{
	char buf[PATH_MAX], *p;
	int dirfd = r->fd >= 0 ? r->fd : AT_FDCWD;

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	for (p = buf + 1; ; p++) {
		if (*p == '/' || !*p) {
			char save = *p;
			const char *rel = buf;

			*p = '\0';
			if (r->fd >= 0)
				while (*rel == '/')
					rel++;
			if (*rel && mkdirat(dirfd, rel, 0700) < 0 && errno != EEXIST)
				return -errno;
			*p = save;
			if (!save)
				break;
		}
	}
	return 0;
}

int nn_state_dir_open(struct nn_ctx *ctx, int create)
{
	int fd, err;

	if (!ctx->state_dir || !*ctx->state_dir)
		return -EINVAL;
	if (ctx->state_dir[0] != '/') {
		nn_err(ctx, "state directory '%s' must be an absolute path", ctx->state_dir);
		return -EINVAL;
	}
	fd = nn_root_openat(&ctx->root, ctx->state_dir, O_RDONLY | O_DIRECTORY, 0);
	if (fd == -ENOENT && create) {
		err = mkdir_p(&ctx->root, ctx->state_dir);
		if (err)
			return err;
		fd = nn_root_openat(&ctx->root, ctx->state_dir, O_RDONLY | O_DIRECTORY, 0);
	}
	return fd;
}

int nn_state_lock(struct nn_ctx *ctx)
{
	char pid[32];
	int dfd, fd, err;

	dfd = nn_state_dir_open(ctx, 1);
	if (dfd < 0) {
		nn_err(ctx, "cannot open state directory %s: %s", ctx->state_dir, strerror(-dfd));
		return dfd;
	}
	fd = openat(dfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	err = fd < 0 ? -errno : 0;
	close(dfd);
	if (err) {
		nn_err(ctx, "cannot open %s/lock: %s", ctx->state_dir, strerror(-err));
		return err;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n;

		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
		n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		nn_err(ctx, "another nicnuma run holds %s/lock%s%s%s; try again when it is done",
		       ctx->state_dir, *pid ? " (pid " : "", pid, *pid ? ")" : "");
		close(fd);
		return err;
	}
	/* The pid is a hint for the message above; the flock is the lock. */
	if (ftruncate(fd, 0) == 0) {
		int len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());

		if (pwrite(fd, pid, (size_t)len, 0) < 0)
			nn_warn(ctx, "lock", "cannot record pid in lock file: %s", strerror(errno));
	}
	return fd;
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

int nn_undo_add(struct nn_undo *u, enum nn_change_kind kind, const char *path,
		const char *before, const char *after, const char *detail)
{
	struct nn_change *c;

	/* Grow by doubling at powers of two: apply adds one change per IRQ and
	 * XPS queue, so ~1100 adds cost a dozen reallocs. */
	if (u->nchanges == 0 || (u->nchanges >= 16 && !(u->nchanges & (u->nchanges - 1)))) {
		size_t cap = u->nchanges ? u->nchanges * 2 : 16;

		c = realloc(u->changes, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		u->changes = c;
	}
	c = &u->changes[u->nchanges];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->path = dupz(path);
	c->before = dupz(before);
	c->after = dupz(after);
	c->detail = dupz(detail);
	if ((path && !c->path) || (before && !c->before) || (after && !c->after) ||
	    (detail && !c->detail)) {
		free(c->path);
		free(c->before);
		free(c->after);
		free(c->detail);
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

		json_object_object_add(o, "kind", json_object_new_string(nn_change_kind_name(c->kind)));
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

/* Splits "DIR/NAME" of a log path into its base name. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int write_atomic(struct nn_ctx *ctx, const char *name, const char *text)
{
	char tmp[NAME_MAX + 1];
	size_t len = strlen(text), off = 0;
	int dfd, fd, err = 0;

	dfd = nn_state_dir_open(ctx, 1);
	if (dfd < 0)
		return dfd;
	if ((size_t)snprintf(tmp, sizeof(tmp), ".%s.tmp", name) >= sizeof(tmp)) {
		close(dfd);
		return -ENAMETOOLONG;
	}
	unlinkat(dfd, tmp, 0);	/* a leftover from a crashed run */
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	/* Mode 0600 whatever the umask. */
	if (fchmod(fd, 0600) < 0)
		err = -errno;
	while (!err && off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		else
			off += (size_t)n;
	}
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat(dfd, tmp, dfd, name) < 0)
		err = -errno;
	if (err)
		unlinkat(dfd, tmp, 0);
	else if (fsync(dfd) < 0)
		err = -errno;
out:
	close(dfd);
	return err;
}

static int save(struct nn_ctx *ctx, const struct nn_undo *u, const char *rolled_back)
{
	struct json_object *doc = to_json(u, rolled_back);
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	int err = text ? write_atomic(ctx, base_name(u->file), text) : -ENOMEM;

	json_object_put(doc);
	if (err)
		nn_err(ctx, "cannot save snapshot %s: %s", u->file, strerror(-err));
	return err;
}

int nn_undo_save(struct nn_ctx *ctx, struct nn_undo *u)
{
	return save(ctx, u, NULL);
}

int nn_undo_record(struct nn_ctx *ctx, struct nn_undo *u, enum nn_change_kind kind,
		   const char *path, const char *before, const char *after, const char *detail)
{
	int err = nn_undo_add(u, kind, path, before, after, detail);

	if (err)
		return err;
	err = nn_undo_save(ctx, u);
	if (err) {
		/* Not persisted: the caller must not write, so forget it too. */
		struct nn_change *c = &u->changes[--u->nchanges];

		free(c->path);
		free(c->before);
		free(c->after);
		free(c->detail);
	}
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

static const char *jget_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

/* Parses one log; @rolled_back (may be NULL) says whether it was replayed. */
static int parse_log(struct nn_ctx *ctx, const char *file, const char *text,
		     struct nn_undo *u, int *rolled_back)
{
	struct json_object *doc, *arr, *v;
	int err = 0;
	size_t i, n;

	memset(u, 0, sizeof(*u));
	doc = json_tokener_parse(text);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		nn_err(ctx, "%s: not a nicnuma snapshot (bad JSON)", file);
		json_object_put(doc);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(doc, "version", &v) || json_object_get_int(v) != 1) {
		nn_err(ctx, "%s: unsupported snapshot version", file);
		err = -EINVAL;
		goto out;
	}
	if (!json_object_object_get_ex(doc, "changes", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		nn_err(ctx, "%s: snapshot has no \"changes\" array", file);
		err = -EINVAL;
		goto out;
	}
	if (rolled_back)
		*rolled_back = jget_str(doc, "rolled_back") != NULL;
	u->file = strdup(file);
	u->command = dupz(jget_str(doc, "command"));
	if (json_object_object_get_ex(doc, "host", &v) && v)
		u->host = json_object_get(v);
	n = json_object_array_length(arr);
	for (i = 0; i < n && !err; i++) {
		struct json_object *c = json_object_array_get_idx(arr, i), *d;
		enum nn_change_kind kind;
		const char *ks = c ? jget_str(c, "kind") : NULL;
		const char *detail = NULL;

		if (!ks || kind_parse(ks, &kind)) {
			nn_err(ctx, "%s: change %zu has an unknown kind '%s'", file, i, ks ? ks : "");
			err = -EINVAL;
			break;
		}
		if (json_object_object_get_ex(c, "detail", &d) && d)
			detail = json_object_is_type(d, json_type_string) ? json_object_get_string(d)
				: json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN);
		if (kind == NN_CHANGE_FILE && (!jget_str(c, "path") || !jget_str(c, "before"))) {
			nn_err(ctx, "%s: change %zu (file) lacks a path or a before value", file, i);
			err = -EINVAL;
			break;
		}
		err = nn_undo_add(u, kind, jget_str(c, "path"), jget_str(c, "before"),
				  jget_str(c, "after"), detail);
	}
out:
	json_object_put(doc);
	if (err)
		nn_undo_free(u);
	return err;
}

static int read_log(struct nn_ctx *ctx, int dfd, const char *name, char **text)
{
	struct stat st;
	size_t off = 0;
	int fd, err = 0;

	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
		close(fd);
		return -EINVAL;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		close(fd);
		return -ENOMEM;
	}
	while (off < (size_t)st.st_size) {
		ssize_t n = read(fd, *text + off, (size_t)st.st_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	(*text)[off] = '\0';
	close(fd);
	if (err) {
		free(*text);
		*text = NULL;
	}
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

int nn_undo_load(struct nn_ctx *ctx, const char *file, struct nn_undo *u)
{
	char **names = NULL, *text = NULL, path[PATH_MAX];
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = NULL;
	int dfd, err = -ENOENT;

	memset(u, 0, sizeof(*u));
	if (file) {
		/* A given snapshot: a bare name is looked up in the state dir, a path
		 * is taken inside the fs root like every other path. */
		int fd;

		if (strchr(file, '/')) {
			char *slash;

			if ((size_t)snprintf(path, sizeof(path), "%s", file) >= sizeof(path))
				return -ENAMETOOLONG;
			slash = strrchr(path, '/');
			*slash = '\0';
			fd = nn_root_openat(&ctx->root, *path ? path : "/", O_RDONLY | O_DIRECTORY, 0);
			*slash = '/';
			if (fd < 0) {
				nn_err(ctx, "cannot open snapshot %s: %s", file, strerror(-fd));
				return fd;
			}
			err = read_log(ctx, fd, slash + 1, &text);
			close(fd);
		} else {
			fd = nn_state_dir_open(ctx, 0);
			if (fd < 0) {
				nn_err(ctx, "cannot open state directory %s: %s", ctx->state_dir,
				       strerror(-fd));
				return fd;
			}
			err = read_log(ctx, fd, file, &text);
			close(fd);
			snprintf(path, sizeof(path), "%s/%s", ctx->state_dir, file);
		}
		if (err) {
			nn_err(ctx, "cannot read snapshot %s: %s", file, strerror(-err));
			return err;
		}
		err = parse_log(ctx, strchr(file, '/') ? file : path, text, u, NULL);
		free(text);
		return err;
	}

	dfd = nn_state_dir_open(ctx, 0);
	if (dfd < 0) {
		nn_err(ctx, "no snapshot: cannot open state directory %s: %s", ctx->state_dir,
		       strerror(-dfd));
		return dfd;
	}
	d = fdopendir(dfd);
	if (!d) {
		err = -errno;
		close(dfd);
		return err;
	}
	while ((de = readdir(d))) {
		if (!is_log_name(de->d_name))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof(*names));

			if (!nn) {
				err = -ENOMEM;
				goto out;
			}
			names = nn;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			err = -ENOMEM;
			goto out;
		}
		n++;
	}
	qsort(names, n, sizeof(*names), cmp_names);
	err = -ENOENT;
	for (i = 0; i < n; i++) {
		int rolled = 0;

		if (read_log(ctx, dirfd(d), names[i], &text))
			continue;
		snprintf(path, sizeof(path), "%s/%s", ctx->state_dir, names[i]);
		err = parse_log(ctx, path, text, u, &rolled);
		free(text);
		text = NULL;
		if (err)
			goto out;	/* a damaged newest log must not be skipped silently */
		if (!rolled)
			goto out;
		nn_undo_free(u);
		err = -ENOENT;
	}
	nn_err(ctx, "no snapshot to roll back in %s (none, or all already rolled back)",
	       ctx->state_dir);
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return err;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* Same value as the kernel would print it: cpulists and masks compare as sets
 * ("0-1" == "0,1", "00000003" == "3"), everything else as trimmed text. */
bool nn_value_equal(const char *path, const char *a, const char *b)
{
	struct nn_cpuset sa = NN_CPUSET_INIT, sb = NN_CPUSET_INIT;
	char *ta, *tb;
	bool eq;
	int ea, eb;

	if (!a || !b)
		return a == b;
	ta = strdup(a);
	tb = strdup(b);
	if (!ta || !tb) {
		free(ta);
		free(tb);
		return false;
	}
	trim(ta);
	trim(tb);
	eq = !strcmp(ta, tb);
	if (!eq && (ends_with(path, "_list") || ends_with(path, "cpulist"))) {
		ea = nn_cpuset_parse_list(ta, &sa);
		eb = nn_cpuset_parse_list(tb, &sb);
		eq = !ea && !eb && nn_cpuset_equal(&sa, &sb);
	} else if (!eq && (ends_with(path, "xps_cpus") || ends_with(path, "smp_affinity") ||
			   ends_with(path, "rps_cpus"))) {
		ea = nn_cpuset_parse_mask(ta, &sa);
		eb = nn_cpuset_parse_mask(tb, &sb);
		eq = !ea && !eb && nn_cpuset_equal(&sa, &sb);
	}
	nn_cpuset_free(&sa);
	nn_cpuset_free(&sb);
	free(ta);
	free(tb);
	return eq;
}

static void report(struct nn_ctx *ctx, const struct nn_change *c, const char *current,
		   const char *status, const char *error)
{
	struct nn_out *o = &ctx->out;

	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_ANY, "kind", "%-10s ", nn_change_kind_name(c->kind));
	nn_print_string(o, PRINT_ANY, "path", "%-44s ", c->path);
	nn_print_string(o, PRINT_ANY, "current", "%-12s ", current);
	nn_print_string(o, PRINT_ANY, "restored", "%-12s ", c->before);
	nn_print_string(o, PRINT_ANY, "status", "%s", status);
	nn_print_string(o, PRINT_ANY, "error", error ? " (%s)" : NULL, error);
	nn_printf(o, "\n");
	nn_close_object(o);
}

static int rollback_file(struct nn_ctx *ctx, const struct nn_change *c)
{
	char *cur = NULL, *after = NULL, why[256];
	int err;

	err = nn_read_file(&ctx->root, c->path, &cur, NULL);
	if (err) {
		snprintf(why, sizeof(why), "cannot read: %s", strerror(-err));
		report(ctx, c, NULL, "failed", why);
		return err;
	}
	trim(cur);
	if (nn_value_equal(c->path, cur, c->before)) {
		report(ctx, c, cur, "unchanged", NULL);
		free(cur);
		return 0;
	}
	err = nn_write_value(ctx, c->path, c->before);
	if (err == -EBUSY || err == -EAGAIN)
		err = nn_write_value(ctx, c->path, c->before);	/* transient: once more */
	if (!err) {
		err = nn_read_file(&ctx->root, c->path, &after, NULL);
		if (!err) {
			trim(after);
			if (!nn_value_equal(c->path, after, c->before))
				err = -EIO;
		}
	}
	if (err) {
		if (after && err == -EIO)
			snprintf(why, sizeof(why), "read back '%s'", after);
		else
			snprintf(why, sizeof(why), "%s", strerror(-err));
		report(ctx, c, cur, "failed", why);
	} else {
		report(ctx, c, cur, "restored", NULL);
	}
	free(cur);
	free(after);
	return err;
}

static int rollback_live_only(struct nn_ctx *ctx, const struct nn_change *c)
{
	char why[256];
	int err = 0;

	if (!nn_root_is_live(&ctx->root)) {
		report(ctx, c, NULL, "skipped", "not touched (fake root)");
		return 0;
	}
	switch (c->kind) {
	case NN_CHANGE_IRQBALANCE:
		err = nn_irqb_restore(ctx, c->before, c->detail, why, sizeof(why));
		report(ctx, c, c->after, err ? "failed" : "restored", err ? why : NULL);
		break;
	case NN_CHANGE_CHANNELS: {
		long n;

		err = c->before ? nn_parse_long(c->before, &n) : -EINVAL;
		if (!err)
			err = nn_channels_set(ctx, c->path, (int)n, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "bad channel count '%s'", c->before ? c->before : "");
		report(ctx, c, c->after, err ? "failed" : "restored", err ? why : NULL);
		break;
	}
	case NN_CHANGE_MOUNT:
		/* We mounted it: unmounting gives the previous state back. */
		if (umount2(c->path, UMOUNT_NOFOLLOW) < 0 && errno != EINVAL) {
			err = -errno;
			report(ctx, c, "mounted", "failed", strerror(-err));
		} else {
			report(ctx, c, "mounted", "restored", NULL);
		}
		break;
	default:
		err = -EINVAL;
		report(ctx, c, NULL, "failed", "unknown change kind");
	}
	return err;
}

int nn_undo_rollback(struct nn_ctx *ctx, const struct nn_undo *u)
{
	int first = 0;
	size_t i;

	nn_print_string(&ctx->out, PRINT_ANY, "snapshot", "snapshot %s\n", u->file);
	nn_printf(&ctx->out, "%-10s %-44s %-12s %-12s %s\n", "KIND", "PATH", "CURRENT",
		  "RESTORED", "STATUS");
	nn_open_array(&ctx->out, "values");
	for (i = u->nchanges; i-- > 0;) {
		const struct nn_change *c = &u->changes[i];
		int err;

		if (c->kind == NN_CHANGE_FILE)
			err = rollback_file(ctx, c);
		else
			err = rollback_live_only(ctx, c);
		if (err && !first)
			first = err;
	}
	nn_close_array(&ctx->out);
	return first;
}

void nn_undo_free(struct nn_undo *u)
{
	size_t i;

	for (i = 0; i < u->nchanges; i++) {
		free(u->changes[i].path);
		free(u->changes[i].before);
		free(u->changes[i].after);
		free(u->changes[i].detail);
	}
	free(u->changes);
	free(u->file);
	free(u->command);
	json_object_put(u->host);
	memset(u, 0, sizeof(*u));
}
