#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/cli_no_io.sh [SRCDIR] - the command folder (nicnuma/cli/*.c)
# only parses options and prints: no file of it may name a /sys or /proc path
# (a string literal that is a path: no spaces, so help text that mentions
# /proc/PID/status passes) nor call an fs-root reader or writer, a file
# system call (open, rename, unlink, mkdir, stat and their *at forms, fopen,
# access, opendir, realpath and the like)
# or the state layer's lock, undo log or transaction (nicnuma/state/tx.h:
# act/ owns every transaction, the domain libraries hold the writes). Comments and string literals do not count. Reading and writing the
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
# The code with comments and string literals blanked (line numbers kept).
strip() {
	python3 - "$@" <<'PY'
import re, sys
tok = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
for path in sys.argv[1:]:
    text = open(path, encoding='utf-8').read()
    code = tok.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)) if m.group(0)[0] == '/'
                   else '""', text)
    for no, line in enumerate(code.split('\n'), 1):
        print(f'{path}:{no}:{line}')
PY
}
calls='open|openat|creat|fopen|fdopen|rename|renameat|unlink|unlinkat|remove|rmdir|mkdir|mkdirat|'
calls+='stat|lstat|fstat|fstatat|statx|access|faccessat|opendir|realpath|readlink|readlinkat|'
calls+='symlink|symlinkat|link|linkat|chmod|fchmod|chown|truncate|mkstemp'
code=$(strip "$cli"/*.c) || { echo "error: cannot strip comments from $cli/*.c" >&2; exit 2; }
if grep -E "^[^:]*:[0-9]+:.*(^|[^[:alnum:]_.>])($calls)[[:space:]]*\(" <<<"$code"; then
	echo "FAIL: a file system call in nicnuma/cli (above): move it into act/ or the library" >&2
	fail=1
fi
if grep -E "^[^:]*:[0-9]+:.*(^|[^[:alnum:]_])(nn_undo_[[:alnum:]_]+|nn_state_lock|nn_state_unlock|nn_state_dir_open)[[:space:]]*\(" <<<"$code"; then
	echo "FAIL: the undo log or the state lock used in nicnuma/cli (above): use the transaction (nicnuma/state/tx.h)" >&2
	fail=1
fi
# The transaction itself is act/'s: a command parses, calls one act/ entry
# and prints (issue 26.5), so no nn_tx* function, type or NN_TX_* in cli/.
if grep -E "^[^:]*:[0-9]+:.*(^|[^[:alnum:]_])(nn_tx[[:alnum:]_]*|NN_TX_[[:alnum:]_]+)([^[:alnum:]_]|$)" <<<"$code"; then
	echo "FAIL: a transaction (nn_tx*, NN_TX_*) in nicnuma/cli (above): the act/ entry of the command owns it" >&2
	fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "ok: nicnuma/cli does no /sys or /proc I/O, no file system calls, no lock, undo log or transaction of its own"
