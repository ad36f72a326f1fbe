// SPDX-License-Identifier: GPL-2.0-or-later
/* loader.c - which bootloader boots this host, and what its configuration gives the next boot
 *
 * Detection looks only at files (through the fs root), so a fixture tree
 * holds a whole bootloader: GRUB is Debian's when its grub-mkconfig's own
 * text sources /etc/default/grub.d (other distributions' does not, and a
 * drop-in there would be read by nobody). The configuration is read the
 * way the bootloader's tools read it: /etc/default/grub then grub.d/NAME.cfg
 * in glob order through the sh reader (grub_sh.c); the generated grub.cfg's
 * first entry; a BLS entry's options.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/strbuf.h"
#include "boot/boot_read.h"
#include "boot/grub_sh.h"

#define CONFIG_MAX (4u << 20)	/* a config file larger than this is not one */

static const char *const grub_vars[] = { "GRUB_CMDLINE_LINUX", "GRUB_CMDLINE_LINUX_DEFAULT", NULL };
static const char *const entry_dirs[] = { "/boot/loader/entries", "/efi/loader/entries",
					  "/boot/efi/loader/entries", NULL };
static const char *const tool_dirs[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin", NULL };

const char *nn_bootloader_name(enum nn_bootloader_kind k)
{
	switch (k) {
	case NN_BL_NONE: return "none";
	case NN_BL_GRUB: return "grub";
	case NN_BL_KERNEL_INSTALL: return "kernel-install";
	case NN_BL_GRUBBY: return "grubby";
	case NN_BL_UNKNOWN: return "unknown";
	case NN_BL_SEVERAL: return "several";
	}
	return "?";
}

static bool exists(struct nn_ctx *ctx, const char *path)
{
	return nn_root_access(&ctx->root, path, F_OK) == 0;
}

/* A file's text; 0 with NULL when it is not there. */
static int read_opt(struct nn_ctx *ctx, const char *path, char **text, size_t *len)
{
	size_t l = 0;
	int err = nn_read_file(&ctx->root, path, text, &l);

	if (len)
		*len = l;
	if (err == -ENOENT) {
		*text = NULL;
		return 0;
	}
	if (!err && l > CONFIG_MAX) {
		free(*text);
		*text = NULL;
		return -EFBIG;
	}
	return err;
}

/* The program @name as the helper runner finds it (core/trust.c's
 * directories), inside the root; NULL when absent. */
static char *tool_find(struct nn_ctx *ctx, const char *name)
{
	char path[96];
	size_t i;

	for (i = 0; tool_dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", tool_dirs[i], name);
		if (exists(ctx, path))
			return strdup(path);
	}
	return NULL;
}

static char *joinf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *joinf(const char *fmt, ...)
{
	struct nn_sb sb = NN_SB_INIT;
	va_list ap;
	char *out;

	va_start(ap, fmt);
	nn_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

static int src_add(struct nn_bootloader *bl, char *owner, const char *text)
{
	struct nn_boot_source *ns;

	if (!owner)
		return -ENOMEM;
	ns = realloc(bl->src, (bl->nsrc + 1) * sizeof(*ns));
	if (!ns) {
		free(owner);
		return -ENOMEM;
	}
	bl->src = ns;
	ns[bl->nsrc].owner = owner;
	ns[bl->nsrc].text = strdup(text ? text : "");
	if (!ns[bl->nsrc].text) {
		free(owner);
		return -ENOMEM;
	}
	bl->nsrc++;
	return 0;
}

/* A reason nicnuma must not write; the first one found stays. */
static int problem(struct nn_bootloader *bl, char *text)
{
	if (!text)
		return -ENOMEM;
	if (bl->problem)
		free(text);
	else
		bl->problem = text;
	return 0;
}

/* The file system of @dir is mounted read-only: a write there (the drop-in,
 * the tool's regenerated configuration) cannot happen. */
static bool read_only(struct nn_ctx *ctx, const char *dir)
{
	struct statvfs sv;
	int fd = nn_root_openat(&ctx->root, dir, O_RDONLY | O_DIRECTORY, 0);
	bool ro;

	if (fd < 0)
		return false;
	ro = fstatvfs(fd, &sv) == 0 && (sv.f_flag & ST_RDONLY);
	close(fd);
	return ro;
}

static int check_ro(struct nn_ctx *ctx, struct nn_bootloader *bl, const char *dir, const char *what)
{
	if (!read_only(ctx, dir))
		return 0;
	return problem(bl, joinf("%s is on a read-only file system: %s", dir, what));
}

/* ---- pure readers of generated configurations ---- */

/* [p, e) without leading blanks: does it start with keyword @kw and a blank? */
static const char *after_kw(const char *p, const char *e, const char *kw)
{
	size_t n = strlen(kw);

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(e - p) <= n || memcmp(p, kw, n) || (p[n] != ' ' && p[n] != '\t'))
		return NULL;
	return p + n;
}

int nn_grub_cfg_first_linux(const char *text, char **args, char **kernel)
{
	const char *p = text, *end = text + strlen(text);
	static const char *const kws[] = { "linux", "linuxefi", "linux16", NULL };

	*args = *kernel = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *a = NULL, *k;
		size_t i;

		for (i = 0; kws[i] && !a; i++)
			a = after_kw(p, le, kws[i]);
		if (a) {
			while (a < le && (*a == ' ' || *a == '\t'))
				a++;
			k = a;
			while (a < le && *a != ' ' && *a != '\t')
				a++;
			*kernel = strndup(k, (size_t)(a - k));
			while (a < le && (*a == ' ' || *a == '\t'))
				a++;
			*args = strndup(a, (size_t)(le - a));
			if (!*args || !*kernel) {
				free(*args);
				free(*kernel);
				*args = *kernel = NULL;
				return -ENOMEM;
			}
			return 0;
		}
		p = nl ? nl + 1 : end;
	}
	return -ENOENT;
}

int nn_bls_options(const char *text, char **options, char **kernel)
{
	struct nn_sb sb = NN_SB_INIT;
	const char *p = text, *end = text + strlen(text);

	*options = *kernel = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *a;

		if ((a = after_kw(p, le, "options"))) {
			while (a < le && (*a == ' ' || *a == '\t'))
				a++;
			nn_sb_printf(&sb, "%s%.*s", sb.len ? " " : "", (int)(le - a), a);
		} else if ((a = after_kw(p, le, "linux")) && !*kernel) {
			while (a < le && (*a == ' ' || *a == '\t'))
				a++;
			*kernel = strndup(a, (size_t)(le - a));
			if (!*kernel)
				break;
		}
		p = nl ? nl + 1 : end;
	}
	if (nn_sb_steal(&sb, options) || (p < end && !*kernel)) {
		free(*options);
		free(*kernel);
		*options = *kernel = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* ---- GRUB ---- */

static const char dropin_head[] =
	"# nicnuma: the kernel arguments its plan asks for, given to the default boot\n"
	"# entries. Written by `nicnuma apply`; `nicnuma rollback` puts back what was\n"
	"# here before. Recovery entries do not get them: a way back should one of them\n"
	"# keep the host from booting. Edit the plan, not this file.\n";
static const char dropin_var[] = "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT ";

char *nn_grub_dropin_format(char *const *words, size_t n)
{
	struct nn_sb sb = NN_SB_INIT;
	size_t i;
	char *out;

	nn_sb_puts(&sb, dropin_head);
	nn_sb_puts(&sb, dropin_var);
	for (i = 0; i < n; i++)
		nn_sb_printf(&sb, "%s%s", i ? " " : "", words[i]);
	nn_sb_puts(&sb, "\"\n");
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

int nn_grub_dropin_parse(const char *text, char **words, char *why, size_t whylen)
{
	const char *p = text, *end = text + strlen(text);
	unsigned int line = 0;
	bool seen = false;

	*words = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		size_t n = (size_t)(le - p), vl = sizeof(dropin_var) - 1;

		line++;
		if (n == 0 || p[0] == '#') {
			p = nl ? nl + 1 : end;
			continue;
		}
		if (seen || n < vl + 1 || memcmp(p, dropin_var, vl) || le[-1] != '"') {
			snprintf(why, whylen, "line %u is not one nicnuma writes (edited by hand?)", line);
			free(*words);
			*words = NULL;
			return -EINVAL;
		}
		seen = true;
		*words = strndup(p + vl, n - vl - 1);
		if (!*words)
			return -ENOMEM;
		for (const char *w = *words, *e; *w; w = e) {
			while (*w == ' ')
				w++;
			for (e = w; *e && *e != ' '; e++)
				;
			if (e > w && !nn_karg_safe(w, (size_t)(e - w))) {
				snprintf(why, whylen, "line %u: '%.*s' is not a word nicnuma writes", line,
					 (int)(e - w > 60 ? 60 : e - w), w);
				free(*words);
				*words = NULL;
				return -EINVAL;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!*words)
		*words = strdup("");
	return *words ? 0 : -ENOMEM;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int eval_env(const struct nn_bootloader *bl, const char *dropin, struct nn_sh_env *env, char *why,
		    size_t whylen)
{
	const char *ours = base_name(NN_GRUB_DROPIN);
	bool done = !dropin;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < bl->ngrub; i++) {
		const struct nn_grub_file *f = &bl->grub[i];

		/* the drop-in in its glob place: after every grub.d name before its own */
		if (!done && i > 0 && strcmp(base_name(f->path), ours) > 0) {
			err = nn_sh_source(env, NN_GRUB_DROPIN, dropin, strlen(dropin), grub_vars, why, whylen);
			done = true;
		}
		if (!err)
			err = nn_sh_source(env, f->path, f->text, f->len, grub_vars, why, whylen);
	}
	if (!err && !done)
		err = nn_sh_source(env, NN_GRUB_DROPIN, dropin, strlen(dropin), grub_vars, why, whylen);
	return err;
}

int nn_grub_eval(const struct nn_bootloader *bl, const char *dropin, char **linux_, char **linux_default,
		 char *why, size_t whylen)
{
	struct nn_sh_env env = NN_SH_ENV_INIT;
	const struct nn_sh_var *a, *b;
	int err = eval_env(bl, dropin, &env, why, whylen);

	*linux_ = *linux_default = NULL;
	if (!err) {
		a = nn_sh_get(&env, grub_vars[0]);
		b = nn_sh_get(&env, grub_vars[1]);
		*linux_ = strdup(a && a->value ? a->value : "");
		*linux_default = strdup(b && b->value ? b->value : "");
		if (!*linux_ || !*linux_default)
			err = -ENOMEM;
	}
	nn_sh_env_free(&env);
	return err;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(base_name(((const struct nn_grub_file *)a)->path),
		      base_name(((const struct nn_grub_file *)b)->path));
}

static int grub_file_add(struct nn_ctx *ctx, struct nn_bootloader *bl, const char *path)
{
	struct nn_grub_file *nf = realloc(bl->grub, (bl->ngrub + 1) * sizeof(*nf));
	struct nn_grub_file *f;
	int err;

	if (!nf)
		return -ENOMEM;
	bl->grub = nf;
	f = &bl->grub[bl->ngrub];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	bl->ngrub++;
	err = read_opt(ctx, path, &f->text, &f->len);
	if (err == -ENOMEM)
		return err;
	if (err || !f->text)
		return problem(bl, joinf("%s: cannot read it: %s", path, err ? nn_read_strerror(err) : "gone"));
	return 0;
}

/* /etc/default/grub, then grub.d/NAME.cfg as the shell's glob orders them
 * (dot files are not matched), nicnuma's own drop-in left out. */
static int grub_files(struct nn_ctx *ctx, struct nn_bootloader *bl)
{
	const char *ours = base_name(NN_GRUB_DROPIN);
	DIR *d = NULL;
	struct dirent *de;
	size_t first;
	int err;

	err = grub_file_add(ctx, bl, NN_GRUB_DEFAULT);
	if (err)
		return err;
	first = bl->ngrub;
	bl->dropin_last = true;
	if (nn_root_opendir(&ctx->root, NN_GRUB_DROPIN_DIR, &d))
		return 0;
	while (!err && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char path[320];

		if (de->d_name[0] == '.' || n < 5 || strcmp(de->d_name + n - 4, ".cfg"))
			continue;
		if (!strcmp(de->d_name, ours))
			continue;
		if (strcmp(de->d_name, ours) > 0)
			bl->dropin_last = false;
		snprintf(path, sizeof(path), "%s/%s", NN_GRUB_DROPIN_DIR, de->d_name);
		err = grub_file_add(ctx, bl, path);
	}
	closedir(d);
	/* the glob's order, in the C locale (names here are ASCII) */
	if (bl->ngrub > first)
		qsort(bl->grub + first, bl->ngrub - first, sizeof(*bl->grub), cmp_path);
	return err;
}

static int read_grub(struct nn_ctx *ctx, struct nn_bootloader *bl)
{
	struct nn_sh_env env = NN_SH_ENV_INIT;
	char why[320], *cfg = NULL, *tuned = NULL;
	int err;

	bl->file = strdup(NN_GRUB_DROPIN);
	bl->generated = strdup(NN_GRUB_CFG);
	if (!bl->file || !bl->generated)
		return -ENOMEM;
	err = grub_files(ctx, bl);
	if (!err)
		err = read_opt(ctx, NN_GRUB_DROPIN, &bl->file_text, NULL);
	if (err && err != -ENOMEM)
		err = problem(bl, joinf("%s: cannot read it: %s", NN_GRUB_DROPIN, nn_read_strerror(err)));
	if (err)
		return err;
	if (bl->file_text && nn_grub_dropin_parse(bl->file_text, &bl->ours, why, sizeof(why)) == -EINVAL)
		err = problem(bl, joinf("%s: %s", NN_GRUB_DROPIN, why));
	if (!err && !bl->ours)
		bl->ours = strdup("");
	if (!err && !bl->ours)
		err = -ENOMEM;
	/* the other owners: the files without nicnuma's drop-in */
	if (!err && !bl->problem) {
		err = eval_env(bl, NULL, &env, why, sizeof(why));
		if (err == -ENOTSUP)
			err = problem(bl, strdup(why));
		for (size_t i = 0; !err && grub_vars[i] && !bl->problem; i++) {
			const struct nn_sh_var *v = nn_sh_get(&env, grub_vars[i]);

			if (v && v->value && v->value[0])
				err = src_add(bl, joinf("%s (%s)", grub_vars[i], v->file), v->value);
		}
	}
	nn_sh_env_free(&env);
	if (!err)
		err = read_opt(ctx, NN_GRUB_CFG, &cfg, NULL);
	if (!err && cfg) {
		err = nn_grub_cfg_first_linux(cfg, &bl->next, &bl->next_kernel);
		if (err == -ENOENT)
			err = problem(bl, joinf("%s has no linux entry: run update-grub first", NN_GRUB_CFG));
	}
	free(cfg);
	/* tuned's bootloader plugin keeps its arguments here (TUNED_BOOT_CMDLINE) */
	if (!err)
		err = read_opt(ctx, "/etc/tuned/bootcmdline", &tuned, NULL);
	if (!err && tuned) {
		static const char *const tv[] = { "TUNED_BOOT_CMDLINE", NULL };
		const struct nn_sh_var *v;

		err = nn_sh_source(&env, "/etc/tuned/bootcmdline", tuned, strlen(tuned), tv, why, sizeof(why));
		if (err == -ENOTSUP)
			err = problem(bl, strdup(why));
		v = err ? NULL : nn_sh_get(&env, tv[0]);
		if (v && v->value && v->value[0])
			err = src_add(bl, strdup("tuned (/etc/tuned/bootcmdline)"), v->value);
		nn_sh_env_free(&env);
	}
	free(tuned);
	if (!err)
		err = check_ro(ctx, bl, "/boot/grub", "update-grub cannot write grub.cfg");
	if (!err)
		err = check_ro(ctx, bl, exists(ctx, NN_GRUB_DROPIN_DIR) ? NN_GRUB_DROPIN_DIR : "/etc/default",
			       "the drop-in cannot be written");
	if (err == -ENOMEM)
		return err;
	if (err && err != -ENOMEM)
		return problem(bl, joinf("%s: %s", NN_GRUB_CFG, nn_read_strerror(err)));
	return 0;
}

/* ---- BLS entries (kernel-install, grubby) ---- */

/* The running kernel's entry: a loader entry whose "version" is the
 * release, or whose file name ends in "-RELEASE.conf". */
static int find_entry(struct nn_ctx *ctx, const char *release, char **path, char **text)
{
	size_t i;

	*path = *text = NULL;
	for (i = 0; entry_dirs[i] && !*path; i++) {
		DIR *d = NULL;
		struct dirent *de;

		if (nn_root_opendir(&ctx->root, entry_dirs[i], &d))
			continue;
		while ((de = readdir(d)) && !*path) {
			size_t n = strlen(de->d_name), rl = strlen(release);
			char p[512], *t = NULL;
			bool match;

			if (de->d_name[0] == '.' || n < 6 || strcmp(de->d_name + n - 5, ".conf"))
				continue;
			snprintf(p, sizeof(p), "%s/%s", entry_dirs[i], de->d_name);
			if (read_opt(ctx, p, &t, NULL) || !t)
				continue;
			match = rl && ((n > rl + 5 && !strncmp(de->d_name + n - 5 - rl, release, rl) &&
					de->d_name[n - 6 - rl] == '-') ||
				       strstr(t, release));
			if (match) {
				*path = strdup(p);
				*text = t;
				if (!*path) {
					free(t);
					*text = NULL;
					closedir(d);
					return -ENOMEM;
				}
			} else {
				free(t);
			}
		}
		closedir(d);
	}
	return 0;
}

static bool has_entries(struct nn_ctx *ctx)
{
	size_t i;

	for (i = 0; entry_dirs[i]; i++) {
		DIR *d = NULL;
		struct dirent *de;
		bool any = false;

		if (nn_root_opendir(&ctx->root, entry_dirs[i], &d))
			continue;
		while (!any && (de = readdir(d))) {
			size_t n = strlen(de->d_name);

			any = de->d_name[0] != '.' && n > 5 && !strcmp(de->d_name + n - 5, ".conf");
		}
		closedir(d);
		if (any)
			return true;
	}
	return false;
}

/* Splits @words into nicnuma's (the record's, where @rec is this
 * bootloader's) and the rest. */
static int split_ours(const char *words, const struct nn_boot_record *rec, const char *bl_name,
		      char **ours, char **rest)
{
	struct nn_sb o = NN_SB_INIT, r = NN_SB_INIT;
	bool *used = NULL;
	const char *p = words ? words : "", *w, *e;
	size_t i;

	if (rec && !strcmp(rec->bootloader, bl_name)) {
		used = calloc(rec->nargs ? rec->nargs : 1, sizeof(*used));
		if (!used)
			return -ENOMEM;
	}
	while (nn_cmdline_word(&p, &w, &e)) {
		bool mine = false;

		for (i = 0; used && !mine && i < rec->nargs; i++)
			if (!used[i] && strlen(rec->args[i]) == (size_t)(e - w) &&
			    !memcmp(rec->args[i], w, (size_t)(e - w)))
				mine = used[i] = true;
		nn_sb_printf(mine ? &o : &r, "%s%.*s", (mine ? o.len : r.len) ? " " : "", (int)(e - w), w);
	}
	free(used);
	nn_sb_puts(&o, "");
	nn_sb_puts(&r, "");
	if (nn_sb_steal(&o, ours) || nn_sb_steal(&r, rest)) {
		nn_sb_free(&r);
		free(*ours);
		*ours = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* kernel-install's own fallback without /etc/kernel/cmdline: the running
 * line without the bootloader's BOOT_IMAGE= and initrd=. */
static char *proc_words(const char *cmdline)
{
	struct nn_sb sb = NN_SB_INIT;
	const char *p = cmdline ? cmdline : "", *w, *e;
	char *out;

	while (nn_cmdline_word(&p, &w, &e)) {
		if ((e - w > 11 && !memcmp(w, "BOOT_IMAGE=", 11)) || (e - w > 7 && !memcmp(w, "initrd=", 7)))
			continue;
		nn_sb_printf(&sb, "%s%.*s", sb.len ? " " : "", (int)(e - w), w);
	}
	nn_sb_puts(&sb, "");
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

static int read_bls(struct nn_ctx *ctx, const struct nn_boot_kernel *k, const struct nn_boot_record *rec,
		    struct nn_bootloader *bl)
{
	char *entry = NULL, *text = NULL, *rest = NULL, *words = NULL;
	const char *owner = NN_KERNEL_CMDLINE;
	int err;

	err = find_entry(ctx, k->release, &entry, &text);
	if (err)
		return err;
	if (entry) {
		bl->generated = entry;
		err = nn_bls_options(text, &bl->next, &bl->next_kernel);
	} else {
		err = problem(bl, joinf("no boot loader entry for the running kernel %s under %s, %s or %s",
					k->release[0] ? k->release : "(release unknown)", entry_dirs[0],
					entry_dirs[1], entry_dirs[2]));
	}
	free(text);
	if (err)
		return err;
	if (bl->kind == NN_BL_GRUBBY) {
		/* grubby edits the entries themselves: the running kernel's is the configuration */
		if (bl->next)
			words = strdup(bl->next);
		owner = bl->generated;
	} else {
		bl->file = strdup(NN_KERNEL_CMDLINE);
		if (!bl->file)
			return -ENOMEM;
		err = read_opt(ctx, NN_KERNEL_CMDLINE, &bl->file_text, NULL);
		if (err)
			return err == -ENOMEM ? err : problem(bl, joinf("%s: %s", NN_KERNEL_CMDLINE,
									nn_read_strerror(err)));
		if (bl->file_text) {
			words = strdup(bl->file_text);
		} else {
			words = proc_words(k->cmdline);
			owner = "/proc/cmdline (kernel-install's default without /etc/kernel/cmdline)";
		}
	}
	if ((bl->next || bl->kind != NN_BL_GRUBBY) && !words)
		return -ENOMEM;
	err = split_ours(words, rec, nn_bootloader_name(bl->kind), &bl->ours, &rest);
	free(words);
	if (!err && rest[0])
		err = src_add(bl, strdup(owner), rest);
	free(rest);
	if (!err && bl->kind == NN_BL_KERNEL_INSTALL)
		err = check_ro(ctx, bl, "/etc/kernel", "/etc/kernel/cmdline cannot be written");
	if (!err && bl->generated) {
		char dir[512];
		char *slash;

		snprintf(dir, sizeof(dir), "%s", bl->generated);
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		err = check_ro(ctx, bl, dir, "the boot loader entries cannot be written");
	}
	return err;
}

/* ---- detection ---- */

struct marker {
	const char *path;
	const char *what;
};

/* Bootloaders nicnuma recognises and does not write. */
static const struct marker unknown_markers[] = {
	{ "/boot/extlinux/extlinux.conf", "extlinux" },
	{ "/boot/syslinux/syslinux.cfg", "syslinux" },
	{ "/etc/lilo.conf", "LILO" },
	{ "/etc/zipl.conf", "zipl" },
	{ "/boot/refind_linux.conf", "rEFInd" },
	{ "/boot/grub2/grub.cfg", "GRUB 2 without /etc/default/grub.d (grub2-mkconfig; no grubby)" },
	{ "/etc/default/grub", "GRUB whose grub-mkconfig does not source /etc/default/grub.d" },
	{ "/boot/grub/grub.cfg", "GRUB without /etc/default/grub" },
	{ NULL, NULL },
};

/* Debian's grub-mkconfig sources /etc/default/grub.d/NAME.cfg; its text says so. */
static bool mkconfig_sources_dropins(struct nn_ctx *ctx, const char *mkconfig)
{
	char *text = NULL;
	bool yes;

	if (!mkconfig || read_opt(ctx, mkconfig, &text, NULL) || !text)
		return false;
	yes = strstr(text, "/default/grub.d/") != NULL;
	free(text);
	return yes;
}

int nn_bootloader_read(struct nn_ctx *ctx, const struct nn_boot_kernel *k, const struct nn_boot_record *rec,
		       struct nn_bootloader *bl)
{
	char *mkconfig = tool_find(ctx, "grub-mkconfig"), *grubby = tool_find(ctx, "grubby");
	char *kinstall = tool_find(ctx, "kernel-install");
	bool grub, gby, ki, entries = has_entries(ctx);
	struct nn_sb sb = NN_SB_INIT;
	int err = 0, n;
	size_t i;

	memset(bl, 0, sizeof(*bl));
	grub = exists(ctx, NN_GRUB_DEFAULT) && exists(ctx, NN_GRUB_CFG) && mkconfig_sources_dropins(ctx, mkconfig);
	gby = grubby && entries;
	ki = kinstall && !gby && (exists(ctx, NN_KERNEL_CMDLINE) || entries);
	n = grub + gby + ki;
	if (n > 1) {
		bl->kind = NN_BL_SEVERAL;
		nn_sb_puts(&sb, "several bootloaders are configured (");
		if (grub)
			nn_sb_printf(&sb, "GRUB: %s and %s", NN_GRUB_DEFAULT, NN_GRUB_CFG);
		if (gby)
			nn_sb_printf(&sb, "%sgrubby with loader entries", grub ? "; " : "");
		if (ki)
			nn_sb_printf(&sb, "%skernel-install: %s", grub || gby ? "; " : "",
				     exists(ctx, NN_KERNEL_CMDLINE) ? NN_KERNEL_CMDLINE : "loader entries");
		nn_sb_puts(&sb, "): which one boots is the firmware's choice, and nicnuma does not guess it");
	} else if (n == 0) {
		for (i = 0; unknown_markers[i].path && !exists(ctx, unknown_markers[i].path); i++)
			;
		if (unknown_markers[i].path) {
			bl->kind = NN_BL_UNKNOWN;
			nn_sb_printf(&sb, "%s (%s): nicnuma does not write this bootloader's configuration",
				     unknown_markers[i].path, unknown_markers[i].what);
		} else {
			bl->kind = NN_BL_NONE;
			nn_sb_printf(&sb, "no bootloader configuration found (looked for %s with %s and a "
				     "grub-mkconfig that sources %s, %s, loader entries under /boot, /efi or "
				     "/boot/efi with kernel-install or grubby)", NN_GRUB_DEFAULT, NN_GRUB_CFG,
				     NN_GRUB_DROPIN_DIR, NN_KERNEL_CMDLINE);
		}
	} else if (grub) {
		bl->kind = NN_BL_GRUB;
		bl->tool = tool_find(ctx, "update-grub");
		if (!bl->tool)
			bl->tool = strdup(mkconfig);
		nn_sb_printf(&sb, "GRUB (%s, %s)", NN_GRUB_DEFAULT, NN_GRUB_CFG);
		err = bl->tool ? read_grub(ctx, bl) : -ENOMEM;
	} else {
		bl->kind = gby ? NN_BL_GRUBBY : NN_BL_KERNEL_INSTALL;
		bl->tool = strdup(gby ? grubby : kinstall);
		nn_sb_printf(&sb, "%s (BLS loader entries)", gby ? "grubby" : "kernel-install");
		err = bl->tool ? read_bls(ctx, k, rec, bl) : -ENOMEM;
	}
	if (!err && nn_sb_steal(&sb, &bl->found))
		err = -ENOMEM;
	nn_sb_free(&sb);
	free(mkconfig);
	free(grubby);
	free(kinstall);
	if (!err && !bl->ours)
		bl->ours = strdup("");
	if (err || !bl->ours) {
		nn_bootloader_free(bl);
		return -ENOMEM;
	}
	return 0;
}

void nn_bootloader_free(struct nn_bootloader *bl)
{
	size_t i;

	free(bl->found);
	free(bl->file);
	free(bl->file_text);
	free(bl->generated);
	free(bl->tool);
	free(bl->next);
	free(bl->next_kernel);
	free(bl->ours);
	free(bl->problem);
	for (i = 0; i < bl->nsrc; i++) {
		free(bl->src[i].owner);
		free(bl->src[i].text);
	}
	free(bl->src);
	for (i = 0; i < bl->ngrub; i++) {
		free(bl->grub[i].path);
		free(bl->grub[i].text);
	}
	free(bl->grub);
	memset(bl, 0, sizeof(*bl));
}

int nn_boot_host_read(struct nn_ctx *ctx, struct nn_boot_host *b, bool loader)
{
	int err;

	memset(b, 0, sizeof(*b));
	err = nn_boot_kernel_read(ctx, &b->kernel);
	if (err || !loader)
		goto out;
	err = nn_boot_record_read(ctx, &b->record, b->record_why, sizeof(b->record_why));
	b->has_record = !err;
	if (err == -ENOENT)
		b->record_why[0] = '\0';
	else if (err && err != -ENOMEM)
		nn_warn(ctx, NN_BOOT_RECORD, "the boot record is not used: %s", b->record_why);
	err = err == -ENOMEM ? err : nn_bootloader_read(ctx, &b->kernel, b->has_record ? &b->record : NULL,
							&b->loader);
out:
	b->read = !err;
	if (err)
		nn_boot_host_free(b);
	return err;
}

void nn_boot_host_free(struct nn_boot_host *b)
{
	nn_boot_kernel_free(&b->kernel);
	nn_bootloader_free(&b->loader);
	nn_boot_record_free(&b->record);
	memset(b, 0, sizeof(*b));
}
