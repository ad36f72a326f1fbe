#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/containers/runc.sh NICNUMA - the OCI hook with real runc containers (suite 'containers')
#
# A busybox-static bundle on CPU 1 with the hook in config.json
# (createRuntime claims, poststop releases) and nicnuma.io/claim: true, while
# `nicnuma watch` keeps eth0 placed (desired state: eth0, policy local):
#   1. baseline: the watcher's placement of eth0's IRQs with no claim;
#   2. NN_OCI_SERIAL containers (default 25; the issue's 200 with
#      NN_OCI_SERIAL=200) started and deleted in a row: after each start no
#      eth0 IRQ (nor NAPI kthread, when eth0 has threaded NAPI) is on CPU 1
#      and the claim oci-ID is recorded; after each delete the IRQs are back
#      at the baseline and the record is gone;
#   3. NN_OCI_PARALLEL (default 20) started at once, then deleted at once;
#   4. a container SIGKILLed and left undeleted (no poststop) while the
#      watcher is SIGKILLed too: a new watcher finds the record's owner gone,
#      prunes it and puts the IRQs back;
#   5. the watcher SIGKILLed while a claim holds: a new watcher keeps the
#      IRQs off the claimed CPU until the container is deleted;
#   6. an unannotated container claims nothing; crun, where it can run.
# Only eth0's queue IRQs (nicnuma nics) are looked at; the watcher writes
# only those. Everything is put back by the EXIT trap.
# Needs root, runc, jq, busybox-static, 2 CPUs; exits 77 with the reason otherwise.
# shellcheck disable=SC2015  # pass/fail only print
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
oci_setup "$(readlink -f "${1:?usage: runc.sh NICNUMA}")" runc runc jq

serial=${NN_OCI_SERIAL:-25}
parallel=${NN_OCI_PARALLEL:-20}
[ "$serial" -eq 200 ] && [ "$parallel" -eq 20 ] \
	|| echo "note: $serial starts in a row and $parallel at once (the issue's counts: NN_OCI_SERIAL=200 NN_OCI_PARALLEL=20)"
rroot=$run/runc
rr() { runc --root "$rroot" "$@"; }
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	local id
	[ -z "$watcher" ] || kill -9 "$watcher" 2>/dev/null
	for id in $(rr list -q 2>/dev/null); do rr delete -f "$id" >/dev/null 2>&1; done
	rm -f /run/nicnuma/claims/oci-nnt-* 2>/dev/null
	oci_restore
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

off_cpu() { [ -z "$(oci_irqs_on "$cpu" "${irqs[@]}")" ] && [ -z "$(oci_napi_on "$cpu")" ]; }
has_record() { [ -e "/run/nicnuma/claims/oci-$1.json" ]; }

oci_conf "$nn" >"$run/conf" || { echo "skip: eth0 has no PCI address here"; exit 77; }
mkdir -p "$state" "$rroot"
oci_rootfs "$run/b" || { echo "FAIL cannot build the rootfs"; exit 1; }
oci_bundle "$run/b" "$nn" "$state" "$cpu" '{"nicnuma.io/claim":"true"}' \
	|| { echo "FAIL cannot write config.json"; exit 1; }

# 1. baseline: the watcher's placement with no claim
oci_first_watcher
[ -n "$(oci_irqs_on "$cpu" "${irqs[@]}")" ] && pass "baseline: $base (CPU $cpu takes IRQs)" \
	|| { echo "skip: the watcher's placement leaves CPU $cpu without eth0 IRQs ($base): nothing to move off"; exit 77; }
napi=$(oci_napi_on "$cpu")
[ -n "$napi" ] || echo "note: eth0 has no threaded NAPI here (threaded=$(cat /sys/class/net/eth0/threaded)): IRQs only"

# 2. in a row
bad=0 t_claim=0 t_back=0
for n in $(seq 1 "$serial"); do
	id=nnt-s$n
	t0=$(date +%s%N)
	if ! rr run -d --bundle "$run/b" "$id" >"$run/out" 2>&1 </dev/null; then
		fail "start $n: $(cat "$run/out")"; bad=$((bad + 1)); continue
	fi
	if ! wait_for off_cpu 2000 || ! has_record "$id"; then
		fail "start $n: IRQs on CPU $cpu: $(oci_irqs_on "$cpu" "${irqs[@]}") record: $(ls /run/nicnuma/claims 2>&1)"
		bad=$((bad + 1))
	fi
	t1=$(date +%s%N)
	t_claim=$((t_claim + (t1 - t0) / 1000000))
	rr delete -f "$id" >"$run/out" 2>&1
	if ! wait_for at_base 2000 || has_record "$id"; then
		fail "stop $n: $(oci_affinities "${irqs[@]}") (baseline $base), record left: $(has_record "$id" && echo yes || echo no)"
		bad=$((bad + 1))
	fi
	t_back=$((t_back + ($(date +%s%N) - t1) / 1000000))
	[ "$bad" -gt 5 ] && break
done
[ "$bad" -eq 0 ] && pass "$serial containers in a row: IRQs off CPU $cpu after each start (mean $((t_claim / serial)) ms from runc run), back after each delete (mean $((t_back / serial)) ms)"

# 3. at once
pids=()
for n in $(seq 1 "$parallel"); do rr run -d --bundle "$run/b" "nnt-p$n" >"$run/out.p$n" 2>&1 </dev/null & pids+=($!); done
wait "${pids[@]}"
up=$(rr list -q | grep -c '^nnt-p')
recs=$(find /run/nicnuma/claims -name 'oci-nnt-p*.json' 2>/dev/null | wc -l)
wait_for off_cpu 2000 && [ "$up" -eq "$parallel" ] && [ "$recs" -eq "$parallel" ] \
	&& pass "$parallel at once: all running, $recs claims, IRQs off CPU $cpu" \
	|| fail "$parallel at once: $up running, $recs claims, on CPU $cpu: $(oci_irqs_on "$cpu" "${irqs[@]}")"
pids=()
for n in $(seq 1 "$parallel"); do rr delete -f "nnt-p$n" >/dev/null 2>&1 & pids+=($!); done
wait "${pids[@]}"
recs=$(find /run/nicnuma/claims -name 'oci-nnt-p*.json' 2>/dev/null | wc -l)
wait_for at_base 3000 && [ "$recs" -eq 0 ] && pass "$parallel deleted at once: no claim left, IRQs back ($base)" \
	|| fail "$parallel deleted: $recs claims left, $(oci_affinities "${irqs[@]}") (baseline $base)"

# 4. SIGKILL of a container (no poststop runs) and of the watcher
rr run -d --bundle "$run/b" nnt-k1 >"$run/out" 2>&1 </dev/null
wait_for off_cpu 2000 || fail "nnt-k1 did not claim: $(cat "$run/out")"
kill -9 "$watcher"; wait "$watcher" 2>/dev/null; watcher=
kill -9 "$(rr state nnt-k1 | jq .pid)"
sleep 0.2
has_record nnt-k1 || fail "the record of nnt-k1 went before any watcher saw its owner die"
oci_start_watcher
wait_for at_base 4000 && ! has_record nnt-k1 \
	&& pass "container and watcher SIGKILLed: the new watcher pruned oci-nnt-k1 and put the IRQs back" \
	|| fail "after SIGKILLs: record $(has_record nnt-k1 && echo left || echo gone), $(oci_affinities "${irqs[@]}") (baseline $base)"
rr delete -f nnt-k1 >/dev/null 2>&1

# 5. the watcher SIGKILLed while a claim holds: the next one keeps it
rr run -d --bundle "$run/b" nnt-k2 >"$run/out" 2>&1 </dev/null
wait_for off_cpu 2000 || fail "nnt-k2 did not claim: $(cat "$run/out")"
kill -9 "$watcher"; wait "$watcher" 2>/dev/null; watcher=
oci_start_watcher
oci_watcher_ready "$watcher" || fail "the restarted watcher did not reconcile: $(tail -n 5 "$run/watch.log")"
off_cpu && has_record nnt-k2 && pass "watcher SIGKILLed and restarted: the claim of nnt-k2 holds" \
	|| fail "after the watcher's restart: $(oci_affinities "${irqs[@]}"), record $(has_record nnt-k2 && echo yes || echo no)"
rr delete -f nnt-k2 >/dev/null 2>&1
wait_for at_base 2000 && ! has_record nnt-k2 && pass "nnt-k2 deleted: released" \
	|| fail "nnt-k2 deleted: $(oci_affinities "${irqs[@]}"), record $(has_record nnt-k2 && echo left || echo gone)"

# 6. no annotation: no claim, and the hook still says why
oci_bundle "$run/u" "$nn" "$state" "$cpu" '{}' >/dev/null && cp -a "$run/b/rootfs" "$run/u/" 2>/dev/null
rr run -d --bundle "$run/u" nnt-u1 >"$run/out" 2>&1 </dev/null \
	&& sleep 0.3 && ! has_record nnt-u1 && [ "$(oci_affinities "${irqs[@]}")" = "$base" ] \
	&& pass "an unannotated container claims nothing" \
	|| fail "unannotated: $(cat "$run/out"), record $(has_record nnt-u1 && echo yes || echo no)"
rr delete -f nnt-u1 >/dev/null 2>&1

# crun: the same bundle, where crun can run at all
if command -v crun >/dev/null; then
	if crun --root "$run/crun" run -d --bundle "$run/b" nnt-c1 >"$run/out" 2>&1 </dev/null; then
		wait_for off_cpu 2000 && has_record nnt-c1 && pass "crun: the hook claimed" || fail "crun: no claim"
		crun --root "$run/crun" delete -f nnt-c1 >/dev/null 2>&1
		wait_for at_base 2000 && ! has_record nnt-c1 && pass "crun: released" || fail "crun: not released"
	else
		echo "note: crun cannot run a container here: $(head -c 200 "$run/out") (hybrid cgroups: crun wants a pure v1 or v2 hierarchy)"
	fi
fi

kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null; watcher=
left=$(find /run/nicnuma/claims -name 'oci-nnt-*.json' 2>/dev/null | wc -l)
[ "$left" -eq 0 ] && pass "no claim of this test left behind" || fail "$left claims left behind"
[ "$fails" -eq 0 ] || { echo "--- watcher log (tail)"; tail -n 30 "$run/watch.log"; }
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
