/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats.h - the few robust statistics nicnuma judges samples with (pure) */
#ifndef NICNUMA_PLAN_STATS_H
#define NICNUMA_PLAN_STATS_H

#include <stddef.h>

/* The median of @v's @n values; sorts @v in place. NAN when @n is 0. */
double nn_median(double *v, size_t n);
/* The median absolute deviation of @v around @med, times 1.4826 (a standard
 * deviation's estimate that one wild sample does not move); 0 for @n < 2.
 * @v is left as it was. NAN when it cannot allocate. */
double nn_mad_sd(const double *v, size_t n, double med);

#endif
