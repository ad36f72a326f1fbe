#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/napi_thread.sh NICNUMA - threaded NAPI kthreads placed, checked and rolled back (suite 'live')
#
# In a private network namespace, a veth pair whose end is named like a real
# NIC, enp1s0f0np0 (longer than the 15 characters a user task's comm keeps),
# with GRO on (veth has NAPI then) and /sys/class/net/enp1s0f0np0/threaded =
# 1: the kernel starts a kthread whose comm is its full name,
# napi/enp1s0f0np0-ID, and whose pid napi-get reports over the netns' genl
# socket. A second namespace holds a device of the same name with its own
# threaded NAPI (a user's veth in their own namespace). nicnuma runs inside
# the first netns:
#   1. plan --nics enp1s0f0np0 --cpus 1 lists the thread (napi_threads: pid, name) on CPU 1;
#   2. apply places it (/proc/PID/status Cpus_allowed_list reads 1), check is clean;
#   3. taskset -p moves it by hand: check exits 1 naming the drift;
#   4. rollback restores its affinity as it was before apply;
#   5. a plan file naming a user process (a sleep renamed napi/enp1s0f0np0-ID) is refused
#      by apply, and that process keeps its CPUs;
#   6. script places the thread (found by its exact comm, the decoy of step 5
#      passed over) and its restore script puts it back;
#   7. the watcher's reconcile places it, and after threaded is toggled (new
#      kthread, new pid, no kernel event) the new one; rollback restores it;
#   8. a plan naming the other namespace's thread (its pid, its NAPI id, its
#      exact comm: a kernel thread that passes every /proc check) is refused:
#      napi-get here names no such thread; its CPUs stay;
#   9. observe and check --traffic count the first namespace's thread for
#      enp1s0f0np0, never the other namespace's;
#  10. in a third namespace, a veth of 8 queues (8 threads): apply sends 2
#      napi-get dumps (its discovery, its writes) and rollback 1, whatever
#      the number of threads (strace counts them; before: one per thread),
#      and every thread is still placed and put back.
# Needs root, ip, ethtool, taskset, strace, 2 CPUs; exits 77 with the reason otherwise.
# The netns (and with it the veths and the thread) is removed on any exit.
# shellcheck disable=SC2015  # pass/ok only print: "A && pass || fail" is if-then-else here
set -uo pipefail

nn=${1:?usage: napi_thread.sh NICNUMA}
# shellcheck source=../lib/watcher.sh
. "$(dirname "$0")/../lib/watcher.sh"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (netns, sched_setaffinity)"; exit 77; }
for t in ip ethtool taskset strace python3; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }
done
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to move"; exit 77; }

ns=napithread-$$
ns2=napithread2-$$
ns3=napithread3-$$
IF=enp1s0f0np0
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
	ip netns del "$ns2" 2>/dev/null
	ip netns del "$ns3" 2>/dev/null
	# what watch --once (step 7) leaves in /run/nicnuma, when it names our config
	nn_forget_watcher "$run/conf"
	rm -rf "$tmp" "$run"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
inns() { ip netns exec "$ns" "$@"; }
cpus_of() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/status"; }
# threads NOT...: the pids of the kthreads named napi/$IF-*, but for NOT
threads() {
	for d in /proc/[0-9]*; do
		case $(cat "$d/comm" 2>/dev/null) in "napi/$IF-"*) ;; *) continue ;; esac
		case " $* " in *" ${d#/proc/} "*) continue ;; esac
		echo "${d#/proc/}"
	done
}
# veth_ns NS [QUEUES]: a veth pair $IF/vB (of QUEUES queues each) with
# threaded NAPI in a new netns NS; a new kthread's pid in $newpid (other
# than those in $known)
veth_ns() {
	local q=()

	[ -z "${2:-}" ] || q=(numrxqueues "$2" numtxqueues "$2")
	ip netns add "$1" || { echo "skip: cannot create a network namespace"; exit 77; }
	ip netns exec "$1" ip link add "$IF" "${q[@]}" type veth peer name vB "${q[@]}" \
		|| { echo "skip: no veth"; exit 77; }
	ip netns exec "$1" ip link set lo up
	ip netns exec "$1" ip link set "$IF" up
	ip netns exec "$1" ip link set vB up
	ip netns exec "$1" ethtool -K "$IF" gro on >/dev/null 2>&1
	if ! ip netns exec "$1" sh -c "echo 1 >/sys/class/net/$IF/threaded" 2>/dev/null; then
		echo "skip: this kernel does not thread veth's NAPI"
		exit 77
	fi
	newpid=
	for _ in $(seq 50); do
		# shellcheck disable=SC2086 # a list of pids
		newpid=$(threads $known | head -n 1)
		[ -n "$newpid" ] && break
		sleep 0.1
	done
	[ -n "$newpid" ] || { echo "skip: no napi/$IF-* kthread appeared"; exit 77; }
}

known=$(threads)
veth_ns "$ns"
pid=$newpid
comm=$(cat "/proc/$pid/comm")
orig=$(cpus_of "$pid")
case $comm in "napi/$IF-"[0-9]*) ;; *) fail "comm '$comm' is not the full napi/$IF-ID" ;; esac
[ "${#comm}" -gt 15 ] && pass "the kthread's comm is its full name: $comm (${#comm} characters)" \
	|| fail "comm '$comm' is not longer than 15 characters"
echo "thread $comm pid $pid on CPUs $orig"
known="$known $pid"
veth_ns "$ns2"
opid=$newpid
ocomm=$(cat "/proc/$opid/comm")
echo "the other namespace's thread: $ocomm pid $opid"

# 1. the plan
inns "$nn" --json plan --nics "$IF" --cpus 1 >"$tmp/plan.json" 2>"$tmp/err"
python3 - "$tmp/plan.json" "$pid" "$comm" <<'PY' && pass "plan: $comm (pid $pid) on CPU 1" || fail "plan: $(cat "$tmp/plan.json" "$tmp/err")"
import json, sys
t = json.load(open(sys.argv[1]))["plan"]["napi_threads"]
assert len(t) == 1, t
t = t[0]
assert t["nic"] == "enp1s0f0np0" and t["pid"] == int(sys.argv[2]) and t["name"] == sys.argv[3], t
assert t["cpus"] == "1" and t["napi_id"] > 0, t
PY
inns "$nn" plan --nics "$IF" --cpus 1 >"$tmp/table" 2>/dev/null
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
printf '%.15s' "$comm" >"/proc/$decoy/comm"	# a user task keeps 15 characters
dorig=$(cpus_of "$decoy")
python3 - "$tmp/plan.json" "$decoy" >"$tmp/decoy.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["plan"]["napi_threads"][0]["pid"] = int(sys.argv[2])
json.dump(d, sys.stdout)
PY
inns "$nn" apply --plan "$tmp/decoy.json" --state-dir "$state" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && [ "$(cpus_of "$decoy")" = "$dorig" ] && grep -q "is pid $pid, not $decoy" "$tmp/out" \
	&& pass "a user process named $comm is refused (exit 1) and keeps CPUs $dorig" \
	|| fail "decoy (exit $rc, CPUs $(cpus_of "$decoy")): $(cat "$tmp/out")"

# 6. script: the same placement from sh, the plan's pid taken while it is
# still the kthread of that exact comm (the decoy of the same name still
# runs), and its restore script
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
printf '[nicnuma]\nnic = - %s\npolicy = local\ncpus = 1\nirqbalance = leave\ninterval = 1\n' "$IF" >"$run/conf"
inns "$nn" watch --once --config "$run/conf" --state-dir "$run/wstate" >"$tmp/out" 2>&1
[ "$(cpus_of "$pid")" = 1 ] && pass "watcher placed $comm on CPU 1" \
	|| fail "watcher: thread on $(cpus_of "$pid"): $(cat "$tmp/out")"
inns sh -c "echo 0 >/sys/class/net/$IF/threaded && echo 1 >/sys/class/net/$IF/threaded"
pid2=
for _ in $(seq 50); do
	pid2=$(threads "$opid" | head -n 1)
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

# 8. the other namespace's thread: a kernel thread named exactly as its
# plan entry says, but not the one napi-get names here
oorig=$(cpus_of "$opid")
python3 - "$tmp/plan.json" "$opid" "$ocomm" >"$tmp/other.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["plan"]["napi_threads"][0]
t["pid"], t["name"], t["napi_id"] = int(sys.argv[2]), sys.argv[3], int(sys.argv[3].rsplit("-", 1)[1])
json.dump(d, sys.stdout)
PY
inns "$nn" apply --plan "$tmp/other.json" --state-dir "$run/other" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && [ "$(cpus_of "$opid")" = "$oorig" ] && grep -q "names no thread" "$tmp/out" \
	&& pass "the other namespace's $ocomm (pid $opid) is refused (exit 1) and keeps CPUs $oorig" \
	|| fail "other namespace's thread (exit $rc, CPUs $(cpus_of "$opid"), was $oorig): $(cat "$tmp/out")"
# the script of step 6, run now that its thread went (threaded toggled in
# step 7): it takes no thread by name, so neither the new one nor the other
# namespace's is touched; "plan again"
cur2=$(cpus_of "$pid2")
inns env NICNUMA_RESTORE="$run/restore2.sh" sh "$tmp/s.sh" >"$tmp/out" 2>&1
[ "$(cpus_of "$opid")" = "$oorig" ] && [ "$(cpus_of "$pid2")" = "$cur2" ] && grep -q "plan again" "$tmp/out" \
	&& pass "script with a gone thread: left alone (plan again), the other namespace's thread untouched" \
	|| fail "script after the thread went: pid $pid2 on $(cpus_of "$pid2") (was $cur2), other on $(cpus_of "$opid"): $(cat "$tmp/out")"

# 9. observe and check --traffic in the first namespace: only its thread is
# enp1s0f0np0's (the other one runs a ping flood in its namespace)
ip netns exec "$ns2" ip addr add 10.77.0.1/24 dev "$IF"
ip netns exec "$ns2" ip addr add 10.77.0.2/24 dev vB
(ip netns exec "$ns2" ping -q -f -c 20000 -I vB 10.77.0.1 >/dev/null 2>&1 &)
inns "$nn" --json observe "$IF" --count 1 --interval 1 >"$tmp/obs.json" 2>"$tmp/err"
inns "$nn" --json check --plan "$tmp/plan.json" --traffic 1 >"$tmp/chk.json" 2>>"$tmp/err"
python3 - "$tmp/obs.json" "$tmp/chk.json" "$pid2" "$opid" <<'PY' \
	&& pass "observe and check --traffic count pid $pid2 for $IF, not the other namespace's $opid" \
	|| fail "observe/check --traffic: $(cat "$tmp/obs.json" "$tmp/err")"
import json, sys
obs = json.loads(open(sys.argv[1]).readline())
chk = json.load(open(sys.argv[2]))["check"]["traffic"]
for d in (obs, chk):
    n = [n for n in d["nics"] if n["name"] == "enp1s0f0np0"]
    pids = [t["pid"] for t in n[0]["napi_threads"]] if n else []
    assert pids == [int(sys.argv[3])], (pids, sys.argv[3:])
PY

# 10. napi-get once per run: 8 threads, one dump for apply's writes and one
# for rollback (strace: generic netlink command 11 with NLM_F_DUMP)
known="$known $(threads)"
veth_ns "$ns3" 8
sleep 0.5
in3() { ip netns exec "$ns3" "$@"; }
dumps() { grep -c 'nlmsg_type=netdev, nlmsg_flags=NLM_F_REQUEST|0x300.*"\\x0b\\x01' "$1"; }
# pid and CPUs of each thread of plan $1
plan_cpus() { python3 - "$1" <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["plan"]["napi_threads"]:
    s = open("/proc/%d/status" % t["pid"]).read()
    print(t["pid"], [l.split()[1] for l in s.splitlines() if l.startswith("Cpus_allowed_list:")][0])
PY
}
in3 "$nn" --json plan --nics "$IF" --cpus 1 >"$tmp/plan3.json" 2>"$tmp/err"
plan_cpus "$tmp/plan3.json" >"$tmp/before3"
nt=$(wc -l <"$tmp/before3")
if [ "$nt" -lt 4 ]; then
	fail "8 queues: $nt threads planned: $(cat "$tmp/plan3.json" "$tmp/err")"
else
	in3 strace -f -qq -s 8 -e trace=sendto -o "$tmp/apply.st" "$nn" apply --plan "$tmp/plan3.json" \
		--state-dir "$run/state3" >"$tmp/out" 2>&1
	rc=$?
	n=$(dumps "$tmp/apply.st")
	[ "$rc" -eq 0 ] && [ "$n" -eq 2 ] && [ "$(plan_cpus "$tmp/plan3.json" | awk '$2 != "1"' | wc -l)" -eq 0 ] \
		&& pass "apply placed $nt NAPI threads with $n napi-get dumps (discovery, writes)" \
		|| fail "apply (exit $rc) of $nt NAPI threads: $n napi-get dumps: $(plan_cpus "$tmp/plan3.json"; cat "$tmp/out")"
	in3 strace -f -qq -s 8 -e trace=sendto -o "$tmp/rb.st" "$nn" rollback --state-dir "$run/state3" \
		>"$tmp/out" 2>&1
	rc=$?
	n=$(dumps "$tmp/rb.st")
	plan_cpus "$tmp/plan3.json" >"$tmp/after3"
	[ "$rc" -eq 0 ] && [ "$n" -eq 1 ] && cmp -s "$tmp/before3" "$tmp/after3" \
		&& pass "rollback put back $nt NAPI threads with $n napi-get dump" \
		|| fail "rollback (exit $rc) of $nt NAPI threads: $n napi-get dumps: $(diff "$tmp/before3" "$tmp/after3"; cat "$tmp/out")"
fi

[ "$fails" -eq 0 ] || exit 1
exit 0
