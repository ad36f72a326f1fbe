#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/busy_poll.sh NICNUMA - the busy-poll sysctls of --profile latency
# --busy-poll, as undoable values on this kernel (suite 'live')
#
# plan --nics eth0 --profile latency --busy-poll 50 lists net.core.busy_poll
# and busy_read 50 with their reasons; the plan cut to those two values (no
# IRQ, XPS, NAPI or coalescing entry: eth0 is the others' tests) is applied:
# both read back 50 and the undo log holds them as kind busy_poll; check is
# aligned, then finds a hand edit of busy_read as drift naming it; rollback
# puts both back as found. Both files are saved first and written back by the
# EXIT trap whatever happens. Needs root and python3; 77 otherwise.
# shellcheck disable=SC2015  # pass/fail only print
set -uo pipefail

nn=${1:?usage: busy_poll.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 is not installed"; exit 77; }
[ -e /sys/class/net/eth0 ] || { echo "skip: no eth0"; exit 77; }
bp=/proc/sys/net/core/busy_poll
br=/proc/sys/net/core/busy_read
[ -e "$bp" ] && [ -e "$br" ] || { echo "skip: kernel without CONFIG_NET_RX_BUSY_POLL"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/busy-live.XXXXXX") || exit 2
run=$(mktemp -d /run/nicnuma-busy-live.XXXXXX) || exit 2
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
bp0=$(cat "$bp")
br0=$(cat "$br")
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	"$nn" rollback --state-dir "$run" >/dev/null 2>&1
	[ "$(cat "$bp")" = "$bp0" ] || echo "$bp0" >"$bp"
	[ "$(cat "$br")" = "$br0" ] || echo "$br0" >"$br"
	rm -rf "$tmp" "$run"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
# 50 must be a change, or apply has nothing to prove
want=50
[ "$bp0" = 50 ] || [ "$br0" = 50 ] && want=60

"$nn" --json plan --nics eth0 --profile latency --busy-poll "$want" >"$tmp/lat.json" 2>/dev/null
python3 - "$tmp/lat.json" "$tmp/only.json" "$want" <<'PY' >"$tmp/out" 2>&1 && pass "plan: $(cat "$tmp/out")" || fail "plan: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["plan"]
want = int(sys.argv[3])
s = [(x["name"], x["value"]) for x in p["sysctls"]]
assert s == [("net.core.busy_poll", want), ("net.core.busy_read", want)], s
assert all(x["reason"].startswith("profile latency: only with --busy-poll") for x in p["sysctls"])
for k in ("irqs", "xps", "napi_threads", "napi_config", "ethtool", "rps", "channels", "rss", "hugepages"):
    p[k] = []
json.dump(d, open(sys.argv[2], "w"))
print(s)
PY
"$nn" --json apply --plan "$tmp/only.json" --state-dir "$run" >"$tmp/apply.json" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && pass "apply: exit 0" || { fail "apply: exit $rc"; cat "$tmp/err"; }
[ "$(cat "$bp") $(cat "$br")" = "$want $want" ] && pass "both read back $want" \
	|| fail "busy_poll/busy_read are $(cat "$bp")/$(cat "$br")"
python3 - "$tmp/apply.json" "$bp0" "$br0" <<'PY' >"$tmp/out" 2>&1 && pass "apply report: $(cat "$tmp/out")" || fail "apply report: $(cat "$tmp/out")"
import json, sys
v = [x for x in json.load(open(sys.argv[1]))["apply"]["values"] if x["kind"] == "sysctl"]
assert [(x["path"], x["before"], x["status"]) for x in v] == [
    ("/proc/sys/net/core/busy_poll", sys.argv[2], "changed"),
    ("/proc/sys/net/core/busy_read", sys.argv[3], "changed")], v
print("2 sysctl values changed")
PY
grep -rqE '"kind": ?"busy_poll"' "$run" && pass "undo log: kind busy_poll" || fail "undo log lacks kind busy_poll"
"$nn" --json check --plan "$tmp/only.json" >"$tmp/check.json" 2>/dev/null
rc=$?
[ "$rc" -eq 0 ] && pass "check: aligned" || fail "check: exit $rc"
echo 0 >"$br"
"$nn" --json check --plan "$tmp/only.json" >"$tmp/check.json" 2>/dev/null
rc=$?
python3 - "$tmp/check.json" <<'PY' >"$tmp/out" 2>&1 && [ "$rc" -eq 1 ] && pass "check: drift names busy_read (exit $rc)" || fail "check: exit $rc $(cat "$tmp/out")"
import json, sys
dr = [x for x in json.load(open(sys.argv[1]))["check"]["values"] if x["status"] == "drift"]
assert [(x["kind"], x["path"]) for x in dr] == [("sysctl", "/proc/sys/net/core/busy_read")], dr
PY
"$nn" rollback --state-dir "$run" >"$tmp/rb" 2>&1
rc=$?
[ "$rc" -eq 0 ] && pass "rollback: exit 0" || { fail "rollback: exit $rc"; cat "$tmp/rb"; }
[ "$(cat "$bp") $(cat "$br")" = "$bp0 $br0" ] && pass "busy_poll/busy_read back to $bp0/$br0" \
	|| fail "busy_poll/busy_read are $(cat "$bp")/$(cat "$br"), were $bp0/$br0"
[ "$fails" -eq 0 ] || exit 1
exit 0
