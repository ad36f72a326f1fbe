#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/napi_dumps.sh NICNUMA - apply and rollback ask napi-get once per run, not once per thread (suite 'live')
#
# In a private network namespace, a veth with 8 queues, GRO on and threaded
# NAPI: 8 kthreads. nicnuma places them on CPU 1 and rolls them back under
# strace, which counts the netdev napi-get dump requests (generic netlink
# command 11 with NLM_F_DUMP) each run sends: apply one for its discovery
# and one for the writes (nn_napi_answers), rollback one, whatever the number
# of threads (before: one per thread). Every thread still placed and put back.
# Needs root, ip, ethtool, strace, python3, 2 CPUs; exits 77 with the reason otherwise.
# shellcheck disable=SC2015  # pass/fail only print: "A && pass || fail" is if-then-else here
set -uo pipefail

nn=${1:?usage: napi_dumps.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (netns, sched_setaffinity)"; exit 77; }
for t in ip ethtool strace python3; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }
done
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to move"; exit 77; }

ns=napidumps-$$
IF=enp2s0f0np0
nq=8
tmp=$(mktemp -d "${TMPDIR:-/tmp}/napi-dumps.XXXXXX") || exit 2
run=$(mktemp -d /run/nicnuma-napi-dumps.XXXXXX) || exit 2
state=$run/state
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	ip netns del "$ns" 2>/dev/null
	rm -rf "$tmp" "$run"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
inns() { ip netns exec "$ns" "$@"; }
# napi-get dump requests in an strace log of sendto
dumps() { grep -c 'nlmsg_type=netdev, nlmsg_flags=NLM_F_REQUEST|0x300.*"\\x0b\\x01' "$1"; }
cpus() { python3 - "$tmp/plan.json" <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["plan"]["napi_threads"]:
    s = open("/proc/%d/status" % t["pid"]).read()
    print(t["pid"], [l.split()[1] for l in s.splitlines() if l.startswith("Cpus_allowed_list:")][0])
PY
}

ip netns add "$ns" || { echo "skip: cannot create a network namespace"; exit 77; }
inns ip link add "$IF" numrxqueues $nq numtxqueues $nq type veth peer name vB numrxqueues $nq numtxqueues $nq \
	|| { echo "skip: no veth"; exit 77; }
inns ip link set lo up
inns ip link set "$IF" up
inns ip link set vB up
inns ethtool -K "$IF" gro on >/dev/null 2>&1
inns sh -c "echo 1 >/sys/class/net/$IF/threaded" 2>/dev/null || { echo "skip: this kernel does not thread veth's NAPI"; exit 77; }
sleep 0.5
inns "$nn" --json plan --nics "$IF" --cpus 1 >"$tmp/plan.json" 2>"$tmp/err"
rc=$?	# 1: warnings (a veth has no IRQs)
[ "$rc" -le 1 ] || { fail "plan (exit $rc): $(cat "$tmp/err")"; exit 1; }
nt=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["plan"]["napi_threads"]))' "$tmp/plan.json")
[ "$nt" -ge 4 ] || { echo "skip: only $nt threaded NAPIs appeared"; exit 77; }
cpus >"$tmp/before"

inns strace -f -qq -s 8 -e trace=sendto -o "$tmp/apply.st" "$nn" apply --plan "$tmp/plan.json" --state-dir "$state" \
	>"$tmp/out" 2>&1
rc=$?
n=$(dumps "$tmp/apply.st")
[ "$rc" -eq 0 ] && [ "$n" -eq 2 ] && pass "apply of $nt NAPI threads: $n napi-get dumps (discovery, writes)" \
	|| fail "apply (exit $rc) of $nt NAPI threads: $n napi-get dumps: $(cat "$tmp/out")"
[ "$(cpus | awk '$2 != "1"' | wc -l)" -eq 0 ] && pass "every thread on CPU 1" || fail "not on CPU 1: $(cpus)"

inns strace -f -qq -s 8 -e trace=sendto -o "$tmp/rb.st" "$nn" rollback --state-dir "$state" >"$tmp/out" 2>&1
rc=$?
n=$(dumps "$tmp/rb.st")
[ "$rc" -eq 0 ] && [ "$n" -eq 1 ] && pass "rollback of $nt NAPI threads: $n napi-get dump" \
	|| fail "rollback (exit $rc) of $nt NAPI threads: $n napi-get dumps: $(cat "$tmp/out")"
cpus >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && pass "every thread back on its CPUs" \
	|| fail "not restored: $(diff "$tmp/before" "$tmp/after")"
exit $((fails > 0))
