#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/persist/watch_notes.sh NICNUMA MKHOST - the watcher's warnings and
# notes go through the one printing layer (issue 26.7): on the mlx5-sf shape,
# whose discovery notes a sub-function, `watch --once` prints that note as
# "nicnuma-watch: note: ..." after its action line, where it used to print
# its warnings by hand and drop the notes. A fake root: nothing live.
set -uo pipefail
nn=${1:?usage: watch_notes.sh NICNUMA MKHOST} mkhost=${2:?usage: watch_notes.sh NICNUMA MKHOST}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nn-watch-notes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
R=$tmp/root
python3 "$mkhost" build mlx5-sf "$R" >/dev/null || fail "mkhost.py build mlx5-sf"
"$nn" --root "$R" enable --nics ens3f0np0 >"$tmp/out" 2>&1 || fail "enable: $(cat "$tmp/out")"
"$nn" --root "$R" watch --once 2>"$tmp/err" || fail "watch --once: $(cat "$tmp/err")"
grep -q '^nicnuma-watch: note: /sys/class/net/ens3f0npf0sf88/device: ens3f0npf0sf88 is a sub-function' "$tmp/err" ||
	fail "watch --once printed no note for the sub-function: $(cat "$tmp/err")"
echo "ok: watch --once prints discovery's note through the printing layer"
