// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_svg.c - the bench report's charts as inline SVG. Every text that
 * goes in is escaped; numbers are printed with %.1f so the output is the
 * same on every run for the same input (the unit tests compare it). */
#include <math.h>
#include <stdio.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/plan/bench_svg.h"

#define W 720
#define H 380
#define ML 64			/* margins: left (y labels), right, top (title), bottom (x labels, legend) */
#define MR 24
#define MT 40
#define MB 56

static const char *const colours[2][4] = {
	{ "#1f5fa8", "#2a9d4a", "#6a3fa0", "#0f7c80" },	/* matched: cool */
	{ "#c8402a", "#d98a00", "#a0306a", "#8a5a00" },	/* mismatched: warm */
};

void nn_xml_escape(struct nn_sb *sb, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '&': nn_sb_puts(sb, "&amp;"); break;
		case '<': nn_sb_puts(sb, "&lt;"); break;
		case '>': nn_sb_puts(sb, "&gt;"); break;
		case '"': nn_sb_puts(sb, "&quot;"); break;
		case '\'': nn_sb_puts(sb, "&#39;"); break;
		default:
			if (*p == '\n' || *p == '\t' || (*p >= 0x20 && *p < 0x7f))
				nn_sb_putc(sb, (char)*p);
			else
				nn_sb_printf(sb, "\\x%02x", *p);
		}
	}
}

void nn_svg_log_range(double vmin, double vmax, double *lo, double *hi)
{
	double a = floor(log10(vmin > 0 ? vmin : 1)), b = ceil(log10(vmax > 0 ? vmax : 1));

	if (b <= a)
		b = a + 1;
	*lo = pow(10, a);
	*hi = pow(10, b);
}

double nn_svg_logpos(double v, double lo, double hi, double x0, double x1)
{
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	return x0 + (x1 - x0) * (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
}

/* 100 ns, 1 us, 10 ms: the decade's label. */
static void ns_label(struct nn_sb *sb, double v)
{
	if (v < 1e3)
		nn_sb_printf(sb, "%g ns", v);
	else if (v < 1e6)
		nn_sb_printf(sb, "%g &#181;s", v / 1e3);
	else if (v < 1e9)
		nn_sb_printf(sb, "%g ms", v / 1e6);
	else
		nn_sb_printf(sb, "%g s", v / 1e9);
}

void nn_svg_open(struct nn_sb *sb, const char *cls, const char *title, int w, int h)
{
	nn_sb_printf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"%s\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n",
		     cls, w, h, w, h);
	nn_sb_puts(sb, "<title>");
	nn_xml_escape(sb, title);
	nn_sb_puts(sb, "</title>\n");
	nn_sb_printf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

static void open_svg(struct nn_sb *sb, const char *cls, const char *title, int h)
{
	nn_svg_open(sb, cls, title, W, h);
	nn_sb_printf(sb, "<text x=\"%d\" y=\"22\" font-size=\"14\" font-weight=\"bold\">", ML);
	nn_xml_escape(sb, title);
	nn_sb_puts(sb, "</text>\n");
}

/* One legend entry per series, one per line below the plot (a skipped
 * row's note is long: two columns would overlap). */
static void legend(struct nn_sb *sb, int i, int y0, const char *label, const char *colour, bool dashed,
		   const char *note)
{
	double x = ML, y = y0 + i * 18.0;

	nn_sb_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		     "stroke-width=\"2.5\"%s/>\n", x, y - 4, x + 24, y - 4, note ? "#999999" : colour,
		     dashed ? " stroke-dasharray=\"6 3\"" : "");
	nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\"%s>", x + 30, y, note ? " fill=\"#666666\"" : "");
	nn_xml_escape(sb, label);
	if (note) {
		nn_sb_puts(sb, ": ");
		nn_xml_escape(sb, note);
	}
	nn_sb_puts(sb, "</text>\n");
}

void nn_svg_cdf(struct nn_sb *sb, const char *title, const struct nn_svg_series *s, int ns)
{
	double vmin = 0, vmax = 0, lo, hi, x0 = ML, x1 = W - MR, y0, y1 = MT, d;
	int i, k, nc[2] = { 0, 0 }, h = H + ns * 18;
	bool any = false;

	y0 = H - MB;
	for (i = 0; i < ns; i++)
		for (k = 0; k < s[i].n; k++)
			if (s[i].x[k] > 0) {
				vmin = any && vmin < s[i].x[k] ? vmin : s[i].x[k];
				vmax = any && vmax > s[i].x[k] ? vmax : s[i].x[k];
				any = true;
			}
	nn_svg_log_range(any ? vmin : 100, any ? vmax : 1e5, &lo, &hi);
	open_svg(sb, "cdf", title, h);
	/* The x axis: one grid line and label per decade, light ones at 2..9. */
	nn_sb_printf(sb, "<g class=\"axis-x log\" data-lo=\"%g\" data-hi=\"%g\">\n", lo, hi);
	for (d = lo; d <= hi * 1.0001; d *= 10) {
		double x = nn_svg_logpos(d, lo, hi, x0, x1);

		nn_sb_printf(sb, "<line class=\"decade\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			     "stroke=\"#bbbbbb\"/>\n", x, y1, x, y0);
		nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, y0 + 16);
		ns_label(sb, d);
		nn_sb_puts(sb, "</text>\n");
		for (k = 2; k < 10 && d * k < hi; k++) {
			x = nn_svg_logpos(d * k, lo, hi, x0, x1);
			nn_sb_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eeeeee\"/>\n",
				     x, y1, x, y0);
		}
	}
	nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">round-trip latency "
		     "(log scale)</text>\n</g>\n", (x0 + x1) / 2, y0 + 34);
	/* The y axis: the fraction of packets at or below x. */
	nn_sb_puts(sb, "<g class=\"axis-y\">\n");
	for (k = 0; k <= 4; k++) {
		double y = y0 - (y0 - y1) * k / 4.0;

		nn_sb_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			     x0, y, x1, y, k ? "#dddddd" : "#333333");
		nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", x0 - 6, y + 4,
			     k / 4.0);
	}
	nn_sb_printf(sb, "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">"
		     "fraction of packets</text>\n</g>\n", (y0 + y1) / 2);
	if (!any)
		nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#666666\">"
			     "no latency measured</text>\n", (x0 + x1) / 2, (y0 + y1) / 2);
	for (i = 0; i < ns; i++) {
		const char *c = colours[s[i].mismatched][nc[s[i].mismatched]++ % 4];
		const char *dash = s[i].mismatched ? " stroke-dasharray=\"6 3\"" : "";

		if (s[i].n > 0) {
			nn_sb_printf(sb, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
				     "points=\"", c, dash);
			for (k = 0; k < s[i].n; k++)
				nn_sb_printf(sb, "%s%.1f,%.1f", k ? " " : "",
					     nn_svg_logpos(s[i].x[k], lo, hi, x0, x1),
					     y0 - (y0 - y1) * s[i].y[k]);
			nn_sb_puts(sb, "\"/>\n");
			for (k = 0; k < s[i].n; k++)
				nn_sb_printf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
					     nn_svg_logpos(s[i].x[k], lo, hi, x0, x1),
					     y0 - (y0 - y1) * s[i].y[k], c);
		}
		legend(sb, i, H - 4, s[i].label, c, s[i].mismatched, s[i].n > 0 ? NULL : s[i].note);
	}
	nn_sb_puts(sb, "</svg>\n");
}

/* 1, 2 or 5 times a power of ten: a tick step giving about five ticks. */
static double nice_step(double max)
{
	double raw = max / 5, p = pow(10, floor(log10(raw)));

	return raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
}

void nn_svg_bars(struct nn_sb *sb, const char *title, const char *unit,
		 const struct nn_svg_bar *b, int nb)
{
	const double x0 = 250, x1 = W - 150, bh = 18, gap = 10;
	double vmax = 0, step, t, y0 = MT + 10, ybot;
	int i, nc[2] = { 0, 0 }, h;

	for (i = 0; i < nb; i++)
		if (b[i].n > 0 && b[i].max > vmax)
			vmax = b[i].max;
	if (vmax <= 0)
		vmax = 1;
	step = nice_step(vmax);
	vmax = ceil(vmax / step) * step;
	ybot = y0 + nb * (bh + gap);
	h = (int)ybot + 44;
	open_svg(sb, "bars", title, h);
	nn_sb_puts(sb, "<g class=\"axis-x linear\">\n");
	for (t = 0; t <= vmax * 1.0001; t += step) {
		double x = x0 + (x1 - x0) * t / vmax;

		nn_sb_printf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			     x, y0 - 4, x, ybot, t > 0 ? "#dddddd" : "#333333");
		nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x, ybot + 16, t);
	}
	nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (x0 + x1) / 2, ybot + 34);
	nn_xml_escape(sb, unit);
	nn_sb_puts(sb, " (median; whisker: min-max of the runs)</text>\n</g>\n");
	for (i = 0; i < nb; i++) {
		double y = y0 + i * (bh + gap);
		const char *c = colours[b[i].mismatched][nc[b[i].mismatched]++ % 4];

		nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x0 - 8, y + bh - 5);
		nn_xml_escape(sb, b[i].label);
		nn_sb_puts(sb, "</text>\n");
		if (b[i].n <= 0) {
			nn_sb_printf(sb, "<text class=\"skipped\" x=\"%.1f\" y=\"%.1f\" fill=\"#666666\" "
				     "font-style=\"italic\">", x0 + 6, y + bh - 5);
			nn_xml_escape(sb, b[i].note ? b[i].note : "no good run");
			nn_sb_puts(sb, "</text>\n");
			continue;
		}
		nn_sb_printf(sb, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			     "fill=\"%s\" fill-opacity=\"0.75\"/>\n", x0, y, (x1 - x0) * b[i].med / vmax, bh, c);
		if (b[i].n > 1) {
			double a = x0 + (x1 - x0) * b[i].min / vmax, z = x0 + (x1 - x0) * b[i].max / vmax;

			nn_sb_printf(sb, "<path class=\"whisker\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
				     "stroke=\"#222222\" stroke-width=\"1.5\" fill=\"none\"/>\n",
				     a, y + bh / 2, z, a, y + 3, y + bh - 3, z, y + 3, y + bh - 3);
		}
		nn_sb_printf(sb, "<text x=\"%.1f\" y=\"%.1f\">%.2f", x1 + 8, y + bh - 5, b[i].med);
		if (b[i].n > 1)
			nn_sb_printf(sb, " [%.2f-%.2f]", b[i].min, b[i].max);
		else
			nn_sb_puts(sb, " (1 run)");
		nn_sb_puts(sb, "</text>\n");
	}
	nn_sb_puts(sb, "</svg>\n");
}
