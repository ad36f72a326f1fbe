// SPDX-License-Identifier: GPL-2.0-or-later
/* grub_sh.c - the assignment subset of sh, as grub-mkconfig sources /etc/default/grub and grub.d
 *
 * A lexer splits the text into words and operators as sh does (quotes,
 * backslashes, $(...), ${...}, backquotes, comments, here documents); a
 * statement is the words up to a newline, ';' or an and-or/pipe operator.
 * Statements made only of assignments (or export/readonly/unset of names)
 * at the top level run; everything else only needs to be shown harmless:
 * it must not assign a tracked variable, since this reader cannot know
 * whether or how the shell would run it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "boot/grub_sh.h"

/* Nesting deeper than this (parameter expansions, compound commands) is
 * refused rather than followed: no real config comes near it. */
#define SH_MAX_DEPTH 32

enum tok { T_END, T_WORD, T_SEP, T_ANDOR, T_AMP, T_OPEN, T_CLOSE, T_HEREDOC };

struct lex {
	const char *s, *end;
	unsigned int line;
	/* here documents announced on this line: skipped at its end */
	char heredoc[4][64];
	bool strip_tabs[4];
	int nheredoc;
	bool dash;		/* the last "<<" was "<<-": tabs before its delimiter */
	int err;		/* -ENOTSUP: unterminated quote or expansion */
	unsigned int err_line;
};

struct word {
	const char *p, *e;	/* raw text */
	unsigned int line;
};

static int fail(char *why, size_t whylen, const char *fname, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(char *why, size_t whylen, const char *fname, unsigned int line, const char *fmt, ...)
{
	struct nn_sb sb = NN_SB_INIT;
	va_list ap;

	nn_sb_printf(&sb, "%s:%u: ", fname, line);
	va_start(ap, fmt);
	nn_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	snprintf(why, whylen, "%s", nn_sb_str(&sb) ? nn_sb_str(&sb) : "out of memory");
	nn_sb_free(&sb);
	return -ENOTSUP;
}

/* Skips past the quote, $(...), ${...} or `...` starting at @p: the byte after it, or NULL when
 * the text ends first. Counts newlines into @lx->line. */
static const char *skip_quoted(struct lex *lx, const char *p, int depth);

static const char *skip_until(struct lex *lx, const char *p, char close, int depth)
{
	while (p < lx->end) {
		char c = *p;

		if (c == close)
			return p + 1;
		if (c == '\n')
			lx->line++;
		if (c == '\\' && p + 1 < lx->end) {
			if (p[1] == '\n')
				lx->line++;
			p += 2;
			continue;
		}
		if (c == '\'' && close == ')') {
			const char *q = memchr(p + 1, '\'', (size_t)(lx->end - p - 1));

			if (!q)
				return NULL;
			for (const char *r = p; r < q; r++)
				lx->line += *r == '\n';
			p = q + 1;
			continue;
		}
		if (c == '"' || c == '`' || (c == '$' && p + 1 < lx->end && (p[1] == '(' || p[1] == '{'))) {
			p = skip_quoted(lx, p, depth + 1);
			if (!p)
				return NULL;
			continue;
		}
		if (c == '(' && close == ')') {
			p = skip_until(lx, p + 1, ')', depth + 1);
			if (!p)
				return NULL;
			continue;
		}
		p++;
	}
	return NULL;
}

static const char *skip_quoted(struct lex *lx, const char *p, int depth)
{
	if (depth > SH_MAX_DEPTH)
		return NULL;
	switch (*p) {
	case '\'': {
		const char *q = memchr(p + 1, '\'', (size_t)(lx->end - p - 1));

		if (!q)
			return NULL;
		for (const char *r = p; r < q; r++)
			lx->line += *r == '\n';
		return q + 1;
	}
	case '"':
		return skip_until(lx, p + 1, '"', depth);
	case '`':
		return skip_until(lx, p + 1, '`', depth);
	default:	/* '$' */
		return skip_until(lx, p + 2, p[1] == '(' ? ')' : '}', depth);
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_op(char c)
{
	return c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')' || c == '\n';
}

/* Skips the here documents announced on the line just ended: each body up
 * to the line that is its delimiter alone. */
static void skip_heredocs(struct lex *lx)
{
	int i;

	for (i = 0; i < lx->nheredoc; i++) {
		size_t dl = strlen(lx->heredoc[i]);

		while (lx->s < lx->end) {
			const char *nl = memchr(lx->s, '\n', (size_t)(lx->end - lx->s));
			const char *le = nl ? nl : lx->end, *b = lx->s;

			if (lx->strip_tabs[i])
				while (b < le && *b == '\t')
					b++;
			lx->s = nl ? nl + 1 : lx->end;
			lx->line++;
			if ((size_t)(le - b) == dl && !memcmp(b, lx->heredoc[i], dl))
				break;
		}
	}
	lx->nheredoc = 0;
}

/* The next token. A word's raw text lands in @w. */
static enum tok next_tok(struct lex *lx, struct word *w)
{
	const char *p;

	for (;;) {
		while (lx->s < lx->end && is_blank(*lx->s))
			lx->s++;
		if (lx->s + 1 < lx->end && lx->s[0] == '\\' && lx->s[1] == '\n') {
			lx->s += 2;
			lx->line++;
			continue;
		}
		if (lx->s < lx->end && *lx->s == '#') {
			while (lx->s < lx->end && *lx->s != '\n')
				lx->s++;
		}
		break;
	}
	if (lx->s >= lx->end)
		return T_END;
	p = lx->s;
	w->line = lx->line;
	switch (*p) {
	case '\n':
		lx->s++;
		lx->line++;
		skip_heredocs(lx);
		return T_SEP;
	case ';':
		lx->s += (p + 1 < lx->end && p[1] == ';') ? 2 : 1;
		return T_SEP;
	case '&':
		if (p + 1 < lx->end && p[1] == '&') {
			lx->s += 2;
			return T_ANDOR;
		}
		lx->s++;
		return T_AMP;
	case '|':
		lx->s += (p + 1 < lx->end && p[1] == '|') ? 2 : 1;
		return T_ANDOR;
	case '(':
		lx->s++;
		return T_OPEN;
	case ')':
		lx->s++;
		return T_CLOSE;
	case '<':
	case '>':
		if (p + 1 < lx->end && p[0] == '<' && p[1] == '<') {
			lx->s += 2;
			lx->dash = lx->s < lx->end && *lx->s == '-';
			lx->s += lx->dash;
			return T_HEREDOC;
		}
		/* a redirection: its target word is no word of the command */
		while (lx->s < lx->end && (*lx->s == '<' || *lx->s == '>' || *lx->s == '&' || *lx->s == '|'))
			lx->s++;
		{
			enum tok t = next_tok(lx, w);

			return t == T_WORD ? next_tok(lx, w) : t;
		}
	default:
		break;
	}
	while (p < lx->end && !is_blank(*p) && !is_op(*p)) {
		if (*p == '\\') {
			if (p + 1 < lx->end && p[1] == '\n')
				lx->line++;
			p += p + 1 < lx->end ? 2 : 1;
		} else if (*p == '\'' || *p == '"' || *p == '`' ||
			   (*p == '$' && p + 1 < lx->end && (p[1] == '(' || p[1] == '{'))) {
			const char *q = skip_quoted(lx, p, 0);

			if (!q) {
				lx->err = -ENOTSUP;
				lx->err_line = w->line;
				lx->s = lx->end;
				return T_END;
			}
			p = q;
		} else {
			p++;
		}
	}
	w->p = lx->s;
	w->e = p;
	lx->s = p;
	return T_WORD;
}

/* ---- expansion of one assignment value ---- */

struct val {
	struct nn_sb sb;
	const char *unknown;	/* why the value cannot be known, or NULL */
};

static struct nn_sh_var *var_find(const struct nn_sh_env *env, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < env->n; i++)
		if (strlen(env->v[i].name) == n && !memcmp(env->v[i].name, name, n))
			return &env->v[i];
	return NULL;
}

static bool name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void expand(const struct nn_sh_env *env, const char *p, const char *e, bool dq, struct val *v,
		   int depth);

/* ${...} between @p (after "${") and @e (its "}"). */
static void expand_brace(const struct nn_sh_env *env, const char *p, const char *e, struct val *v, int depth)
{
	const char *n = p, *op;
	const struct nn_sh_var *var;
	bool set, colon = false, nonempty;
	char o;

	while (n < e && name_char(*n))
		n++;
	if (n == p || !name_start(*p)) {
		v->unknown = "a special parameter or an expansion other than ${NAME}, ${NAME-w}, ${NAME+w}";
		return;
	}
	var = var_find(env, p, (size_t)(n - p));
	if (var && var->unknown) {
		v->unknown = "a variable this reader could not evaluate";
		return;
	}
	set = var && var->value;
	nonempty = set && var->value[0];
	if (n == e) {
		if (set)
			nn_sb_puts(&v->sb, var->value);
		return;
	}
	op = n;
	if (*op == ':') {
		colon = true;
		op++;
	}
	o = op < e ? *op : 0;
	if (o != '-' && o != '+') {
		v->unknown = "an expansion other than ${NAME}, ${NAME-w}, ${NAME+w}";
		return;
	}
	if (o == '-') {
		if (colon ? nonempty : set)
			nn_sb_puts(&v->sb, var->value);
		else
			expand(env, op + 1, e, true, v, depth + 1);
	} else if (colon ? nonempty : set) {
		expand(env, op + 1, e, true, v, depth + 1);
	}
}

/* Expands [p, e) (@dq: inside double quotes) into @v. */
static void expand(const struct nn_sh_env *env, const char *p, const char *e, bool dq, struct val *v,
		   int depth)
{
	struct lex lx = { .s = p, .end = e, .line = 1 };

	if (depth > SH_MAX_DEPTH) {
		v->unknown = "expansions nested too deep";
		return;
	}
	while (p < e && !v->unknown) {
		char c = *p;

		if (c == '\\') {
			if (p + 1 >= e) {
				nn_sb_putc(&v->sb, '\\');
				p++;
			} else if (p[1] == '\n') {
				p += 2;
			} else if (!dq || strchr("$`\"\\", p[1])) {
				nn_sb_putc(&v->sb, p[1]);
				p += 2;
			} else {
				nn_sb_putn(&v->sb, p, 2);
				p += 2;
			}
		} else if (c == '\'' && !dq) {
			const char *q = memchr(p + 1, '\'', (size_t)(e - p - 1));

			if (!q) {
				v->unknown = "an unterminated quote";
				return;
			}
			nn_sb_putn(&v->sb, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		} else if (c == '"' && !dq) {
			const char *q = skip_quoted(&lx, p, depth);

			if (!q) {
				v->unknown = "an unterminated quote";
				return;
			}
			expand(env, p + 1, q - 1, true, v, depth + 1);
			p = q;
		} else if (c == '`') {
			v->unknown = "a command substitution (`...`)";
		} else if (c == '$' && p + 1 < e && p[1] == '(') {
			v->unknown = "a command substitution ($(...))";
		} else if (c == '$' && p + 1 < e && p[1] == '{') {
			const char *q = skip_quoted(&lx, p, depth);

			if (!q) {
				v->unknown = "an unterminated ${";
				return;
			}
			expand_brace(env, p + 2, q - 1, v, depth + 1);
			p = q;
		} else if (c == '$' && p + 1 < e && name_start(p[1])) {
			const char *n = p + 1;
			const struct nn_sh_var *var;

			while (n < e && name_char(*n))
				n++;
			var = var_find(env, p + 1, (size_t)(n - p - 1));
			if (var && var->unknown)
				v->unknown = "a variable this reader could not evaluate";
			else if (var && var->value)
				nn_sb_puts(&v->sb, var->value);
			p = n;
		} else if (c == '$' && p + 1 < e && strchr("0123456789@*#?$!-", p[1])) {
			v->unknown = "a special parameter ($1, $@, $?...)";
		} else {
			nn_sb_putc(&v->sb, c);
			p++;
		}
	}
}

/* ---- statements ---- */

static bool tracked_name(const char *const *tracked, const char *n, size_t len)
{
	for (; tracked && *tracked; tracked++)
		if (strlen(*tracked) == len && !memcmp(*tracked, n, len))
			return true;
	return false;
}

/* NAME= at the start of @w: the name's length, else 0. */
static size_t assign_name(const struct word *w)
{
	const char *p = w->p;

	if (p >= w->e || !name_start(*p))
		return 0;
	while (p < w->e && name_char(*p))
		p++;
	return p < w->e && *p == '=' ? (size_t)(p - w->p) : 0;
}

static bool word_is(const struct word *w, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(w->e - w->p) == n && !memcmp(w->p, s, n);
}

static int var_set(struct nn_sh_env *env, const char *name, size_t n, const char *value, bool unknown,
		   const char *fname, unsigned int line)
{
	struct nn_sh_var *v = var_find(env, name, n);
	char *val = NULL, *file;

	if (!v) {
		if (env->n == env->cap) {
			size_t cap = env->cap ? env->cap * 2 : 16;
			struct nn_sh_var *nv = realloc(env->v, cap * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			env->v = nv;
			env->cap = cap;
		}
		v = &env->v[env->n];
		memset(v, 0, sizeof(*v));
		v->name = strndup(name, n);
		if (!v->name)
			return -ENOMEM;
		env->n++;
	}
	if (value) {
		val = strdup(value);
		if (!val)
			return -ENOMEM;
	}
	file = strdup(fname);
	if (!file) {
		free(val);
		return -ENOMEM;
	}
	free(v->value);
	free(v->file);
	v->value = val;
	v->unknown = unknown;
	v->file = file;
	v->line = line;
	return 0;
}

/* Mentions of a tracked variable in a statement this reader does not run:
 * an assignment word, or its name given to unset/read/export (anywhere in
 * the statement: conservative). The first one, else NULL; *@len the name's
 * length (the text is not NUL-terminated). */
static const char *touches(const struct word *words, size_t n, const char *const *tracked, int *len)
{
	size_t i, an;

	for (i = 0; i < n; i++) {
		const struct word *w = &words[i];

		an = assign_name(w);
		if (!an && tracked_name(tracked, w->p, (size_t)(w->e - w->p)))
			an = (size_t)(w->e - w->p);
		else if (an && !tracked_name(tracked, w->p, an))
			an = 0;
		if (an) {
			*len = (int)an;
			return w->p;
		}
	}
	return NULL;
}

static const char *const openers[] = { "if", "case", "for", "while", "until", "select", "{", NULL };
static const char *const closers[] = { "fi", "esac", "done", "}", NULL };
static const char *const prefixes[] = { "then", "do", "else", "elif", "!", NULL };

static bool word_in(const struct word *w, const char *const *set)
{
	for (; *set; set++)
		if (word_is(w, *set))
			return true;
	return false;
}

struct run {
	struct nn_sh_env *env;
	const char *fname;
	const char *const *tracked;
	char *why;
	size_t whylen;
	int depth;		/* compound commands and subshells open */
};

/* Runs one statement's assignments at the top level. */
static int run_assignments(struct run *r, const struct word *words, size_t n, bool keyword)
{
	size_t i;
	int err;

	for (i = keyword ? 1 : 0; i < n; i++) {
		const struct word *w = &words[i];
		size_t an = assign_name(w);
		struct val v = { NN_SB_INIT, NULL };
		bool tr;

		if (!an) {	/* export NAME, readonly NAME: no value change */
			if (keyword)
				continue;
			return 0;
		}
		tr = tracked_name(r->tracked, w->p, an);
		expand(r->env, w->p + an + 1, w->e, false, &v, 0);
		if (!v.unknown && nn_sb_error(&v.sb)) {
			nn_sb_free(&v.sb);
			return -ENOMEM;
		}
		if (v.unknown && tr) {
			nn_sb_free(&v.sb);
			return fail(r->why, r->whylen, r->fname, w->line, "%.*s is set from %s: nicnuma cannot "
				    "evaluate it", (int)an, w->p, v.unknown);
		}
		err = var_set(r->env, w->p, an, v.unknown ? NULL : nn_sb_str(&v.sb) ? nn_sb_str(&v.sb) : "",
			      v.unknown != NULL, r->fname, w->line);
		nn_sb_free(&v.sb);
		if (err)
			return err;
	}
	return 0;
}

/* @cond: part of an and-or list, a pipeline or run in the background. */
static int run_statement(struct run *r, struct word *words, size_t n, bool cond)
{
	const char *hit;
	int hitlen = 0;
	size_t skip = 0, i;
	bool all_assign = true;

	if (!n)
		return 0;
	/* reserved words in front: then/do/else/elif/!, openers, closers */
	while (skip < n) {
		const struct word *w = &words[skip];

		if (word_in(w, openers)) {
			if (++r->depth > SH_MAX_DEPTH)
				return fail(r->why, r->whylen, r->fname, w->line, "compound commands nested too deep");
		} else if (word_in(w, closers)) {
			if (r->depth > 0)
				r->depth--;
		} else if (!word_in(w, prefixes)) {
			break;
		}
		skip++;
		/* an opener's own words (the if condition, the for list) follow it */
		if (skip && word_in(&words[skip - 1], openers) && !word_is(&words[skip - 1], "{"))
			break;
	}
	words += skip;
	n -= skip;
	hit = n ? touches(words, n, r->tracked, &hitlen) : NULL;
	if (!n)
		return 0;
	if (r->depth > 0 || cond || skip) {
		if (hit)
			return fail(r->why, r->whylen, r->fname, words[0].line, "%.*s is set inside a compound "
				    "command, a condition or a pipeline: nicnuma cannot evaluate it", hitlen, hit);
		return 0;
	}
	if (word_is(&words[0], "eval") || word_is(&words[0], ".") || word_is(&words[0], "source"))
		return fail(r->why, r->whylen, r->fname, words[0].line, "'%.*s' runs text nicnuma cannot "
			    "follow", (int)(words[0].e - words[0].p), words[0].p);
	if (word_is(&words[0], "export") || word_is(&words[0], "readonly"))
		return run_assignments(r, words, n, true);
	if (word_is(&words[0], "unset")) {
		for (i = 1; i < n; i++) {
			const struct word *w = &words[i];
			int err;

			if (w->p < w->e && *w->p == '-')
				continue;	/* -v */
			err = var_set(r->env, w->p, (size_t)(w->e - w->p), NULL, false, r->fname, w->line);
			if (err)
				return err;
		}
		return 0;
	}
	for (i = 0; i < n; i++)
		if (!assign_name(&words[i]))
			all_assign = false;
	if (all_assign)
		return run_assignments(r, words, n, false);
	/* a command: assignments in front of it are its environment only */
	if (hit)
		return fail(r->why, r->whylen, r->fname, words[0].line, "%.*s is given to a command: nicnuma "
			    "cannot evaluate it", hitlen, hit);
	return 0;
}

int nn_sh_source(struct nn_sh_env *env, const char *fname, const char *text, size_t len,
		 const char *const *tracked, char *why, size_t whylen)
{
	struct lex lx = { .s = text, .end = text + len, .line = 1 };
	struct run r = { env, fname, tracked, why, whylen, 0 };
	struct word *words = NULL, w;
	size_t n = 0, cap = 0;
	bool cond = false, heredoc = false;
	int err = 0, paren = 0;
	enum tok t;

	if (whylen)
		why[0] = '\0';
	if (memchr(text, '\0', len))
		return fail(why, whylen, fname, 1, "a NUL byte: not a shell file");
	do {
		t = next_tok(&lx, &w);
		if (t == T_WORD && heredoc) {
			struct word d = w;

			heredoc = false;
			if (lx.nheredoc < 4) {
				size_t k = 0;
				int i = lx.nheredoc++;

				for (const char *p = d.p; p < d.e && k + 1 < sizeof(lx.heredoc[i]); p++)
					if (*p != '\'' && *p != '"' && *p != '\\')
						lx.heredoc[i][k++] = *p;
				lx.heredoc[i][k] = '\0';
				lx.strip_tabs[i] = lx.dash;
			} else {
				err = fail(why, whylen, fname, w.line, "too many here documents on one line");
			}
			continue;
		}
		if (t == T_WORD) {
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 16;
				struct word *nw = realloc(words, nc * sizeof(*nw));

				if (!nw) {
					err = -ENOMEM;
					break;
				}
				words = nw;
				cap = nc;
			}
			words[n++] = w;
			continue;
		}
		if (t == T_HEREDOC) {
			heredoc = true;
			continue;
		}
		/* a subshell's assignments never reach the caller: count it like a compound command */
		if (t == T_OPEN) {
			err = run_statement(&r, words, n, cond || paren > 0);
			n = 0;
			paren++;
			r.depth++;
			continue;
		}
		if (t == T_CLOSE) {
			err = run_statement(&r, words, n, true);
			n = 0;
			if (paren > 0) {
				paren--;
				if (r.depth > 0)
					r.depth--;
			}
			continue;
		}
		err = run_statement(&r, words, n, cond || t == T_ANDOR || t == T_AMP || paren > 0);
		n = 0;
		cond = t == T_ANDOR;
	} while (!err && t != T_END);
	if (!err && lx.err)
		err = fail(why, whylen, fname, lx.err_line, "an unterminated quote or expansion");
	free(words);
	return err;
}

const struct nn_sh_var *nn_sh_get(const struct nn_sh_env *env, const char *name)
{
	return var_find(env, name, strlen(name));
}

void nn_sh_env_free(struct nn_sh_env *env)
{
	size_t i;

	for (i = 0; i < env->n; i++) {
		free(env->v[i].name);
		free(env->v[i].value);
		free(env->v[i].file);
	}
	free(env->v);
	memset(env, 0, sizeof(*env));
}
