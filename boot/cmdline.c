// SPDX-License-Identifier: GPL-2.0-or-later
/* cmdline.c - kernel command lines parsed, an argument's words found and compared, the plan's diff */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/strbuf.h"
#include "boot/cmdline.h"

#define GIB (1ull << 30)

void nn_kline_free(struct nn_kline *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->w[i].text);
		free(l->w[i].key);
		free(l->w[i].value);
	}
	free(l->w);
	memset(l, 0, sizeof(*l));
}

/* The word [w, e) split as the kernel's next_arg(): the key up to the
 * first '=', the value after it without its quotes. */
static int word_split(const char *w, const char *e, struct nn_kword *k)
{
	const char *eq = memchr(w, '=', (size_t)(e - w)), *ks = w, *ke = eq ? eq : e;
	size_t i;

	k->text = strndup(w, (size_t)(e - w));
	if (*ks == '"')
		ks++;
	k->key = strndup(ks, (size_t)(ke > ks ? ke - ks : 0));
	if (!k->text || !k->key)
		return -ENOMEM;
	for (i = 0; k->key[i]; i++)
		if (k->key[i] == '-')
			k->key[i] = '_';
		else if (k->key[i] == '"')
			k->key[i] = '\0';
	if (eq) {
		const char *vs = eq + 1, *ve = e;

		if (vs < ve && *vs == '"') {
			vs++;
			if (ve > vs && ve[-1] == '"')
				ve--;
		} else if (ve > vs && ve[-1] == '"' && *w == '"') {
			ve--;
		}
		k->value = strndup(vs, (size_t)(ve - vs));
		if (!k->value)
			return -ENOMEM;
	}
	return 0;
}

int nn_kline_parse(const char *text, bool grub, struct nn_kline *out, char *why, size_t whylen)
{
	const char *p = text, *w, *e;
	size_t cap = 0;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (whylen)
		why[0] = '\0';
	while (text && nn_cmdline_word(&p, &w, &e)) {
		size_t q = 0;
		const char *c;

		for (c = w; c < e; c++) {
			q += *c == '"';
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				snprintf(why, whylen, "'%.*s': a control byte in a kernel argument",
					 (int)(e - w > 80 ? 80 : e - w), w);
				err = -EINVAL;
				goto fail;
			}
		}
		if (q % 2) {
			snprintf(why, whylen, "'%.*s': an unbalanced quote", (int)(e - w > 80 ? 80 : e - w), w);
			err = -EINVAL;
			goto fail;
		}
		if (grub && *w == '$')
			continue;	/* a GRUB variable ($vt_handoff), expanded at boot */
		if (out->n == cap) {
			size_t nc = cap ? cap * 2 : 32;
			struct nn_kword *nw = realloc(out->w, nc * sizeof(*nw));

			if (!nw) {
				err = -ENOMEM;
				goto fail;
			}
			out->w = nw;
			cap = nc;
		}
		memset(&out->w[out->n], 0, sizeof(out->w[0]));
		err = word_split(w, e, &out->w[out->n++]);
		if (err)
			goto fail;
	}
	return 0;
fail:
	if (err == -ENOMEM && whylen)
		snprintf(why, whylen, "out of memory");
	nn_kline_free(out);
	return err;
}

/* The kernel's memparse(): a number with an optional K, M, G, T, P or E. */
static int memparse(const char *s, unsigned long long *out)
{
	unsigned long long v = 0;
	int shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		if (v > (~0ull - 9) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	switch (toupper((unsigned char)*s)) {
	case 'E': shift += 10; /* fall through */
	case 'P': shift += 10; /* fall through */
	case 'T': shift += 10; /* fall through */
	case 'G': shift += 10; /* fall through */
	case 'M': shift += 10; /* fall through */
	case 'K': shift += 10; s++; break;
	default: break;
	}
	if (*s || (shift && v > (~0ull >> shift)))
		return -EINVAL;
	*out = v << shift;
	return 0;
}

static bool is_1g(const struct nn_kword *k)
{
	unsigned long long b;

	return !strcmp(k->key, "hugepagesz") && !memparse(k->value, &b) && b == GIB;
}

void nn_kword_arg(const struct nn_kword *w, char *buf, size_t len)
{
	snprintf(buf, len, "%s", !strcmp(w->key, "hugepagesz") ? "hugepages" : w->key);
}

int nn_kline_get(const struct nn_kline *l, const char *name, char **out)
{
	struct nn_sb sb = NN_SB_INIT;
	char key[64];
	size_t i, k;

	*out = NULL;
	snprintf(key, sizeof(key), "%s", name);
	for (k = 0; key[k]; k++)
		if (key[k] == '-')
			key[k] = '_';
	for (i = 0; i < l->n; i++) {
		if (!strcmp(key, "hugepages")) {
			/* the 1 GB pool: hugepagesz=1G and the hugepages= before the next hugepagesz= */
			if (!is_1g(&l->w[i]))
				continue;
			nn_sb_printf(&sb, "%s%s", sb.len ? " " : "", l->w[i].text);
			for (k = i + 1; k < l->n && strcmp(l->w[k].key, "hugepagesz"); k++)
				if (!strcmp(l->w[k].key, "hugepages"))
					nn_sb_printf(&sb, " %s", l->w[k].text);
			continue;
		}
		if (!strcmp(l->w[i].key, key))
			nn_sb_printf(&sb, "%s%s", sb.len ? " " : "", l->w[i].text);
	}
	if (!sb.len) {
		nn_sb_free(&sb);
		return nn_sb_error(&sb);
	}
	return nn_sb_steal(&sb, out);
}

/* ---- values by meaning ---- */

enum vkind { V_CPUS, V_ISOL, V_HUGE, V_OPTS, V_BOOL, V_TEXT };

static enum vkind kind_of(const char *name)
{
	if (!strcmp(name, "nohz_full") || !strcmp(name, "rcu_nocbs") || !strcmp(name, "irqaffinity"))
		return V_CPUS;
	if (!strcmp(name, "isolcpus"))
		return V_ISOL;
	if (!strcmp(name, "hugepages"))
		return V_HUGE;
	if (!strcmp(name, "intel_iommu") || !strcmp(name, "iommu") || !strcmp(name, "amd_iommu"))
		return V_OPTS;
	if (!strcmp(name, "iommu.passthrough"))
		return V_BOOL;
	return V_TEXT;
}

/* One argument's words, normalized to a text that compares by meaning:
 * CPU lists formatted back, flags and options sorted, hugepages per node
 * ascending. */
struct norm {
	struct nn_cpuset cpus;
	unsigned int flags;
	char *text;
};

static int opt_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A comma list's options as a sorted, deduplicated text. */
static int norm_opts(const char *v, struct nn_sb *sb)
{
	char *dup = strdup(v ? v : ""), *tok, *save = NULL, **o = NULL;
	size_t n = 0, i;
	int err = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **no = realloc(o, (n + 1) * sizeof(*o));

		if (!no) {
			err = -ENOMEM;
			goto out;
		}
		o = no;
		o[n++] = tok;
	}
	if (n)
		qsort(o, n, sizeof(*o), opt_cmp);
	for (i = 0; i < n; i++)
		if (!i || strcmp(o[i], o[i - 1]))
			nn_sb_printf(sb, "%s%s", sb->len ? "," : "", o[i]);
out:
	free(o);
	free(dup);
	return err;
}

/* hugepages=: "N" (node -1) or "node:count[,node:count]". */
static int norm_huge(const char *v, struct nn_sb *sb)
{
	long long count[1024 + 1];
	bool seen[1024 + 1];
	const char *p = v;
	int i;

	memset(seen, 0, sizeof(seen));
	if (!v || !*v)
		return -EINVAL;
	while (*p) {
		char *end;
		long long a, b;

		errno = 0;
		a = strtoll(p, &end, 10);
		if (end == p || errno || a < 0)
			return -EINVAL;
		if (*end != ':') {
			if (p != v || *end)
				return -EINVAL;
			nn_sb_printf(sb, "%lld", a);
			return 0;
		}
		p = end + 1;
		b = strtoll(p, &end, 10);
		if (end == p || errno || b < 0 || a > 1024 || seen[a])
			return -EINVAL;
		seen[a] = true;
		count[a] = b;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -EINVAL;
	}
	for (i = 0; i <= 1024; i++)
		if (seen[i])
			nn_sb_printf(sb, "%s%d:%lld", sb->len ? "," : "", i, count[i]);
	return 0;
}

static int norm_make(const char *name, const char *words, char *why, size_t whylen, struct nn_sb *sb)
{
	struct nn_kline l;
	struct nn_cpuset set = NN_CPUSET_INIT, one = NN_CPUSET_INIT;
	unsigned int flags = 0;
	const char *bad = NULL;
	size_t i;
	int err;

	err = nn_kline_parse(words, false, &l, why, whylen);
	if (err)
		return err;
	switch (kind_of(name)) {
	case V_ISOL:
		err = nn_parse_isolcpus(words, &set, &flags, &bad, NULL);
		if (!err) {
			char *list = nn_cpuset_format_list(&set), f[64];

			nn_isol_flags_format(flags, f, sizeof(f));
			nn_sb_printf(sb, "%s|%s", f, list ? list : "");
			err = list ? 0 : -ENOMEM;
			free(list);
		}
		break;
	case V_CPUS:
		for (i = 0; i < l.n && !err; i++) {
			if (l.w[i].value && !strcmp(l.w[i].value, "all")) {
				nn_sb_puts(sb, "all|");	/* rcu_nocbs=all (6.2): not a list */
				continue;
			}
			err = l.w[i].value ? nn_cpuset_parse_list(l.w[i].value, &one) : -EINVAL;
			if (!err)
				err = nn_cpuset_or(&set, &one);
		}
		if (!err) {
			char *list = nn_cpuset_format_list(&set);

			nn_sb_printf(sb, "%s", list ? list : "");
			err = list ? 0 : -ENOMEM;
			free(list);
		}
		break;
	case V_HUGE:
		for (i = 0; i < l.n && !err; i++) {
			if (!strcmp(l.w[i].key, "hugepagesz"))
				continue;
			nn_sb_puts(sb, sb->len ? " " : "");
			err = norm_huge(l.w[i].value, sb);
		}
		break;
	case V_OPTS:
		for (i = 0; i < l.n && !err; i++)
			err = norm_opts(l.w[i].value, sb);
		break;
	case V_BOOL:
		for (i = 0; i < l.n; i++) {
			const char *v = l.w[i].value ? l.w[i].value : "";
			bool on = !strcmp(v, "1") || !strcasecmp(v, "y") || !strcasecmp(v, "on");
			bool off = !strcmp(v, "0") || !strcasecmp(v, "n") || !strcasecmp(v, "off");

			if (!on && !off) {
				err = -EINVAL;
				break;
			}
			nn_sb_reset(sb);
			nn_sb_puts(sb, on ? "1" : "0");
		}
		break;
	case V_TEXT:
		for (i = 0; i < l.n; i++) {
			nn_sb_reset(sb);
			nn_sb_puts(sb, l.w[i].value ? l.w[i].value : "");
		}
		break;
	}
	/* "isolcpus" without a value is no isolcpus= word: not a value either */
	if (err && err != -ENOMEM) {
		snprintf(why, whylen, "'%.120s': not a value nicnuma can read for %s", bad ? bad : words, name);
		err = -EINVAL;
	}
	nn_cpuset_free(&set);
	nn_cpuset_free(&one);
	nn_kline_free(&l);
	if (!err && nn_sb_error(sb))
		err = nn_sb_error(sb);
	return err;
}

int nn_karg_equal(const char *name, const char *a, const char *b, char *why, size_t whylen)
{
	struct nn_sb x = NN_SB_INIT, y = NN_SB_INIT;
	int err;

	err = norm_make(name, a, why, whylen, &x);
	if (!err)
		err = norm_make(name, b, why, whylen, &y);
	if (!err)
		err = !strcmp(nn_sb_str(&x), nn_sb_str(&y));
	nn_sb_free(&x);
	nn_sb_free(&y);
	return err;
}

/* ---- the diff ---- */

const char *nn_boot_change_name(enum nn_boot_change c)
{
	switch (c) {
	case NN_BCH_UNCHANGED: return "unchanged";
	case NN_BCH_ADDED: return "added";
	case NN_BCH_CHANGED: return "changed";
	case NN_BCH_REMOVED: return "removed";
	case NN_BCH_CONFLICT: return "conflict";
	}
	return "?";
}

void nn_boot_diff_free(struct nn_boot_diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->rows[i].name);
		free(d->rows[i].running);
		free(d->rows[i].configured);
		free(d->rows[i].planned);
		free(d->rows[i].owner);
		free(d->rows[i].theirs);
	}
	free(d->rows);
	for (i = 0; i < d->nours; i++)
		free(d->ours[i]);
	free(d->ours);
	memset(d, 0, sizeof(*d));
}

static int ours_add(struct nn_boot_diff *d, const char *words)
{
	const char *p = words, *w, *e;

	while (nn_cmdline_word(&p, &w, &e)) {
		char **no = realloc(d->ours, (d->nours + 1) * sizeof(*no));

		if (!no)
			return -ENOMEM;
		d->ours = no;
		d->ours[d->nours] = strndup(w, (size_t)(e - w));
		if (!d->ours[d->nours])
			return -ENOMEM;
		d->nours++;
	}
	return 0;
}

static struct nn_boot_row *row_add(struct nn_boot_diff *d, const char *name)
{
	struct nn_boot_row *r, *nr = realloc(d->rows, (d->n + 1) * sizeof(*nr));

	if (!nr)
		return NULL;
	d->rows = nr;
	r = &d->rows[d->n];
	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	if (!r->name)
		return NULL;
	d->n++;
	return r;
}

/* @l's words for @name, or a parse error: "in WHERE: ..." */
static int get_checked(const struct nn_kline *l, bool known, const char *name, const char *planned,
		       const char *where, char **out, char *why, size_t whylen)
{
	char w2[256];
	int err;

	*out = NULL;
	if (!known)
		return 0;
	err = nn_kline_get(l, name, out);
	if (err || !*out || !planned)
		return err;
	err = nn_karg_equal(name, *out, planned, w2, sizeof(w2));
	if (err < 0)
		snprintf(why, whylen, "in %s: %s", where, w2);
	return err < 0 ? err : 0;
}

struct lines {
	struct nn_kline run, next, ours;
	struct nn_kline *src;
	size_t nsrc;
};

static void lines_free(struct lines *L)
{
	size_t i;

	nn_kline_free(&L->run);
	nn_kline_free(&L->next);
	nn_kline_free(&L->ours);
	for (i = 0; i < L->nsrc; i++)
		nn_kline_free(&L->src[i]);
	free(L->src);
}

static int lines_parse(struct lines *L, const char *running, const char *next,
		       const struct nn_boot_source *src, size_t nsrc, const char *ours, char *why, size_t whylen)
{
	char w2[192];
	size_t i;
	int err;

	memset(L, 0, sizeof(*L));
	L->src = calloc(nsrc ? nsrc : 1, sizeof(*L->src));
	if (!L->src)
		return -ENOMEM;
	L->nsrc = nsrc;
	err = nn_kline_parse(running, false, &L->run, w2, sizeof(w2));
	if (err) {
		snprintf(why, whylen, "in /proc/cmdline: %s", w2);
		return err;
	}
	err = nn_kline_parse(next, false, &L->next, w2, sizeof(w2));
	if (err) {
		snprintf(why, whylen, "in the next boot's configuration: %s", w2);
		return err;
	}
	err = nn_kline_parse(ours, false, &L->ours, w2, sizeof(w2));
	if (err) {
		snprintf(why, whylen, "in nicnuma's own arguments: %s", w2);
		return err;
	}
	for (i = 0; i < nsrc; i++) {
		err = nn_kline_parse(src[i].text, false, &L->src[i], w2, sizeof(w2));
		if (err) {
			snprintf(why, whylen, "in %s: %s", src[i].owner, w2);
			return err;
		}
	}
	return 0;
}

/* One planned argument's row: its words in each line, the change. */
static int plan_row(struct nn_boot_diff *d, const struct nn_boot_arg *a, const struct lines *L,
		    bool run_known, bool next_known, const struct nn_boot_source *src, char **ours_kept,
		    char *why, size_t whylen)
{
	struct nn_boot_row *r = row_add(d, a->name);
	char *s = NULL, *o = NULL, *n = NULL;
	size_t i, from = 0;
	int err, eq;

	if (!r)
		return -ENOMEM;
	r->planned = strdup(a->text);
	if (!r->planned)
		return -ENOMEM;
	err = get_checked(&L->run, run_known, a->name, a->text, "/proc/cmdline", &r->running, why, whylen);
	if (!err)
		err = get_checked(&L->next, next_known, a->name, a->text, "the next boot's configuration", &n,
				  why, whylen);
	if (!err)
		err = get_checked(&L->ours, true, a->name, a->text, "nicnuma's own arguments", &o, why, whylen);
	for (i = 0; !err && !s && i < L->nsrc; i++) {
		err = get_checked(&L->src[i], true, a->name, a->text, src[i].owner, &s, why, whylen);
		from = i;
	}
	if (err)
		goto out;
	r->in_effect = r->running && nn_karg_equal(a->name, r->running, a->text, why, whylen) == 1;
	if (s) {
		eq = nn_karg_equal(a->name, s, a->text, why, whylen);
		r->change = eq == 1 ? NN_BCH_UNCHANGED : NN_BCH_CONFLICT;
		r->owner = strdup(src[from].owner);
		/* nicnuma's own copy comes later on the line and wins: it must say the same */
		if (o && eq == 1 && nn_karg_equal(a->name, o, a->text, why, whylen) != 1) {
			r->change = NN_BCH_CHANGED;
			*ours_kept = strdup(a->text);
		} else if (o) {
			*ours_kept = strdup(o);	/* kept where it is */
		}
	} else if (o) {
		eq = nn_karg_equal(a->name, o, a->text, why, whylen);
		r->change = eq == 1 ? NN_BCH_UNCHANGED : NN_BCH_CHANGED;
		r->owner = strdup("nicnuma");
		*ours_kept = strdup(a->text);
	} else {
		r->change = NN_BCH_ADDED;
	}
	if ((s || o) && !r->owner)
		err = -ENOMEM;
	if ((s || o) && o && !*ours_kept)
		err = -ENOMEM;
	if (s || o) {
		r->theirs = strdup(s ? s : o);
		if (!r->theirs)
			err = -ENOMEM;
	}
	r->configured = next_known ? n : s ? s : o;
	if (r->configured == s)
		s = NULL;
	else if (r->configured == o)
		o = NULL;
	else
		n = NULL;
	r->configured_ok = r->configured && nn_karg_equal(a->name, r->configured, a->text, why, whylen) == 1;
	if (r->change == NN_BCH_CONFLICT)
		d->nconflicts++;
	else if (r->change != NN_BCH_UNCHANGED)
		d->nchanges++;
out:
	free(s);
	free(o);
	free(n);
	return err;
}

int nn_boot_diff_make(const struct nn_boot_arg *planned, size_t n, const char *running,
		      const char *next, const struct nn_boot_source *src, size_t nsrc,
		      const char *ours, struct nn_boot_diff *d, char *why, size_t whylen)
{
	struct lines L;
	char **kept = calloc(n ? n : 1, sizeof(*kept)), arg[64];
	bool *done = calloc(n ? n : 1, sizeof(*done));
	size_t i, k;
	int err;

	memset(d, 0, sizeof(*d));
	if (whylen)
		why[0] = '\0';
	if (!kept || !done) {
		free(kept);
		free(done);
		return -ENOMEM;
	}
	err = lines_parse(&L, running, next, src, nsrc, ours, why, whylen);
	for (i = 0; !err && i < n; i++)
		err = plan_row(d, &planned[i], &L, running != NULL, next != NULL, src, &kept[i], why,
			       whylen);
	/* nicnuma's words in their order: kept, replaced where they were, or
	 * removed; a planned argument's words are written once, where its
	 * first word was */
	for (k = 0; !err && k < L.ours.n; k++) {
		const struct nn_kword *w = &L.ours.w[k];
		bool found = false;

		nn_kword_arg(w, arg, sizeof(arg));
		for (i = 0; i < n; i++) {
			if (strcmp(arg, planned[i].name))
				continue;
			found = true;
			if (!done[i] && kept[i]) {
				err = ours_add(d, kept[i]);
				done[i] = true;
			}
		}
		if (found || err)
			continue;
		/* no longer planned: one removed row per argument */
		for (i = 0; i < d->n && (d->rows[i].planned || strcmp(d->rows[i].name, arg)); i++)
			;
		if (i == d->n) {
			struct nn_boot_row *r = row_add(d, arg);

			if (!r) {
				err = -ENOMEM;
				break;
			}
			r->change = NN_BCH_REMOVED;
			r->owner = strdup("nicnuma");
			err = nn_kline_get(next ? &L.next : &L.ours, arg, &r->configured);
			if (!err && running)
				err = nn_kline_get(&L.run, arg, &r->running);
			if (!err && !r->owner)
				err = -ENOMEM;
			d->nchanges++;
		}
	}
	/* then what is new, in plan order */
	for (i = 0; !err && i < n; i++)
		if (!done[i] && (d->rows[i].change == NN_BCH_ADDED || d->rows[i].change == NN_BCH_CHANGED))
			err = ours_add(d, planned[i].text);
	for (i = 0; i < n; i++)
		free(kept[i]);
	free(kept);
	free(done);
	lines_free(&L);
	if (err == -ENOMEM && whylen)
		snprintf(why, whylen, "out of memory");
	if (err)
		nn_boot_diff_free(d);
	return err;
}

static const char *const arg_names[] = { "hugepages", "intel_iommu", "iommu", "iommu.passthrough", "isolcpus",
					 "nohz_full", "rcu_nocbs", "irqaffinity", NULL };

int nn_boot_arg_check(const char *name, const char *text, char *why, size_t whylen)
{
	const char *p = text ? text : "", *w, *e;
	struct nn_kline l;
	char arg[64], w2[160];
	size_t i;
	int err;

	for (i = 0; arg_names[i] && strcmp(arg_names[i], name ? name : ""); i++)
		;
	if (!arg_names[i]) {
		snprintf(why, whylen, "'%.40s' is not an argument nicnuma plans", name ? name : "");
		return -EINVAL;
	}
	while (nn_cmdline_word(&p, &w, &e))
		if (!nn_karg_safe(w, (size_t)(e - w))) {
			snprintf(why, whylen, "'%.60s' is not a word nicnuma writes", w);
			return -EINVAL;
		}
	err = nn_kline_parse(text, false, &l, w2, sizeof(w2));
	if (err) {
		snprintf(why, whylen, "%s", w2);
		return err;
	}
	err = l.n ? 0 : -EINVAL;
	for (i = 0; !err && i < l.n; i++) {
		nn_kword_arg(&l.w[i], arg, sizeof(arg));
		if (strcmp(arg, name) || !l.w[i].value)
			err = -EINVAL;
	}
	/* the 1 GB pool: "hugepagesz=1G hugepages=..", in that order */
	if (!err && !strcmp(name, "hugepages") &&
	    (l.n != 2 || !is_1g(&l.w[0]) || strcmp(l.w[1].key, "hugepages")))
		err = -EINVAL;
	if (!err)
		err = nn_karg_equal(name, text, text, w2, sizeof(w2)) == 1 ? 0 : -EINVAL;
	if (err)
		snprintf(why, whylen, "'%.80s' is not a value of %s", text ? text : "", name);
	nn_kline_free(&l);
	return err;
}
