/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script_internal.h - the fixed shell text the script generator embeds */
#ifndef NICNUMA_IRQ_SCRIPT_INTERNAL_H
#define NICNUMA_IRQ_SCRIPT_INTERNAL_H

extern const char nn_script_lib[];
extern const char nn_script_restore_head[];

#endif
