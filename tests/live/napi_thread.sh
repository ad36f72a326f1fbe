#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/napi_thread.sh NICNUMA - threaded NAPI kthreads placed, checked and rolled back (suite 'live')
#
# In a private network namespace, a veth pair with GRO on (veth has NAPI
# then) and /sys/class/net/vA/threaded = 1: the kernel starts a napi/vA-ID
# kthread whose pid napi-get reports over the netns' genl socket. nicnuma
# runs inside the netns:
#   1. plan --nics vA --cpus 1 lists the thread (napi_threads: pid, name) on CPU 1;
#   2. apply places it (/proc/PID/status Cpus_allowed_list reads 1), check is clean;
#   3. taskset -p moves it by hand: check exits 1 naming the drift;
#   4. rollback restores its affinity as it was before apply;
#   5. a plan file naming a user process (a sleep renamed napi/vA-ID) is refused
#      by apply, and that process keeps its CPUs;
#   6. script places the thread (found by its exact comm, the decoy of step 5
#      passed over) and its restore script puts it back;
#   7. the watcher's reconcile places it, and after threaded is toggled (new
#      kthread, new pid, no kernel event) the new one; rollback restores it.
# Needs root, ip, ethtool, taskset, 2 CPUs; exits 77 with the reason otherwise.
# The netns (and with it the veths and the thread) is removed on any exit.
# shellcheck disable=SC2015  # pass/ok only print: "A && pass || fail" is if-then-else here
set -uo pipefail

nn=${1:?usage: napi_thread.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (netns, sched_setaffinity)"; exit 77; }
for t in ip ethtool taskset python3; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }
done
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to move"; exit 77; }

ns=napithread-$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/napi-live.XXXXXX") || exit 2
run=$(mktemp -d /run/nicnuma-napi-live.XXXXXX) || exit 2
state=$run/state
decoy=
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -z "$decoy" ] || kill "$decoy" 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	rm -rf "$tmp" "$run"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
inns() { ip netns exec "$ns" "$@"; }
cpus_of() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status"; }

ip netns add "$ns" || { echo "skip: cannot create a network namespace"; exit 77; }
inns ip link add vA type veth peer name vB || { echo "skip: no veth"; exit 77; }
inns ip link set lo up
inns ip link set vA up
inns ip link set vB up
inns ethtool -K vA gro on >/dev/null 2>&1
if ! inns sh -c 'echo 1 >/sys/class/net/vA/threaded' 2>/dev/null; then
	echo "skip: this kernel does not thread veth's NAPI"
	exit 77
fi
pid=
for _ in $(seq 50); do
	pid=$(pgrep -x 'napi/vA-[0-9]*' | head -n 1)
	[ -n "$pid" ] && break
	sleep 0.1
done
[ -n "$pid" ] || { echo "skip: no napi/vA-* kthread appeared"; exit 77; }
comm=$(cat "/proc/$pid/comm")
orig=$(cpus_of "$pid")
echo "thread $comm pid $pid on CPUs $orig"

# 1. the plan
inns "$nn" --json plan --nics vA --cpus 1 >"$tmp/plan.json" 2>"$tmp/err"
python3 - "$tmp/plan.json" "$pid" "$comm" <<'PY' && pass "plan: $comm (pid $pid) on CPU 1" || fail "plan: $(cat "$tmp/plan.json" "$tmp/err")"
import json, sys
t = json.load(open(sys.argv[1]))["plan"]["napi_threads"]
assert len(t) == 1, t
t = t[0]
assert t["nic"] == "vA" and t["pid"] == int(sys.argv[2]) and t["name"] == sys.argv[3], t
assert t["cpus"] == "1" and t["napi_id"] > 0, t
PY
inns "$nn" plan --nics vA --cpus 1 >"$tmp/table" 2>/dev/null
grep -q "^NAPI threads" "$tmp/table" && grep -q " $comm " "$tmp/table" && pass "plan table has a NAPI threads section" \
	|| fail "plan table lacks the NAPI threads section"

# 2. apply, check
inns "$nn" --json apply --plan "$tmp/plan.json" --state-dir "$state" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(cpus_of "$pid")" = 1 ] && pass "apply placed it: Cpus_allowed_list $(cpus_of "$pid")" \
	|| fail "apply (exit $rc): thread on $(cpus_of "$pid"): $(cat "$tmp/out" "$tmp/err")"
grep -q '"kind":"napi"' "$state"/*-apply.json && pass "the undo log records a napi change" \
	|| fail "no napi change in the undo log"
inns "$nn" check --plan "$tmp/plan.json" >"$tmp/out" 2>&1 && pass "check clean after apply" \
	|| fail "check after apply: $(cat "$tmp/out")"

# 3. drift by hand
taskset -pc 0 "$pid" >/dev/null
inns "$nn" --json check --plan "$tmp/plan.json" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && python3 -c '
import json, sys
v = [v for v in json.load(open(sys.argv[1]))["check"]["values"] if v["kind"] == "napi"]
assert v and v[0]["status"] == "drift" and v[0]["current"] == "0", v' "$tmp/out" 2>/dev/null \
	&& pass "check: exit 1, the thread drifted to CPU 0" || fail "check after taskset (exit $rc): $(cat "$tmp/out")"

# 4. rollback
inns "$nn" rollback --state-dir "$state" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(cpus_of "$pid")" = "$orig" ] && pass "rollback restored CPUs $orig" \
	|| fail "rollback (exit $rc): thread on $(cpus_of "$pid"), was $orig: $(cat "$tmp/out")"

# 5. a user process named like the thread is never placed
(exec -a sleeper sleep 300) &
decoy=$!
printf '%s' "$comm" >"/proc/$decoy/comm"
dorig=$(cpus_of "$decoy")
python3 - "$tmp/plan.json" "$decoy" >"$tmp/decoy.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["plan"]["napi_threads"][0]["pid"] = int(sys.argv[2])
json.dump(d, sys.stdout)
PY
inns "$nn" apply --plan "$tmp/decoy.json" --state-dir "$state" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && [ "$(cpus_of "$decoy")" = "$dorig" ] && grep -q "not a kernel thread" "$tmp/out" \
	&& pass "a user process named $comm is refused (exit 1) and keeps CPUs $dorig" \
	|| fail "decoy (exit $rc, CPUs $(cpus_of "$decoy")): $(cat "$tmp/out")"

# 6. script: the same placement from sh, finding the kthread by its exact
# comm (the decoy of the same name still runs), and its restore script
# (exit 1: the plan's warning that a veth has no locality)
inns "$nn" script --plan "$tmp/plan.json" -o "$tmp/s.sh" >/dev/null 2>&1
[ -s "$tmp/s.sh" ] && grep -q "^napis() {" "$tmp/s.sh" || fail "script: not written, or no napis()"
if command -v shellcheck >/dev/null; then
	shellcheck -s sh "$tmp/s.sh" && pass "script is shellcheck-clean" || fail "script: shellcheck"
fi
inns env NICNUMA_RESTORE="$run/restore.sh" sh "$tmp/s.sh" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(cpus_of "$pid")" = 1 ] && [ "$(cpus_of "$decoy")" = "$dorig" ] \
	&& pass "script placed $comm on CPU 1, the decoy untouched" \
	|| fail "script (exit $rc): thread on $(cpus_of "$pid"), decoy on $(cpus_of "$decoy"): $(cat "$tmp/out")"
inns sh "$run/restore.sh" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(cpus_of "$pid")" = "$orig" ] && pass "restore script put back CPUs $orig" \
	|| fail "restore script (exit $rc): thread on $(cpus_of "$pid"): $(cat "$tmp/out")"

# 7. the watcher (watch --once: the reconcile its periodic re-check runs)
# places the thread, and, after threaded is toggled (a new kthread, a new
# pid, no event from the kernel), the new one; rollback of its log puts the
# new one back and passes over the gone one
printf '[nicnuma]\nnic = - vA\npolicy = local\ncpus = 1\nirqbalance = leave\ninterval = 1\n' >"$run/conf"
inns "$nn" watch --once --config "$run/conf" --state-dir "$run/wstate" >"$tmp/out" 2>&1
[ "$(cpus_of "$pid")" = 1 ] && pass "watcher placed $comm on CPU 1" \
	|| fail "watcher: thread on $(cpus_of "$pid"): $(cat "$tmp/out")"
inns sh -c 'echo 0 >/sys/class/net/vA/threaded && echo 1 >/sys/class/net/vA/threaded'
pid2=
for _ in $(seq 50); do
	pid2=$(pgrep -x 'napi/vA-[0-9]*' | head -n 1)
	[ -n "$pid2" ] && [ "$pid2" != "$pid" ] && break
	sleep 0.1
done
orig2=$(cpus_of "$pid2")
inns "$nn" watch --once --config "$run/conf" --state-dir "$run/wstate" >"$tmp/out" 2>&1
[ -n "$pid2" ] && [ "$pid2" != "$pid" ] && [ "$(cpus_of "$pid2")" = 1 ] \
	&& pass "threaded toggled: the new thread (pid $pid2) placed on CPU 1 by the re-check" \
	|| fail "after toggling threaded: pid '$pid2' on $(cpus_of "$pid2"): $(cat "$tmp/out")"
inns "$nn" rollback --state-dir "$run/wstate" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -le 1 ] && [ "$(cpus_of "$pid2")" = "$orig2" ] && pass "rollback of the watcher's log restored pid $pid2 ($orig2)" \
	|| fail "rollback of the watcher's log (exit $rc): $(cat "$tmp/out")"

[ "$fails" -eq 0 ] || exit 1
exit 0
