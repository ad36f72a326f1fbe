// SPDX-License-Identifier: GPL-2.0-or-later
/* boot_write.c - kernel arguments written into the bootloader's configuration, regenerated, read back; the "boot" undo kind */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/trust.h"
#include "nicnuma/core/utc.h"
#include "boot/boot_write.h"

/* The most a line nicnuma keeps of its own words may be: the kernel's
 * COMMAND_LINE_SIZE is 2048 on x86 and 4096 elsewhere. */
#define WORDS_MAX 4096
#define GRUBBY_PATH "grubby"

void nn_boot_prep_free(struct nn_boot_prep *prep)
{
	nn_boot_diff_free(&prep->diff);
	free(prep->before);
	free(prep->after);
	memset(prep, 0, sizeof(*prep));
}

static char *words_join(char *const *w, size_t n)
{
	struct nn_sb sb = NN_SB_INIT;
	size_t i;
	char *out;

	for (i = 0; i < n; i++)
		nn_sb_printf(&sb, "%s%s", i ? " " : "", w[i]);
	nn_sb_puts(&sb, "");
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

/* Whether every word of @words is in @line (exact text). */
static bool has_all(const char *line, const char *words, char *missing, size_t mlen)
{
	const char *p = words, *w, *e;

	while (nn_cmdline_word(&p, &w, &e)) {
		const char *q = line ? line : "", *a, *b;
		bool found = false;

		while (!found && nn_cmdline_word(&q, &a, &b))
			found = b - a == e - w && !memcmp(a, w, (size_t)(e - w));
		if (!found) {
			snprintf(missing, mlen, "%.*s", (int)(e - w), w);
			return false;
		}
	}
	return true;
}

/* GRUB: with @dropin in its place, the default entries' line must still
 * end with nicnuma's words: a grub.d file after it that sets
 * GRUB_CMDLINE_LINUX_DEFAULT without them is a conflict, named. */
static int grub_check(const struct nn_bootloader *bl, const char *dropin, const char *words, char *why,
		      size_t whylen)
{
	char *l = NULL, *ld = NULL, w2[320], missing[128];
	int err = nn_grub_eval(bl, dropin, &l, &ld, w2, sizeof(w2));

	if (err == -ENOTSUP)
		snprintf(why, whylen, "%s", w2);
	if (!err && !has_all(ld, words, missing, sizeof(missing))) {
		size_t i;
		const char *last = NULL;

		for (i = 0; i < bl->ngrub; i++)
			if (strcmp(strrchr(bl->grub[i].path, '/') + 1, "zz-nicnuma.cfg") > 0 &&
			    strstr(bl->grub[i].text, "GRUB_CMDLINE_LINUX_DEFAULT"))
				last = bl->grub[i].path;
		snprintf(why, whylen, "%s sets GRUB_CMDLINE_LINUX_DEFAULT after %s: '%s' would not reach the "
			 "kernel line", last ? last : "a later grub.d file", NN_GRUB_DROPIN, missing);
		err = -EBUSY;
	}
	free(l);
	free(ld);
	return err;
}

static int conflicts_why(const struct nn_boot_diff *d, char *why, size_t whylen)
{
	struct nn_sb sb = NN_SB_INIT;
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct nn_boot_row *r = &d->rows[i];

		if (r->change != NN_BCH_CONFLICT)
			continue;
		nn_sb_printf(&sb, "%s%s: the plan wants %s, %s has %s", sb.len ? "; " : "", r->name, r->planned,
			     r->owner ? r->owner : "another owner", r->theirs ? r->theirs : "?");
	}
	nn_sb_puts(&sb, " (nicnuma never changes an argument it did not add: change it there, or plan "
		   "without it)");
	snprintf(why, whylen, "%s", nn_sb_str(&sb) ? nn_sb_str(&sb) : "out of memory");
	nn_sb_free(&sb);
	return -EBUSY;
}

int nn_boot_prepare(const struct nn_boot_host *b, const struct nn_boot_arg *args, size_t n,
		    struct nn_boot_prep *prep, char *why, size_t whylen)
{
	const struct nn_bootloader *bl = &b->loader;
	size_t i;
	int err;

	memset(prep, 0, sizeof(*prep));
	if (whylen)
		why[0] = '\0';
	if (!b->read || bl->kind == NN_BL_NONE) {
		snprintf(why, whylen, "%s", bl->found ? bl->found : "the bootloader was not read");
		return -ENODEV;
	}
	if (bl->kind == NN_BL_UNKNOWN || bl->kind == NN_BL_SEVERAL) {
		snprintf(why, whylen, "%s", bl->found);
		return -EOPNOTSUPP;
	}
	if (bl->problem) {
		snprintf(why, whylen, "%s", bl->problem);
		return -EBUSY;
	}
	for (i = 0; i < n; i++)
		if (!nn_karg_safe(args[i].text, strlen(args[i].text)) && strchr(args[i].text, ' ') == NULL) {
			snprintf(why, whylen, "'%.80s' is not an argument nicnuma writes", args[i].text);
			return -EINVAL;
		}
	err = nn_boot_diff_make(args, n, b->kernel.cmdline, bl->next, bl->src, bl->nsrc, bl->ours, &prep->diff,
				why, whylen);
	if (err)
		return err;
	if (prep->diff.nconflicts)
		return conflicts_why(&prep->diff, why, whylen);
	prep->before = (bl->kind != NN_BL_GRUBBY && !bl->file_text) ? NULL : strdup(bl->ours);
	prep->after = words_join(prep->diff.ours, prep->diff.nours);
	if (!prep->after || (bl->ours && !prep->before && (bl->kind == NN_BL_GRUBBY || bl->file_text)))
		return -ENOMEM;
	for (i = 0; i < prep->diff.nours; i++)
		if (!nn_karg_safe(prep->diff.ours[i], strlen(prep->diff.ours[i]))) {
			snprintf(why, whylen, "'%.80s' is not an argument nicnuma writes", prep->diff.ours[i]);
			return -EINVAL;
		}
	if (strlen(prep->after) >= WORDS_MAX) {
		snprintf(why, whylen, "the arguments take %zu bytes, more than a kernel line holds",
			 strlen(prep->after));
		return -E2BIG;
	}
	prep->write = strcmp(prep->after, bl->ours) != 0;
	for (i = 0; i < prep->diff.n; i++) {
		const struct nn_boot_row *r = &prep->diff.rows[i];

		if ((r->planned && !r->in_effect) || (!r->planned && r->running))
			prep->reboot = true;
	}
	if (bl->kind == NN_BL_GRUB && prep->diff.nours) {
		char *text = nn_grub_dropin_format(prep->diff.ours, prep->diff.nours);

		err = text ? grub_check(bl, text, prep->after, why, whylen) : -ENOMEM;
		free(text);
	}
	return err;
}

/* ---- the files ---- */

/* Replaces (or with @text NULL removes) @path inside the root, atomically. */
static int put_file(struct nn_ctx *ctx, const char *path, const char *text, char *why, size_t whylen)
{
	char dir[256];
	const char *name = strrchr(path, '/') + 1;
	int dfd, err;

	snprintf(dir, sizeof(dir), "%.*s", (int)(name - path - 1), path);
	dfd = text ? nn_root_mkdir_p(&ctx->root, dir, 0755) : nn_root_openat(&ctx->root, dir,
									      O_RDONLY | O_DIRECTORY, 0);
	if (dfd < 0) {
		snprintf(why, whylen, "%s: %s", dir, strerror(-dfd));
		return dfd;
	}
	if (text) {
		err = nn_write_atomic_at(dfd, name, text, strlen(text), 0644);
	} else {
		err = unlinkat(dfd, name, 0) < 0 && errno != ENOENT ? -errno : 0;
		if (!err)
			fsync(dfd);
	}
	if (err)
		snprintf(why, whylen, "cannot %s %s: %s", text ? "write" : "remove", path, strerror(-err));
	close(dfd);
	return err;
}

/* /etc/kernel/cmdline with nicnuma's words @from replaced by @to: the other
 * words stay as and where they are; @to goes at the end. @created: nicnuma
 * made the file (before null): it goes when no word is left of its own. */
static char *kernel_cmdline(const char *now, const char *from, const char *to)
{
	struct nn_sb sb = NN_SB_INIT;
	const char *p = now ? now : "", *w, *e;
	char *out;

	while (nn_cmdline_word(&p, &w, &e)) {
		const char *q = from ? from : "", *a, *b;
		bool ours = false;

		while (!ours && nn_cmdline_word(&q, &a, &b))
			ours = b - a == e - w && !memcmp(a, w, (size_t)(e - w));
		if (!ours)
			nn_sb_printf(&sb, "%s%.*s", sb.len ? " " : "", (int)(e - w), w);
	}
	if (to && *to)
		nn_sb_printf(&sb, "%s%s", sb.len ? " " : "", to);
	nn_sb_putc(&sb, '\n');
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

/* Words of @a that @b lacks, joined. */
static char *words_minus(const char *a, const char *b)
{
	struct nn_sb sb = NN_SB_INIT;
	const char *p = a ? a : "", *w, *e;
	char *out;

	while (nn_cmdline_word(&p, &w, &e)) {
		const char *q = b ? b : "", *x, *y;
		bool in = false;

		while (!in && nn_cmdline_word(&q, &x, &y))
			in = y - x == e - w && !memcmp(x, w, (size_t)(e - w));
		if (!in)
			nn_sb_printf(&sb, "%s%.*s", sb.len ? " " : "", (int)(e - w), w);
	}
	nn_sb_puts(&sb, "");
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

/* The bootloader's tool, on the live root only. @args: grubby's. */
static int run_tool(struct nn_ctx *ctx, const struct nn_bootloader *bl, const struct nn_boot_kernel *k,
		    const char *add, const char *remove, char *why, size_t whylen)
{
	char out[16384], tw[256], image[160], a1[NN_KARG_MAX * 8], a2[NN_KARG_MAX * 8];
	const char *name = strrchr(bl->tool, '/') + 1;
	char *argv[8];
	int rc, i = 0;

	if (nn_trusted_file(&ctx->root, bl->tool, tw, sizeof(tw))) {
		snprintf(why, whylen, "%s is not a program only root could have written: %s", bl->tool, tw);
		return -EPERM;
	}
	argv[i++] = (char *)name;
	if (bl->kind == NN_BL_GRUB && !strcmp(name, "grub-mkconfig")) {
		argv[i++] = "-o";
		argv[i++] = NN_GRUB_CFG;
	} else if (bl->kind == NN_BL_KERNEL_INSTALL) {
		static const struct { const char *head, *tail; } imgs[] = {
			{ "/usr/lib/modules/", "/vmlinuz" }, { "/lib/modules/", "/vmlinuz" }, { "/boot/vmlinuz-", "" },
		};
		size_t j;

		for (j = 0; j < sizeof(imgs) / sizeof(imgs[0]); j++) {
			snprintf(image, sizeof(image), "%s%s%s", imgs[j].head, k->release, imgs[j].tail);
			if (!nn_root_access(&ctx->root, image, F_OK))
				break;
		}
		if (j == sizeof(imgs) / sizeof(imgs[0]) || !k->release[0]) {
			snprintf(why, whylen, "no kernel image of %s for kernel-install add",
				 k->release[0] ? k->release : "the running kernel (release unknown)");
			return -ENOENT;
		}
		argv[i++] = "add";
		argv[i++] = (char *)k->release;
		argv[i++] = image;
	} else if (bl->kind == NN_BL_GRUBBY) {
		argv[i++] = "--update-kernel=ALL";
		if (add && *add) {
			snprintf(a1, sizeof(a1), "--args=%s", add);
			argv[i++] = a1;
		}
		if (remove && *remove) {
			snprintf(a2, sizeof(a2), "--remove-args=%s", remove);
			argv[i++] = a2;
		}
	}
	argv[i] = NULL;
	rc = nn_run_helper(argv, out, sizeof(out));
	if (rc != 0) {
		snprintf(why, whylen, "%s exited %d%s%.160s", bl->tool, rc, out[0] ? ": " : "", out);
		return rc < 0 ? rc : -EIO;
	}
	return 0;
}

/* The generated configuration read again: the next boot's line. */
static int reread_next(struct nn_ctx *ctx, const struct nn_bootloader *bl, char **next)
{
	char *text = NULL, *kernel = NULL;
	int err;

	*next = NULL;
	if (!bl->generated)
		return -ENOENT;
	err = nn_read_file(&ctx->root, bl->generated, &text, NULL);
	if (err)
		return err;
	err = bl->kind == NN_BL_GRUB ? nn_grub_cfg_first_linux(text, next, &kernel) :
		nn_bls_options(text, next, &kernel);
	free(text);
	free(kernel);
	return err;
}

static bool word_in(const char *list, const char *w, size_t n)
{
	const char *q = list ? list : "", *a, *b;

	while (nn_cmdline_word(&q, &a, &b))
		if ((size_t)(b - a) == n && !memcmp(a, w, n))
			return true;
	return false;
}

/* Whether any word of @words is in @list. */
static bool any_word_in(const char *list, const char *words)
{
	const char *p = words ? words : "", *w, *e;

	while (list && nn_cmdline_word(&p, &w, &e))
		if (word_in(list, w, (size_t)(e - w)))
			return true;
	return false;
}

static int words_push(char ***v, size_t *n, const char *w, size_t len)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strndup(w, len);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* The record after a change from @from to @to (nicnuma's words): @to now,
 * and the words taken out that the running kernel still has ("removed",
 * pending the reboot), with those of earlier changes during this boot. */
static int record_update(struct nn_ctx *ctx, const struct nn_boot_kernel *k, const char *bootloader,
			 const char *from, const char *to)
{
	struct nn_boot_record old, rec;
	char why[160];
	const char *p, *w, *e;
	size_t i;
	int err = 0, had;

	memset(&rec, 0, sizeof(rec));
	had = nn_boot_record_read(ctx, &old, why, sizeof(why)) == 0;
	snprintf(rec.bootloader, sizeof(rec.bootloader), "%s", bootloader);
	snprintf(rec.boot_id, sizeof(rec.boot_id), "%s", k->boot_id);
	nn_utc_stamp(rec.written, sizeof(rec.written), time(NULL), false);
	for (p = to ? to : ""; !err && nn_cmdline_word(&p, &w, &e);)
		err = words_push(&rec.args, &rec.nargs, w, (size_t)(e - w));
	for (i = 0; !err && had && k->boot_id[0] && !strcmp(old.boot_id, k->boot_id) && i < old.nremoved; i++)
		if (!word_in(to, old.removed[i], strlen(old.removed[i])))
			err = words_push(&rec.removed, &rec.nremoved, old.removed[i], strlen(old.removed[i]));
	for (p = from ? from : ""; !err && nn_cmdline_word(&p, &w, &e);) {
		size_t n = (size_t)(e - w);
		bool dup = false;

		for (i = 0; i < rec.nremoved && !dup; i++)
			dup = strlen(rec.removed[i]) == n && !memcmp(rec.removed[i], w, n);
		if (!dup && !word_in(to, w, n) && word_in(k->cmdline, w, n))
			err = words_push(&rec.removed, &rec.nremoved, w, n);
	}
	if (!err)
		err = nn_boot_record_write(ctx, &rec);
	nn_boot_record_free(&rec);
	if (had)
		nn_boot_record_free(&old);
	return err;
}

/* Puts nicnuma's words @to into the configuration where @from are now
 * (@created: before null, the file was not there). */
static int apply_words(struct nn_ctx *ctx, const struct nn_bootloader *bl, const char *from, const char *to,
		       bool to_absent, char *why, size_t whylen)
{
	char *text = NULL, *now = NULL;
	int err;

	if (bl->kind == NN_BL_GRUB) {
		char **w = NULL;
		size_t n = 0;
		const char *p = to ? to : "", *a, *b;

		if (to_absent)
			return put_file(ctx, NN_GRUB_DROPIN, NULL, why, whylen);
		while (nn_cmdline_word(&p, &a, &b)) {
			char **nw = realloc(w, (n + 1) * sizeof(*nw));

			if (!nw)
				break;
			w = nw;
			w[n] = strndup(a, (size_t)(b - a));
			if (!w[n])
				break;
			n++;
		}
		text = nn_grub_dropin_format(w, n);
		while (n)
			free(w[--n]);
		free(w);
		err = text ? put_file(ctx, NN_GRUB_DROPIN, text, why, whylen) : -ENOMEM;
		free(text);
		return err;
	}
	if (bl->kind == NN_BL_KERNEL_INSTALL) {
		err = nn_read_file(&ctx->root, NN_KERNEL_CMDLINE, &now, NULL);
		if (err == -ENOENT) {
			/* kernel-install's own default without the file: the running line */
			const char *q = "", *a, *b;
			struct nn_sb sb = NN_SB_INIT;

			for (size_t i = 0; i < bl->nsrc; i++)
				if (!strncmp(bl->src[i].owner, "/proc/cmdline", 13))
					q = bl->src[i].text;
			while (nn_cmdline_word(&q, &a, &b))
				nn_sb_printf(&sb, "%s%.*s", sb.len ? " " : "", (int)(b - a), a);
			nn_sb_puts(&sb, "");
			err = nn_sb_steal(&sb, &now);
		}
		if (err) {
			snprintf(why, whylen, "%s: %s", NN_KERNEL_CMDLINE, nn_read_strerror(err));
			return err;
		}
		text = to_absent ? NULL : kernel_cmdline(now, from, to);
		free(now);
		if (!to_absent && !text)
			return -ENOMEM;
		err = put_file(ctx, NN_KERNEL_CMDLINE, text, why, whylen);
		free(text);
		return err;
	}
	/* grubby: its own edit of every entry */
	if (!nn_root_is_live(&ctx->root)) {
		snprintf(why, whylen, "grubby edits the boot entries itself, and runs only on the live root");
		return -EOPNOTSUPP;
	}
	{
		char *add = words_minus(to, from), *rm = words_minus(from, to);

		err = add && rm ? run_tool(ctx, bl, NULL, add, rm, why, whylen) : -ENOMEM;
		free(add);
		free(rm);
	}
	return err;
}

static const char *change_path(const struct nn_bootloader *bl)
{
	return bl->kind == NN_BL_GRUBBY ? GRUBBY_PATH : bl->file;
}

int nn_boot_write(struct nn_ctx *ctx, struct nn_undo *u, const struct nn_boot_host *b,
		  const struct nn_boot_prep *prep, struct nn_boot_result *res)
{
	const struct nn_bootloader *bl = &b->loader;
	char why[320] = "", *next = NULL, missing[128];
	bool absent = !prep->before;
	int err;

	memset(res, 0, sizeof(*res));
	if (!prep->write)
		return 0;
	err = nn_undo_record(ctx, u, &nn_boot_change_ops, change_path(bl), prep->before, prep->after, NULL);
	if (err) {
		snprintf(res->note, sizeof(res->note), "no snapshot: %s", strerror(-err));
		return err;
	}
	/* nothing of nicnuma's left in a file it made: the file goes */
	err = apply_words(ctx, bl, prep->before, prep->after, absent && !prep->after[0], why, sizeof(why));
	if (!err) {
		res->written = true;
		err = record_update(ctx, &b->kernel, nn_bootloader_name(bl->kind), prep->before, prep->after);
		if (err)
			snprintf(why, sizeof(why), "cannot write the boot record: %s", strerror(-err));
	}
	if (!err && bl->kind != NN_BL_GRUBBY) {
		if (nn_root_is_live(&ctx->root)) {
			err = run_tool(ctx, bl, &b->kernel, NULL, NULL, why, sizeof(why));
			res->regenerated = !err;
		} else {
			snprintf(res->note, sizeof(res->note), "not regenerated: %s runs only on the live root "
				 "(never under --root)", bl->tool);
		}
	}
	if (!err && (res->regenerated || bl->kind == NN_BL_GRUBBY)) {
		/* the proof: the next boot's kernel line holds every planned word */
		err = reread_next(ctx, bl, &next);
		if (err)
			snprintf(why, sizeof(why), "cannot read %s back: %s", bl->generated, strerror(-err));
		else if (!has_all(next, prep->after, missing, sizeof(missing))) {
			snprintf(why, sizeof(why), "%s was regenerated without '%s': the next boot would not get it",
				 bl->generated, missing);
			err = -EIO;
		} else {
			res->verified = true;
		}
		free(next);
	}
	if (err && res->written) {
		struct nn_change c = { .ops = &nn_boot_change_ops, .path = (char *)change_path(bl),
				       .before = prep->before, .after = prep->after };
		struct nn_restore r = { 0 };

		/* put it back now; the log is the caller's to mark */
		if (nn_boot_change_ops.restore(ctx, &c, &r))
			nn_warn(ctx, change_path(bl), "putting the boot arguments back failed: %s", r.why);
		free(r.current);
	}
	if (err)
		snprintf(res->note, sizeof(res->note), "%s", why);
	return err;
}

/* ---- the undo kind ---- */

static int words_valid(const char *s, char *why, size_t whylen)
{
	const char *p = s, *w, *e;

	if (!s)
		return 0;
	if (strlen(s) >= WORDS_MAX) {
		snprintf(why, whylen, "more words than a kernel line holds");
		return -EINVAL;
	}
	while (nn_cmdline_word(&p, &w, &e))
		if (!nn_karg_safe(w, (size_t)(e - w))) {
			snprintf(why, whylen, "'%.60s' is not a kernel argument nicnuma writes", w);
			return -EINVAL;
		}
	return 0;
}

static int boot_validate(struct nn_ctx *ctx, const struct nn_undo *u, const struct nn_change *c, char *why,
			 size_t whylen)
{
	(void)ctx;
	(void)u;
	if (!c->path || (strcmp(c->path, NN_GRUB_DROPIN) && strcmp(c->path, NN_KERNEL_CMDLINE) &&
			 strcmp(c->path, GRUBBY_PATH))) {
		snprintf(why, whylen, "not a file nicnuma writes kernel arguments to");
		return -EINVAL;
	}
	if (!c->after || (!c->before && !strcmp(c->path, GRUBBY_PATH))) {
		snprintf(why, whylen, "no words after (or before, for grubby)");
		return -EINVAL;
	}
	if (words_valid(c->before, why, whylen) || words_valid(c->after, why, whylen))
		return -EINVAL;
	return 0;
}

/* The bootloader that holds @path now, read afresh. */
static int restore_read(struct nn_ctx *ctx, const char *path, struct nn_boot_host *b, char *why, size_t whylen)
{
	enum nn_bootloader_kind want = !strcmp(path, NN_GRUB_DROPIN) ? NN_BL_GRUB :
		!strcmp(path, NN_KERNEL_CMDLINE) ? NN_BL_KERNEL_INSTALL : NN_BL_GRUBBY;
	int err = nn_boot_host_read(ctx, b, true);

	if (err) {
		snprintf(why, whylen, "%s", strerror(-err));
		return err;
	}
	if (b->loader.kind != want) {
		snprintf(why, whylen, "the bootloader is %s now (%s), not %s: left alone",
			 nn_bootloader_name(b->loader.kind), b->loader.found ? b->loader.found : "?",
			 nn_bootloader_name(want));
		nn_boot_host_free(b);
		return -ENODEV;
	}
	return 0;
}

static int boot_restore(struct nn_ctx *ctx, const struct nn_change *c, struct nn_restore *res)
{
	struct nn_boot_host b;
	const char *now;
	bool grubby, absent, present;
	int err;

	err = restore_read(ctx, c->path, &b, res->why, sizeof(res->why));
	if (err)
		return err;
	grubby = b.loader.kind == NN_BL_GRUBBY;
	now = b.loader.ours ? b.loader.ours : "";
	res->current = strdup(now);
	/* before null: the file was not there, and goes again */
	absent = !c->before && !grubby;
	present = grubby || b.loader.file_text;
	if (absent ? !present : (present && !strcmp(now, c->before))) {
		res->unchanged = true;
		nn_boot_host_free(&b);
		return 0;
	}
	if (absent && b.loader.kind == NN_BL_KERNEL_INSTALL && any_word_in(b.kernel.cmdline, now)) {
		/* Without the file kernel-install takes the running line, which
		 * holds nicnuma's words after the reboot that applied them: the
		 * file stays, their words taken out, until a boot without them. */
		absent = false;
		nn_warn(ctx, c->path, "kept with nicnuma's words taken out, not removed: without it kernel-install "
			"takes the running kernel's line, which still holds them; it may go after the next reboot");
	}
	err = apply_words(ctx, &b.loader, now, c->before ? c->before : "", absent, res->why, sizeof(res->why));
	if (!err)
		err = record_update(ctx, &b.kernel, nn_bootloader_name(b.loader.kind), now, c->before);
	if (!err && !grubby && nn_root_is_live(&ctx->root))
		err = run_tool(ctx, &b.loader, &b.kernel, NULL, NULL, res->why, sizeof(res->why));
	nn_boot_host_free(&b);
	return err;
}

const struct nn_change_ops nn_boot_change_ops = {
	.name = "boot",
	.live_only = false,
	.validate = boot_validate,
	.restore = boot_restore,
};
