// SPDX-License-Identifier: GPL-2.0-or-later
/* claims_store.c - claim records: parse, format, and the trusted store under /run/nicnuma/claims */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/jsondoc.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/state/claims_store.h"

#define SUFFIX ".json"

void nn_claim_free(struct nn_claim *c)
{
	if (!c)
		return;
	free(c->name);
	nn_cpuset_free(&c->cpus);
	free(c->owner);
	free(c->reason);
	free(c->container_id);
	*c = (struct nn_claim)NN_CLAIM_INIT;
}

static int dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

int nn_claim_copy(struct nn_claim *dst, const struct nn_claim *src)
{
	*dst = (struct nn_claim)NN_CLAIM_INIT;
	if (dup_opt(&dst->name, src->name) || dup_opt(&dst->owner, src->owner) ||
	    dup_opt(&dst->reason, src->reason) || dup_opt(&dst->container_id, src->container_id) ||
	    nn_cpuset_copy(&dst->cpus, &src->cpus)) {
		nn_claim_free(dst);
		return -ENOMEM;
	}
	dst->pid = src->pid;
	dst->pid_start = src->pid_start;
	dst->created = src->created;
	dst->dev = src->dev;
	dst->ino = src->ino;
	return 0;
}

bool nn_claim_name_ok(const char *name)
{
	size_t i, len = name ? strlen(name) : 0;

	if (len == 0 || len > NN_CLAIM_NAME_MAX || name[0] == '.' || name[0] == '-')
		return false;
	for (i = 0; i < len; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '_' || ch == '.' || ch == ':' || ch == '@' || ch == '-'))
			return false;
	}
	return true;
}

/* Printable text without control characters: it ends up in tables, JSON
 * and the journal. */
static bool text_ok(const char *s, size_t max)
{
	size_t len = strlen(s), i;

	if (len > max)
		return false;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/* A record that is written must read back: a CPU list given with strides
 * ("1-51131:2/5") formats as every CPU it names and can outgrow the cap. */
static int record_fits(const struct nn_claim *c, char *why, size_t whylen)
{
	char *text = nn_claim_format(c);
	size_t len;

	if (!text) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	len = strlen(text);
	free(text);
	if (len <= NN_CLAIM_RECORD_MAX)
		return 0;
	snprintf(why, whylen, "the record would be %zu bytes, more than a claim record may have (%d): "
		 "name fewer CPU ranges", len, NN_CLAIM_RECORD_MAX);
	return -EINVAL;
}

int nn_claim_validate(const struct nn_claim *c, char *why, size_t whylen)
{
	if (!nn_claim_name_ok(c->name)) {
		snprintf(why, whylen, "bad claim name (1-%d characters of A-Z a-z 0-9 _ . : @ -, "
			 "not starting with . or -)", NN_CLAIM_NAME_MAX);
		return -EINVAL;
	}
	if (!c->owner || (strcmp(c->owner, "claim") && strcmp(c->owner, "hook") &&
			  strcmp(c->owner, "cpuset"))) {
		snprintf(why, whylen, "bad owner (claim, hook or cpuset)");
		return -EINVAL;
	}
	if (c->reason && !text_ok(c->reason, NN_CLAIM_REASON_MAX)) {
		snprintf(why, whylen, "bad reason (at most %d characters, no control characters)",
			 NN_CLAIM_REASON_MAX);
		return -EINVAL;
	}
	if (c->container_id && (!nn_claim_name_ok(c->container_id))) {
		snprintf(why, whylen, "bad container id");
		return -EINVAL;
	}
	if (c->pid != -1 && (c->pid <= 0 || c->pid > NN_PID_MAX)) {
		snprintf(why, whylen, "bad pid %d", c->pid);
		return -EINVAL;
	}
	if (c->pid == -1 && c->pid_start) {
		snprintf(why, whylen, "a pid start time without a pid");
		return -EINVAL;
	}
	if (nn_cpuset_empty(&c->cpus)) {
		snprintf(why, whylen, "no CPUs");
		return -EINVAL;
	}
	if (nn_cpuset_last(&c->cpus) >= NN_CPU_MAX) {
		snprintf(why, whylen, "CPU %d beyond %d", nn_cpuset_last(&c->cpus), NN_CPU_MAX);
		return -EINVAL;
	}
	if (c->created < 0) {
		snprintf(why, whylen, "bad creation time");
		return -EINVAL;
	}
	return record_fits(c, why, whylen);
}

static int get_str(struct json_object *doc, const char *key, bool required, char **out,
		   char *why, size_t whylen)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(doc, key, &v) || json_object_is_type(v, json_type_null)) {
		if (!required)
			return 0;
		snprintf(why, whylen, "\"%s\" missing", key);
		return -EINVAL;
	}
	if (!json_object_is_type(v, json_type_string)) {
		snprintf(why, whylen, "\"%s\" is not a string", key);
		return -EINVAL;
	}
	if (strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v)) {
		snprintf(why, whylen, "\"%s\" holds a NUL", key);
		return -EINVAL;
	}
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

static int get_int(struct json_object *doc, const char *key, long long lo, long long hi,
		   long long *out, char *why, size_t whylen)
{
	struct json_object *v;

	if (!json_object_object_get_ex(doc, key, &v) || !json_object_is_type(v, json_type_int)) {
		snprintf(why, whylen, "\"%s\" missing or not an integer", key);
		return -EINVAL;
	}
	errno = 0;
	*out = json_object_get_int64(v);
	if (errno || *out < lo || *out > hi) {
		snprintf(why, whylen, "\"%s\" out of range", key);
		return -EINVAL;
	}
	return 0;
}

int nn_claim_parse(const char *text, size_t len, struct nn_claim *c, char *why, size_t whylen)
{
	struct json_object *doc;
	char *cpus = NULL, *start = NULL;
	long long v;
	int err = -EINVAL;

	*c = (struct nn_claim)NN_CLAIM_INIT;
	if (len > NN_CLAIM_RECORD_MAX) {
		snprintf(why, whylen, "%zu bytes, more than a claim record may have (%d)", len,
			 NN_CLAIM_RECORD_MAX);
		return -EINVAL;
	}
	doc = nn_json_doc_parse(text, len, 0, 0, NULL);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		snprintf(why, whylen, "not a claim record (bad JSON)");
		goto out;
	}
	if (get_int(doc, "version", 1, 1, &v, why, whylen))
		goto out;
	if ((err = get_str(doc, "name", true, &c->name, why, whylen)) ||
	    (err = get_str(doc, "owner", true, &c->owner, why, whylen)) ||
	    (err = get_str(doc, "reason", false, &c->reason, why, whylen)) ||
	    (err = get_str(doc, "container_id", false, &c->container_id, why, whylen)) ||
	    (err = get_str(doc, "cpus", true, &cpus, why, whylen)) ||
	    (err = get_str(doc, "pid_start", false, &start, why, whylen)))
		goto out;
	err = -EINVAL;
	if (get_int(doc, "pid", -1, NN_PID_MAX, &v, why, whylen))
		goto out;
	c->pid = (int)v;
	if (get_int(doc, "created", 0, (long long)1 << 62, &c->created, why, whylen))
		goto out;
	if (nn_cpuset_parse_list(cpus, &c->cpus)) {
		snprintf(why, whylen, "\"cpus\" is not a CPU list");
		goto out;
	}
	/* starttime is a u64: a string, so no JSON reader rounds it. */
	if (start) {
		char *end;

		errno = 0;
		c->pid_start = strtoull(start, &end, 10);
		if (errno || end == start || *end || start[0] == '-') {
			snprintf(why, whylen, "\"pid_start\" is not a number");
			goto out;
		}
	}
	err = nn_claim_validate(c, why, whylen);
out:
	free(cpus);
	free(start);
	json_object_put(doc);
	if (err)
		nn_claim_free(c);
	return err;
}

char *nn_claim_format(const struct nn_claim *c)
{
	struct json_object *doc = json_object_new_object();
	char *list = nn_cpuset_format_list(&c->cpus), *out = NULL, start[24];
	int bad = !doc || !list;

	if (!bad) {
		snprintf(start, sizeof(start), "%llu", c->pid_start);
		bad |= json_object_object_add(doc, "version", json_object_new_int(1));
		bad |= json_object_object_add(doc, "name", json_object_new_string(c->name));
		bad |= json_object_object_add(doc, "cpus", json_object_new_string(list));
		bad |= json_object_object_add(doc, "owner", json_object_new_string(c->owner));
		bad |= json_object_object_add(doc, "reason",
					      c->reason ? json_object_new_string(c->reason) : NULL);
		bad |= json_object_object_add(doc, "pid", json_object_new_int(c->pid));
		bad |= json_object_object_add(doc, "pid_start",
					      c->pid >= 0 ? json_object_new_string(start) : NULL);
		bad |= json_object_object_add(doc, "container_id",
					      c->container_id ? json_object_new_string(c->container_id) : NULL);
		bad |= json_object_object_add(doc, "created", json_object_new_int64(c->created));
	}
	if (!bad) {
		const char *s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);

		out = s ? malloc(strlen(s) + 2) : NULL;
		if (out)
			sprintf(out, "%s\n", s);
	}
	json_object_put(doc);
	free(list);
	return out;
}

/* The records' directory: owned by root (the euid when not root), mode
 * 0700 - nobody else may even list who claims what. */
static int open_dir(struct nn_ctx *ctx, bool create, char *why, size_t whylen)
{
	struct stat st;
	int fd = nn_root_openat(&ctx->root, NN_CLAIMS_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);

	if (fd == -ENOENT && create) {
		/* /run/nicnuma stays readable (watch.json is for status as a
		 * user); only the claims below it are root's alone. */
		int up = nn_root_mkdir_p(&ctx->root, "/run/nicnuma", 0755);

		if (up >= 0)
			close(up);
		fd = nn_root_mkdir_p(&ctx->root, NN_CLAIMS_DIR, 0700);
	}
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		close(fd);
		return -EIO;
	}
	if ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 077)) {
		snprintf(why, whylen, "owned by uid %u with mode %04o, not a 0700 directory of root",
			 (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777));
		close(fd);
		return -EPERM;
	}
	return fd;
}

int nn_claim_store_open_dir(struct nn_ctx *ctx, bool create)
{
	char why[160];
	int fd = open_dir(ctx, create, why, sizeof(why));

	if (fd < 0)
		nn_err(ctx, "refusing %s: %s", NN_CLAIMS_DIR, why);
	return fd;
}

static int file_name(const char *name, char *buf, size_t size)
{
	if (!nn_claim_name_ok(name))
		return -EINVAL;
	if ((size_t)snprintf(buf, size, "%s%s", name, SUFFIX) >= size)
		return -ENAMETOOLONG;
	return 0;
}

int nn_claim_store_write(struct nn_ctx *ctx, const struct nn_claim *c)
{
	char fname[NN_CLAIM_NAME_MAX + sizeof(SUFFIX)], why[160], *text;
	int dfd, err;

	err = nn_claim_validate(c, why, sizeof(why));
	if (!err)
		err = file_name(c->name, fname, sizeof(fname));
	if (err) {
		nn_err(ctx, "claim '%s': %s", c->name ? c->name : "", why);
		return err;
	}
	text = nn_claim_format(c);
	if (!text)
		return -ENOMEM;
	dfd = open_dir(ctx, true, why, sizeof(why));
	if (dfd < 0) {
		nn_err(ctx, "refusing %s: %s", NN_CLAIMS_DIR, why);
		free(text);
		return dfd;
	}
	/* /run: volatile by nature; no flush in a claim's path */
	err = nn_write_atomic_flags_at(dfd, fname, text, strlen(text), 0600, NN_WRITE_VOLATILE);
	if (err)
		nn_err(ctx, "cannot write %s/%s: %s", NN_CLAIMS_DIR, fname, strerror(-err));
	close(dfd);
	free(text);
	return err;
}

/* The records' directory for removing @name's record (its file name into
 * @fname): the directory's fd, -ENOENT (no directory), or an error said. */
static int remove_dir(struct nn_ctx *ctx, const char *name, char *fname, size_t len)
{
	char why[160];
	int dfd, err = file_name(name, fname, len);

	if (err) {
		nn_err(ctx, "bad claim name '%s'", name ? name : "");
		return err;
	}
	dfd = open_dir(ctx, false, why, sizeof(why));
	if (dfd < 0 && dfd != -ENOENT)
		nn_err(ctx, "refusing %s: %s", NN_CLAIMS_DIR, why);
	return dfd;
}

int nn_claim_store_remove(struct nn_ctx *ctx, const char *name)
{
	char fname[NN_CLAIM_NAME_MAX + sizeof(SUFFIX)];
	int dfd = remove_dir(ctx, name, fname, sizeof(fname)), err;

	if (dfd < 0)
		return dfd;
	err = unlinkat(dfd, fname, 0) < 0 ? -errno : 0;
	if (!err)
		fsync(dfd);
	else if (err != -ENOENT)
		nn_err(ctx, "cannot remove %s/%s: %s", NN_CLAIMS_DIR, fname, strerror(-err));
	close(dfd);
	return err;
}

int nn_claim_store_remove_read(struct nn_ctx *ctx, const struct nn_claim *c)
{
	char fname[NN_CLAIM_NAME_MAX + sizeof(SUFFIX)];
	struct stat st;
	int dfd = remove_dir(ctx, c->name, fname, sizeof(fname)), fd, err;

	if (dfd < 0)
		return dfd;
	fd = openat(dfd, fname, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = fstat(fd, &st) < 0 ? -errno : 0;
	close(fd);
	if (!err && ((unsigned long long)st.st_dev != c->dev || (unsigned long long)st.st_ino != c->ino))
		err = -ESTALE;
	if (!err)
		err = unlinkat(dfd, fname, 0) < 0 ? -errno : 0;
	if (err && err != -ENOENT && err != -ESTALE)
		nn_err(ctx, "cannot remove %s/%s: %s", NN_CLAIMS_DIR, fname, strerror(-err));
out:
	close(dfd);
	return err;
}

int nn_claim_store_lock(struct nn_ctx *ctx, bool create)
{
	char why[160];
	int fd = open_dir(ctx, create, why, sizeof(why));

	if (fd == -ENOENT && !create)
		return fd;
	if (fd < 0) {
		nn_err(ctx, "refusing %s: %s", NN_CLAIMS_DIR, why);
		return fd;
	}
	while (flock(fd, LOCK_EX) < 0) {
		int err = -errno;

		if (err == -EINTR)
			continue;
		nn_err(ctx, "cannot lock %s: %s", NN_CLAIMS_DIR, strerror(-err));
		close(fd);
		return err;
	}
	return fd;
}

/* The trust rule: no symlink, no FIFO, a regular file with one link, owned
 * by root (the euid when not root), mode 0600 or stricter, at most the cap. */
static int read_at(int dfd, const char *fname, struct nn_claim *c, char *why, size_t whylen)
{
	struct stat st;
	char *text = NULL;
	size_t len;
	int fd, err;

	fd = openat(dfd, fname, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen, "%s", err == -ELOOP ? "a symbolic link" : strerror(-err));
		return err;
	}
	err = fstat(fd, &st) < 0 ? -errno : 0;
	if (err) {
		snprintf(why, whylen, "%s", strerror(-err));
	} else if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
		snprintf(why, whylen, "not a regular file with one link");
		err = -EPERM;
	} else if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(why, whylen, "owned by uid %u, not by root", (unsigned int)st.st_uid);
		err = -EPERM;
	} else if (st.st_mode & 077) {
		snprintf(why, whylen, "mode %04o, not 0600", (unsigned int)(st.st_mode & 07777));
		err = -EPERM;
	} else if (st.st_size > NN_CLAIM_RECORD_MAX) {
		snprintf(why, whylen, "%lld bytes, more than a claim record may have (%d)",
			 (long long)st.st_size, NN_CLAIM_RECORD_MAX);
		err = -EFBIG;
	} else {
		err = nn_read_fd_bounded(fd, NN_CLAIM_RECORD_MAX, &text, &len);
		if (err)
			snprintf(why, whylen, "%s", strerror(-err));
	}
	close(fd);
	if (err)
		return err;
	err = nn_claim_parse(text, len, c, why, whylen);
	free(text);
	if (!err) {
		c->dev = (unsigned long long)st.st_dev;
		c->ino = (unsigned long long)st.st_ino;
	}
	/* The file name is the claim's name: a record copied under another name is forged. */
	if (!err && (strlen(fname) != strlen(c->name) + strlen(SUFFIX) ||
		     strncmp(fname, c->name, strlen(c->name)))) {
		snprintf(why, whylen, "its name \"%s\" is not its file name", c->name);
		nn_claim_free(c);
		err = -EINVAL;
	}
	return err;
}

int nn_claim_store_read(struct nn_ctx *ctx, const char *name, struct nn_claim *c, char *why,
			size_t whylen)
{
	char fname[NN_CLAIM_NAME_MAX + sizeof(SUFFIX)];
	int dfd, err = file_name(name, fname, sizeof(fname));

	*c = (struct nn_claim)NN_CLAIM_INIT;
	if (err) {
		snprintf(why, whylen, "bad claim name");
		return err;
	}
	dfd = open_dir(ctx, false, why, whylen);
	if (dfd < 0)
		return dfd;
	err = read_at(dfd, fname, c, why, whylen);
	close(dfd);
	return err;
}

void nn_claim_records_free(struct nn_claim_records *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		nn_claim_free(&r->v[i]);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct nn_claim *)a)->name, ((const struct nn_claim *)b)->name);
}

/* ".NAME.XXXXXX" temp files of the atomic writer are not records. */
static bool record_name(const char *n)
{
	size_t len = strlen(n);

	return n[0] != '.' && len > strlen(SUFFIX) && !strcmp(n + len - strlen(SUFFIX), SUFFIX);
}

int nn_claim_store_list(struct nn_ctx *ctx, struct nn_claim_records *out)
{
	char why[160];
	struct dirent *de;
	DIR *d;
	int dfd, fd, err = 0;

	memset(out, 0, sizeof(*out));
	dfd = open_dir(ctx, false, why, sizeof(why));
	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0) {
		nn_warn(ctx, NN_CLAIMS_DIR, "refused, no claim record read: %s", why);
		return 0;
	}
	fd = dup(dfd);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		close(dfd);
		nn_err(ctx, "cannot list %s: %s", NN_CLAIMS_DIR, strerror(-err));
		return err;
	}
	while ((de = readdir(d))) {
		struct nn_claim c;
		char path[sizeof(NN_CLAIMS_DIR) + 256];
		int rc;

		if (!record_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", NN_CLAIMS_DIR, de->d_name);
		if (out->n >= NN_CLAIM_RECORDS_MAX) {
			nn_warn(ctx, NN_CLAIMS_DIR, "more than %d records: the rest ignored",
				NN_CLAIM_RECORDS_MAX);
			break;
		}
		rc = read_at(dfd, de->d_name, &c, why, sizeof(why));
		/* released between readdir and open: gone, not refused */
		if (rc == -ENOENT)
			continue;
		if (rc) {
			nn_warn(ctx, path, "claim record refused and ignored: %s", why);
			continue;
		}
		if (NN_GROW(out->v, out->n, out->cap)) {
			nn_claim_free(&c);
			err = -ENOMEM;
			break;
		}
		out->v[out->n++] = c;
	}
	closedir(d);
	close(dfd);
	if (err) {
		nn_claim_records_free(out);
		return err;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), by_name);
	return 0;
}
