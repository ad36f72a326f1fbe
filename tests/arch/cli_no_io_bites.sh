#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/cli_no_io_bites.sh SRCDIR - cli_no_io.sh fails when a file system
# call, an undo log call, the state lock or a transaction (nn_tx*) is planted in a copy of
# nicnuma/cli, and passes the copy when the same words are only in comments
# and strings: the check can fail, and does not fail on help text.
set -uo pipefail

src=${1:?usage: cli_no_io_bites.sh SRCDIR}
check=$src/tests/arch/cli_no_io.sh
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0

plant() {	# NAME LINE: expect cli_no_io.sh to fail naming the planted file
	rm -rf "$tmp/nicnuma"
	mkdir -p "$tmp/nicnuma" && cp -r "$src/nicnuma/cli" "$tmp/nicnuma/" || exit 2
	printf '%s\n' "$2" >>"$tmp/nicnuma/cli/cmd_status.c"
	out=$(bash "$check" "$tmp" 2>&1)
	rc=$?
	if [ "$1" = clean ]; then
		if [ "$rc" != 0 ]; then
			echo "FAIL: words in a comment or string made it fail ($rc): $2"
			echo "$out"
			fail=1
		else
			echo "ok: not caught in a comment or string: $2"
		fi
	elif [ "$rc" != 1 ] || ! grep -q "cmd_status.c:" <<<"$out"; then
		echo "FAIL: planted $1 not caught (exit $rc): $2"
		echo "$out"
		fail=1
	else
		echo "ok: planted $1 caught"
	fi
}

plant open 'static int x1(void) { return open("f", 0); }'
plant openat 'static int x2(int d) { return openat(d, "f", 0); }'
plant rename 'static int x3(void) { return rename("a", "b"); }'
plant unlinkat 'static int x4(int d) { return unlinkat(d, "a", 0); }'
plant mkdir 'static int x5(void) { return mkdir("d", 0700); }'
plant fopen 'static void *x6(void) { return fopen("f", "r"); }'
plant stat 'static int x7(struct stat *s) { return stat("f", s); }'
plant lstat 'static int x8(struct stat *s) { return lstat ("f", s); }'
plant fstatat 'static int x9(struct stat *s) { return fstatat(0, "f", s, 0); }'
plant undo 'static void x10(struct nn_undo *u) { nn_undo_free(u); }'
plant lock 'static int x11(struct nn_ctx *c) { return nn_state_lock(c); }'
plant unlock 'static void x12(void) { nn_state_unlock(-1); }'
plant tx_begin 'static int x14(struct nn_ctx *c, void *t) { return nn_tx_begin(c, t, "x"); }'
plant tx_type 'static void x15(void) { struct nn_tx t; (void)t; }'
plant tx_init 'static int x16 = NN_TX_INIT;'
plant tx_end 'static void x17(void *t) { nn_tx_end (t); }'
plant clean '/* nn_tx_begin(), struct nn_tx and NN_TX_INIT in a comment */'
plant clean 'static const char *x18 = "nn_tx_lock( NN_TX_INIT";'
plant clean '/* open(2), rename(2), stat(), nn_undo_load() and nn_state_lock() in a comment */'
plant clean 'static const char *x13 = "open( rename( mkdir( nn_state_lock(";'
plant clean '// unlink(tmp) in a line comment'
[ "$fail" = 0 ] || exit 1
echo "ok: cli_no_io.sh catches what is planted and passes comments and strings"
