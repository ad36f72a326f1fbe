// SPDX-License-Identifier: GPL-2.0-or-later
/* verify_judge.c - better, same, worse or too noisy, from two sets of samples */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/stats.h"
#include "nicnuma/plan/verify_judge.h"

#define NOISE_SIGMAS 2.0	/* the band a chance difference stays in, about 95 % */
#define MEDIAN_SE 1.2533	/* a median's standard error over the mean's: sqrt(pi/2) */

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

void nn_judge_samples(const double *before, size_t nb, const double *after, size_t na, bool lower_better,
		      double margin_pct, struct nn_judgement *j)
{
	double *b = malloc((nb + 1) * sizeof(*b)), *a = malloc((na + 1) * sizeof(*a));
	double sb, sa, base, se;

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
	if (j->change_pct > margin_pct && j->change_pct > j->noise_pct)
		j->verdict = NN_VERDICT_BETTER;
	else if (j->change_pct >= -margin_pct)
		j->verdict = NN_VERDICT_SAME;
	else if (-j->change_pct > j->noise_pct)
		j->verdict = NN_VERDICT_WORSE;
	else
		j->verdict = NN_VERDICT_NOISY;
out:
	free(b);
	free(a);
}
