#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/strbuf_only_bites.sh SRCDIR - strbuf_only.py fails when
# hand-sized snprintf arithmetic is planted in a copy of nicnuma/core, naming
# the file, and passes the copy when the same words are only in comments and
# strings: the check can fail, and does not fail on prose.
set -uo pipefail

src=${1:?usage: strbuf_only_bites.sh SRCDIR}
check=$src/tests/arch/strbuf_only.py
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0

plant() {	# NAME LINE: expect strbuf_only.py to fail naming the planted file
	rm -rf "$tmp/nicnuma"
	mkdir -p "$tmp/nicnuma" && cp -r "$src/nicnuma/core" "$tmp/nicnuma/" || exit 2
	printf '%s\n' "$2" >>"$tmp/nicnuma/core/names.c"
	out=$(python3 "$check" "$tmp" 2>&1)
	rc=$?
	if [ "$1" = clean ]; then
		if [ "$rc" != 0 ]; then
			echo "FAIL: words in a comment or string made it fail ($rc): $2"
			echo "$out"
			fail=1
		else
			echo "ok: not caught in a comment or string: $2"
		fi
	elif [ "$rc" != 1 ] || ! grep -q "names.c:" <<<"$out"; then
		echo "FAIL: planted $1 not caught (exit $rc): $2"
		echo "$out"
		fail=1
	else
		echo "ok: planted $1 caught"
	fi
}

plant sum-cast 'static void x1(char *b, size_t s, size_t l) { l += (size_t)snprintf(b + l, s - l, "%d", 1); }'
plant sum 'static void x2(char *b, size_t s, int l) { l += snprintf(b, s, "%d", 1); }'
plant offset 'static void x3(char *b, size_t s, size_t l) { snprintf(b + l, s - l, "x"); }'
plant member 'static void x4(struct { char t[8]; } *v, size_t l) { snprintf(v->t + l, 8 - l, "x"); }'
plant element 'static void x5(char *b, size_t l) { snprintf(&b[l], 8, "x"); }'
plant vsnprintf 'static void x6(char *b, size_t l, va_list ap) { vsnprintf(b + l, 8, "%d", ap); }'
plant sprintf 'static void x7(char *p) { p += sprintf(p, "%d", 1); }'
plant clean '/* len += (size_t)snprintf(buf + len, size - len, ...) in a comment */'
plant clean 'static const char *x8 = "len += snprintf(buf + len, n)";'
plant clean '// snprintf(&buf[len], ...) in a line comment'
plant clean 'static void x9(char *b, size_t s, int n) { snprintf(b, s, "%d", n + 1); }'
[ "$fail" = 0 ] || exit 1
echo "ok: strbuf_only.py catches what is planted and passes comments, strings and whole-buffer snprintf"
