#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/cli_no_io.sh [SRCDIR] - the command folder (nicnuma/cli/*.c)
# only parses options and prints: no file of it may name a /sys or /proc path
# (a string literal that is a path: no spaces, so help text that mentions
# /proc/PID/status passes) nor call an fs-root reader or writer. Reading the
# host is the library's job, where it is tested on fixture trees.
set -uo pipefail

src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cli=$src/nicnuma/cli
[ -d "$cli" ] || { echo "error: no $cli" >&2; exit 2; }

readers='nn_read_file|nn_read_lines|nn_read_str|nn_read_long|nn_read_cpulist|nn_read_cpumask'
readers+='|nn_root_openat|nn_root_opendir|nn_root_readlink|nn_root_access|nn_root_realpath'
readers+='|nn_root_open_value|nn_root_value_written|nn_root_view_open|nn_write_str'
fail=0
# a path literal: "/sys..." or "/proc..." up to the closing quote, no blank
if grep -nE '"/(sys|proc)(/[^" \\,]*)?"' "$cli"/*.c; then
	echo "FAIL: a /sys or /proc path in nicnuma/cli (above): move the read into the library" >&2
	fail=1
fi
if grep -nwE "($readers)[[:space:]]*\(" "$cli"/*.c; then
	echo "FAIL: an fs-root reader called in nicnuma/cli (above): move it into the library" >&2
	fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "ok: nicnuma/cli does no /sys or /proc I/O"
