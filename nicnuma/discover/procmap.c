// SPDX-License-Identifier: GPL-2.0-or-later
/* procmap.c - pure parsers of a process's placement and the check --pid verdict */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/parse.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/discover/procmap.h"

struct node_pages {
	int node;
	unsigned long long pages;
};

/* One numa_maps line, before it is folded into the per-node totals. */
struct mapping {
	enum nn_mpol policy;
	struct nn_cpuset policy_nodes;
	bool file, huge;
	unsigned long long anon_pages;
	unsigned long page_kb;
	struct node_pages *np;
	size_t nnp, capnp;
};

static const char *const mpol_names[NN_MPOL_COUNT] = {
	[NN_MPOL_DEFAULT] = "default",
	[NN_MPOL_LOCAL] = "local",
	[NN_MPOL_PREFER] = "prefer",
	[NN_MPOL_PREFER_MANY] = "prefer (many)",
	[NN_MPOL_BIND] = "bind",
	[NN_MPOL_INTERLEAVE] = "interleave",
	[NN_MPOL_WEIGHTED_INTERLEAVE] = "weighted interleave",
	[NN_MPOL_UNKNOWN] = "unknown",
};

const char *nn_mpol_name(enum nn_mpol p)
{
	return (unsigned int)p < NN_MPOL_COUNT ? mpol_names[p] : "unknown";
}

/* Byte counts saturate instead of wrapping: a numa_maps with absurd counts
 * (a corrupt capture, a fuzzer) must never turn into "400% off node". */
static unsigned long long sat_add(unsigned long long a, unsigned long long b)
{
	unsigned long long r;

	return __builtin_add_overflow(a, b, &r) ? ULLONG_MAX : r;
}

static unsigned long long sat_mul(unsigned long long a, unsigned long long b)
{
	unsigned long long r;

	return __builtin_mul_overflow(a, b, &r) ? ULLONG_MAX : r;
}

/* @a * @b / @c with @b <= @c, so the result fits in @a. */
static unsigned long long mul_div(unsigned long long a, unsigned long long b, unsigned long long c)
{
	unsigned long long r;

	if (!__builtin_mul_overflow(a, b, &r))
		return r / c;
	return (unsigned long long)((long double)a * (long double)b / (long double)c);
}

static int parse_ull(const char *s, size_t len, unsigned long long *val)
{
	unsigned long long v = 0;
	size_t i;

	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		if (v > (ULLONG_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned long long)(s[i] - '0');
	}
	*val = v;
	return 0;
}

/* "bind=static:0-1" -> BIND, {0,1}. @p points at the policy; returns the end. */
static const char *parse_policy(const char *p, struct mapping *mp, int *err)
{
	static const struct { const char *word; enum nn_mpol pol; } words[] = {
		/* multi-word names first: they hold a space */
		{ "prefer (many)", NN_MPOL_PREFER_MANY },
		{ "weighted interleave", NN_MPOL_WEIGHTED_INTERLEAVE },
		{ "default", NN_MPOL_DEFAULT },
		{ "local", NN_MPOL_LOCAL },
		{ "prefer", NN_MPOL_PREFER },
		{ "bind", NN_MPOL_BIND },
		{ "interleave", NN_MPOL_INTERLEAVE },
	};
	const char *end, *colon;
	size_t i, n;

	*err = 0;
	mp->policy = NN_MPOL_UNKNOWN;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i].word);
		if (!strncmp(p, words[i].word, n) &&
		    (p[n] == ':' || p[n] == '=' || p[n] == ' ' || p[n] == '\t' ||
		     p[n] == '\n' || !p[n])) {
			mp->policy = words[i].pol;
			p += n;
			break;
		}
	}
	end = p + strcspn(p, " \t\n");
	/* "=static" / "=relative" / "|balancing" flags change nothing we judge. */
	colon = memchr(p, ':', (size_t)(end - p));
	if (colon) {
		char buf[256];

		n = (size_t)(end - colon - 1);
		if (n >= sizeof(buf)) {
			*err = -EINVAL;
			return end;
		}
		memcpy(buf, colon + 1, n);
		buf[n] = '\0';
		*err = nn_cpuset_parse_list(buf, &mp->policy_nodes);
	}
	return end;
}

static int add_node_pages(struct mapping *mp, int node, unsigned long long pages)
{
	if (mp->nnp == mp->capnp) {
		size_t cap = mp->capnp ? mp->capnp * 2 : 4;
		struct node_pages *np = realloc(mp->np, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		mp->np = np;
		mp->capnp = cap;
	}
	mp->np[mp->nnp].node = node;
	mp->np[mp->nnp].pages = pages;
	mp->nnp++;
	return 0;
}

/* The words after the policy: file=, anon=, huge, kernelpagesize_kB=, N<n>=. */
static int parse_word(const char *w, size_t len, struct mapping *mp)
{
	unsigned long long v;
	const char *eq = memchr(w, '=', len);
	size_t klen = eq ? (size_t)(eq - w) : len;
	const char *val = eq ? eq + 1 : NULL;
	size_t vlen = eq ? len - klen - 1 : 0;
	int err;

	if (klen == 4 && !strncmp(w, "huge", 4) && !eq) {
		mp->huge = true;
		return 0;
	}
	if (!eq)
		return 0;	/* heap, stack and words from newer kernels */
	if (klen == 4 && !strncmp(w, "file", 4)) {
		mp->file = true;
		return 0;
	}
	if (klen == 4 && !strncmp(w, "anon", 4))
		return parse_ull(val, vlen, &mp->anon_pages);
	if (klen == 17 && !strncmp(w, "kernelpagesize_kB", 17)) {
		err = parse_ull(val, vlen, &v);
		if (err)
			return err;
		if (!v || v > (1ULL << 24))	/* 16 GiB pages at most */
			return -ERANGE;
		mp->page_kb = (unsigned long)v;
		return 0;
	}
	if (w[0] == 'N' && klen > 1) {
		unsigned long long node;

		err = parse_ull(w + 1, klen - 1, &node);
		if (err)
			return err;
		if (node >= NN_CPU_MAX)
			return -ERANGE;
		err = parse_ull(val, vlen, &v);
		if (err)
			return err;
		return add_node_pages(mp, (int)node, v);
	}
	return 0;
}

static struct nn_pm_node *get_node(struct nn_numa_maps *m, int node)
{
	struct nn_pm_node *nn;
	size_t i;

	for (i = 0; i < m->nnodes && m->nodes[i].node < node; i++)
		;
	if (i < m->nnodes && m->nodes[i].node == node)
		return &m->nodes[i];
	nn = realloc(m->nodes, (m->nnodes + 1) * sizeof(*nn));
	if (!nn)
		return NULL;
	m->nodes = nn;
	memmove(&nn[i + 1], &nn[i], (m->nnodes - i) * sizeof(*nn));
	memset(&nn[i], 0, sizeof(*nn));
	nn[i].node = node;
	m->nnodes++;
	return &nn[i];
}

static int fold(struct nn_numa_maps *m, const struct mapping *mp)
{
	unsigned long long total = 0, anon, pb = mp->page_kb * 1024ULL;
	bool mixed;
	size_t i;
	int err;

	for (i = 0; i < mp->nnp; i++)
		total = sat_add(total, mp->np[i].pages);
	anon = mp->anon_pages < total ? mp->anon_pages : total;
	/* A file mapping with some private copies (anon=) among page-cache
	 * pages: numa_maps counts both per node but says not which is which. */
	mixed = mp->file && !mp->huge && anon && anon < total;
	for (i = 0; i < mp->nnp; i++) {
		unsigned long long pages = mp->np[i].pages, priv_pages, priv;
		struct nn_pm_node *n = get_node(m, mp->np[i].node);

		if (!n)
			return -ENOMEM;
		if (mp->huge) {
			n->bytes[NN_MEM_HUGE] = sat_add(n->bytes[NN_MEM_HUGE], sat_mul(pages, pb));
			priv_pages = pages;
		} else if (mp->file) {
			/* Split each node's pages in proportion, in whole pages: an
			 * estimate for the report, kept out of the bind check below. */
			priv_pages = total ? mul_div(pages, anon, total) : 0;
			n->bytes[NN_MEM_ANON] = sat_add(n->bytes[NN_MEM_ANON], sat_mul(priv_pages, pb));
			n->bytes[NN_MEM_FILE] = sat_add(n->bytes[NN_MEM_FILE],
							sat_mul(pages - priv_pages, pb));
		} else {
			n->bytes[NN_MEM_ANON] = sat_add(n->bytes[NN_MEM_ANON], sat_mul(pages, pb));
			priv_pages = pages;
		}
		priv = sat_mul(priv_pages, pb);
		n->private_by_policy[mp->policy] = sat_add(n->private_by_policy[mp->policy], priv);
		/* Page cache read in by another process sits wherever that one ran:
		 * only pages known to be this process's own can break its bind. */
		if (mp->policy == NN_MPOL_BIND && !mixed && !nn_cpuset_empty(&mp->policy_nodes) &&
		    !nn_cpuset_test(&mp->policy_nodes, (unsigned int)mp->np[i].node))
			n->outside_bind = sat_add(n->outside_bind, priv);
	}
	switch (mp->policy) {
	case NN_MPOL_BIND:
	case NN_MPOL_PREFER:
	case NN_MPOL_PREFER_MANY:
		err = nn_cpuset_or(&m->bind_nodes, &mp->policy_nodes);
		break;
	case NN_MPOL_INTERLEAVE:
	case NN_MPOL_WEIGHTED_INTERLEAVE:
		err = nn_cpuset_or(&m->interleave_nodes, &mp->policy_nodes);
		break;
	default:
		err = 0;
	}
	return err;
}

/* One line: "7f12c000 bind:1 anon=3 dirty=3 N1=3 kernelpagesize_kB=4". */
static int parse_line(const char *line, size_t len, unsigned long default_page_kb,
		      struct nn_numa_maps *m)
{
	struct mapping mp = { .page_kb = default_page_kb };
	/* a copy: file= paths run up to PATH_MAX, escaped, and the counts follow */
	char *buf = strndup(line, len);
	const char *p, *end;
	size_t i;
	int err = -EINVAL;

	if (!buf)
		return -ENOMEM;
	p = buf;
	for (i = 0; isxdigit((unsigned char)p[i]); i++)
		;
	if (!i || (p[i] != ' ' && p[i] != '\t'))
		goto out;
	p += i;
	p += strspn(p, " \t");
	p = parse_policy(p, &mp, &err);
	if (err)
		goto out;
	while (*p) {
		p += strspn(p, " \t\n");
		end = p + strcspn(p, " \t\n");
		if (end == p)
			break;
		err = parse_word(p, (size_t)(end - p), &mp);
		if (err)
			goto out;
		p = end;
	}
	err = fold(m, &mp);
	if (!err)
		m->nmappings++;
out:
	nn_cpuset_free(&mp.policy_nodes);
	free(mp.np);
	free(buf);
	return err;
}

int nn_numa_maps_parse(const char *text, unsigned long default_page_kb, struct nn_numa_maps *out)
{
	const char *p = text, *nl;
	bool any = false;
	int err;

	memset(out, 0, sizeof(*out));
	if (!default_page_kb)
		default_page_kb = 4;
	while (*p) {
		size_t len;

		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && strspn(p, " \t") < len) {
			any = true;
			err = parse_line(p, len, default_page_kb, out);
			if (err == -ENOMEM)
				goto fail;
			if (err)
				out->nbad++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (any && !out->nmappings) {
		err = -EINVAL;
		goto fail;
	}
	return 0;
fail:
	nn_numa_maps_free(out);
	return err;
}

void nn_numa_maps_free(struct nn_numa_maps *m)
{
	free(m->nodes);
	nn_cpuset_free(&m->bind_nodes);
	nn_cpuset_free(&m->interleave_nodes);
	memset(m, 0, sizeof(*m));
}

const struct nn_pm_node *nn_numa_maps_node(const struct nn_numa_maps *m, int node)
{
	size_t i;

	for (i = 0; i < m->nnodes; i++)
		if (m->nodes[i].node == node)
			return &m->nodes[i];
	return NULL;
}

unsigned long long nn_numa_maps_total(const struct nn_numa_maps *m, int cls)
{
	unsigned long long t = 0;
	size_t i;
	int c;

	for (i = 0; i < m->nnodes; i++)
		for (c = 0; c < NN_MEM_COUNT; c++)
			if (cls < 0 || cls == c)
				t = sat_add(t, m->nodes[i].bytes[c]);
	return t;
}


void nn_pm_thresholds_default(struct nn_pm_thresholds *t)
{
	t->remote_fraction = 0.5;
	t->min_bytes = 0;
}

void nn_pm_verdict_make(const struct nn_numa_maps *m, const struct nn_cpuset *thread_nodes,
			const struct nn_pm_thresholds *t, struct nn_pm_verdict *v)
{
	bool known = !nn_cpuset_empty(thread_nodes);
	bool has_policy = false;
	size_t i;
	int p;

	memset(v, 0, sizeof(*v));
	v->remote_fraction = -1;
	for (i = 0; i < m->nnodes; i++) {
		const struct nn_pm_node *n = &m->nodes[i];
		unsigned long long priv = sat_add(n->bytes[NN_MEM_ANON], n->bytes[NN_MEM_HUGE]);
		unsigned long long il = sat_add(n->private_by_policy[NN_MPOL_INTERLEAVE],
						n->private_by_policy[NN_MPOL_WEIGHTED_INTERLEAVE]);
		unsigned long long judged = priv > il ? priv - il : 0;

		v->private_bytes = sat_add(v->private_bytes, priv);
		v->interleaved_bytes = sat_add(v->interleaved_bytes, il);
		v->bound_bytes = sat_add(v->bound_bytes, n->private_by_policy[NN_MPOL_BIND]);
		v->outside_bind_bytes = sat_add(v->outside_bind_bytes, n->outside_bind);
		v->judged_bytes = sat_add(v->judged_bytes, judged);
		if (nn_cpuset_test(thread_nodes, (unsigned int)n->node))
			v->local_bytes = sat_add(v->local_bytes, judged);
		else
			v->remote_bytes = sat_add(v->remote_bytes, judged);
		for (p = 0; p < NN_MPOL_COUNT; p++)
			if (p != NN_MPOL_DEFAULT && p != NN_MPOL_LOCAL && n->private_by_policy[p])
				has_policy = true;
	}
	/* A policy on a mapping with nothing resident yet still counts. */
	if (!nn_cpuset_empty(&m->bind_nodes) || !nn_cpuset_empty(&m->interleave_nodes))
		has_policy = true;

	if (!known)
		v->flags |= NN_PMV_UNKNOWN_LOCALITY;
	if (!v->private_bytes)
		v->flags |= NN_PMV_NO_MEMORY;
	if (known && v->judged_bytes) {
		/* saturated sums keep remote <= judged; the clamp says so */
		v->remote_fraction = v->remote_bytes >= v->judged_bytes ? 1.0 :
			(double)v->remote_bytes / (double)v->judged_bytes;
		if (v->judged_bytes >= t->min_bytes && v->remote_fraction > t->remote_fraction)
			v->flags |= NN_PMV_REMOTE;
	}
	if (known && nn_cpuset_count(thread_nodes) > 1 && !has_policy)
		v->flags |= NN_PMV_SPAN_NO_POLICY;
	if (v->outside_bind_bytes)
		v->flags |= NN_PMV_OUTSIDE_BIND;
	else if (v->bound_bytes && v->bound_bytes >= v->private_bytes - v->private_bytes / 2)
		v->flags |= NN_PMV_BOUND;
	if (v->interleaved_bytes && v->interleaved_bytes > v->private_bytes / 2)
		v->flags |= NN_PMV_INTERLEAVED;
	if (known && v->judged_bytes && !(v->flags & NN_PMV_REMOTE))
		v->flags |= NN_PMV_LOCAL;
}

void nn_pm_verdict_exited(struct nn_pm_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->remote_fraction = -1;
	v->flags = NN_PMV_EXITED;
}

void nn_pm_policy_bytes(const struct nn_numa_maps *m, unsigned long long by[NN_MPOL_COUNT])
{
	size_t i;
	int p;

	for (p = 0; p < NN_MPOL_COUNT; p++)
		by[p] = 0;
	for (i = 0; i < m->nnodes; i++)
		for (p = 0; p < NN_MPOL_COUNT; p++)
			by[p] = sat_add(by[p], m->nodes[i].private_by_policy[p]);
}

double nn_pm_percent(unsigned long long part, unsigned long long whole)
{
	if (!whole)
		return 0;
	if (part >= whole)
		return 100.0;
	return 100.0 * (double)part / (double)whole;
}

static const struct {
	unsigned int flag;
	const char *key, *text;
} verdicts[] = {
	{ NN_PMV_REMOTE, "memory_mostly_remote", "memory mostly remote" },
	{ NN_PMV_SPAN_NO_POLICY, "threads_span_nodes_without_policy",
	  "threads span nodes without a memory policy" },
	{ NN_PMV_OUTSIDE_BIND, "memory_outside_bind_nodes", "memory outside its bind nodes" },
	{ NN_PMV_BOUND, "bound", "bound" },
	{ NN_PMV_INTERLEAVED, "interleaved", "interleaved" },
	{ NN_PMV_LOCAL, "local", "local" },
	{ NN_PMV_NO_MEMORY, "no_resident_memory", "no resident memory" },
	{ NN_PMV_UNKNOWN_LOCALITY, "unknown_locality", "unknown locality" },
	{ NN_PMV_EXITED, "exited", "exited (zombie)" },
};

const char *nn_pm_verdict_key(unsigned int flag)
{
	size_t i;

	for (i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		if (verdicts[i].flag == flag)
			return verdicts[i].key;
	return NULL;
}

const char *nn_pm_verdict_text(unsigned int flag)
{
	size_t i;

	for (i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		if (verdicts[i].flag == flag)
			return verdicts[i].text;
	return NULL;
}
