/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_svg.h - the bench report's two charts as inline SVG, drawn here
 * (no script, no external resource): latency CDFs on a log-scale x axis and
 * Mpps bars with min-max whiskers. Pure: numbers in, text out. */
#ifndef NICNUMA_BENCH_SVG_H
#define NICNUMA_BENCH_SVG_H

#include <stdbool.h>

struct nn_sb;

/* @s for XML text or an attribute value: & < > " ' as entities, control
 * bytes, DEL and bytes >= 0x80 as the text \xNN (never raw, so the document
 * stays well-formed whatever a name holds). */
void nn_xml_escape(struct nn_sb *sb, const char *s);

/* The root <svg> element (@cls its class), its <title> and a white
 * background, @w x @h pixels; the caller closes it with "</svg>". */
void nn_svg_open(struct nn_sb *sb, const char *cls, const char *title, int w, int h);

/* Decades around [vmin, vmax] (both > 0): *lo = 10^floor(log10 vmin),
 * *hi = 10^ceil(log10 vmax), at least one decade apart. */
void nn_svg_log_range(double vmin, double vmax, double *lo, double *hi);
/* Position of @v on a log axis from @lo (at @x0) to @hi (at @x1). */
double nn_svg_logpos(double v, double lo, double hi, double x0, double x1);

/* One curve: n points (x in ns > 0, y in 0..1), ascending. n 0: only the
 * legend entry, with @note (why there is no curve). */
struct nn_svg_series {
	const char *label;
	const double *x, *y;
	int n;
	bool mismatched;	/* dashed, warm colour */
	const char *note;
};

/* A latency CDF chart of @ns series: x ns on a log axis, y the fraction. */
void nn_svg_cdf(struct nn_sb *sb, const char *title, const struct nn_svg_series *s, int ns);

/* One bar: median with a min-max whisker; n 0: @note instead of a bar. */
struct nn_svg_bar {
	const char *label;
	double med, min, max;
	int n;
	bool mismatched;
	const char *note;
};

/* Horizontal bars on a linear axis from 0, in @unit. */
void nn_svg_bars(struct nn_sb *sb, const char *title, const char *unit,
		 const struct nn_svg_bar *b, int nb);

#endif
