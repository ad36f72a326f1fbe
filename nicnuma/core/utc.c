// SPDX-License-Identifier: GPL-2.0-or-later
/* utc.c - UTC time stamps without the time zone database */
#include <stdio.h>

#include "nicnuma/core/utc.h"

/* Days since 1970-01-01 to a proleptic Gregorian date: the 400-year era
 * (146,097 days) and the day in it, with years that start on March 1 so the
 * leap day ends the year. */
static void civil(long long days, long long *y, unsigned int *m, unsigned int *d)
{
	long long z = days + 719468;	/* days from 0000-03-01 */
	long long era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned long long doe = (unsigned long long)(z - era * 146097);
	unsigned long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned long long mp = (5 * doy + 2) / 153;

	*d = (unsigned int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (long long)yoe + era * 400 + (*m <= 2);
}

void nn_utc_stamp(char *buf, size_t size, time_t t, bool compact)
{
	long long s = (long long)t, days = s / 86400, sod = s % 86400, y;
	unsigned int m, d;

	if (sod < 0) {
		sod += 86400;
		days--;
	}
	civil(days, &y, &m, &d);
	snprintf(buf, size, compact ? "%04lld%02u%02uT%02lld%02lld%02lld" : "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ",
		 y, m, d, sod / 3600, sod / 60 % 60, sod % 60);
}
