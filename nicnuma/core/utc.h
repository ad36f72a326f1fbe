// SPDX-License-Identifier: GPL-2.0-or-later
/* utc.h - UTC time stamps without the time zone database */
#ifndef NN_CORE_UTC_H
#define NN_CORE_UTC_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* @t as "YYYY-MM-DDTHH:MM:SSZ", or "YYYYMMDDTHHMMSS" when @compact (file
 * names, whose order is then time order). The calendar is computed here:
 * glibc's gmtime_r and strftime load /etc/localtime (tzset) once per
 * process for what is a UTC stamp. */
void nn_utc_stamp(char *buf, size_t size, time_t t, bool compact);

#endif
