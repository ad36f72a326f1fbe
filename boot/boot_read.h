/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot_read.h - what the host's kernel and bootloader say, read through the fs root
 *
 * Bootloaders are detected, never guessed (loader.c, docs/boot.md):
 *  - GRUB as Debian and Ubuntu ship it: /etc/default/grub, a grub-mkconfig
 *    that sources /etc/default/grub.d/NAME.cfg (its own text says so), the
 *    /boot/grub/grub.cfg it generates; nicnuma's drop-in is
 *    /etc/default/grub.d/zz-nicnuma.cfg, regenerated with update-grub (or
 *    grub-mkconfig -o /boot/grub/grub.cfg);
 *  - kernel-install (BLS, systemd-boot): /etc/kernel/cmdline and the
 *    loader entries under /boot, /efi or /boot/efi, regenerated with
 *    kernel-install add;
 *  - grubby (BLS entries of Fedora and RHEL): the running kernel's entry,
 *    written by grubby itself.
 * Anything else that boots a kernel (extlinux, lilo, zipl, rEFInd, a GRUB
 * whose grub-mkconfig ignores grub.d) is "unknown", named; nothing is
 * "none"; two of them at once "several". nicnuma writes only the first three.
 */
#ifndef NICNUMA_BOOT_BOOT_READ_H
#define NICNUMA_BOOT_BOOT_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/boot.h"
#include "boot/cmdline.h"
#include "nicnuma/state/boot_store.h"

struct nn_ctx;

/* The running kernel (kernel.c): release, configuration, /proc/cmdline,
 * boot id. Unreadable parts stay unknown (a warning for /proc/cmdline). */
int nn_boot_kernel_read(struct nn_ctx *ctx, struct nn_boot_kernel *k);
void nn_boot_kernel_free(struct nn_boot_kernel *k);

enum nn_bootloader_kind {
	NN_BL_NONE,
	NN_BL_GRUB,
	NN_BL_KERNEL_INSTALL,
	NN_BL_GRUBBY,
	NN_BL_UNKNOWN,
	NN_BL_SEVERAL,
};
/* "none", "grub", "kernel-install", "grubby", "unknown", "several" */
const char *nn_bootloader_name(enum nn_bootloader_kind k);

#define NN_GRUB_DEFAULT "/etc/default/grub"
#define NN_GRUB_DROPIN_DIR "/etc/default/grub.d"
#define NN_GRUB_DROPIN "/etc/default/grub.d/zz-nicnuma.cfg"
#define NN_GRUB_CFG "/boot/grub/grub.cfg"
#define NN_KERNEL_CMDLINE "/etc/kernel/cmdline"

/* One file grub-mkconfig sources, as read. */
struct nn_grub_file {
	char *path;
	char *text;
	size_t len;
};

struct nn_bootloader {
	enum nn_bootloader_kind kind;
	char *found;		/* what was found, in words (the refusal's reason for none/unknown/several) */
	char *file;		/* what nicnuma writes (the drop-in, /etc/kernel/cmdline); NULL for grubby */
	char *file_text;	/* its content now; NULL: absent */
	char *generated;	/* the configuration the next boot reads (grub.cfg, the running kernel's entry) */
	char *tool;		/* the program that regenerates it (grubby: that writes it), absolute */
	char *next;		/* the next boot's kernel arguments read from @generated; NULL unknown */
	char *next_kernel;	/* the kernel that entry boots */
	char *ours;		/* nicnuma's words in the configuration now ("" none) */
	struct nn_boot_source *src;	/* every other owner's configured words */
	size_t nsrc;
	char *problem;		/* why nicnuma must not write: a later drop-in, an unreadable file, read-only /boot */
	struct nn_grub_file *grub;	/* GRUB: /etc/default/grub and grub.d/NAME.cfg in sourcing order, ours left out */
	size_t ngrub;
	bool dropin_last;	/* GRUB: no grub.d file sorts after the drop-in */
};

/* Detects the bootloader and reads its configuration (@rec: the boot
 * record, NULL none; it says which words of a shared file are nicnuma's).
 * 0 with @bl filled (problems in bl->problem); -ENOMEM. */
int nn_bootloader_read(struct nn_ctx *ctx, const struct nn_boot_kernel *k, const struct nn_boot_record *rec,
		       struct nn_bootloader *bl);
void nn_bootloader_free(struct nn_bootloader *bl);

/* GRUB: the variables the files leave with @dropin (the drop-in's text,
 * NULL none) sourced in its place; @why names the file that could not be
 * read. Pure over bl->grub. */
int nn_grub_eval(const struct nn_bootloader *bl, const char *dropin, char **linux_, char **linux_default,
		 char *why, size_t whylen);
/* The drop-in nicnuma writes for @words (NULL-terminated count @n): its
 * text, malloc'd; NULL on ENOMEM. And its words back (pure): -EINVAL when
 * the text is not one nicnuma wrote (an edit by hand), @why says where. */
char *nn_grub_dropin_format(char *const *words, size_t n);
int nn_grub_dropin_parse(const char *text, char **words, char *why, size_t whylen);
/* Pure: the kernel arguments of the first menu entry of a grub.cfg (its
 * first "linux" line), and its kernel. -ENOENT when there is none. */
int nn_grub_cfg_first_linux(const char *text, char **args, char **kernel);
/* Pure: the "options" of a BLS entry (every options line, joined). */
int nn_bls_options(const char *text, char **options, char **kernel);

/* What plan, apply, check, status and metrics read of the host's boot. */
struct nn_boot_host {
	bool read;			/* nn_boot_host_read ran */
	struct nn_boot_kernel kernel;
	struct nn_bootloader loader;
	struct nn_boot_record record;
	bool has_record;
	char record_why[160];		/* why the record could not be used ("" none, or none there) */
};

/* The kernel always; the bootloader and the record too with @loader. */
int nn_boot_host_read(struct nn_ctx *ctx, struct nn_boot_host *b, bool loader);
void nn_boot_host_free(struct nn_boot_host *b);

#endif
