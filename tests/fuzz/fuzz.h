/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz.h - shared by the libFuzzer targets and the corpus replay driver
 *
 * Each target feeds one pure parser arbitrary bytes and checks what the
 * parser promises (round trips, ranges, sortedness); a broken promise
 * aborts, so the fuzzer reports it like a crash.
 */
#ifndef NICNUMA_FUZZ_H
#define NICNUMA_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The parsers take C strings: the input with a NUL after it (embedded NULs
 * just end the string early, as they would in a sysfs read). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#define FUZZ_ASSERT(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: broken promise: %s\n", __FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

#endif
