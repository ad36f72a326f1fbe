// SPDX-License-Identifier: GPL-2.0-or-later
/* boot_print.c - the kernel arguments' report: three columns, the change, the state */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/parse.h"
#include "nicnuma/core/print.h"
#include "boot/boot_print.h"
#include "boot/boot_write.h"

const char *nn_boot_state_name(enum nn_boot_state s)
{
	switch (s) {
	case NN_BST_IN_EFFECT: return "in_effect";
	case NN_BST_PENDING: return "pending_reboot";
	case NN_BST_IGNORED: return "drift";
	case NN_BST_NOT_CONFIGURED: return "not_configured";
	case NN_BST_EXTRA: return "not_planned";
	case NN_BST_REMOVED_PENDING: return "removed_pending_reboot";
	case NN_BST_REMOVED_RUNNING: return "removed_still_running";
	}
	return "?";
}

bool nn_boot_state_drift(enum nn_boot_state s)
{
	return s == NN_BST_IGNORED || s == NN_BST_NOT_CONFIGURED || s == NN_BST_EXTRA ||
	       s == NN_BST_REMOVED_RUNNING;
}

bool nn_boot_writable(const struct nn_boot_host *b)
{
	enum nn_bootloader_kind k = b->loader.kind;

	return b->read && (k == NN_BL_GRUB || k == NN_BL_KERNEL_INSTALL || k == NN_BL_GRUBBY);
}

bool nn_boot_written_this_boot(const struct nn_boot_host *b)
{
	return b->has_record && b->kernel.boot_id[0] && !strcmp(b->record.boot_id, b->kernel.boot_id);
}

static bool removed_this_boot(const struct nn_boot_host *b, const char *words)
{
	const char *p = words ? words : "", *w, *e;
	size_t i;

	if (!nn_boot_written_this_boot(b))
		return false;
	while (nn_cmdline_word(&p, &w, &e)) {
		bool in = false;

		for (i = 0; i < b->record.nremoved && !in; i++)
			in = strlen(b->record.removed[i]) == (size_t)(e - w) &&
			     !memcmp(b->record.removed[i], w, (size_t)(e - w));
		if (!in)
			return false;
	}
	return true;
}

/* The argument a word of nicnuma's belongs to ("hugepagesz=1G": "hugepages"). */
static void word_arg(const char *w, char *name, size_t len)
{
	struct nn_kword kw = { .key = strndup(w, strcspn(w, "=")) };

	snprintf(name, len, "%s", w);
	if (!kw.key)
		return;
	for (char *c = kw.key; *c; c++)
		if (*c == '-')
			*c = '_';
	nn_kword_arg(&kw, name, len);
	free(kw.key);
}

static enum nn_boot_state row_state(const struct nn_boot_row *r, const struct nn_boot_host *b)
{
	if (!r->planned) {
		if (r->configured && r->owner && !strcmp(r->owner, "nicnuma") && !r->running)
			return NN_BST_EXTRA;
		return removed_this_boot(b, r->running) ? NN_BST_REMOVED_PENDING : NN_BST_REMOVED_RUNNING;
	}
	/* running as planned, but the next boot will not be: no longer "in effect" for long */
	if (r->in_effect)
		return r->configured_ok || !nn_boot_writable(b) ? NN_BST_IN_EFFECT : NN_BST_NOT_CONFIGURED;
	if (!r->configured_ok)
		return NN_BST_NOT_CONFIGURED;
	/* another owner's argument: nicnuma cannot know when it was configured */
	if (nn_boot_written_this_boot(b) || (r->owner && strcmp(r->owner, "nicnuma")))
		return NN_BST_PENDING;
	return NN_BST_IGNORED;
}

int nn_boot_args_from_record(const struct nn_boot_record *r, struct nn_boot_arg **out, size_t *n)
{
	struct nn_boot_arg *v = calloc(r->nargs ? r->nargs : 1, sizeof(*v));
	size_t i, k;

	*out = NULL;
	*n = 0;
	if (!v)
		return -ENOMEM;
	for (i = 0; i < r->nargs; i++) {
		struct nn_kword kw = { 0 };
		char name[64], *text;
		const char *eq = strchr(r->args[i], '=');

		/* the key, as the kernel reads it */
		kw.key = strndup(r->args[i], eq ? (size_t)(eq - r->args[i]) : strlen(r->args[i]));
		if (!kw.key)
			goto nomem;
		for (k = 0; kw.key[k]; k++)
			if (kw.key[k] == '-')
				kw.key[k] = '_';
		nn_kword_arg(&kw, name, sizeof(name));
		free(kw.key);
		for (k = 0; k < *n && strcmp(v[k].name, name); k++)
			;
		if (k < *n) {
			if (asprintf(&text, "%s %s", v[k].text, r->args[i]) < 0)
				goto nomem;
			free(v[k].text);
			v[k].text = text;
			continue;
		}
		v[k].name = strdup(name);
		v[k].text = strdup(r->args[i]);
		v[k].source = strdup("record");
		v[k].reason = strdup("nicnuma put it into the bootloader's configuration");
		(*n)++;
		if (!v[k].name || !v[k].text || !v[k].source || !v[k].reason)
			goto nomem;
	}
	*out = v;
	return 0;
nomem:
	nn_boot_args_free(v, *n);
	*n = 0;
	return -ENOMEM;
}

static void print_loader(struct nn_out *o, const struct nn_boot_host *b)
{
	const struct nn_bootloader *bl = &b->loader;

	nn_open_object(o, "bootloader");
	nn_print_string(o, PRINT_JSON, "kind", NULL, nn_bootloader_name(bl->kind));
	nn_print_string(o, PRINT_ANY, "found", "bootloader: %s\n", bl->found);
	nn_print_string(o, PRINT_JSON, "file", NULL, bl->file);
	nn_print_string(o, PRINT_JSON, "generated", NULL, bl->generated);
	nn_print_string(o, PRINT_JSON, "tool", NULL, bl->tool);
	nn_print_string(o, PRINT_JSON, "next_kernel", NULL, bl->next_kernel);
	nn_print_string(o, PRINT_ANY, "problem", bl->problem ? "  not written: %s\n" : NULL, bl->problem);
	nn_close_object(o);
	nn_open_object(o, "kernel");
	nn_print_string(o, PRINT_JSON, "release", NULL, b->kernel.release[0] ? b->kernel.release : NULL);
	nn_print_string(o, PRINT_JSON, "config", NULL, b->kernel.config_file[0] ? b->kernel.config_file : NULL);
	nn_print_bool(o, PRINT_JSON, "written_this_boot", NULL, nn_boot_written_this_boot(b));
	nn_close_object(o);
}

static const struct nn_boot_arg *arg_of(const struct nn_boot_arg *args, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(args[i].name, name))
			return &args[i];
	return NULL;
}

static void print_row(struct nn_out *o, const struct nn_boot_row *r, const struct nn_boot_arg *a,
		      const struct nn_boot_host *b, unsigned int flags, struct nn_boot_report *rep)
{
	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_ANY, "name", "  %-12s", r->name);
	nn_print_string(o, PRINT_ANY, "change", " %-9s", nn_boot_change_name(r->change));
	if (flags & NN_BOOTP_STATE) {
		enum nn_boot_state s = row_state(r, b);

		nn_print_string(o, PRINT_ANY, "status", " %-22s", nn_boot_state_name(s));
		if (nn_boot_state_drift(s))
			rep->ndrift++;
		if (s == NN_BST_PENDING || s == NN_BST_REMOVED_PENDING) {
			rep->npending++;
			rep->reboot_pending = true;
		}
	}
	nn_print_string(o, PRINT_ANY, "running", " running: %s;", r->running);
	nn_print_string(o, PRINT_ANY, "configured", " next boot: %s;", r->configured);
	nn_print_string(o, PRINT_ANY, "planned", " planned: %s\n", r->planned);
	nn_print_string(o, PRINT_JSON, "owner", NULL, r->owner);
	nn_print_bool(o, PRINT_JSON, "in_effect", NULL, r->in_effect);
	nn_print_string(o, PRINT_JSON, "source", NULL, a ? a->source : NULL);
	nn_print_string(o, a ? PRINT_ANY : PRINT_JSON, "reason", a ? "      %s\n" : NULL, a ? a->reason : NULL);
	nn_close_object(o);
}

/* The record's removed words the running kernel still has (check, status). */
static void print_removed(struct nn_out *o, const struct nn_boot_host *b, const struct nn_boot_diff *d,
			  struct nn_boot_report *rep)
{
	size_t i, k;

	for (i = 0; b->has_record && i < b->record.nremoved; i++) {
		const char *w = b->record.removed[i];
		struct nn_boot_row r = { 0 };
		char name[64];
		bool shown = false;

		for (k = 0; k < d->n && !shown; k++)
			shown = d->rows[k].running && strstr(d->rows[k].running, w);
		if (shown || !b->kernel.cmdline || !strstr(b->kernel.cmdline, w))
			continue;
		word_arg(w, name, sizeof(name));
		r.name = name;
		r.running = (char *)w;
		r.change = NN_BCH_REMOVED;
		print_row(o, &r, NULL, b, NN_BOOTP_STATE, rep);
	}
}

int nn_boot_print(struct nn_out *o, const struct nn_boot_host *b, const char *mode,
		  const struct nn_boot_arg *args, size_t n, const struct nn_boot_skip *skips, size_t nskips,
		  unsigned int flags, struct nn_boot_report *rep)
{
	const struct nn_bootloader *bl = &b->loader;
	struct nn_boot_prep prep;
	struct nn_boot_diff d;
	size_t i;
	int err;

	memset(rep, 0, sizeof(*rep));
	nn_open_object(o, "boot");
	nn_print_string(o, PRINT_ANY, "mode", "\nboot arguments (%s)\n", mode);
	print_loader(o, b);
	rep->refused = nn_boot_prepare(b, args, n, &prep, rep->refusal, sizeof(rep->refusal));
	if (!rep->refused) {
		rep->write = prep.write;
		rep->reboot_required = prep.reboot;
	}
	nn_boot_prep_free(&prep);
	if (rep->refused == -ENOMEM) {
		nn_close_object(o);
		return -ENOMEM;
	}
	/* the rows whatever the bootloader: the running column is always there */
	err = nn_boot_diff_make(args, n, b->kernel.cmdline, bl->next, bl->src, bl->nsrc, bl->ours, &d, rep->error,
				sizeof(rep->error));
	if (err == -ENOMEM) {
		nn_close_object(o);
		return err;
	}
	nn_open_array(o, "args");
	for (i = 0; !err && i < d.n; i++)
		print_row(o, &d.rows[i], arg_of(args, n, d.rows[i].name), b, flags, rep);
	if (!err && (flags & NN_BOOTP_STATE))
		print_removed(o, b, &d, rep);
	nn_close_array(o);
	nn_open_array(o, "left_out");
	for (i = 0; i < nskips; i++) {
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "name", "  left out: %s", skips[i].name);
		nn_print_string(o, PRINT_JSON, "source", NULL, skips[i].source);
		nn_print_string(o, PRINT_ANY, "reason", ": %s\n", skips[i].reason);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_print_bool(o, PRINT_ANY, "write", "  apply writes the configuration: %s", rep->write);
	nn_print_bool(o, PRINT_ANY, "reboot_required", "; reboot needed after it: %s\n", rep->reboot_required);
	if (flags & NN_BOOTP_STATE)
		nn_print_bool(o, PRINT_ANY, "reboot_pending", "  reboot pending: %s\n", rep->reboot_pending);
	nn_print_string(o, PRINT_ANY, "refused", rep->refused && n ? "  apply would refuse: %s\n" : NULL,
			rep->refused && n ? rep->refusal : NULL);
	nn_print_string(o, PRINT_JSON, "error", NULL, err ? rep->error : NULL);
	nn_close_object(o);
	nn_boot_diff_free(&d);
	return err;
}

static int assessed_add(struct nn_boot_assessed **v, size_t *n, const char *name, enum nn_boot_state st)
{
	struct nn_boot_assessed *nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	snprintf(nv[*n].name, sizeof(nv[*n].name), "%s", name);
	nv[*n].state = st;
	(*n)++;
	return 0;
}

int nn_boot_assess(const struct nn_boot_host *b, const struct nn_boot_arg *args, size_t n,
		   struct nn_boot_assessed **out, size_t *nout, bool *reboot_pending, char *why, size_t whylen)
{
	const struct nn_bootloader *bl = &b->loader;
	struct nn_boot_diff d;
	size_t i, k;
	int err;

	*out = NULL;
	*nout = 0;
	*reboot_pending = false;
	err = nn_boot_diff_make(args, n, b->kernel.cmdline, bl->next, bl->src, bl->nsrc, bl->ours, &d, why, whylen);
	if (err)
		return err;
	for (i = 0; !err && i < d.n; i++) {
		enum nn_boot_state st = row_state(&d.rows[i], b);

		*reboot_pending |= st == NN_BST_PENDING || st == NN_BST_REMOVED_PENDING;
		err = assessed_add(out, nout, d.rows[i].name, st);
	}
	for (i = 0; !err && b->has_record && i < b->record.nremoved; i++) {
		const char *w = b->record.removed[i];
		bool shown = false;

		for (k = 0; k < d.n && !shown; k++)
			shown = d.rows[k].running && strstr(d.rows[k].running, w);
		char name[32];

		if (shown || !b->kernel.cmdline || !strstr(b->kernel.cmdline, w))
			continue;
		word_arg(w, name, sizeof(name));
		for (k = 0; k < *nout && strcmp((*out)[k].name, name); k++)
			;
		if (k < *nout)
			continue;	/* one argument, several words (hugepagesz, hugepages) */
		*reboot_pending |= removed_this_boot(b, w);
		err = assessed_add(out, nout, name, removed_this_boot(b, w) ? NN_BST_REMOVED_PENDING :
				   NN_BST_REMOVED_RUNNING);
	}
	nn_boot_diff_free(&d);
	if (err) {
		free(*out);
		*out = NULL;
		*nout = 0;
	}
	return err;
}
