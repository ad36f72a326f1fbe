#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/layout/verify_units.sh NICNUMA - the units nicnuma layout writes are
# accepted by systemd itself (suite fixture).
#
# Generates units on hand-built host shapes (mkhost.py) with a hostile --exec
# (spaces, quotes, backslashes, %, $, ;) in both binding modes, then runs
# `systemd-analyze verify` on the template and on every instance (which loads
# its drop-in); any message at all is a failure, since systemd only warns about
# unknown keys and bad values. The parsed command line is read back from the
# unit dump (SYSTEMD_LOG_LEVEL=debug) and compared word by word, so quoting
# must round-trip. Also: overwrite protection and rewriting our own files.
# Exit 77 when systemd-analyze is missing.
set -uo pipefail

nicnuma=${1:?usage: $0 NICNUMA}
here=$(cd "$(dirname "$0")/.." && pwd)
command -v systemd-analyze >/dev/null || { echo "skip: systemd-analyze not installed (Debian package systemd)" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layout-verify.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }

# What the user typed; the words it must become.
exec_line="/usr/bin/printf '%s|%s\n' 'a b' \"it's\" '\$HOME' 100% x\\;y 'back\\slash' '\"q\"' ''"
want_words=("%s|%s\\n" "a b" "it's" "\$HOME" "100%" "x;y" "back\\slash" "\"q\"" "")

verify_dir() {
	local dir=$1 label=$2 unit out
	for unit in "$dir"/*@.service; do
		out=$(cd "$dir" && systemd-analyze verify --man=no "./$(basename "$unit")" 2>&1) \
			|| err "$label: verify $(basename "$unit") failed: $out"
		[ -z "$out" ] || err "$label: verify $(basename "$unit") complained: $out"
	done
	for d in "$dir"/*@*.service.d; do
		unit=$(basename "$d" .d)
		out=$(cd "$dir" && systemd-analyze verify --man=no "./$unit" 2>&1) \
			|| err "$label: verify $unit failed: $out"
		[ -z "$out" ] || err "$label: verify $unit complained: $out"
	done
}

# The ExecStart argv systemd parsed for @unit, one word per line (from the
# unit dump, which re-escapes with C escapes and prefixes $ with \).
parsed_words() {
	local dir=$1 unit=$2
	(cd "$dir" && SYSTEMD_LOG_LEVEL=debug systemd-analyze verify --man=no "./$unit" 2>&1) |
		python3 -c '
import sys
# systemd dumps each word shell-style: plain, or in "..." with \\ \" \$ \`
# escaped and control bytes as C escapes.
C = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("Command Line:"):
        continue
    s, i, words, cur, inword, quoted = line[len("Command Line:"):].strip(), 0, [], "", False, False
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n == "x":
                cur += chr(int(s[i + 2:i + 4], 16)); i += 4
            else:
                cur += C.get(n, n); i += 2
            inword = True
            continue
        if c == "\"":
            quoted = not quoted; inword = True; i += 1
            continue
        if c == " " and not quoted:
            if inword:
                words.append(cur)
            cur, inword = "", False
            i += 1
            continue
        cur += c; inword = True; i += 1
    if inword:
        words.append(cur)
    for w in words:
        print(w.replace("\n", "<NL>"))
    break
'
}


for shape in xeon-2s-smt vm-virtio; do
	root=$tmp/$shape
	python3 "$here/fixtures/mkhost.py" build "$shape" "$root" || { echo "error: mkhost.py build $shape failed" >&2; exit 2; }
	for mode in systemd numactl; do
		out=$tmp/out-$shape-$mode
		extra=(--dpdk)
		[ "$mode" = numactl ] && extra+=(--numactl)
		"$nicnuma" --root "$root" layout --service "svc-$shape" --exec "$exec_line" \
			--nodes all "${extra[@]}" --output "$out" >"$tmp/log" 2>&1
		rc=$?
		[ "$rc" -le 1 ] || { err "$shape/$mode: layout exited $rc: $(cat "$tmp/log")"; continue; }
		n=$(find "$out" -name nicnuma.conf | wc -l)
		[ "$n" -ge 1 ] || err "$shape/$mode: no drop-in written"
		verify_dir "$out" "$shape/$mode"
		# Quoting round trip: the parsed argv ends with exactly the user's words.
		unit=$(basename "$(find "$out" -maxdepth 1 -name '*@*.service.d' | sort | head -n 1)" .d)
		mapfile -t got < <(parsed_words "$out" "$unit")
		want=("${want_words[@]}")
		ngot=${#got[@]} nwant=${#want[@]}
		if [ "$ngot" -lt "$nwant" ]; then
			err "$shape/$mode: parsed ExecStart has $ngot words, want at least $nwant: ${got[*]}"
		else
			for ((i = 0; i < nwant; i++)); do
				g=${got[$((ngot - nwant + i))]}
				# the dump shows $ as \$ (escaped) and keeps $$ (expanded to $ at exec)
				g=${g//\$\$/\$}
				[ "$g" = "${want[$i]}" ] || err "$shape/$mode: word $i: systemd parsed '$g', want '${want[$i]}'"
			done
		fi
	done
done

# Overwrite protection: a foreign file is refused (exit 2, untouched), ours is replaced.
out=$tmp/owned
mkdir -p "$out"
echo "[Service]" >"$out/own@.service"
"$nicnuma" --root "$tmp/vm-virtio" layout --service own --exec /usr/bin/true --output "$out" >/dev/null 2>"$tmp/log"
rc=$?
[ "$rc" = 2 ] || err "foreign file: exit $rc, want 2"
grep -q "not generated by nicnuma" "$tmp/log" || err "foreign file: no message naming it: $(cat "$tmp/log")"
[ "$(cat "$out/own@.service")" = "[Service]" ] || err "foreign file was changed"
[ ! -e "$out/own@0.service.d" ] || err "drop-in written although the template was refused"
"$nicnuma" --root "$tmp/vm-virtio" layout --service own --exec /usr/bin/true --output "$out" --force >/dev/null 2>&1 \
	|| [ $? = 1 ] || err "--force did not replace the foreign file"
grep -q "generated by nicnuma layout" "$out/own@.service" || err "--force: template not written"
"$nicnuma" --root "$tmp/vm-virtio" layout --service own --exec /usr/bin/false --output "$out" >/dev/null 2>&1 \
	|| [ $? = 1 ] || err "rewriting our own files failed"
grep -q "^ExecStart=/usr/bin/false" "$out/own@.service" || err "our own template was not rewritten"
[ -z "$(find "$out" -name '*.nicnuma-tmp')" ] || err "temporary files left behind"

[ "$fail" = 0 ] || exit 1
echo "ok: units verified by $(systemd-analyze --version | head -n 1)"
