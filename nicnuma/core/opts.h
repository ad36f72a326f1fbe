/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opts.h - one option table per command: the parser, --help and the doc dump
 *
 * Every option of every command is one row of a table; the same row feeds the
 * parser (getopt_long, built from the table), the --help text and the
 * machine-readable dump (`nicnuma --json CMD --help`, `nicnuma --json --help`)
 * that tests/doc compares with the man pages and the bash completion.
 *
 * Adding an option is one row:
 *
 *	static const struct nn_opt opts[] = {
 *		{ "dry-run", 'n', NN_ARG_NONE, NULL, "print what would change; write nothing", 'n' },
 *		{ "plan", 0, NN_ARG_REQUIRED, "FILE", "apply this plan instead of planning now", OPT_PLAN },
 *		{ 0 },
 *	};
 *
 * then a `case` for its id in the command's loop (or, for a flag or a string
 * kept in a struct, NN_STORE_BOOL/NN_STORE_STR at the end of the row and
 * st.dest = &that_struct: no case at all):
 *
 *	struct nn_optstate st = NN_OPTSTATE(argc, argv);
 *	while ((opt = nn_opt_next(ctx, &desc, &st)) > 0)
 *		switch (opt) { case OPT_PLAN: plan = st.arg; break; ... }
 *	if (opt < 0)
 *		return nn_opt_exit(opt);	// --help printed (0) or an error (2)
 *	// st.ind: the first positional argument (only when desc.args is set)
 *
 * Ids: a short option's id is its letter; long-only ones take ids from
 * NN_OPT_OWN upwards (the plan group's ids lie below that, at 256..).
 * -h/--help is added by the parser; it is no row. Help text: one line of
 * prose is wrapped at spaces to 80 columns; a text that holds '\n' is laid
 * out as written (a table of values, indented continuation lines).
 *
 * Matching is getopt_long's, as documented in nicnuma(8): options may come in
 * any order between positional arguments, "--opt=VAL" or "--opt VAL", short
 * ones bundled ("-nv"), and an unambiguous prefix of a long name is accepted
 * ("--dry" for --dry-run); an ambiguous one is an error naming it. "--" ends
 * the options. Errors name the option and exit 2 (NN_EXIT_ERROR).
 */
#ifndef NICNUMA_CORE_OPTS_H
#define NICNUMA_CORE_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "nicnuma/core/ctx.h"

enum nn_arg { NN_ARG_NONE, NN_ARG_REQUIRED, NN_ARG_OPTIONAL };

/* What the parser does with an option: return its id to the command's loop,
 * or store it at nn_optstate.dest + off itself (a bool set true, or the value). */
enum nn_opt_kind { NN_KIND_RETURN, NN_KIND_BOOL, NN_KIND_STR };

struct nn_opt {
	const char *name;	/* long name without "--"; NULL ends a table */
	char short_name;	/* 0: long only */
	enum nn_arg arg;
	const char *argname;	/* the value's name in --help ("FILE"); NULL without one */
	const char *help;	/* one row of --help: '\n' breaks a line, the rest is wrapped */
	int id;			/* what nn_opt_next() returns for it (unique in the table) */
	enum nn_opt_kind kind;	/* NN_KIND_RETURN unless NN_STORE_BOOL/NN_STORE_STR */
	size_t off;		/* where it is stored, from nn_optstate.dest */
	/* The rest by name (.values = ...), all optional: */
	const char *const *values;	/* the words it takes, NULL-ended (the dump, docs/cli.md) */
	/* Old words of the value, "old", "new" pairs, NULL-ended: the parser
	 * hands the command the new word and warns (see deprecated). */
	const char *const *old_values;
	/* This row is an old spelling kept for one release: the option's name
	 * now (its row has the same id). Not in --help, man pages or completion;
	 * the dump marks it. Using it warns on stderr naming the new one and
	 * leaves the exit status alone (a script that ran clean still does). */
	const char *deprecated;
};

/* Trailing fields of a row that stores itself into a struct of the command:
 *	{ "dpdk", 0, NN_ARG_NONE, NULL, "add the EAL arguments", OPT_DPDK,
 *	  NN_STORE_BOOL(struct layout_args, lo.dpdk) }, */
#define NN_STORE_BOOL(type, field) NN_KIND_BOOL, offsetof(type, field)
#define NN_STORE_STR(type, field) NN_KIND_STR, offsetof(type, field)

/* First id for a command's own long-only options. */
#define NN_OPT_OWN 0x400

/* The option group several commands share (the planning options,
 * nicnuma/plan/plan_opts.c), registered once with nn_opt_share() before any
 * parsing: its rows, which of them a descriptor's groups mask takes, and the
 * handler that parses one into nn_optstate.plan. Registered, not linked:
 * the group lives in a layer above this parser. */
struct nn_opt_group {
	const char *name;		/* its "group" in the option dump ("plan") */
	const struct nn_opt *rows;	/* ended by { 0 } */
	bool (*takes)(unsigned int groups, const struct nn_opt *o);
	/* 0 parsed, 1 not the group's, -1 bad value (message printed) */
	int (*parse)(struct nn_ctx *ctx, int id, const char *arg, void *dest);
	int first_id;			/* the id of plan_given's bit 0 */
};

void nn_opt_share(const struct nn_opt_group *g);

/* A command (or a mode with its own --help: "hugepages reserve", "check --pid"). */
struct nn_cmd_desc {
	const char *name;	/* "apply", "hugepages reserve": messages, --help, the dump */
	const char *usage;	/* the text after "Usage: " up to the blank line ('\n' inside) */
	const char *intro;	/* paragraphs between usage and "Options:" (may be NULL) */
	const struct nn_opt *opts;
	unsigned int groups;	/* the shared group's rows it takes (NN_GROUP_* of plan_opts.h) */
	const char *group_title;/* --help heading of the shared options; NULL: among the command's own */
	const char *group_note;	/* text after that block (may be NULL) */
	const char *outro;	/* after the options: output, exit status, examples (may be NULL) */
	const char *args;	/* positional arguments it takes ("[SNAPSHOT]"); NULL: none */
	const char *stray;	/* hint for a stray argument (NULL: "see nicnuma NAME --help") */
};

/* Parser state: set up with NN_OPTSTATE(argc, argv); argv[0] is the command. */
struct nn_optstate {
	int argc;
	char **argv;
	int ind;			/* after the loop: first positional argument */
	char *arg;			/* the value of the option just returned (in argv), or NULL */
	void *plan;			/* where the shared (plan) group goes (set when desc.groups) */
	void *dest;			/* base of the rows that store themselves */
	unsigned int plan_given;	/* shared options seen: 1 << (id - first_id) */
	/* private: the getopt_long tables built from the descriptor */
	bool ready;
	struct option lo[64];
	const struct nn_opt *rows[64];	/* the row of each lo[] entry */
	char so[96];
};

#define NN_OPTSTATE(c, v) { .argc = (c), .argv = (v) }

/* nn_opt_next() results below 1 */
enum { NN_OPT_DONE = 0, NN_OPT_HELP = -1, NN_OPT_ERROR = -2 };

/* The next option's id (> 0), with st->arg its value. Plan group options are
 * parsed here into st->plan and not returned. NN_OPT_DONE at the end (a stray
 * argument of a command without desc->args is an error), NN_OPT_HELP when
 * --help was printed (text, or the dump in --json mode), NN_OPT_ERROR when a
 * message naming the option was printed. */
int nn_opt_next(struct nn_ctx *ctx, const struct nn_cmd_desc *d, struct nn_optstate *st);
/* The exit status for a negative nn_opt_next() result. */
static inline int nn_opt_exit(int r)
{
	return r == NN_OPT_HELP ? NN_EXIT_OK : NN_EXIT_ERROR;
}

/* --help of @d on @fp; in JSON mode (ctx->out.json) the dump instead. */
void nn_opt_help(struct nn_ctx *ctx, const struct nn_cmd_desc *d, FILE *fp);
/* The --help rows of @opts (a table ended by { 0 }) on @fp. */
void nn_opt_rows(FILE *fp, const struct nn_opt *opts);
/* The dump of several descriptors as one command's options (json-c object). */
struct json_object *nn_opt_dump(const char *name, const struct nn_cmd_desc *const *descs);

/* A number of seconds @lo..@hi given to option @opt ("--traffic"): 0, or
 * -EINVAL after an error naming the option and the value. */
int nn_opt_seconds(struct nn_ctx *ctx, const char *opt, const char *arg, double lo, double hi,
		   double *out);

#endif
