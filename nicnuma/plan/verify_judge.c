// SPDX-License-Identifier: GPL-2.0-or-later
/* verify_judge.c - better, same, worse or too noisy, from two sets of samples */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/stats.h"
#include "nicnuma/plan/verify_judge.h"

#define NOISE_SIGMAS 2.0	/* the band a chance difference stays in, about 95 % */
#define MEDIAN_SE 1.2533	/* a median's standard error over the mean's: sqrt(pi/2) */
#define RANK_Z 1.96		/* the rank test's two-sided 5 %: 5 of 5 samples past 5 of 5 */
#define RANK_MIN 4		/* 4 and 4 wholly apart: 1 in 35 */

const char *nn_verdict_name(enum nn_verdict v)
{
	switch (v) {
	case NN_VERDICT_BETTER: return "better";
	case NN_VERDICT_SAME: return "same";
	case NN_VERDICT_NOISY: return "too_noisy";
	case NN_VERDICT_WORSE: return "worse";
	case NN_VERDICT_UNKNOWN: break;
	}
	return "not_judged";
}

/* The known samples of @v into @out (sized @n); their count. */
static size_t known(const double *v, size_t n, double *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			out[k++] = v[i];
	return k;
}

/* The rank test (Mann-Whitney U, normal approximation with ties counted
 * half): its z for "@a's samples lie above @b's"; 0 with fewer than
 * RANK_MIN a side, where even samples wholly apart are no 5 % event (3 and
 * 3: 1 in 10). */
static double rank_z(const double *b, size_t nb, const double *a, size_t na)
{
	double u = 0, mean = (double)nb * (double)na / 2;
	double sd = sqrt((double)nb * (double)na * (double)(nb + na + 1) / 12);
	size_t i, k;

	if (nb < RANK_MIN || na < RANK_MIN)
		return 0;
	for (i = 0; i < na; i++)
		for (k = 0; k < nb; k++)
			u += a[i] > b[k] ? 1 : a[i] == b[k] ? 0.5 : 0;
	return sd > 0 ? (u - mean) / sd : 0;
}

void nn_judge_samples(const double *before, size_t nb, const double *after, size_t na, bool lower_better,
		      double margin_pct, struct nn_judgement *j)
{
	double *b = malloc((nb + 1) * sizeof(*b)), *a = malloc((na + 1) * sizeof(*a));
	double sb, sa, base, se, z;

	memset(j, 0, sizeof(*j));
	j->verdict = NN_VERDICT_UNKNOWN;
	j->med_before = j->med_after = j->change_pct = j->noise_pct = NAN;
	if (!b || !a)
		goto out;
	j->n_before = known(before, nb, b);
	j->n_after = known(after, na, a);
	if (j->n_before)
		j->med_before = nn_median(b, j->n_before);
	if (j->n_after)
		j->med_after = nn_median(a, j->n_after);
	if (!j->n_before || !j->n_after)
		goto out;
	sb = nn_mad_sd(b, j->n_before, j->med_before);
	sa = nn_mad_sd(a, j->n_after, j->med_after);
	if (isnan(sb) || isnan(sa))
		goto out;
	/* a before median of 0 (an idle counter): the larger median is the scale */
	base = fabs(j->med_before) > 0 ? fabs(j->med_before) : fmax(fabs(j->med_after), 1e-12);
	se = MEDIAN_SE * sqrt(sb * sb / (double)j->n_before + sa * sa / (double)j->n_after);
	j->noise_pct = 100.0 * NOISE_SIGMAS * se / base;
	j->change_pct = 100.0 * (j->med_after - j->med_before) / base * (lower_better ? -1 : 1);
	/* + when the after samples rank the better way */
	z = rank_z(b, j->n_before, a, j->n_after) * (lower_better ? -1 : 1);
	j->rank_z = z;
	if (j->change_pct > margin_pct && (j->change_pct > j->noise_pct || z > RANK_Z))
		j->verdict = NN_VERDICT_BETTER;
	else if (j->change_pct >= -margin_pct)
		j->verdict = NN_VERDICT_SAME;
	else if (-j->change_pct > j->noise_pct || -z > RANK_Z)
		j->verdict = NN_VERDICT_WORSE;
	else
		j->verdict = NN_VERDICT_NOISY;
out:
	free(b);
	free(a);
}
