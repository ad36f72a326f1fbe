/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_html.h - "nicnuma bench mismatch --report DIR": the bench's JSON
 * document (what --json prints, plus a "report" object with the command)
 * written as DIR/report.json and rendered as one self-contained
 * DIR/report.html: host, knobs, ports, the exact commands, every row's
 * medians and min-max, and SVG charts drawn by bench_svg.c. Pure: the
 * files are written by emit/bench_save.c. */
#ifndef NICNUMA_BENCH_HTML_H
#define NICNUMA_BENCH_HTML_H

struct json_object;
struct nn_sb;

/* The content-security policy of every page nicnuma writes: nothing loaded,
 * no script; only the page's own <style>. */
#define NN_HTML_CSP "default-src 'none'; style-src 'unsafe-inline'"

/* The page's start up to and including <body>: XHTML-compatible doctype and
 * root, UTF-8, the CSP above, @title (escaped) and the style sheet @css
 * (trusted, a constant). Shared by the bench report and `nicnuma report`. */
void nn_html_head(struct nn_sb *sb, const char *title, const char *css);

/* The page for @doc, appended to @out (check nn_sb_error). Missing keys
 * render as "-"; rows with "skipped" set say why and draw no curve or bar.
 * Returns 0 or -EINVAL when @doc is not an object with a "rows" array. */
int nn_bench_html(struct json_object *doc, struct nn_sb *out);

/* Writing it out is act's (emit/bench_save.h): plan only renders. */

#endif
