#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/demo.sh NICNUMA - scripts/demo leaves the host as it found it (suite 'live')
#
# The README's first command, run as a newcomer would, in a private mount
# namespace whose /etc, /usr and /var are overlays over the host's (upper
# layers in a tmpfs): whatever the demo creates there lands in the upper
# layers, so the check holds whether or not this host already has
# /etc/nicnuma or /var/lib/nicnuma, and the host's are never touched.
# Passes when the demo exits 0, nothing of etc/nicnuma or var/lib/nicnuma is
# in the upper layers, its temp dir is gone, and it said where the bench's
# undo log went. Its bench adds hugepages and gives them back (checked by
# scripts/test's host_state around the suite). Needs root and unshare; 77 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root"; exit 77; }
command -v unshare >/dev/null || { echo "skip: no unshare"; exit 77; }
o=$(mktemp -d /tmp/nicnuma-demo-test.XXXXXX) || exit 2
trap 'rm -rf "$o"' EXIT
demos_before=$(ls -d /tmp/nicnuma-demo.* 2>/dev/null)

mkdir "$o/ns" || exit 2
# inside: the overlays, the demo, then what it left in the upper layers
unshare -m --propagation private bash -c '
	o=$1 top=$2
	mount -t tmpfs -o mode=0700 nicnuma-demo "$o/ns" || exit 77
	for d in etc usr var; do
		mkdir "$o/ns/$d.up" "$o/ns/$d.work" &&
			mount -t overlay "nicnuma-demo-$d" -o "lowerdir=/$d,upperdir=$o/ns/$d.up,workdir=$o/ns/$d.work" "/$d" ||
			exit 77
	done
	"$top/scripts/demo" >"$o/demo.log" 2>&1 </dev/null
	echo "$?" >"$o/demo.rc"
	: >"$o/left"
	for p in etc.up/nicnuma var.up/lib/nicnuma; do
		if [ -e "$o/ns/$p" ]; then find "$o/ns/$p" >>"$o/left"; fi
	done' sh "$o" "$top"
rc=$?
[ "$rc" = 77 ] && { echo "skip: cannot build the overlays in a private mount namespace"; exit 77; }
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
drc=$(cat "$o/demo.rc" 2>/dev/null)
if [ "$drc" = 0 ]; then pass "scripts/demo exit 0"; else fail "scripts/demo exit ${drc:-?}"; tail -20 "$o/demo.log"; fi
if [ -s "$o/left" ]; then fail "it left on the host: $(sed "s|$o/ns/[a-z]*\.up|<host>|" "$o/left" | tr '\n' ' ')"
else pass "nothing left in /etc/nicnuma or /var/lib/nicnuma"; fi
demos_after=$(ls -d /tmp/nicnuma-demo.* 2>/dev/null)
[ "$demos_before" = "$demos_after" ] && pass "its temp dir removed" || fail "a temp dir left: $demos_after"
if grep -q "undo log and lock go to /tmp/nicnuma-demo\.[A-Za-z0-9]*/state" "$o/demo.log" ||
	grep -q "bench mismatch needs nicnuma-fwd" "$o/demo.log"; then
	pass "it says where the bench's undo log went"
else
	fail "no word of where the bench's undo log went"
fi
[ "$fails" -eq 0 ]
