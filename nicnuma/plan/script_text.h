/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script_text.h - the fixed shell text a generated script embeds (pure data: emit/script.c writes it) */
#ifndef NICNUMA_PLAN_SCRIPT_TEXT_H
#define NICNUMA_PLAN_SCRIPT_TEXT_H

extern const char nn_script_lib[];
extern const char nn_script_restore_head[];

#endif
