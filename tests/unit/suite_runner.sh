#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/unit/suite_runner.sh SRC - scripts/suite_runner.sh on stub suites and
# a stub host_state: a suite run beside others keeps its own verdict and
# seconds, fails the run when it fails or leaves the host changed, the table
# names what overlapped, and the total is the wall clock, not the sum.
# ok and bad never fail, so "A && ok || bad" is an if-then-else here; the
# stub functions are called through scenario and $PPID is the child's.
# shellcheck disable=SC2015,SC2016,SC2317
set -uo pipefail
src=${1:?usage: suite_runner.sh SOURCE_ROOT}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nicnuma-runner.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
# host_state reads one file the stub suites may change
printf '#!/bin/sh\ncat "%s/state"\n' "$tmp" >"$tmp/scripts/host_state"
chmod +x "$tmp/scripts/host_state"
echo clean >"$tmp/state"

nfails=0
ok() { echo "PASS: $*"; }
bad() { echo "FAIL: $*"; nfails=$((nfails + 1)); }

# scenario NAME FUNC: a fresh runner in a subshell, its table and counters in NAME.out
scenario() {
  local name=$1; shift
  (
    NN_TOP=$tmp NN_T0=$(date +%s)
    nn_log() { printf '==> %s\n' "$*" >&2; }
    # shellcheck source=scripts/suite_runner.sh
    . "$src/scripts/suite_runner.sh"
    "$@"
    times_table
    echo "counts $npass $nfail $nskip $fail"
  ) >"$tmp/$name.out" 2>&1
}
row() { awk -v n="$2" '$1 == n { print $2, $3, $4 }' "$tmp/$1.out"; }

slow_ok() { echo "bg line"; sleep 3; }
overlap() {
  beside bg slow_ok
  suite a sleep 2
  suite b false
  beside_wait
  suite c true
}
scenario overlap overlap
r=$(row overlap bg)
# (seconds: the sleeps' own, plus up to 3 s of a loaded machine's scheduling)
[[ $r =~ ^ok\ [3-6]\ a,b$ ]] && ok "background suite: its own verdict and seconds, a and b beside it ($r)" ||
  bad "background suite row: '$r'"
r=$(row overlap a)
[[ $r =~ ^ok\ [2-5]\ bg$ ]] && ok "foreground suite beside it: '$r'" || bad "foreground row a: '$r'"
[ "$(row overlap b)" = "FAILED 0 bg" ] && ok "a failing foreground suite keeps its verdict" || bad "row b: '$(row overlap b)'"
[ "$(row overlap c)" = "ok 0 -" ] && ok "a suite after beside_wait ran beside nothing" || bad "row c: '$(row overlap c)'"
grep -q '^counts 3 1 0 1$' "$tmp/overlap.out" && ok "counts: 3 passed, 1 failed; the run fails" ||
  bad "counts: $(grep '^counts' "$tmp/overlap.out")"
grep -q '^bg| bg line$' "$tmp/overlap.out" && ok "the background suite's lines are prefixed" || bad "no 'bg| bg line'"
read -r wall sum < <(sed -n 's/^total *\([0-9]*\) .*suites \([0-9]*\) s in all.*/\1 \2/p' "$tmp/overlap.out")
if [ -n "${wall:-}" ] && [ "$sum" -ge 5 ] && [ "$wall" -lt "$sum" ]; then
  ok "total: wall $wall s < the suites' $sum s (they overlapped)"
else bad "total: wall '${wall:-}' suites '${sum:-}'"; fi

# Beside it the foreground runs at nice 19 and mtest gives meson 10x the
# timeouts; after it, this shell's nice and the timeouts as given.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "meson $*" >>"%s/meson.args"\n' "$tmp" >"$tmp/bin/meson"
printf 'import sys\n' >"$tmp/scripts/suite_result.py"
chmod +x "$tmp/bin/meson"
niced() {
  beside bg sleep 2
  echo "nice beside: $(nice)"
  mtest build fixture --timeout-multiplier 2
  beside_wait
  echo "nice after: $(nice)"
  mtest build fixture --timeout-multiplier 2
}
PATH=$tmp/bin:$PATH scenario niced niced
n0=$(nice)
grep -q '^nice beside: 19$' "$tmp/niced.out" && grep -q "^nice after: $n0\$" "$tmp/niced.out" &&
  ok "foreground at nice 19 beside the background suite, $n0 after" || bad "nice: $(grep '^nice' "$tmp/niced.out")"
if [ "$(sed -n 1p "$tmp/meson.args")" = "meson test -C $tmp/build --suite fixture --print-errorlogs --timeout-multiplier 20" ] &&
   [ "$(sed -n 2p "$tmp/meson.args")" = "meson test -C $tmp/build --suite fixture --print-errorlogs --timeout-multiplier 2" ]; then
  ok "mtest beside: timeouts x10; after: as given"
else bad "mtest args: $(cat "$tmp/meson.args")"; fi

# A suite started after the background one ended (before beside_wait) ran
# beside nothing: the table does not say otherwise.
late() {
  local i
  beside bg true
  for ((i = 0; i < 300; i++)); do beside_alive || break; sleep 0.1; done
  suite after true; beside_wait
}
scenario late late
[ "$(row late after)" = "ok 0 -" ] && [ "$(row late bg)" = "ok 0 -" ] &&
  ok "a suite after the background one ended: beside nothing" || bad "late: $(row late after) / $(row late bg)"

# A background suite that fails, or leaves the host changed, fails the run.
bg_fail() { beside bg false; suite a true; beside_wait; }
scenario bgfail bg_fail
[ "$(row bgfail bg | cut -d' ' -f1)" = FAILED ] && grep -q '^counts 1 1 0 1$' "$tmp/bgfail.out" &&
  ok "a failing background suite fails the run" || bad "bgfail: $(cat "$tmp/bgfail.out")"
leave() { echo changed >"$tmp/state"; }
bg_leave() { beside bg leave; suite a true; beside_wait; echo clean >"$tmp/state"; }
scenario bgleave bg_leave
[ "$(row bgleave bg | cut -d' ' -f1)" = FAILED ] && grep -q 'suite bg: left this host changed' "$tmp/bgleave.out" &&
  ok "a background suite that leaves the host changed fails" || bad "bgleave: $(cat "$tmp/bgleave.out")"
# No verdict at all (the background shell killed): a failure, said so.
bg_kill() { beside bg bash -c 'kill -9 $PPID'; suite a true; beside_wait; }
scenario bgkill bg_kill
[ "$(row bgkill bg | cut -d' ' -f1)" = FAILED ] && grep -q 'suite bg: no result' "$tmp/bgkill.out" &&
  grep -q '^counts 1 1 0 1$' "$tmp/bgkill.out" &&
  ok "a background suite killed before its verdict fails" || bad "bgkill: $(cat "$tmp/bgkill.out")"
[ "$nfails" = 0 ] || { echo "suite_runner: $nfails failed"; exit 1; }
echo "suite_runner: all passed"
