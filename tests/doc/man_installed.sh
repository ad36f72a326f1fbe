#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/doc/man_installed.sh [SRCDIR] - every man page in man/ is shipped by
# one of the Debian packages (debian/*.install), so a new command's page is
# not found missing only by dh_missing in a two-minute package build.
set -uo pipefail

src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src" || exit 2
fail=0 n=0
for scd in man/*.scd; do
	page=$(basename "$scd" .scd)			# nicnuma-plan.8
	sec=${page##*.}
	n=$((n + 1))
	if ! grep -qxF "usr/share/man/man$sec/$page" debian/*.install; then
		echo "FAIL: $scd: usr/share/man/man$sec/$page is in no debian/*.install"
		fail=1
	fi
done
[ "$fail" = 0 ] || exit 1
echo "ok: all $n man pages are shipped by a package"
