/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verify_judge.h - apply --verify's decision over two sets of samples (pure)
 *
 * One sample is too little on a shared host: a tail latency swings 2-5x run
 * to run. So each side (before the apply, after it) is several samples, and
 * the decision compares their medians:
 *   change   = the after median's move from the before median, in percent
 *              of the before median, positive when it went the better way;
 *   noise    = twice the standard error of that difference of medians
 *              (1.2533 x sqrt(sd_b^2/n_b + sd_a^2/n_a), each sd the MAD's
 *              estimate of its side's spread), in the same percent: the
 *              band a difference of medians of samples this spread wanders
 *              in by chance (about 95 %);
 *   beyond the noise: |change| > noise, or the rank test (Mann-Whitney U,
 *              normal approximation) puts the after samples on that side
 *              of the before samples at |z| > 1.96 (two-sided 5 %; 5 of 5
 *              past 5 of 5 is z 2.6; 4 samples a side at least): a plan
 *              that makes one side wildly
 *              spread, all of it worse, is still worse;
 *   better   change > margin and beyond the noise;
 *   same     |change| within margin, or better but within the noise: kept;
 *   worse    change < -margin and beyond the noise: rolled back;
 *   noisy    change < -margin but within the noise: too noisy to tell;
 *            kept and said (--verify-strict rolls it back);
 *   unknown  no sample on a side: not judged.
 * One sample a side has no spread: the margin alone decides.
 */
#ifndef NICNUMA_PLAN_VERIFY_JUDGE_H
#define NICNUMA_PLAN_VERIFY_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

enum nn_verdict { NN_VERDICT_UNKNOWN, NN_VERDICT_BETTER, NN_VERDICT_SAME, NN_VERDICT_NOISY, NN_VERDICT_WORSE };

struct nn_judgement {
	enum nn_verdict verdict;
	double med_before, med_after;	/* NAN unknown */
	double change_pct;		/* + the better way; NAN unknown */
	double noise_pct;		/* NAN unknown */
	double rank_z;			/* the rank test's z, + the better way; 0 unknown */
	size_t n_before, n_after;	/* samples known (NAN samples left out) */
};

/* "better", "same", "too_noisy", "worse", "not_judged". */
const char *nn_verdict_name(enum nn_verdict v);

/* Judges @after against @before (NAN samples are unknown and left out),
 * @lower_better: which way is better; @margin_pct >= 0. Pure. */
void nn_judge_samples(const double *before, size_t nb, const double *after, size_t na, bool lower_better,
		      double margin_pct, struct nn_judgement *j);

#endif
