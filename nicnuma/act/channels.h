/* SPDX-License-Identifier: GPL-2.0-or-later */
/* channels.h - kept for irq/apply.c and nicnuma/undo.c: the channel ioctls
 * live in nicnuma/ethtool.c with every other ethtool request. Include
 * "nicnuma/ethtool.h" instead; this header goes once they do. */
#ifndef NICNUMA_IRQ_CHANNELS_H
#define NICNUMA_IRQ_CHANNELS_H

#include "nicnuma/discover/ethtool.h"

#endif
