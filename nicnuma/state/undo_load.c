// SPDX-License-Identifier: GPL-2.0-or-later
/* undo_load.c - reading logs back: parse and validate, the trust rule, the newest one, pruning */
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

#include "nicnuma/core/jsondoc.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/state/undo.h"
#include "nicnuma/state/undo_internal.h"
#include "nicnuma/state/value_restore.h"	/* nn_ifname_valid */

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
	if (!err && json_object_object_get_ex(c, "device", &d) && d) {
		if (!json_object_is_type(d, json_type_object)) {
			snprintf(why, whylen, "change %zu (%s): device is not an object", i, ks);
			return -EINVAL;
		}
		err = nn_undo_set_device(u, u->nchanges - 1,
					 json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN |
									JSON_C_TO_STRING_NOSLASHESCAPE));
	}
	if (err) {
		snprintf(why, whylen, "%s", strerror(-err));
		return err;
	}
	return 0;
}

/* Runs every change's validate(); @ctx NULL for the document-only checks. */
int nn_undo_validate_all(struct nn_ctx *ctx, const struct nn_undo *u, char *why, size_t whylen)
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
	struct nn_json_doc_err jerr;
	const char *s;
	size_t i, n;
	int err = -EINVAL;

	memset(u, 0, sizeof(*u));
	if (len > NN_DOC_MAX_BYTES) {
		snprintf(why, whylen, "%zu bytes, more than the %u MiB a snapshot may have", len,
			 NN_MIB(NN_DOC_MAX_BYTES));
		return -EFBIG;
	}
	/* One whole document: nothing but blanks after it, no NUL inside. */
	doc = nn_json_doc_parse(text, len, 0, 0, &jerr);
	if (!doc && jerr.nomem)
		return -ENOMEM;
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
	if (jget_str(doc, "command", &s) || (u->command = nn_undo_dupz(s), s && !u->command)) {
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
	err = nn_undo_validate_all(NULL, u, why, whylen);
out:
	json_object_put(doc);
	if (err)
		nn_undo_free(u);
	return err;
}

/* Reads and parses DIR/NAME; prints why not, naming @shown. */
static int load_one(struct nn_ctx *ctx, int dfd, const char *name, const char *shown,
		    const struct nn_change_ops *const *kinds, struct nn_undo *u)
{
	char why[320], *text;
	size_t len = 0;
	int err;

	err = nn_state_read_trusted(dfd, name, NN_DOC_MAX_BYTES, &text, &len, why, sizeof(why));
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
	size_t len = strlen(n), sl = strlen(NN_UNDO_SUFFIX);

	return n[0] >= '0' && n[0] <= '9' && len > sl && !strcmp(n + len - sl, NN_UNDO_SUFFIX);
}

static void names_free(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

int nn_undo_list_at(int dfd, char ***out, size_t *nout)
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

int nn_undo_list(struct nn_ctx *ctx, char ***names, size_t *n)
{
	int dfd = nn_state_dir_open(ctx, 0), err;

	*names = NULL;
	*n = 0;
	if (dfd < 0)
		return dfd;
	err = nn_undo_list_at(dfd, names, n);
	close(dfd);
	return err;
}

void nn_undo_names_free(char **names, size_t n)
{
	names_free(names, n);
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
			err = nn_undo_split_path(file, &dir, &name);
			if (err) {
				nn_err(ctx, "snapshot %s: not a file path", file);
				return err;
			}
			dfd = nn_state_open_dir(ctx, dir, 0);
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
	err = nn_undo_list_at(dfd, &names, &n);
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
	if (!err)
		err = -ENODATA;	/* nothing left to roll back: the caller says so */
out:
	names_free(names, n);
	close(dfd);
	return err;
}

int nn_undo_is_rolled_back(int dfd, const char *name)
{
	struct json_object *doc, *v;
	char why[128], *text;
	size_t len;
	int err = nn_state_read_trusted(dfd, name, NN_DOC_MAX_BYTES, &text, &len, why, sizeof(why));

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
	err = nn_undo_list_at(dfd, &names, &n);
	for (i = 0; !err && i < n; i++) {
		/* Only rolled-back logs go; one we cannot read is left alone. */
		if (nn_undo_is_rolled_back(dfd, names[i]) != 1 || kept++ < NN_UNDO_KEEP)
			continue;
		if (unlinkat(dfd, names[i], 0) < 0)
			nn_warn(ctx, ctx->state_dir, "cannot prune %s: %s", names[i], strerror(errno));
	}
	names_free(names, n);
	close(dfd);
	return err;
}

int nn_undo_nic_check(const struct nn_undo *u, const char *ifname, char *why, size_t whylen)
{
	if (!ifname || !nn_ifname_valid(ifname)) {
		snprintf(why, whylen, "not a valid interface name");
		return -EINVAL;
	}
	if (!nn_undo_host_has_nic(u, ifname)) {
		snprintf(why, whylen, "%s is not a NIC of the snapshot's host", ifname);
		return -EINVAL;
	}
	return 0;
}

bool nn_undo_host_has_nic(const struct nn_undo *u, const char *ifname)
{
	struct json_object *a, *v;
	size_t i, n;

	if (!u->host || !json_object_object_get_ex(u->host, "nics", &a) ||
	    !json_object_is_type(a, json_type_array))
		return false;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(a, i);
		if (json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), ifname))
			return true;
	}
	return false;
}
