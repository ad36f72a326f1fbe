/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cleanup.h - the compiler's cleanup attribute: what a function owns is
 * released on every return, so an error path is one `return` and not a
 * ladder of labels (systemd's _cleanup_free_) */
#ifndef NICNUMA_CORE_CLEANUP_H
#define NICNUMA_CORE_CLEANUP_H

#include <stdlib.h>

/* @fn(&var) runs when var goes out of scope, after a return's value is taken. */
#define NN_CLEANUP(fn) __attribute__((cleanup(fn)))

/* For NN_CLEANUP(nn_freep) on any pointer variable. */
static inline void nn_freep(void *p)
{
	free(*(void **)p);
}

#endif
