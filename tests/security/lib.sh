# shellcheck shell=bash
# tests/security/lib.sh - the preamble the name and layout cases share:
# sec_init NAME NICNUMA builds a writable vm-virtio tree at $t (in $tmp,
# removed at exit) and sets nn, here, fail, ok(), bad().
sec_init() {
	nn=${2:?usage: $1.sh NICNUMA}
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	[ -x "$nn" ] || { echo "skip: $nn is not built" >&2; exit 77; }
	command -v python3 >/dev/null || { echo "skip: python3 builds the trees" >&2; exit 77; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT
	fail=0
	t=$tmp/t
	python3 "$here/fixtures/mkhost.py" build vm-virtio "$t" >/dev/null ||
		{ echo "mkhost.py failed" >&2; exit 2; }
}
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*" >&2; fail=1; }
