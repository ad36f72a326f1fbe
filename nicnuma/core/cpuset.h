/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpuset.h - growable CPU bitmaps and the kernel's two text forms of them
 *
 * No fixed 64- or 1024-CPU limit: a set grows to fit the highest CPU it holds.
 * Parsers are pure (string in, set out) so they can be unit-tested and fuzzed.
 */
#ifndef NICNUMA_CPUSET_H
#define NICNUMA_CPUSET_H

#include <stdbool.h>
#include <stddef.h>

struct nn_cpuset {
	unsigned int nwords;	/* allocated words */
	unsigned long *bits;	/* NULL when empty and never grown */
};

#define NN_CPUSET_INIT { 0, NULL }
/* Refuse absurd CPU numbers rather than allocate gigabytes from a bad file. */
#define NN_CPU_MAX 65536

void nn_cpuset_free(struct nn_cpuset *s);
void nn_cpuset_zero(struct nn_cpuset *s);
int nn_cpuset_set(struct nn_cpuset *s, unsigned int cpu);
bool nn_cpuset_test(const struct nn_cpuset *s, unsigned int cpu);
unsigned int nn_cpuset_count(const struct nn_cpuset *s);
bool nn_cpuset_empty(const struct nn_cpuset *s);
bool nn_cpuset_equal(const struct nn_cpuset *a, const struct nn_cpuset *b);
bool nn_cpuset_subset(const struct nn_cpuset *a, const struct nn_cpuset *b); /* a within b */
bool nn_cpuset_intersects(const struct nn_cpuset *a, const struct nn_cpuset *b);
/* First set CPU after @prev (pass -1 to start); -1 when none is left. */
int nn_cpuset_next(const struct nn_cpuset *s, int prev);
int nn_cpuset_first(const struct nn_cpuset *s);
int nn_cpuset_last(const struct nn_cpuset *s);
int nn_cpuset_copy(struct nn_cpuset *dst, const struct nn_cpuset *src);
int nn_cpuset_or(struct nn_cpuset *dst, const struct nn_cpuset *src);
void nn_cpuset_and(struct nn_cpuset *dst, const struct nn_cpuset *src);
void nn_cpuset_andnot(struct nn_cpuset *dst, const struct nn_cpuset *src);

#define nn_cpuset_foreach(cpu, s) \
	for ((cpu) = nn_cpuset_first(s); (cpu) >= 0; (cpu) = nn_cpuset_next((s), (cpu)))

/* Kernel cpulist ("0-3,8,16-31:2/4"); trailing newline/space allowed, "" is empty.
 * Returns 0 or -EINVAL/-ERANGE/-ENOMEM; @out is replaced only on success. */
int nn_cpuset_parse_list(const char *str, struct nn_cpuset *out);
/* Kernel hex mask, comma-separated 32-bit groups, most significant first
 * ("ff,00000001"). */
int nn_cpuset_parse_mask(const char *str, struct nn_cpuset *out);
/* Malloc'd kernel-form cpulist ("" for the empty set), NULL on ENOMEM. */
char *nn_cpuset_format_list(const struct nn_cpuset *s);
/* Malloc'd kernel-form hex mask covering at least @nbits bits (0: just enough). */
char *nn_cpuset_format_mask(const struct nn_cpuset *s, unsigned int nbits);

#endif
