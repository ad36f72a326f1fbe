/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot_store.h - the boot record: which kernel arguments nicnuma put into the bootloader's configuration, and when
 *
 * STATE_DIR/boot.json, beside the undo logs and under their trust rule
 * (nn_state_read_trusted): written by apply and rollback in the same
 * transaction as the bootloader file, read by plan, check, status and
 * metrics. It answers two questions no configuration file can: which words
 * of a shared file (/etc/kernel/cmdline, a grubby entry) are nicnuma's to
 * change or remove, and whether the host has booted since nicnuma last
 * wrote them (the boot id then), which tells "pending a reboot" from
 * "drift". Every field is validated before use.
 *   {"version":1,"bootloader":"grub","args":["iommu=pt",..],
 *    "removed":["isolcpus=2-3"],"boot_id":"...","written":"2025-...Z"}
 */
#ifndef NICNUMA_STATE_BOOT_STORE_H
#define NICNUMA_STATE_BOOT_STORE_H

#include <stddef.h>

struct nn_ctx;

#define NN_BOOT_RECORD "boot.json"
#define NN_BOOT_RECORD_MAX (64 * 1024)
#define NN_BOOT_RECORD_WORDS 256

struct nn_boot_record {
	char bootloader[16];	/* "grub", "kernel-install", "grubby" */
	char **args;		/* nicnuma's words in the configuration, in order */
	size_t nargs;
	char **removed;		/* words nicnuma took out during boot @boot_id */
	size_t nremoved;
	char boot_id[40];	/* the boot during which it last wrote them */
	char written[32];	/* UTC stamp */
};

void nn_boot_record_free(struct nn_boot_record *r);
/* Pure: 0, or -EINVAL with the reason in @why. */
int nn_boot_record_parse(const char *text, size_t len, struct nn_boot_record *r, char *why, size_t whylen);
/* Pure: the record's text, malloc'd; NULL on ENOMEM or an invalid field. */
char *nn_boot_record_format(const struct nn_boot_record *r);
/* The record in ctx->state_dir: 0, -ENOENT when there is none (or no state
 * directory), another negative errno with @why (untrusted, invalid). */
int nn_boot_record_read(struct nn_ctx *ctx, struct nn_boot_record *r, char *why, size_t whylen);
/* Replaces it (atomically, 0600), or removes it when @r is NULL or holds
 * neither args nor removed words. 0 or a negative errno, printed. */
int nn_boot_record_write(struct nn_ctx *ctx, const struct nn_boot_record *r);

#endif
