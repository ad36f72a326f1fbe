// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_html.c - the bench's JSON document rendered as one HTML page with
 * inline SVG (XHTML-compatible, so xmllint checks it as XML too). Pure: the
 * files are written by emit/bench_save.c. Every value from the document is
 * escaped. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/bench.h"
#include "nicnuma/plan/bench_html.h"
#include "nicnuma/plan/bench_svg.h"

/* @o's member at the dotted @path ("latency_ns.p99.median"); NULL when absent or null. */
static struct json_object *jget(struct json_object *o, const char *path)
{
	char key[64];
	const char *dot;
	size_t n;

	while (o && *path) {
		dot = strchr(path, '.');
		n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (json_object_get_type(o) != json_type_object || !json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (dot ? 1 : 0);
	}
	return o;
}

static const char *jstr(struct json_object *o, const char *path)
{
	struct json_object *v = jget(o, path);

	return v && json_object_get_type(v) == json_type_string ? json_object_get_string(v) : NULL;
}

/* A number at @path; false when absent, null or not a number. */
static bool jnum(struct json_object *o, const char *path, double *out)
{
	struct json_object *v = jget(o, path);

	if (!v || (json_object_get_type(v) != json_type_double && json_object_get_type(v) != json_type_int))
		return false;
	*out = json_object_get_double(v);
	return true;
}

/* Any scalar as text, escaped; "-" when absent or null. */
static void put_val(struct nn_sb *sb, struct json_object *o, const char *path)
{
	struct json_object *v = jget(o, path);

	if (!v)
		nn_sb_puts(sb, "-");
	else if (json_object_get_type(v) == json_type_string)
		nn_xml_escape(sb, json_object_get_string(v));
	else
		nn_xml_escape(sb, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
}

/* "median [min-max]" of a {median,min,max} object, scaled by @div. */
static void put_stat(struct nn_sb *sb, struct json_object *o, const char *path, double div, int prec)
{
	struct json_object *s = jget(o, path);
	double m, a, b;

	if (!jnum(s, "median", &m)) {
		nn_sb_puts(sb, "-");
		return;
	}
	nn_sb_printf(sb, "%.*f", prec, m / div);
	if (jnum(s, "min", &a) && jnum(s, "max", &b) && a != b) {
		nn_sb_puts(sb, " <span class=\"range\">[");
		nn_sb_printf(sb, "%.*f", prec, a / div);
		nn_sb_puts(sb, "-");
		nn_sb_printf(sb, "%.*f", prec, b / div);
		nn_sb_puts(sb, "]</span>");
	}
}

static void tag(struct nn_sb *sb, const char *t, const char *text)
{
	nn_sb_printf(sb, "<%s>", t);
	nn_xml_escape(sb, text ? text : "-");
	nn_sb_printf(sb, "</%s>", t);
}

/* "64 B local/remote": a row's name in tables and charts. */
static void row_name(char *buf, size_t size, struct json_object *r)
{
	double fs = 0;

	if (jnum(r, "frame_size", &fs))
		snprintf(buf, size, "%.0f B lcores %s / mbufs %s", fs, jstr(r, "lcores") ?: "?",
			 jstr(r, "mbufs") ?: "?");
	else
		snprintf(buf, size, "lcores %s / mbufs %s", jstr(r, "lcores") ?: "?", jstr(r, "mbufs") ?: "?");
}

/* Anything away from the port's node is drawn warm and dashed: only
 * local/local is the matched placement. */
static bool mismatched(struct json_object *r)
{
	const char *l = jstr(r, "lcores"), *m = jstr(r, "mbufs");

	return !l || !m || strcmp(l, "local") || strcmp(m, "local");
}

static const char style[] =
	"body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.85em}td,th{border:1px solid #ccc;padding:.2em .5em;"
	"text-align:left;vertical-align:top}th{background:#f0f0f0}td.n{text-align:right;white-space:nowrap}"
	".range{color:#666;font-size:.9em}.notice{border-left:4px solid #d98a00;background:#fff7e6;"
	"padding:.5em 1em}.skipped{color:#666;font-style:italic}pre{background:#f6f6f6;padding:.5em;"
	"white-space:pre-wrap;word-break:break-all}svg{display:block;margin:.5em 0}";

static void html_host(struct nn_sb *sb, struct json_object *doc)
{
	struct json_object *nodes = jget(doc, "host.nodes"), *dist = jget(doc, "host.distances");
	size_t i, j;

	nn_sb_puts(sb, "<h2>Host</h2>\n<table>\n<tr><th>CPU model</th>");
	nn_sb_puts(sb, "<td>");
	put_val(sb, doc, "host.cpu_model");
	nn_sb_puts(sb, "</td></tr>\n<tr><th>NUMA nodes / CPUs</th><td>");
	put_val(sb, doc, "host.nnodes");
	nn_sb_puts(sb, " / ");
	put_val(sb, doc, "host.ncpus");
	nn_sb_puts(sb, "</td></tr>\n<tr><th>virtual machine</th><td>");
	put_val(sb, doc, "host.hypervisor");
	nn_sb_puts(sb, ": ");
	put_val(sb, doc, "host.trust");
	nn_sb_puts(sb, "</td></tr>\n<tr><th>NUMA knobs</th><td>numa_balancing ");
	put_val(sb, doc, "host.knobs.numa_balancing");
	nn_sb_puts(sb, ", zone_reclaim_mode ");
	put_val(sb, doc, "host.knobs.zone_reclaim_mode");
	nn_sb_puts(sb, ", transparent hugepages ");
	put_val(sb, doc, "host.knobs.thp_enabled");
	nn_sb_puts(sb, " (defrag ");
	put_val(sb, doc, "host.knobs.thp_defrag");
	nn_sb_puts(sb, ")</td></tr>\n</table>\n");
	nn_sb_puts(sb, "<table>\n<tr><th>node</th><th>CPUs</th><th>memory kB</th><th>distances</th></tr>\n");
	for (i = 0; nodes && i < json_object_array_length(nodes); i++) {
		struct json_object *n = json_object_array_get_idx(nodes, i);
		struct json_object *d = dist ? json_object_array_get_idx(dist, i) : NULL;

		nn_sb_puts(sb, "<tr><td>");
		put_val(sb, n, "id");
		nn_sb_puts(sb, "</td><td>");
		put_val(sb, n, "cpus");
		nn_sb_puts(sb, "</td><td class=\"n\">");
		put_val(sb, n, "mem_total_kb");
		nn_sb_puts(sb, "</td><td>");
		for (j = 0; d && json_object_get_type(d) == json_type_array && j < json_object_array_length(d); j++) {
			struct json_object *v = json_object_array_get_idx(d, j);

			nn_sb_puts(sb, j ? " " : "");
			nn_xml_escape(sb, v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "?");
		}
		nn_sb_puts(sb, "</td></tr>\n");
	}
	nn_sb_puts(sb, "</table>\n");
}

static void html_conditions(struct nn_sb *sb, struct json_object *doc)
{
	static const struct { const char *label, *path; } rows[] = {
		{ "ports", "conditions.ports" }, { "PCI addresses", "conditions.pci" },
		{ "port node", "conditions.port_node" }, { "'local' means node", "conditions.reference_node" },
		{ "seconds per run", "conditions.duration_s" }, { "runs per row", "conditions.repeat" },
		{ "frame sizes (B)", "conditions.frame_sizes" }, { "generator rate (pps, 0 = flat out)", "conditions.rate_pps" },
		{ "forwarder", "conditions.forwarder" }, { "hugepages", "conditions.hugepages" },
		{ "hugepages added", "conditions.hugepages_added" },
	};
	size_t i;

	nn_sb_puts(sb, "<h2>Ports and conditions</h2>\n<table>\n");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		nn_sb_puts(sb, "<tr>");
		tag(sb, "th", rows[i].label);
		nn_sb_puts(sb, "<td>");
		put_val(sb, doc, rows[i].path);
		nn_sb_puts(sb, "</td></tr>\n");
	}
	nn_sb_puts(sb, "</table>\n");
}

/* @w as a sh word, quoted only when it needs it: the command reads as typed. */
static void shword(struct nn_sb *sb, const char *w)
{
	if (w && *w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=@%+-") == strlen(w))
		nn_sb_puts(sb, w);
	else
		nn_sb_shquote(sb, w ? w : "");
}

static void put_argv(struct nn_sb *sb, struct json_object *argv)
{
	struct nn_sb line = NN_SB_INIT;
	size_t i;

	for (i = 0; argv && json_object_get_type(argv) == json_type_array && i < json_object_array_length(argv); i++) {
		if (i)
			nn_sb_putc(&line, ' ');
		shword(&line, json_object_get_string(json_object_array_get_idx(argv, i)));
	}
	nn_xml_escape(sb, nn_sb_str(&line) ? nn_sb_str(&line) : "?");
	if (nn_sb_error(&line))
		sb->err = sb->err ? sb->err : nn_sb_error(&line);
	nn_sb_free(&line);
}

static void html_rows(struct nn_sb *sb, struct json_object *rows)
{
	size_t i, n = json_object_array_length(rows);

	nn_sb_puts(sb, "<h2>Rows</h2>\n<table>\n<tr><th>frame</th><th>lcores</th><th>mbufs</th>"
		   "<th>nodes L/M</th><th>runs</th><th>Mpps median [min-max]</th><th>ratio to matched</th>"
		   "<th>p50 &#181;s</th><th>p99 &#181;s</th><th>p99.9 &#181;s</th><th>host stall max &#181;s</th>"
		   "<th>placement</th></tr>\n");
	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);

		nn_sb_puts(sb, "<tr><td class=\"n\">");
		put_val(sb, r, "frame_size");
		nn_sb_puts(sb, " B</td><td>");
		put_val(sb, r, "lcores");
		nn_sb_puts(sb, "</td><td>");
		put_val(sb, r, "mbufs");
		if (jstr(r, "skipped")) {
			nn_sb_puts(sb, "</td><td colspan=\"9\" class=\"skipped\">");
			put_val(sb, r, "skipped");
			nn_sb_puts(sb, " (not run: no figure shown or estimated)</td></tr>\n");
			continue;
		}
		nn_sb_puts(sb, "</td><td>");
		put_val(sb, r, "lcore_node");
		nn_sb_puts(sb, "/");
		put_val(sb, r, "mbuf_node");
		nn_sb_puts(sb, "</td><td class=\"n\">");
		put_val(sb, r, "good_runs");
		nn_sb_puts(sb, "/");
		nn_sb_printf(sb, "%zu", jget(r, "runs") ? json_object_array_length(jget(r, "runs")) : 0);
		nn_sb_puts(sb, "</td><td class=\"n\">");
		put_stat(sb, r, "mpps", 1, 3);
		nn_sb_puts(sb, "</td><td class=\"n\">");
		put_val(sb, r, "ratio_mpps");
		nn_sb_puts(sb, "</td><td class=\"n\">");
		put_stat(sb, r, "latency_ns.p50", 1e3, 1);
		nn_sb_puts(sb, "</td><td class=\"n\">");
		put_stat(sb, r, "latency_ns.p99", 1e3, 1);
		nn_sb_puts(sb, "</td><td class=\"n\">");
		put_stat(sb, r, "latency_ns.p999", 1e3, 1);
		nn_sb_puts(sb, "</td><td class=\"n\">");
		put_stat(sb, r, "stall_baseline_ns.max", 1e3, 1);
		nn_sb_puts(sb, "</td><td>");
		put_val(sb, r, "placement");
		nn_sb_puts(sb, "</td></tr>\n");
	}
	nn_sb_puts(sb, "</table>\n<p>Medians over the runs of a row, [min-max] beside them; the ratio is "
		   "the row's median Mpps over the matched row's of the same frame size.");
	/* The latency columns are a sample: the rate beside them. */
	for (i = 0; i < n; i++) {
		struct json_object *se = jget(json_object_array_get_idx(rows, i), "latency_ns.stamp_every");

		if (se && json_object_get_type(se) != json_type_null) {
			nn_sb_printf(sb, " Latency percentiles are round trips of a sample: one generator TX burst in "
				     "%.0f carries a timestamp (nicnuma-fwd --stamp-every).",
				     json_object_get_double(se));
			break;
		}
	}
	nn_sb_puts(sb, "</p>\n");
}

/* Up to NN_BENCH_NCDF points of a row's median CDF. */
static int row_cdf(struct json_object *r, double *x, double *y)
{
	struct json_object *a = jget(r, "latency_cdf_ns");
	size_t i;
	int n = 0;

	for (i = 0; a && json_object_get_type(a) == json_type_array && i < json_object_array_length(a) &&
	     n < NN_BENCH_NCDF; i++) {
		struct json_object *pt = json_object_array_get_idx(a, i);
		double p, v;

		if (jnum(pt, "p", &p) && jnum(pt, "median", &v) && v > 0) {
			x[n] = v;
			y[n++] = p / 100;
		}
	}
	return n;
}

static int html_charts(struct nn_sb *sb, struct json_object *rows)
{
	size_t n = json_object_array_length(rows), i;
	struct nn_svg_bar *bars = calloc(n ? n : 1, sizeof(*bars));
	struct nn_svg_series *ser = calloc(n ? n : 1, sizeof(*ser));
	double (*xs)[NN_BENCH_NCDF] = calloc(n ? n : 1, sizeof(*xs));
	double (*ys)[NN_BENCH_NCDF] = calloc(n ? n : 1, sizeof(*ys));
	char (*names)[96] = calloc(n ? n : 1, sizeof(*names));
	double sizes[NN_BENCH_MAX_SIZES];
	int nsizes = 0, k, err = 0;

	if (!bars || !ser || !xs || !ys || !names) {
		err = -ENOMEM;
		goto out;
	}
	nn_sb_puts(sb, "<h2>Charts</h2>\n");
	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		double fs = 0;
		bool seen = false;

		row_name(names[i], sizeof(names[i]), r);
		bars[i].label = names[i];
		bars[i].mismatched = mismatched(r);
		bars[i].note = jstr(r, "skipped");
		if (!bars[i].note && jnum(r, "mpps.median", &bars[i].med)) {
			jnum(r, "mpps.min", &bars[i].min);
			jnum(r, "mpps.max", &bars[i].max);
			bars[i].n = jnum(r, "good_runs", &fs) ? (int)fs : 1;
		}
		jnum(r, "frame_size", &fs);
		for (k = 0; k < nsizes; k++)
			seen = seen || sizes[k] == fs;
		if (!seen && nsizes < NN_BENCH_MAX_SIZES)
			sizes[nsizes++] = fs;
	}
	nn_svg_bars(sb, "Forwarding rate per row", "Mpps", bars, (int)n);
	for (k = 0; k < nsizes; k++) {
		char title[96];
		int ns = 0;

		for (i = 0; i < n; i++) {
			struct json_object *r = json_object_array_get_idx(rows, i);
			double fs = 0;

			if (!jnum(r, "frame_size", &fs) || fs != sizes[k])
				continue;
			ser[ns].label = names[i];
			ser[ns].mismatched = bars[i].mismatched;
			ser[ns].x = xs[i];
			ser[ns].y = ys[i];
			ser[ns].note = jstr(r, "skipped");
			ser[ns].n = ser[ns].note ? 0 : row_cdf(r, xs[i], ys[i]);
			if (!ser[ns].note && !ser[ns].n)
				ser[ns].note = "no latency measured";
			ns++;
		}
		snprintf(title, sizeof(title), "Round-trip latency CDF, %.0f B frames (medians of the runs)", sizes[k]);
		nn_svg_cdf(sb, title, ser, ns);
	}
out:
	free(bars);
	free(ser);
	free(xs);
	free(ys);
	free(names);
	return err;
}

void nn_html_head(struct nn_sb *sb, const char *title, const char *css)
{
	nn_sb_puts(sb, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
		   "<meta charset=\"utf-8\"/>\n<meta http-equiv=\"Content-Security-Policy\" "
		   "content=\"" NN_HTML_CSP "\"/>\n<title>");
	nn_xml_escape(sb, title);
	nn_sb_printf(sb, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
}

int nn_bench_html(struct json_object *doc, struct nn_sb *sb)
{
	struct json_object *rows = jget(doc, "rows"), *warns = jget(doc, "warnings"), *cmd;
	size_t i, nskipped = 0;
	int err;

	if (!rows || json_object_get_type(rows) != json_type_array)
		return -EINVAL;
	nn_html_head(sb, "nicnuma bench mismatch", style);
	nn_sb_puts(sb, "<h1>nicnuma bench mismatch</h1>\n<p>What NUMA misplacement of the forwarding lcores "
		   "and the packet memory costs on this host: the same forwarder (nicnuma-fwd), traffic and "
		   "duration, with lcores and mbufs on the port's node (local) or the farthest node (remote).</p>\n");
	nn_sb_puts(sb, "<p>Created ");
	put_val(sb, doc, "report.created");
	nn_sb_puts(sb, " by</p>\n<pre>");
	put_argv(sb, jget(doc, "report.command"));
	nn_sb_puts(sb, "</pre>\n");
	for (i = 0; i < json_object_array_length(rows); i++)
		nskipped += jstr(json_object_array_get_idx(rows, i), "skipped") != NULL;
	if (nskipped) {
		nn_sb_printf(sb, "<p class=\"notice\">%zu of %zu rows were not run (", nskipped,
			     json_object_array_length(rows));
		for (i = 0; i < json_object_array_length(rows); i++) {
			const char *why = jstr(json_object_array_get_idx(rows, i), "skipped");

			if (why) {
				nn_xml_escape(sb, why);
				break;
			}
		}
		nn_sb_puts(sb, "). This report shows no cost of NUMA misplacement for them: nothing is "
			   "estimated. Run it on a host with two or more NUMA nodes to measure one.</p>\n");
	}
	html_rows(sb, rows);
	err = html_charts(sb, rows);
	if (err)
		return err;
	html_host(sb, doc);
	html_conditions(sb, doc);
	nn_sb_puts(sb, "<h2>Commands</h2>\n<p>Each row ran this command --repeat times (the EAL arguments, "
		   "then nicnuma-fwd's after --):</p>\n");
	for (i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		char name[96];

		row_name(name, sizeof(name), r);
		tag(sb, "h3", name);
		if (jstr(r, "skipped")) {
			nn_sb_puts(sb, "<p class=\"skipped\">");
			put_val(sb, r, "skipped");
			nn_sb_puts(sb, "</p>\n");
			continue;
		}
		nn_sb_puts(sb, "<pre>");
		put_argv(sb, jget(r, "binding.argv"));
		nn_sb_puts(sb, "</pre>\n");
	}
	nn_sb_puts(sb, "<h2>Warnings</h2>\n<ul>\n");
	for (i = 0; warns && json_object_get_type(warns) == json_type_array && i < json_object_array_length(warns); i++) {
		cmd = json_object_array_get_idx(warns, i);
		nn_sb_puts(sb, "<li>");
		if (jstr(cmd, "file")) {
			nn_xml_escape(sb, jstr(cmd, "file"));
			nn_sb_puts(sb, ": ");
		}
		put_val(sb, cmd, "message");
		nn_sb_puts(sb, "</li>\n");
	}
	if (!warns || !json_object_array_length(warns))
		nn_sb_puts(sb, "<li>none</li>\n");
	nn_sb_puts(sb, "</ul>\n<p>The raw figures of every run are in report.json beside this page.</p>\n"
		   "</body>\n</html>\n");
	return nn_sb_error(sb);
}
