// SPDX-License-Identifier: GPL-2.0-or-later
/* coexist.c - find other owners of IRQ placement (rules in coexist.h) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/core/names.h"

/* Calls @fn for each "key = value" line of an INI-like text with its
 * section ("" before the first header); "[x]" lines call it with key NULL.
 * Comments: '#' and ';' at the start of a line. */
typedef void (*ini_fn)(void *arg, const char *sect, const char *key, const char *val);

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t\r");
	e = s + strlen(s);
	while (e > s && strchr(" \t\r", e[-1]))
		*--e = '\0';
	return s;
}

static int ini_walk(const char *text, size_t len, ini_fn fn, void *arg)
{
	char *buf = strndup(text, len), *line, *next, sect[64] = "";

	if (!buf)
		return -ENOMEM;
	for (line = buf; line; line = next) {
		char *eq;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line = trim(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			char *end = strchr(line, ']');

			if (end) {
				*end = '\0';
				snprintf(sect, sizeof(sect), "%s", line + 1);
				fn(arg, sect, NULL, NULL);
			}
			continue;
		}
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		fn(arg, sect, trim(line), trim(eq + 1));
	}
	free(buf);
	return 0;
}

struct tuned_scan {
	unsigned int sections;
	char *include;
	size_t inclen;
};

static void tuned_line(void *arg, const char *sect, const char *key, const char *val)
{
	struct tuned_scan *t = arg;

	if (!key) {
		t->sections |= !strcmp(sect, "irq") ? NN_TUNED_IRQ :
			       !strcmp(sect, "irqbalance") ? NN_TUNED_IRQBALANCE :
			       !strcmp(sect, "scheduler") ? NN_TUNED_SCHEDULER :
			       !strcmp(sect, "bootloader") ? NN_TUNED_BOOTLOADER : 0;
		return;
	}
	if (!strcmp(sect, "main") && !strcmp(key, "include") && t->inclen)
		snprintf(t->include, t->inclen, "%s", val);
}

unsigned int nn_tuned_conf_scan(const char *text, size_t len, char *include, size_t inclen)
{
	struct tuned_scan t = { 0, include, inclen };

	if (inclen)
		include[0] = '\0';
	ini_walk(text, len, tuned_line, &t);
	return t.sections;
}

/* One Match key: whitespace-separated globs, any may match; a leading '!'
 * negates the list (systemd.link(5)). @v NULL (fact unknown): no match. */
static bool glob_list(const char *list, const char *v, bool mac)
{
	char buf[1024], *tok, *save = NULL;
	bool neg = list[0] == '!', hit = false;

	snprintf(buf, sizeof(buf), "%s", list + neg);
	for (tok = strtok_r(buf, " \t", &save); tok && v; tok = strtok_r(NULL, " \t", &save))
		if (mac ? !strcasecmp(tok, v) : !fnmatch(tok, v, 0))
			hit = true;
	return neg ? !hit && v : hit;
}

struct link_scan {
	const struct nn_link_nic *nic;
	bool has_match, match;
	struct nn_sb keys;
};

static void link_line(void *arg, const char *sect, const char *key, const char *val)
{
	struct link_scan *l = arg;

	if (!key) {
		l->has_match |= !strcmp(sect, "Match");
		return;
	}
	if (!strcmp(sect, "Match")) {
		if (!strcmp(key, "OriginalName"))
			l->match &= glob_list(val, l->nic->name, false);
		else if (!strcmp(key, "Path"))
			l->match &= glob_list(val, l->nic->path, false);
		else if (!strcmp(key, "Driver"))
			l->match &= glob_list(val, l->nic->driver, false);
		else if (!strcmp(key, "MACAddress"))
			l->match &= glob_list(val, l->nic->mac, true);
		/* other keys (Type, Kind, Property, Host...): taken as matching */
		return;
	}
	if (!strcmp(sect, "Link") && *val &&
	    (!strncmp(key, "IRQAffinity", 11) || !strcmp(key, "ReceivePacketSteeringCPUMask")))
		nn_sb_printf(&l->keys, "%s%s=", l->keys.len ? "," : "", key);
}

int nn_link_file_scan(const char *text, size_t len, const struct nn_link_nic *nic, bool *match,
		      char *keys, size_t keyslen)
{
	struct link_scan l = { nic, false, true, NN_SB_INIT };
	int err = ini_walk(text, len, link_line, &l);

	if (!err)
		err = nn_sb_error(&l.keys);
	if (!err && !l.has_match)
		err = -ENOENT;
	*match = !err && l.match;
	snprintf(keys, keyslen, "%s", !err && l.keys.len ? l.keys.buf : "");
	nn_sb_free(&l.keys);
	return err;
}

/* The ban script apply's --irqbalance ban installs (irq/irqbalance.c). */
#define OUR_SCRIPT "irqbalance-ban.sh"

int nn_irqb_args_scan(const char *args, char *what, size_t whatlen)
{
	char buf[2048], *tok, *save = NULL;
	bool script_next = false;

	snprintf(buf, sizeof(buf), "%s", args);
	for (tok = strtok_r(buf, " \t\"'", &save); tok; tok = strtok_r(NULL, " \t\"'", &save)) {
		const char *script = NULL;

		if (script_next)
			script = tok;
		script_next = !strcmp(tok, "--policyscript") || !strcmp(tok, "-l");
		if (!strncmp(tok, "--policyscript=", 15))
			script = tok + 15;
		if (script && !strstr(script, OUR_SCRIPT)) {
			snprintf(what, whatlen, "runs policyscript %.200s", script);
			return 1;
		}
		if (!strncmp(tok, "--banirq", 8) || !strcmp(tok, "-i") || !strncmp(tok, "-i", 2)) {
			snprintf(what, whatlen, "bans IRQs (%.200s)", tok);
			return 1;
		}
	}
	return 0;
}

struct irqb_scan {
	int found;
	char *what;
	size_t whatlen;
};

static void irqb_line(void *arg, const char *sect, const char *key, const char *val)
{
	struct irqb_scan *s = arg;
	char v[1024];
	size_t n;

	if (!key || s->found)
		return;
	if (!strncmp(key, "export ", 7))
		key += 7;
	snprintf(v, sizeof(v), "%s", val);
	n = strlen(v);
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v[n - 1] = '\0';
		memmove(v, v + 1, n - 1);
	}
	if (!*v)
		return;
	if (!strcmp(key, "IRQBALANCE_BANNED_CPUS") || !strcmp(key, "IRQBALANCE_BANNED_CPULIST")) {
		snprintf(s->what, s->whatlen, "sets %s=%.100s", key, v);
		s->found = 1;
	} else if (!strcmp(key, "IRQBALANCE_ARGS") || !strcmp(key, "OPTIONS")) {
		s->found = nn_irqb_args_scan(v, s->what, s->whatlen);
	}
}

int nn_irqb_conf_scan(const char *text, size_t len, char *what, size_t whatlen)
{
	struct irqb_scan s = { 0, what, whatlen };

	what[0] = '\0';
	ini_walk(text, len, irqb_line, &s);
	return s.found;
}

static int add_owner(struct nn_coexist *c, enum nn_owner_kind kind, const char *name,
		     const char *file, const char *what)
{
	struct nn_owner *o;

	if (NN_GROW(c->v, c->n, c->cap))
		return -ENOMEM;
	o = &c->v[c->n];
	o->kind = kind;
	o->name = strdup(name);
	o->file = file ? strdup(file) : NULL;
	o->what = strdup(what);
	if (!o->name || (file && !o->file) || !o->what) {
		free(o->name);
		free(o->file);
		free(o->what);
		return -ENOMEM;
	}
	c->n++;
	return 0;
}

void nn_coexist_free(struct nn_coexist *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].file);
		free(c->v[i].what);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int nn_owner_text(const struct nn_owner *o, char **out)
{
	struct nn_sb sb = NN_SB_INIT;

	nn_sb_escape(&sb, o->name);
	if (o->file) {
		nn_sb_puts(&sb, " (");
		nn_sb_escape(&sb, o->file);
		nn_sb_puts(&sb, ")");
	}
	nn_sb_puts(&sb, " ");
	nn_sb_escape(&sb, o->what);
	return nn_sb_steal(&sb, out);
}

/* tuned.conf of profile @p: the first that exists; path in @file. */
static int tuned_profile(struct nn_ctx *ctx, const char *p, char **text, size_t *len,
			 char *file, size_t filelen)
{
	static const char *const dirs[] = { "/etc/tuned", "/usr/lib/tuned", "/usr/lib/tuned/profiles" };
	size_t i;
	int err = -ENOENT;

	if (!*p || strlen(p) > 100 || strchr(p, '/') || !strcmp(p, "..") || !strcmp(p, "."))
		return -EINVAL;	/* not one path component */
	for (i = 0; i < 3 && err == -ENOENT; i++) {
		snprintf(file, filelen, "%s/%s/tuned.conf", dirs[i], p);
		err = nn_read_file(&ctx->root, file, text, len);
	}
	return err;
}

static int tuned_check(struct nn_ctx *ctx, const char *p, int depth, const char *top,
		       unsigned int flags, struct nn_coexist *c)
{
	char file[512], inc[128], name[300], what[160], *text = NULL, *tok, *save = NULL;
	unsigned int s;
	size_t len;
	int err;

	snprintf(name, sizeof(name), "tuned profile '%s'", top);
	if (!strcmp(p, "cpu-partitioning"))
		return add_owner(c, NN_OWNER_TUNED, name, NULL,
				 depth ? "includes cpu-partitioning" : "is cpu-partitioning");
	err = tuned_profile(ctx, p, &text, &len, file, sizeof(file));
	if (err)
		return err == -ENOMEM ? err : 0;	/* a profile we cannot read: not ours to judge */
	s = nn_tuned_conf_scan(text, len, inc, sizeof(inc));
	free(text);
	/* [bootloader]: the kernel's command line, an owner only where nicnuma writes it too */
	if (!(flags & NN_COEXIST_BOOT))
		s &= ~NN_TUNED_BOOTLOADER;
	if (s) {
		snprintf(what, sizeof(what), "sets%s%s%s%s", s & NN_TUNED_IRQ ? " [irq]" : "",
			 s & NN_TUNED_IRQBALANCE ? " [irqbalance]" : "",
			 s & NN_TUNED_SCHEDULER ? " [scheduler]" : "",
			 s & NN_TUNED_BOOTLOADER ? " [bootloader] (the kernel's command line)" : "");
		return add_owner(c, NN_OWNER_TUNED, name, file, what);
	}
	if (depth)
		return 0;
	for (tok = strtok_r(inc, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		err = tuned_check(ctx, tok, 1, top, flags, c);
		if (err)
			return err;
	}
	return 0;
}

static int scan_tuned(struct nn_ctx *ctx, unsigned int flags, struct nn_coexist *c)
{
	char active[256], *tok, *save = NULL;
	int err = nn_read_str(&ctx->root, "/etc/tuned/active_profile", active, sizeof(active));

	if (err)
		return err == -ENOMEM ? err : 0;
	for (tok = strtok_r(active, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		err = tuned_check(ctx, tok, 0, tok, flags, c);
		if (err)
			return err;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* .link names in systemd's order: earlier directories mask later ones of the
 * same name; then sorted by name. Each entry is "NAME\0DIR". */
static int link_files(struct nn_ctx *ctx, char ***out, size_t *n)
{
	static const char *const dirs[] = { "/etc/systemd/network", "/run/systemd/network",
					    "/usr/local/lib/systemd/network",
					    "/usr/lib/systemd/network", "/lib/systemd/network" };
	size_t i, k, cap = 0;
	char **v = NULL;
	int err = 0;

	*n = 0;
	for (i = 0; i < 5 && !err; i++) {
		struct dirent *de;
		DIR *d;

		if (nn_root_opendir(&ctx->root, dirs[i], &d))
			continue;
		while ((de = readdir(d)) && !err) {
			size_t l = strlen(de->d_name);
			bool dup = false;
			char *e;

			if (l < 6 || strcmp(de->d_name + l - 5, ".link") || de->d_name[0] == '.')
				continue;
			for (k = 0; k < *n; k++)
				dup |= !strcmp(v[k], de->d_name);
			if (dup)
				continue;
			if (NN_GROW(v, *n, cap) || asprintf(&e, "%s%c%s", de->d_name, 0, dirs[i]) < 0) {
				err = -ENOMEM;
				break;
			}
			v[(*n)++] = e;
		}
		closedir(d);
	}
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	*out = v;
	return err;
}

static int scan_links(struct nn_ctx *ctx, const struct nn_host *host, char *const *nics,
		      size_t nnics, struct nn_coexist *c)
{
	char **files = NULL, **texts = NULL;
	size_t nf = 0, i, k, *lens = NULL;
	bool *read_ok = NULL;
	int err = link_files(ctx, &files, &nf);

	/* Each file is read once, when a NIC first gets to it, not once per NIC
	 * (99-default.link matches every NIC, so every NIC gets to it). */
	if (!err && nf) {
		texts = calloc(nf, sizeof(*texts));
		lens = calloc(nf, sizeof(*lens));
		read_ok = calloc(nf, sizeof(*read_ok));
		if (!texts || !lens || !read_ok)
			err = -ENOMEM;
	}
	for (i = 0; i < host->nnics && !err; i++) {
		const struct nn_nic *nic = &host->nics[i];
		char mac[64] = "", path[64], p[600];
		struct nn_link_nic ln = { nic->name, NULL, NULL, nic->driver };
		bool want = !nics;

		for (k = 0; k < nnics && nics; k++)
			want |= !strcmp(nics[k], nic->name);
		if (!want)
			continue;
		snprintf(p, sizeof(p), "/sys/class/net/%s/address", nic->name);
		if (!nn_read_str(&ctx->root, p, mac, sizeof(mac)))
			ln.mac = mac;
		if (nic->pci) {
			snprintf(path, sizeof(path), "pci-%s", nic->pci);
			ln.path = path;
		}
		for (k = 0; k < nf && !err; k++) {
			const char *dir = files[k] + strlen(files[k]) + 1;
			char keys[256], name[400], what[300];
			bool match;
			int r;

			snprintf(p, sizeof(p), "%s/%s", dir, files[k]);
			if (!texts[k] && !read_ok[k]) {
				read_ok[k] = true;	/* tried: an unreadable file stays skipped */
				if (nn_read_file(&ctx->root, p, &texts[k], &lens[k]))
					texts[k] = NULL;
			}
			if (!texts[k])
				continue;
			r = nn_link_file_scan(texts[k], lens[k], &ln, &match, keys, sizeof(keys));
			if (r == -ENOMEM)
				err = r;
			if (r || !match)
				continue;
			/* systemd applies only the first matching file */
			if (*keys) {
				snprintf(name, sizeof(name), "systemd link file '%s' for %s",
					 files[k], nic->name);
				snprintf(what, sizeof(what), "sets %s", keys);
				err = add_owner(c, NN_OWNER_LINK, name, p, what);
			}
			break;
		}
	}
	for (i = 0; i < nf; i++) {
		free(files[i]);
		if (texts)
			free(texts[i]);
	}
	free(files);
	free(texts);
	free(lens);
	free(read_ok);
	return err;
}

static int scan_irqbalance(struct nn_ctx *ctx, const struct nn_host *host, struct nn_coexist *c)
{
	static const char *const files[] = { "/etc/default/irqbalance", "/etc/sysconfig/irqbalance" };
	char what[256], *text;
	size_t i, len;
	int err;

	for (i = 0; i < 2; i++) {
		if (nn_read_file(&ctx->root, files[i], &text, &len))
			continue;
		err = nn_irqb_conf_scan(text, len, what, sizeof(what));
		free(text);
		if (err > 0 && (err = add_owner(c, NN_OWNER_IRQBALANCE, "irqbalance", files[i], what)))
			return err;
	}
	if (host->irqbalance.running && host->irqbalance.cmdline &&
	    nn_irqb_args_scan(host->irqbalance.cmdline, what, sizeof(what)) > 0) {
		char name[64];

		snprintf(name, sizeof(name), "irqbalance (pid %d)", host->irqbalance.pid);
		return add_owner(c, NN_OWNER_IRQBALANCE, name, NULL, what);
	}
	return 0;
}

int nn_coexist_scan(struct nn_ctx *ctx, const struct nn_host *host, char *const *nics,
		    size_t nnics, unsigned int flags, struct nn_coexist *out)
{
	int err, holder = 0;

	memset(out, 0, sizeof(*out));
	err = scan_tuned(ctx, flags, out);
	if (!err)
		err = scan_links(ctx, host, nics, nnics, out);
	if (!err)
		err = scan_irqbalance(ctx, host, out);
	if (!err && !(flags & NN_COEXIST_NO_WATCHER) && nn_watch_lock_held(ctx, &holder) > 0) {
		char what[64];

		snprintf(what, sizeof(what), "is running (pid %d)", holder);
		err = add_owner(out, NN_OWNER_WATCHER, "nicnuma watch",
				NN_WATCH_RUNDIR "/watch.lock", what);
	}
	if (err)
		nn_coexist_free(out);
	return err;
}

/* Read-only: the lock is taken by the watcher (service/watch.c, nn_watch_lock);
 * here it is only looked at. */
static int lock_open(struct nn_ctx *ctx)
{
	struct stat st;
	int dfd, fd;

	dfd = nn_root_openat(&ctx->root, NN_WATCH_RUNDIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, "watch.lock", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		fd = -errno;
	close(dfd);
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

struct lock_q {
	unsigned int maj, min;
	unsigned long long ino;
	int pid;
};

/* One line of /proc/locks: "3: FLOCK  ADVISORY  WRITE 31386 fe:00:1073426 0 EOF";
 * a waiter's line ("3: -> FLOCK ...") holds nothing. */
static int locks_line(void *arg, const char *p, const char *end)
{
	struct lock_q *q = arg;
	char line[256], kind[16], mode[16], rw[16];
	unsigned long long ino;
	unsigned int maj, min;
	int pid;

	if ((size_t)(end - p) >= sizeof(line))
		return 0;
	memcpy(line, p, (size_t)(end - p));
	line[end - p] = '\0';
	if (strstr(line, "->"))
		return 0;
	if (sscanf(line, "%*d: %15s %15s %15s %d %x:%x:%llu", kind, mode, rw, &pid, &maj, &min, &ino) != 7)
		return 0;
	if (strcmp(kind, "FLOCK") || pid <= 0 || maj != q->maj || min != q->min || ino != q->ino)
		return 0;
	q->pid = pid;
	return 1;
}

int nn_watch_lock_holder(int fd)
{
	struct lock_q q = { 0 };
	struct nn_root live;
	struct stat st;
	char buf[32];
	ssize_t n;
	long pid;

	/* The kernel's lock table names the process that holds the flock on
	 * this very file, whoever it is. It is this kernel's table whatever
	 * --root names (the fd is open here), so it is read from the live
	 * root; without it (no procfs), the pid the holder wrote. */
	if (fstat(fd, &st) == 0 && nn_root_open(&live, "/") == 0) {
		q.maj = major(st.st_dev);
		q.min = minor(st.st_dev);
		q.ino = (unsigned long long)st.st_ino;
		nn_read_lines(&live, "/proc/locks", locks_line, &q);
		nn_root_close(&live);
		if (q.pid > 0)
			return q.pid;
	}
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return nn_parse_long(buf, &pid) || pid <= 0 || pid > 0x7fffffff ? 0 : (int)pid;
}

int nn_watch_lock_held(struct nn_ctx *ctx, int *holder)
{
	int fd = lock_open(ctx), ret = 0;

	if (holder)
		*holder = 0;
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_SH | LOCK_NB) < 0) {
		ret = errno == EWOULDBLOCK ? 1 : -errno;
		if (ret == 1 && holder)
			*holder = nn_watch_lock_holder(fd);
	} else {
		flock(fd, LOCK_UN);
	}
	close(fd);
	return ret;
}

int nn_coexist_gate(struct nn_ctx *ctx, const struct nn_host *host, char *const *nics,
		    size_t nnics, unsigned int flags, bool allow)
{
	struct nn_coexist c;
	size_t i;
	int err = nn_coexist_scan(ctx, host, nics, nnics, flags, &c);

	if (err) {
		nn_err(ctx, "cannot look for other IRQ owners: %s", strerror(-err));
		return err;
	}
	for (i = 0; i < c.n; i++) {
		char *t = NULL;

		if (nn_owner_text(&c.v[i], &t)) {
			err = -ENOMEM;
			break;
		}
		if (allow)
			nn_warn(ctx, c.v[i].file, "another owner of IRQ placement: %s", t);
		else
			nn_err(ctx, "refusing: %s", t);
		free(t);
	}
	if (!err && c.n && !allow) {
		nn_err(ctx, "another owner would rewrite the placement; remove it, or pass "
		       "--coexist to go on anyway");
		err = -EBUSY;
	}
	nn_coexist_free(&c);
	return err;
}
