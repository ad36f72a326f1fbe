// SPDX-License-Identifier: GPL-2.0-or-later
/* print_cols.c - text table columns as wide as their widest cell (print.h) */
#include <string.h>

#include "nicnuma/core/print.h"

void nn_cols_init(struct nn_cols *c, size_t n, const int *min)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->n = n < NN_COLS_MAX ? n : NN_COLS_MAX;
	for (i = 0; i < c->n; i++)
		c->w[i] = min ? min[i] : 0;
}

/* The width of @s as text mode prints it: escaped (a control byte takes 4). */
static int shown_width(const char *s)
{
	struct nn_sb sb = NN_SB_INIT;
	int w;

	nn_sb_escape(&sb, s ? s : "-");
	w = (int)(nn_sb_str(&sb) ? sb.len : strlen(s ? s : "-"));
	nn_sb_free(&sb);
	return w;
}

void nn_cols_fit(struct nn_cols *c, size_t col, const char *cell)
{
	int w;

	if (col >= c->n)
		return;
	w = shown_width(cell);
	if (w > c->w[col])
		c->w[col] = w;
}

void nn_print_cols_header(struct nn_out *o, const struct nn_cols *c, const char *const *titles)
{
	size_t i;

	for (i = 0; i + 1 < c->n; i++)
		nn_print_cell(o, PRINT_FP, NULL, c, i, titles[i]);
	if (c->n)
		nn_print_string(o, PRINT_FP, NULL, "%s", titles[c->n - 1]);
	nn_printf(o, "\n");
}

void nn_print_cell(struct nn_out *o, int type, const char *key, const struct nn_cols *c, size_t col,
		   const char *val)
{
	int pad = col < c->n ? c->w[col] - shown_width(val) : 0;

	if (type & PRINT_JSON)
		nn_print_string(o, PRINT_JSON, key, NULL, val);
	if (!(type & PRINT_FP) || o->json)
		return;
	/* the value escaped as every printed name is, then the padding */
	nn_print_string(o, PRINT_FP, NULL, "%s", val);
	nn_printf(o, "%-*s%s", pad > 0 ? pad : 0, "", col + 1 < c->n ? " " : "");
}
