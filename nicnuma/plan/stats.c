// SPDX-License-Identifier: GPL-2.0-or-later
/* stats.c - median and MAD (stats.h) */
#include <math.h>
#include <stdlib.h>

#include "nicnuma/plan/stats.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double nn_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(v[0]), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double nn_mad_sd(const double *v, size_t n, double med)
{
	double *d, m;
	size_t i;

	if (n < 2)
		return 0;
	d = malloc(n * sizeof(*d));
	if (!d)
		return NAN;
	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	m = nn_median(d, n);
	free(d);
	return 1.4826 * m;
}
