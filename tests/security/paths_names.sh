#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/security/paths_names.sh NICNUMA - names that would become paths or
# reach a terminal, on a writable mkhost.py tree (vm-virtio) under --root:
#   a plan whose NIC is "../x": script --plan and apply refuse it, same message,
#     and nothing is written outside the tree;
#   channels for a NIC the plan does not name: refused;
#   a 17 MiB plan and /dev/zero: refused at once, naming the 16 MiB cap;
#   an interface named ".hidden": listed, no warning;
#   an interface name with ESC: escaped in the table and in messages.
set -uo pipefail

# shellcheck source=tests/security/lib.sh
. "$(dirname "$0")/lib.sh"
sec_init paths-names "${1:-}"
"$nn" --root "$t" plan --json >"$tmp/p.json" 2>/dev/null
[ -s "$tmp/p.json" ] || { echo "plan --json failed" >&2; exit 2; }

# edit OUT PYTHON: a copy of the plan changed by PYTHON (p is d["plan"]).
edit() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); p=d['plan']; $2
json.dump(d, open(sys.argv[3], 'w'))" "$tmp/p.json" "$2" "$1"
}

# --- a '../' NIC name: script and apply refuse with the same message ---
# $t/sys/class/net/../../../../esc is $tmp/esc: xps_cpus files wait there.
for q in 0 1 2 3; do mkdir -p "$tmp/esc/queues/tx-$q" && echo 0 >"$tmp/esc/queues/tx-$q/xps_cpus"; done
edit "$tmp/dotdot.json" "
for x in p['xps']: x['nic'] = '../../../../esc'"
"$nn" --root "$t" script --plan "$tmp/dotdot.json" -o "$tmp/s.sh" >/dev/null 2>"$tmp/script.err"
rs=$?
"$nn" --root "$t" apply --plan "$tmp/dotdot.json" --state-dir /st >/dev/null 2>"$tmp/apply.err"
ra=$?
want="nicnuma: --plan: plan $tmp/dotdot.json: plan.xps[0].nic: '../../../../esc' is not an interface name: '/' is not allowed in an interface name"
[ "$rs" -eq 2 ] && [ ! -e "$tmp/s.sh" ] && ok "script --plan refuses a '../' NIC (exit 2, no script)" \
	|| bad "script --plan with a '../' NIC: exit $rs"
[ "$ra" -eq 2 ] && ok "apply --plan refuses it (exit 2)" || bad "apply --plan with a '../' NIC: exit $ra"
grep -qxF "$want" "$tmp/script.err" && grep -qxF "$want" "$tmp/apply.err" \
	&& ok "both say: $want" || { bad "messages differ or are wrong"; cat "$tmp/script.err" "$tmp/apply.err" >&2; }
# A script that was written anyway is run on the tree (ROOT=) to show where it writes.
[ -e "$tmp/s.sh" ] && ROOT=$t NICNUMA_RESTORE=$tmp/restore.sh sh "$tmp/s.sh" >/dev/null 2>&1
[ "$(cat "$tmp/esc/queues/tx-0/xps_cpus")" = 0 ] && [ ! -e "$t/st" ] \
	&& ok "nothing written outside the tree, no snapshot" \
	|| bad "xps_cpus outside /sys was written: $(cat "$tmp/esc/queues/tx-0/xps_cpus")"

# --- channels for a NIC the plan does not place ---
edit "$tmp/ch.json" "p['channels'] = [{'nic': 'eth9', 'current': None, 'target': 2}]"
"$nn" --root "$t" script --plan "$tmp/ch.json" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -qF "plan $tmp/ch.json: channels for eth9, which the plan does not name" "$tmp/err" \
	&& ok "channels for eth9 refused (exit 2)" || { bad "channels for eth9: exit $rc"; cat "$tmp/err" >&2; }

# --- size cap: a 17 MiB plan and /dev/zero, both quickly ---
head -c $((17 << 20)) /dev/zero | tr '\0' ' ' >"$tmp/big.json"
for f in "$tmp/big.json" /dev/zero; do
	start=$(date +%s%N)
	timeout 20 "$nn" --root "$t" script --plan "$f" >/dev/null 2>"$tmp/err"
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	[ "$rc" -eq 2 ] && grep -qxF "nicnuma: --plan: plan $f is larger than 16 MiB" "$tmp/err" && [ "$ms" -lt 5000 ] \
		&& ok "$f refused in $ms ms" || { bad "$f: exit $rc after $ms ms"; cat "$tmp/err" >&2; }
done

# --- an interface named ".hidden" (the kernel allows it) ---
h=$tmp/h
cp -a "$t" "$h"
mkdir "$h/sys/devices/virtual/net/.hidden"
cp -a "$h/sys/devices/virtual/net/tun0/." "$h/sys/devices/virtual/net/.hidden/"
ln -s ../../devices/virtual/net/.hidden "$h/sys/class/net/.hidden"
"$nn" --root "$h" nics >"$tmp/out" 2>"$tmp/err"
grep -q '^\.hidden ' "$tmp/out" && ok ".hidden is listed" || bad ".hidden is not listed"
! grep -q 'hidden' "$tmp/err" && ok "no warning about .hidden" || { bad "warning about .hidden"; cat "$tmp/err" >&2; }

# --- ESC in an interface name: escaped in the text table and in messages ---
e=$tmp/e
esc=$(printf 'a\033[2J')
cp -a "$t" "$e"
mkdir "$e/sys/devices/virtual/net/$esc"
cp -a "$e/sys/devices/virtual/net/tun0/." "$e/sys/devices/virtual/net/$esc/"
ln -s "../../devices/virtual/net/$esc" "$e/sys/class/net/$esc"
"$nn" --root "$e" nics >"$tmp/out" 2>"$tmp/err"
if grep -q $'\033' "$tmp/out" "$tmp/err"; then bad "an ESC byte reached the terminal"; else ok "no ESC byte in the output"; fi
grep -qF 'a\x1b[2J ' "$tmp/out" && ok "the name is shown as a\\x1b[2J" || { bad "escaped name missing"; cat -v "$tmp/out" >&2; }
"$nn" --root "$e" --json nics >"$tmp/out.json" 2>/dev/null
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert any(n['name']==sys.argv[2] for n in d['nics']), 'not found'" \
	"$tmp/out.json" "$esc" && ok "JSON keeps the exact name" || bad "JSON lost the name"
"$nn" --root "$e" plan --nics "$esc"x >/dev/null 2>"$tmp/err"
if grep -q $'\033' "$tmp/err"; then bad "an ESC byte reached stderr"; else ok "no ESC byte in the error message"; fi

exit $fail
