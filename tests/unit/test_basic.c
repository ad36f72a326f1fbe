// SPDX-License-Identifier: GPL-2.0-or-later
/* test_basic.c - the basic layer: string builder, quoting, atomic write, mkdir -p */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/jsondoc.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/utc.h"
#include "tmptree.h"

static void test_sb_grows(void **state)
{
	struct nn_sb sb = NN_SB_INIT;
	char *out;
	int i;

	(void)state;
	assert_string_equal(nn_sb_str(&sb), "");
	/* Far past any first guess at a size: the old estimated buffers' bug. */
	for (i = 0; i < 10000; i++)
		nn_sb_printf(&sb, "%d,", i);
	assert_int_equal(nn_sb_error(&sb), 0);
	assert_int_equal(sb.len, strlen(sb.buf));
	assert_memory_equal(sb.buf, "0,1,2,", 6);
	assert_int_equal(nn_sb_steal(&sb, &out), 0);
	assert_null(sb.buf);
	assert_contains(out, ",9999,");
	free(out);
	assert_int_equal(nn_sb_steal(&sb, &out), 0);
	assert_string_equal(out, "");
	free(out);
}

static void test_sb_sticky(void **state)
{
	struct nn_sb sb = NN_SB_INIT;
	char *out = (char *)1;

	(void)state;
	nn_sb_puts(&sb, "a");
	sb.err = -ENOMEM;	/* as a failed realloc leaves it */
	nn_sb_puts(&sb, "b");
	nn_sb_printf(&sb, "%s", "c");
	assert_int_equal(sb.len, 1);
	assert_null(nn_sb_str(&sb));
	assert_int_equal(nn_sb_steal(&sb, &out), -ENOMEM);
	assert_null(out);
	assert_null(sb.buf);
}

static void test_shquote(void **state)
{
	char *q;

	(void)state;
	q = nn_shquote("it's $(rm -rf /);`x`\n");
	assert_string_equal(q, "'it'\\''s $(rm -rf /);`x`\n'");
	free(q);
	q = nn_shquote("");
	assert_string_equal(q, "''");
	free(q);
}

static void test_escape(void **state)
{
	struct nn_sb sb = NN_SB_INIT;

	(void)state;
	nn_sb_escape(&sb, "eth0\x1b[2J\\\x7f\xc3\xa9 ok");
	assert_string_equal(nn_sb_str(&sb), "eth0\\x1b[2J\\\\\\x7f\\xc3\\xa9 ok");
	nn_sb_free(&sb);
}

static int tmpdir(char *buf, size_t size)
{
	const char *t = getenv("TMPDIR");

	snprintf(buf, size, "%s/nn-basic-XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(buf) ? 0 : -errno;
}

static void test_atomic_write(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], buf[64];
	struct stat st;
	mode_t old = umask(0077);
	int dfd, fd;
	ssize_t n;

	(void)state;
	assert_int_equal(tmpdir(dir, sizeof(dir)), 0);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(nn_write_atomic_at(dfd, "f", "one", 3, 0644), 0);
	assert_int_equal(nn_write_atomic_at(dfd, "f", "second", 6, 0644), 0);
	snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);	/* explicit, umask ignored */
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_int_equal(n, 6);
	assert_memory_equal(buf, "second", 6);
	assert_int_equal(nn_write_atomic_at(dfd, "a/b", "x", 1, 0600), -EINVAL);
	/* The volatile variant (/run: no fsync) replaces the same way. */
	assert_int_equal(nn_write_atomic_flags_at(dfd, "f", "third!", 6, 0600, NN_WRITE_VOLATILE), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_int_equal(n, 6);
	assert_memory_equal(buf, "third!", 6);
	assert_int_equal(nn_write_atomic_flags_at(dfd, "a/b", "x", 1, 0600, NN_WRITE_VOLATILE), -EINVAL);
	/* Only "f" is left: no temp files. */
	{
		char cmd[PATH_MAX + 64];
		FILE *p;

		snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
		p = popen(cmd, "r");
		assert_non_null(fgets(buf, sizeof(buf), p));
		pclose(p);
		assert_int_equal(atoi(buf), 1);
	}
	unlink(path);
	close(dfd);
	rmdir(dir);
	umask(old);
}

/* nn_write_atomic_path() never renames over what is not a regular file:
 * "-o /dev/null" once left a regular file where the device was. */
static void test_atomic_path_not_regular(void **state)
{
	char dir[PATH_MAX], fifo[PATH_MAX + 16], link[PATH_MAX + 16], file[PATH_MAX + 16];
	struct stat st;

	(void)state;
	assert_int_equal(tmpdir(dir, sizeof(dir)), 0);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(file, sizeof(file), "%s/file", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(nn_write_atomic_path(file, "x", 1, 0644), 0);
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(nn_write_atomic_path(fifo, "x", 1, 0644), -ENOTSUP);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(nn_write_atomic_path(link, "y", 1, 0644), -ENOTSUP);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(nn_write_atomic_path(dir, "y", 1, 0644), -EISDIR);
	assert_non_null(strstr(nn_output_strerror(-ENOTSUP), "not a regular file"));
	/* a regular file is still replaced */
	assert_int_equal(nn_write_atomic_path(file, "zz", 2, 0644), 0);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_size, 2);
	unlink(fifo);
	unlink(link);
	unlink(file);
	rmdir(dir);
}

/* One JSON document: blanks after it, never a NUL or more text (the undo
 * log's and the claim records' old copies took a trailing NUL for a blank). */
static void test_json_doc(void **state)
{
	struct nn_json_doc_err e;
	struct json_object *d;

	(void)state;
	d = nn_json_doc_parse("{\"a\":1} \n", 9, 0, 0, &e);
	assert_non_null(d);
	assert_int_equal(e.at, 9);
	json_object_put(d);
	assert_null(nn_json_doc_parse("{}\0", 3, 0, 0, &e));
	assert_int_equal(e.error, json_tokener_success);
	assert_int_equal(e.at, 2);
	assert_string_equal(nn_json_doc_strerror(&e), "text after the document");
	assert_null(nn_json_doc_parse("{} {}", 5, 0, 0, &e));
	assert_null(nn_json_doc_parse("{\"a\":", 5, 0, 0, &e));
	assert_int_equal(e.error, json_tokener_continue);
	assert_null(nn_json_doc_parse("", 0, 0, 0, &e));
	assert_null(nn_json_doc_parse("[[[[1]]]]", 9, 3, 0, &e));
	assert_int_equal(e.error, json_tokener_error_depth);
	assert_null(nn_json_doc_parse("{\"a\":\"\xff\"}", 8, 0, JSON_TOKENER_VALIDATE_UTF8, &e));
	assert_false(e.nomem);
}

static void test_mkdir_p(void **state)
{
	char dir[PATH_MAX], p[PATH_MAX + 64];
	struct stat st;
	mode_t old = umask(0);
	int dfd, fd;

	(void)state;
	assert_int_equal(tmpdir(dir, sizeof(dir)), 0);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	fd = nn_mkdirat_p(dfd, "/a//b/./c/", 0700);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/a/b/c", dir);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	/* Again: exists is fine. */
	fd = nn_mkdirat_p(dfd, "a/b/c", 0700);
	assert_true(fd >= 0);
	close(fd);
	/* A symlink on the way is refused, not followed. */
	snprintf(p, sizeof(p), "%s/link", dir);
	assert_int_equal(symlink("/tmp", p), 0);
	fd = nn_mkdirat_p(dfd, "link/x", 0700);
	assert_int_equal(fd, -ELOOP);
	assert_int_equal(nn_mkdirat_p(dfd, "a/../x", 0700), -EINVAL);
	assert_int_equal(nn_mkdirat_walk(dfd, "link", 0700, 0), -ELOOP);
	/* Without NN_MKDIR_PARENTS only the last component is made. */
	assert_int_equal(nn_mkdirat_walk(dfd, "m/n", 0700, 0), -ENOENT);
	snprintf(p, sizeof(p), "%s/m", dir);
	assert_int_equal(access(p, F_OK), -1);
	/* NN_MKDIR_DOTDOT walks "..", NN_MKDIR_UMASK keeps the umask's bits off;
	 * without it the mode is set whatever the umask. */
	umask(077);
	fd = nn_mkdirat_walk(dfd, "a/../u", 0755, NN_MKDIR_DOTDOT | NN_MKDIR_UMASK);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/u", dir);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	fd = nn_mkdirat_walk(dfd, "v", 0755, 0);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/v", dir);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	umask(0);
	snprintf(p, sizeof(p), "%s/link", dir);
	unlink(p);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	close(dfd);
	umask(old);
}

static void test_grow(void **state)
{
	int *a = NULL;
	size_t n, cap = 0, reallocs = 0, last = 0;

	(void)state;
	for (n = 0; n < 100000; n++) {
		assert_int_equal(NN_GROW(a, n, cap), 0);
		a[n] = (int)n;
		if (cap != last)
			reallocs++, last = cap;
	}
	assert_true(reallocs < 20);	/* doubling, not one by one */
	assert_int_equal(a[99999], 99999);
	free(a);
}

/* nn_utc_stamp against glibc's gmtime_r + strftime: the epoch, leap days,
 * century years (2100 is no leap year, 2000 and 2400 are), the 2038 edge,
 * before 1970, and 200,000 pseudo-random instants over 1900..2500. */
static void utc_stamps(void **state)
{
	static const long long edge[] = {
		0, -1, 59, 86399, 86400, -86400, 951782399, 951782400, 951868800,
		2147483647, 2147483648LL, 4107542399LL, 4107542400LL, 4107628800LL,
		13574563200LL, 13574649600LL, -2208988800LL, 1796256000LL,
	};
	unsigned long long seed = 0x9e3779b97f4a7c15ULL;
	char got[32], want[32], gotc[32], wantc[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]) + 200000; i++) {
		time_t t;
		struct tm tm;

		if (i < sizeof(edge) / sizeof(edge[0])) {
			t = (time_t)edge[i];
		} else {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			t = (time_t)(-2208988800LL + (long long)(seed % 18934214400ULL));	/* 1900..2500 */
		}
		assert_non_null(gmtime_r(&t, &tm));
		strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", &tm);
		strftime(wantc, sizeof(wantc), "%Y%m%dT%H%M%S", &tm);
		nn_utc_stamp(got, sizeof(got), t, false);
		nn_utc_stamp(gotc, sizeof(gotc), t, true);
		if (strcmp(got, want) || strcmp(gotc, wantc))
			fail_msg("%lld: %s / %s, want %s / %s", (long long)t, got, gotc, want, wantc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sb_grows),
		cmocka_unit_test(test_sb_sticky),
		cmocka_unit_test(test_shquote),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test(test_atomic_path_not_regular),
		cmocka_unit_test(test_json_doc),
		cmocka_unit_test(test_mkdir_p),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(utc_stamps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
