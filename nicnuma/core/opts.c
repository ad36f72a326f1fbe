// SPDX-License-Identifier: GPL-2.0-or-later
/* opts.c - the one option parser, the generated --help and the option dump (opts.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "opts.h"
#include "print.h"

#define HELP_COL 24	/* where an option's help text starts */
#define HELP_WIDTH 80

static const struct nn_opt help_row = { "help", 'h', NN_ARG_NONE, NULL, "this help", 'h' };

/* The shared group (nn_opt_share), and its rows @d takes in --help order:
 * for (o = group_rows(d); o && o->name; o++) if (group_row(d, o)) ... */
static const struct nn_opt_group *shared;

void nn_opt_share(const struct nn_opt_group *g)
{
	shared = g;
}

static const struct nn_opt *group_rows(const struct nn_cmd_desc *d)
{
	return d->groups && shared ? shared->rows : NULL;
}

static bool group_row(const struct nn_cmd_desc *d, const struct nn_opt *o)
{
	return shared->takes(d->groups, o);
}

static int add_row(struct nn_optstate *st, size_t *nl, size_t *ns, const struct nn_opt *o)
{
	static const int has[] = { no_argument, required_argument, optional_argument };

	if (*nl + 2 > sizeof(st->lo) / sizeof(st->lo[0]) || *ns + 4 > sizeof(st->so))
		return -E2BIG;
	/* getopt_long returns the letter for a short option: it must be the id */
	if (o->short_name && o->id != o->short_name)
		return -EINVAL;
	st->rows[*nl] = o;
	st->lo[(*nl)++] = (struct option){ o->name, has[o->arg], NULL, o->id };
	if (o->short_name) {
		st->so[(*ns)++] = o->short_name;
		if (o->arg != NN_ARG_NONE)
			st->so[(*ns)++] = ':';
		if (o->arg == NN_ARG_OPTIONAL)
			st->so[(*ns)++] = ':';
	}
	st->so[*ns] = '\0';
	return 0;
}

static int setup(const struct nn_cmd_desc *d, struct nn_optstate *st)
{
	const struct nn_opt *o;
	size_t nl = 0, ns = 0, i;
	int err = 0;

	/* a table that takes the shared group needs it registered */
	if (d->groups && !shared)
		return -EINVAL;

	/* ':' first: a missing value is told apart from an unknown option;
	 * '+' is not given, so options and arguments may mix (as before). */
	st->so[ns++] = ':';
	err = add_row(st, &nl, &ns, &help_row);
	for (i = 0; !err && d->opts && d->opts[i].name; i++)
		err = add_row(st, &nl, &ns, &d->opts[i]);
	for (o = group_rows(d); !err && o && o->name; o++)
		if (group_row(d, o))
			err = add_row(st, &nl, &ns, o);
	st->lo[nl] = (struct option){ 0 };
	st->ready = true;
	optind = 0;	/* glibc: start over (another table may have run) */
	opterr = 0;
	return err;
}

/* Stores option @id when its row says so; true when it did. */
static bool store(const struct nn_cmd_desc *d, struct nn_optstate *st, int id)
{
	const struct nn_opt *o;

	for (o = d->opts; st->dest && o && o->name; o++) {
		if (o->id != id || o->kind == NN_KIND_RETURN)
			continue;
		if (o->kind == NN_KIND_BOOL)
			*(bool *)((char *)st->dest + o->off) = true;
		else
			*(const char **)((char *)st->dest + o->off) = st->arg;
		return true;
	}
	return false;
}

/* The current row of option @id (not a deprecated spelling of it). */
static const struct nn_opt *row_of(const struct nn_optstate *st, int id)
{
	size_t i;

	for (i = 0; st->lo[i].name; i++)
		if (st->lo[i].val == id && !st->rows[i]->deprecated)
			return st->rows[i];
	return NULL;
}

/* An old spelling (of the option at lo[@li], or of its value) is taken for
 * the new one, with a warning on stderr naming it; the exit status stays. */
static void old_spelling(struct nn_ctx *ctx, const struct nn_cmd_desc *d, struct nn_optstate *st,
			 int li, int id)
{
	const struct nn_opt *o = li >= 0 ? st->rows[li] : NULL, *now = row_of(st, id);
	const char *prog = ctx && ctx->prog ? ctx->prog : "nicnuma";
	size_t i;

	/* a short option (no long index): its row, when it is an old one */
	for (i = 0; li < 0 && st->lo[i].name; i++)
		if (st->lo[i].val == id && st->rows[i]->short_name == id)
			o = st->rows[i];
	if (o && o->deprecated && li < 0)
		nn_fprintf_text(stderr, "%s: warning: %s: -%c is deprecated, use --%s (the old "
				"spelling goes in the next release)\n", prog, d->name, o->short_name,
				o->deprecated);
	else if (o && o->deprecated)
		nn_fprintf_text(stderr, "%s: warning: %s: --%s is deprecated, use --%s (the old "
				"spelling goes in the next release)\n", prog, d->name, o->name,
				o->deprecated);
	for (i = 0; now && now->old_values && st->arg && now->old_values[i]; i += 2) {
		if (strcmp(st->arg, now->old_values[i]))
			continue;
		nn_fprintf_text(stderr, "%s: warning: %s: --%s %s is deprecated, use --%s %s (the "
				"old spelling goes in the next release)\n", prog, d->name, now->name,
				st->arg, now->name, now->old_values[i + 1]);
		/* the table's own string: the commands only read st->arg */
		st->arg = (char *)now->old_values[i + 1];
		break;
	}
}

int nn_opt_next(struct nn_ctx *ctx, const struct nn_cmd_desc *d, struct nn_optstate *st)
{
	int c, r, li;

	if (!st->ready && setup(d, st)) {
		nn_err(ctx, "%s: bad option table (too large, a short option whose id is not its letter, "
		       "or its shared group not registered)", d->name);
		return NN_OPT_ERROR;
	}
	for (;;) {
		li = -1;
		c = getopt_long(st->argc, st->argv, st->so, st->lo, &li);
		st->arg = optarg;
		st->ind = optind;
		if (c == -1)
			break;
		if (c == 'h') {
			nn_opt_help(ctx, d, stdout);
			return NN_OPT_HELP;
		}
		if (c == ':' || c == '?') {
			const char *a = st->argv[optind - 1];

			if (c == ':')
				nn_err(ctx, "%s: option '%s' needs a value (see nicnuma %s --help)", d->name,
				       optopt && optopt < 256 && a[1] != '-' ? (char[]){ '-', (char)optopt, 0 } : a,
				       d->name);
			else if (optopt)
				nn_err(ctx, "%s: unknown option '-%c' (see nicnuma %s --help)", d->name, optopt,
				       d->name);
			else
				nn_err(ctx, "%s: unknown or ambiguous option '%s' (see nicnuma %s --help)",
				       d->name, a, d->name);
			return NN_OPT_ERROR;
		}
		old_spelling(ctx, d, st, li, c);
		if (store(d, st, c))
			continue;
		if (!st->plan)
			return c;
		r = shared ? shared->parse(ctx, c, st->arg, st->plan) : 1;
		if (r < 0)
			return NN_OPT_ERROR;
		if (r > 0)
			return c;
		if (c >= shared->first_id && c < shared->first_id + 32)
			st->plan_given |= 1u << (c - shared->first_id);
	}
	if (!d->args && optind < st->argc) {
		if (d->stray)
			nn_err(ctx, "%s: unexpected argument '%s' (%s)", d->name, st->argv[optind], d->stray);
		else
			nn_err(ctx, "%s: unexpected argument '%s' (see nicnuma %s --help)", d->name,
			       st->argv[optind], d->name);
		return NN_OPT_ERROR;
	}
	return NN_OPT_DONE;
}

/* @text from column @col: wrapped at spaces to HELP_WIDTH, or, when it holds
 * a '\n', laid out as written (its lines, each from @col). The first line
 * continues what is already printed (@at columns). */
static void put_wrapped(FILE *fp, const char *text, int col, int at)
{
	const char *p = text;
	bool laid_out = strchr(text, '\n');

	if (at > col) {
		fputc('\n', fp);
		at = 0;
	}
	while (*p) {
		const char *eol = laid_out ? strchrnul(p, '\n') : p + strlen(p), *cut = NULL, *w = p;

		/* the longest run of words that fits, or the whole line */
		while (w < eol) {
			const char *sp = memchr(w + 1, ' ', (size_t)(eol - w - 1));
			const char *end = sp ? sp : eol;

			if (!laid_out && col + (end - p) > HELP_WIDTH && cut)
				break;
			cut = end;
			w = end;
		}
		if (!cut)
			cut = eol;
		fprintf(fp, "%*s%.*s\n", col - at, "", (int)(cut - p), p);
		at = 0;
		p = cut;
		while (!laid_out && *p == ' ')
			p++;
		if (laid_out && *p == '\n')
			p++;
	}
}

static void put_row(FILE *fp, const struct nn_opt *o)
{
	int n;

	if (o->short_name)
		n = fprintf(fp, "  -%c, --%s", o->short_name, o->name);
	else
		n = fprintf(fp, "      --%s", o->name);
	if (o->argname)
		n += fprintf(fp, o->arg == NN_ARG_OPTIONAL ? "[=%s]" : " %s", o->argname);
	put_wrapped(fp, o->help, HELP_COL, n < HELP_COL ? n : HELP_COL + 1);
}

void nn_opt_rows(FILE *fp, const struct nn_opt *opts)
{
	for (; opts->name; opts++)
		if (!opts->deprecated)
			put_row(fp, opts);
}

static void put_para(FILE *fp, const char *s)
{
	if (s)
		fprintf(fp, "\n%s%s", s, s[0] && s[strlen(s) - 1] == '\n' ? "" : "\n");
}

/* @v (NULL-ended) as a JSON array (@step 1) or an object of "old": "new"
 * pairs (@step 2); NULL for none. */
static struct json_object *words(const char *const *v, int step)
{
	struct json_object *j;

	if (!v)
		return NULL;
	j = step == 1 ? json_object_new_array() : json_object_new_object();
	for (; v[0]; v += step)
		if (step == 1)
			json_object_array_add(j, json_object_new_string(v[0]));
		else
			json_object_object_add(j, v[0], json_object_new_string(v[1]));
	return j;
}

static struct json_object *dump_row(const struct nn_opt *o, const char *group)
{
	struct json_object *r = json_object_new_object();
	char s[3] = { '-', o->short_name, 0 };
	char l[64];

	snprintf(l, sizeof(l), "--%s", o->name);
	json_object_object_add(r, "long", json_object_new_string(l));
	json_object_object_add(r, "short", o->short_name ? json_object_new_string(s) : NULL);
	json_object_object_add(r, "arg", o->argname ? json_object_new_string(o->argname) : NULL);
	json_object_object_add(r, "optional_arg", json_object_new_boolean(o->arg == NN_ARG_OPTIONAL));
	json_object_object_add(r, "group", group ? json_object_new_string(group) : NULL);
	json_object_object_add(r, "help", json_object_new_string(o->help));
	json_object_object_add(r, "values", words(o->values, 1));
	json_object_object_add(r, "old_values", words(o->old_values, 2));
	if (o->deprecated)
		snprintf(l, sizeof(l), "--%s", o->deprecated);
	json_object_object_add(r, "deprecated", o->deprecated ? json_object_new_string(l) : NULL);
	return r;
}

/* Adds @o to @arr unless an option of that long name is there (modes repeat
 * shared ones). */
static void add_unique(struct json_object *arr, const struct nn_opt *o, const char *group)
{
	size_t j, n = json_object_array_length(arr);

	for (j = 0; j < n; j++) {
		const char *l = json_object_get_string(
			json_object_object_get(json_object_array_get_idx(arr, j), "long"));

		if (!strcmp(l + 2, o->name))
			return;
	}
	json_object_array_add(arr, dump_row(o, group));
}

struct json_object *nn_opt_dump(const char *name, const struct nn_cmd_desc *const *descs)
{
	struct json_object *cmd = json_object_new_object(), *arr = json_object_new_array();
	struct json_object *modes = json_object_new_array();
	const struct nn_opt *o;
	size_t k, i;

	json_object_object_add(cmd, "name", json_object_new_string(name));
	for (k = 0; descs[k]; k++) {
		const struct nn_cmd_desc *d = descs[k];

		json_object_array_add(modes, json_object_new_string(d->name));
		for (i = 0; d->opts && d->opts[i].name; i++)
			add_unique(arr, &d->opts[i], NULL);
		add_unique(arr, &help_row, NULL);
		for (o = group_rows(d); o && o->name; o++)
			if (group_row(d, o))
				add_unique(arr, o, shared->name);
	}
	json_object_object_add(cmd, "modes", modes);
	json_object_object_add(cmd, "options", arr);
	return cmd;
}

void nn_opt_help(struct nn_ctx *ctx, const struct nn_cmd_desc *d, FILE *fp)
{
	const struct nn_opt *o;
	size_t i;

	if (ctx && ctx->out.json) {
		const struct nn_cmd_desc *one[] = { d, NULL };
		struct json_object *doc = nn_opt_dump(d->name, one);

		fprintf(fp, "%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY));
		json_object_put(doc);
		return;
	}
	fprintf(fp, "Usage: %s%s", d->usage, d->usage[strlen(d->usage) - 1] == '\n' ? "" : "\n");
	put_para(fp, d->intro);
	fputs("\nOptions:\n", fp);
	for (i = 0; d->opts && d->opts[i].name; i++)
		if (!d->opts[i].deprecated)
			put_row(fp, &d->opts[i]);
	/* without a heading of their own the plan options are the command's */
	for (o = d->group_title ? NULL : group_rows(d); o && o->name; o++)
		if (group_row(d, o) && !o->deprecated)
			put_row(fp, o);
	put_row(fp, &help_row);
	if (group_rows(d) && d->group_title) {
		put_para(fp, d->group_title);
		for (o = group_rows(d); o->name; o++)
			if (group_row(d, o) && !o->deprecated)
				put_row(fp, o);
		put_para(fp, d->group_note);
	}
	put_para(fp, d->outro);
}

int nn_opt_seconds(struct nn_ctx *ctx, const char *opt, const char *arg, double lo, double hi,
		   double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !(*out >= lo && *out <= hi)) {
		nn_err(ctx, "%s: '%s' is not a number of seconds between %g and %g", opt, arg, lo, hi);
		return -EINVAL;
	}
	return 0;
}
