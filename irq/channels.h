/* SPDX-License-Identifier: GPL-2.0-or-later */
/* channels.h - combined channel count through the ethtool ioctl (live only) */
#ifndef NICNUMA_IRQ_CHANNELS_H
#define NICNUMA_IRQ_CHANNELS_H

#include <stddef.h>

struct nn_ctx;

/* ETHTOOL_GCHANNELS: current and maximum combined channels of @ifname.
 * -EPERM under a fake root, -EOPNOTSUPP when the driver has no channels. */
int nn_channels_get(struct nn_ctx *ctx, const char *ifname, int *combined, int *max);
/* ETHTOOL_SCHANNELS: sets the combined count (rx/tx/other left as they are)
 * and reads it back; @why says what failed. */
int nn_channels_set(struct nn_ctx *ctx, const char *ifname, int combined,
		    char *why, size_t whylen);

#endif
