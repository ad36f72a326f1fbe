/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hp_print.h - the hugepage reports of "nicnuma hugepages" (hp_print.c) */
#ifndef NICNUMA_HP_PRINT_H
#define NICNUMA_HP_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "hugepages/hugepages.h"

struct nn_out;
struct nn_hp_result;

/* A page size as nn_hp_format_size writes it ("2M"), "?" when it cannot. */
void nn_hp_size_name(unsigned long kb, char *buf, size_t len);
/* "hugepages show": the pools per node and size, the host-wide pools with
 * their reserved count, the default size and the hugetlbfs mounts. */
void nn_hp_state_print(struct nn_out *o, const struct nn_hp_state *st);
/* "results": one line per pool, before -> target and what it got. */
void nn_hp_results_print(struct nn_out *o, const struct nn_hp_result *res, size_t n, bool dry_run);
/* After a shortfall: what each short pool got and, for a reserve, the kernel
 * arguments that would reserve the pages at boot ("boot_args"). */
void nn_hp_shortfall_print(struct nn_out *o, const struct nn_hp_state *st, const struct nn_hp_result *res,
			   size_t n, unsigned long size_kb, bool partial, bool release);

#endif
