// SPDX-License-Identifier: GPL-2.0-or-later
/* boot_store.c - the boot record (boot.json in the state directory): parse, format, read, write */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/jsondoc.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/state/boot_store.h"
#include "nicnuma/state/undo.h"
#include "nicnuma/state/undo_internal.h"

static void words_free(char **w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

void nn_boot_record_free(struct nn_boot_record *r)
{
	words_free(r->args, r->nargs);
	words_free(r->removed, r->nremoved);
	memset(r, 0, sizeof(*r));
}

static bool bootloader_ok(const char *s)
{
	return !strcmp(s, "grub") || !strcmp(s, "kernel-install") || !strcmp(s, "grubby");
}

/* The kernel's boot id: 36 characters, hex and dashes ("" none). */
static bool boot_id_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0)
		return true;
	if (n != 36)
		return false;
	for (i = 0; i < n; i++)
		if (!(isxdigit((unsigned char)s[i]) || (s[i] == '-' && (i == 8 || i == 13 || i == 18 || i == 23))))
			return false;
	return true;
}

static bool stamp_ok(const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]) && !strchr("-:TZ", s[i]))
			return false;
	return n < 32;
}

static int get_words(struct json_object *doc, const char *key, char ***out, size_t *n, char *why,
		     size_t whylen)
{
	struct json_object *a;
	size_t i, len;

	*out = NULL;
	*n = 0;
	if (!json_object_object_get_ex(doc, key, &a) || !a)
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    (len = json_object_array_length(a)) > NN_BOOT_RECORD_WORDS) {
		snprintf(why, whylen, "\"%s\" is not a list of at most %d words", key, NN_BOOT_RECORD_WORDS);
		return -EINVAL;
	}
	*out = calloc(len ? len : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		struct json_object *w = json_object_array_get_idx(a, i);
		const char *s = json_object_is_type(w, json_type_string) ? json_object_get_string(w) : NULL;

		if (!s || !nn_karg_safe(s, strlen(s))) {
			snprintf(why, whylen, "\"%s\"[%zu] is not a kernel argument nicnuma writes", key, i);
			return -EINVAL;
		}
		(*out)[i] = strdup(s);
		if (!(*out)[i])
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}

static int get_fixed(struct json_object *doc, const char *key, char *buf, size_t size, bool required,
		     bool (*ok)(const char *), char *why, size_t whylen)
{
	struct json_object *v;
	const char *s;

	buf[0] = '\0';
	if (!json_object_object_get_ex(doc, key, &v) || !v) {
		if (!required)
			return 0;
		snprintf(why, whylen, "no \"%s\"", key);
		return -EINVAL;
	}
	s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	if (!s || strlen(s) >= size || !ok(s)) {
		snprintf(why, whylen, "\"%s\" is not valid", key);
		return -EINVAL;
	}
	snprintf(buf, size, "%s", s);
	return 0;
}

int nn_boot_record_parse(const char *text, size_t len, struct nn_boot_record *r, char *why, size_t whylen)
{
	struct json_object *doc, *v;
	int err = -EINVAL;

	memset(r, 0, sizeof(*r));
	if (len > NN_BOOT_RECORD_MAX) {
		snprintf(why, whylen, "%zu bytes, more than a boot record may have", len);
		return -EINVAL;
	}
	doc = nn_json_doc_parse(text, len, 0, 0, NULL);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		snprintf(why, whylen, "not a boot record (bad JSON)");
		goto out;
	}
	if (!json_object_object_get_ex(doc, "version", &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != 1) {
		snprintf(why, whylen, "not version 1");
		goto out;
	}
	if ((err = get_fixed(doc, "bootloader", r->bootloader, sizeof(r->bootloader), true, bootloader_ok,
			     why, whylen)) ||
	    (err = get_fixed(doc, "boot_id", r->boot_id, sizeof(r->boot_id), false, boot_id_ok, why, whylen)) ||
	    (err = get_fixed(doc, "written", r->written, sizeof(r->written), false, stamp_ok, why, whylen)) ||
	    (err = get_words(doc, "args", &r->args, &r->nargs, why, whylen)) ||
	    (err = get_words(doc, "removed", &r->removed, &r->nremoved, why, whylen)))
		goto out;
	err = 0;
out:
	json_object_put(doc);
	if (err == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	if (err)
		nn_boot_record_free(r);
	return err;
}

static struct json_object *words_json(char *const *w, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < n; i++) {
		if (!nn_karg_safe(w[i], strlen(w[i])) ||
		    json_object_array_add(a, json_object_new_string(w[i]))) {
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

char *nn_boot_record_format(const struct nn_boot_record *r)
{
	struct json_object *doc = json_object_new_object(), *args, *rem;
	char *out = NULL;

	if (!doc || !bootloader_ok(r->bootloader) || !boot_id_ok(r->boot_id) || !stamp_ok(r->written))
		goto out;
	args = words_json(r->args, r->nargs);
	rem = words_json(r->removed, r->nremoved);
	json_object_object_add(doc, "version", json_object_new_int(1));
	json_object_object_add(doc, "bootloader", json_object_new_string(r->bootloader));
	json_object_object_add(doc, "args", args);
	json_object_object_add(doc, "removed", rem);
	json_object_object_add(doc, "boot_id", json_object_new_string(r->boot_id));
	json_object_object_add(doc, "written", json_object_new_string(r->written));
	if (args && rem) {
		const char *s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE);
		out = s ? malloc(strlen(s) + 2) : NULL;
		if (out)
			snprintf(out, strlen(s) + 2, "%s\n", s);
	}
out:
	json_object_put(doc);
	return out;
}

int nn_boot_record_read(struct nn_ctx *ctx, struct nn_boot_record *r, char *why, size_t whylen)
{
	char *text = NULL;
	size_t len = 0;
	int dfd, err;

	memset(r, 0, sizeof(*r));
	/* no state directory yet: nicnuma never wrote a boot argument here */
	dfd = nn_root_openat(&ctx->root, ctx->state_dir, O_RDONLY | O_DIRECTORY, 0);
	if (dfd < 0) {
		snprintf(why, whylen, "%s", strerror(-dfd));
		return dfd == -ENOTDIR ? -ENOENT : dfd;
	}
	close(dfd);
	dfd = nn_state_open_dir(ctx, ctx->state_dir, 0);
	if (dfd < 0) {
		snprintf(why, whylen, "the state directory %s is not trusted", ctx->state_dir);
		return dfd;
	}
	err = nn_state_read_trusted(dfd, NN_BOOT_RECORD, NN_BOOT_RECORD_MAX, &text, &len, why, whylen);
	close(dfd);
	if (!err) {
		err = nn_boot_record_parse(text, len, r, why, whylen);
		free(text);
	}
	return err;
}

int nn_boot_record_write(struct nn_ctx *ctx, const struct nn_boot_record *r)
{
	char *text = NULL;
	int dfd, err;

	if (r && (r->nargs || r->nremoved)) {
		text = nn_boot_record_format(r);
		if (!text) {
			nn_err(ctx, "boot record: out of memory or an invalid field");
			return -EINVAL;
		}
	}
	dfd = nn_state_dir_open(ctx, 1);
	if (dfd < 0) {
		free(text);
		return dfd;
	}
	if (text)
		err = nn_write_atomic_at(dfd, NN_BOOT_RECORD, text, strlen(text), 0600);
	else
		err = unlinkat(dfd, NN_BOOT_RECORD, 0) < 0 && errno != ENOENT ? -errno : 0;
	if (!text && !err)
		fsync(dfd);
	if (err)
		nn_err(ctx, "cannot write %s/%s: %s", ctx->state_dir, NN_BOOT_RECORD, strerror(-err));
	close(dfd);
	free(text);
	return err;
}
