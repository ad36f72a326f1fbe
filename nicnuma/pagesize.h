/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pagesize.h - hugepage size and "SIZE:COUNT" text (pure)
 *
 * Shared by the command line (--hugepages) and the desired-state file
 * (hugepages = SIZE:COUNT), so both accept exactly the same words.
 */
#ifndef NICNUMA_PAGESIZE_H
#define NICNUMA_PAGESIZE_H

/* "2M", "1G", "2048kB" -> kB (power of two, >= 4 kB). */
int nn_parse_page_size(const char *s, unsigned long *kb);
/* "SIZE:COUNT" */
int nn_parse_hugepages_opt(const char *arg, unsigned long *kb, long *count);

#endif
