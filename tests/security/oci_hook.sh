#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/security/oci_hook.sh NICNUMA - `nicnuma hook` against hostile input (suite security)
#
# The runtime hands the hook whatever a container's creator wrote: the
# annotations and the cpuset come from them, the state from the runtime.
# Each case runs the hook as root on the live host (that is where it runs)
# with a private bundle, and checks that it exits 0 (a hook never stops a
# container), says why on stderr, records no claim and moves no IRQ:
#   not JSON, not UTF-8, 2 MiB of state, 40-deep nesting, a pid that is a
#   string, out of range, or no process, a missing pid, an id that is a
#   path, a cpuset of 10^8 CPUs, CPUs that do not exist (0-4095), a
#   config.json that is a FIFO (no hang), one of 9 MiB, a state that never
#   ends (the deadline, bounded), a bad --stage, a Burstable pod's container
#   and one with part of a CPU (only what CRI-O would isolate claims);
# and the same valid, annotated state run by `nobody`: refused (not root),
# nothing recorded. The last case runs it as root: it claims (the check can
# tell), at SCHED_FIFO 1 with reset-on-fork from its start until the
# record is written, then back (strace); poststop leaves the claim while its process lives (another
# container took the name) and releases it once the process is gone.
# shellcheck disable=SC2015  # ok/bad only print
set -uo pipefail

nn=$(realpath "${1:?usage: oci_hook.sh NICNUMA}")
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (nobody is the attacker)"; exit 77; }
for t in setpriv timeout python3 strace; do command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }; done
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: a claim of CPU 1 cannot be made"; exit 77; }
tmp=$(mktemp -d /tmp/nn-ocihook.XXXXXX) || exit 2
chmod 0755 "$tmp"
owner=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -z "$owner" ] || kill "$owner" 2>/dev/null
	rm -f /run/nicnuma/claims/oci-nnsec-*.json
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*"; fail=1; }
irqs_now() { cat /proc/irq/[0-9]*/smp_affinity_list 2>/dev/null | md5sum; }
records() { find /run/nicnuma/claims -name 'oci-nnsec-*.json' 2>/dev/null | wc -l; }

sleep 1000 &
owner=$!
mkdir -p "$tmp/b" "$tmp/state"
printf '{"annotations":{"nicnuma.io/claim":"true"},"linux":{"resources":{"cpu":{"cpus":"1"}}}}' >"$tmp/b/config.json"
state() { printf '{"ociVersion":"1.0.2","id":"nnsec-%s","status":"creating","pid":%s,"bundle":"%s"}' "$1" "$2" "$3"; }

# refused STDIN_FILE EXPECTED_TEXT DESCRIPTION [HOOK ARGS...]
refused() {
	local in=$1 want=$2 what=$3 before rc t0 t1
	shift 3
	before=$(irqs_now)
	t0=$(date +%s%N)
	timeout 20 "$nn" hook --state-dir "$tmp/state" "$@" <"$in" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	t1=$(date +%s%N)
	if [ "$rc" -eq 0 ] && grep -q -- "$want" "$tmp/err" && [ "$(records)" -eq 0 ] && [ "$(irqs_now)" = "$before" ]; then
		ok "$what: exit 0 in $(((t1 - t0) / 1000000)) ms, says '$want', nothing recorded or moved"
	else
		bad "$what: exit $rc, records $(records), IRQs $([ "$(irqs_now)" = "$before" ] && echo same || echo CHANGED)"
		sed 's/^/    /' "$tmp/err"
	fi
}

printf 'not json' >"$tmp/s1"; refused "$tmp/s1" "is not JSON" "not JSON"
printf '{"ociVersion":"1.0.2","id":"nnsec-u\xff","status":"creating"}' >"$tmp/s2"; refused "$tmp/s2" "not JSON" "not UTF-8"
python3 -c 'import sys; sys.stdout.write("{\"a\":\"" + "x" * (2 << 20) + "\"}")' >"$tmp/s3"
refused "$tmp/s3" "larger than 1 MiB" "2 MiB of state"
python3 -c 'import sys; sys.stdout.write("[" * 40 + "]" * 40)' >"$tmp/s4"; refused "$tmp/s4" "not JSON" "40-deep nesting"
printf '{"ociVersion":"1","id":"nnsec-p","status":"creating","pid":"%s","bundle":"%s"}' "$owner" "$tmp/b" >"$tmp/s5"
refused "$tmp/s5" "not an integer" "a pid that is a string"
state p2 99999999 "$tmp/b" >"$tmp/s6"; refused "$tmp/s6" "out of range" "a pid out of range"
state p3 4194000 "$tmp/b" >"$tmp/s7"; refused "$tmp/s7" "no such process" "a pid of no process"
printf '{"ociVersion":"1","id":"nnsec-np","status":"creating","bundle":"%s"}' "$tmp/b" >"$tmp/s8"
refused "$tmp/s8" "no pid" "a missing pid"
printf '{"ociVersion":"1","id":"../../etc/x","status":"creating","pid":%s,"bundle":"%s"}' "$owner" "$tmp/b" >"$tmp/s9"
refused "$tmp/s9" "cannot name a claim" "an id that is a path"
mkdir -p "$tmp/big" "$tmp/none" "$tmp/fifo" "$tmp/huge"
printf '{"annotations":{"nicnuma.io/claim":"true"},"linux":{"resources":{"cpu":{"cpus":"0-99999999"}}}}' >"$tmp/big/config.json"
state c1 "$owner" "$tmp/big" >"$tmp/s10"; refused "$tmp/s10" "no cpulist" "a cpuset of 10^8 CPUs"
printf '{"annotations":{"nicnuma.io/claim":"true"},"linux":{"resources":{"cpu":{"cpus":"0-4095"}}}}' >"$tmp/none/config.json"
state c2 "$owner" "$tmp/none" >"$tmp/s11"; refused "$tmp/s11" "not online CPUs" "CPUs that do not exist"
mkfifo "$tmp/fifo/config.json"
state c3 "$owner" "$tmp/fifo" >"$tmp/s12"; refused "$tmp/s12" "not a regular file\|Operation not supported" "config.json a FIFO"
python3 -c 'import sys; sys.stdout.write("{\"a\":\"" + "x" * (9 << 20) + "\"}")' >"$tmp/huge/config.json"
state c4 "$owner" "$tmp/huge" >"$tmp/s13"; refused "$tmp/s13" "larger than its bound" "a 9 MiB config.json"
state d1 "$owner" "$tmp/b" >"$tmp/s14"; refused "$tmp/s14" "no OCI hook stage" "a bad --stage" --stage PostStop
# what CRI-O would not isolate (issue 36): a Burstable pod's container, a
# Guaranteed one with part of a CPU
mkdir -p "$tmp/burst" "$tmp/part"
printf '{"annotations":{"irq-load-balancing.crio.io":"disable"},"linux":{"cgroupsPath":"kubepods-burstable-pod1.slice:crio:c5","resources":{"cpu":{"cpus":"1","shares":102}}}}' >"$tmp/burst/config.json"
state c5 "$owner" "$tmp/burst" >"$tmp/s16"; refused "$tmp/s16" "a Burstable pod's container" "a Burstable pod's container"
printf '{"annotations":{"irq-load-balancing.crio.io":"disable"},"linux":{"cgroupsPath":"kubepods-pod1.slice:crio:c6","resources":{"cpu":{"cpus":"1","shares":1536,"quota":150000,"period":100000}}}}' >"$tmp/part/config.json"
state c6 "$owner" "$tmp/part" >"$tmp/s17"; refused "$tmp/s17" "not a multiple of 1024" "a Guaranteed container with 1.5 CPUs"
# a state that never ends: bounded by the deadline, not by the writer
before=$(irqs_now)
t0=$(date +%s%N)
timeout 20 "$nn" hook --deadline-ms 300 < <(sleep 5) >"$tmp/out" 2>"$tmp/err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$rc" -eq 0 ] && [ "$ms" -lt 2000 ] && grep -q "deadline passed" "$tmp/err" && [ "$(records)" -eq 0 ] \
	&& ok "a state that never ends (the writer holds stdin 5 s): exit 0 after $ms ms (--deadline-ms 300)" \
	|| bad "endless state: exit $rc after $ms ms: $(cat "$tmp/err")"

# nobody runs the hook with a valid, annotated state: refused, nothing recorded
state n1 "$owner" "$tmp/b" >"$tmp/s15"
chmod 0644 "$tmp"/s15 "$tmp/b/config.json"
before=$(irqs_now)
setpriv --reuid=65534 --regid=65534 --clear-groups timeout 20 "$nn" hook --state-dir "$tmp/state" \
	<"$tmp/s15" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "only root" "$tmp/err" && [ "$(records)" -eq 0 ] && [ "$(irqs_now)" = "$before" ] \
	&& ok "nobody: exit 0, 'only root may claim', nothing recorded or moved" \
	|| { bad "nobody: exit $rc, records $(records)"; sed 's/^/    /' "$tmp/err"; }

# root, the same state: it does claim (so the refusals above are not a
# hook that never claims), and poststop releases
timeout 20 strace -qq -e trace=sched_setscheduler,rename,renameat,renameat2 -o "$tmp/st" \
	"$nn" hook --state-dir "$tmp/state" <"$tmp/s15" >"$tmp/out" 2>"$tmp/err"
[ -e /run/nicnuma/claims/oci-nnsec-n1.json ] && ok "root: the same state claims oci-nnsec-n1" \
	|| { bad "root: no claim"; sed 's/^/    /' "$tmp/err" "$tmp/out"; }
# the hook's turn on a loaded host (docs/oci-hook.md): raised before the
# record's write, reset on fork (the re-apply child does not inherit it),
# dropped after
at() { grep -nE "$1" "$tmp/st" | head -n 1 | cut -d: -f1 | grep . || echo 0; }
r=$(at 'sched_setscheduler\(0, (0x40000001 /\* SCHED_\?\?\? \*/|SCHED_FIFO\|SCHED_RESET_ON_FORK), \[1\]\) = 0')
w=$(at 'rename.*"oci-nnsec-n1\.json"') d=$(at 'sched_setscheduler\(0, SCHED_OTHER, \[0\]\) = 0')
[ "$r" -gt 0 ] && [ "$w" -gt "$r" ] && [ "$d" -gt "$w" ] \
	&& ok "root: the hook ran at SCHED_FIFO 1 (reset on fork) until its record was written, then dropped it" \
	|| { bad "root: the hook's class: raise $r, record $w, drop $d"; sed 's/^/    /' "$tmp/st"; }
# poststop releases oci-ID only when the record's process is gone: while
# it lives (pid and start time) the name is another container's now
printf '{"ociVersion":"1.0.2","id":"nnsec-n1","status":"stopped","pid":%s}' "$owner" >"$tmp/s18"
timeout 20 "$nn" hook --state-dir "$tmp/state" <"$tmp/s18" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ -e /run/nicnuma/claims/oci-nnsec-n1.json ] && grep -q "a living process" "$tmp/err" \
	&& ok "poststop while the record's process lives: not released, says why" \
	|| { bad "poststop beside a living owner: exit $rc"; sed 's/^/    /' "$tmp/err"; }
kill "$owner"
wait "$owner" 2>/dev/null
owner=
printf '{"ociVersion":"1.0.2","id":"nnsec-n1","status":"stopped"}' | timeout 20 "$nn" hook --state-dir "$tmp/state" >/dev/null 2>&1
[ ! -e /run/nicnuma/claims/oci-nnsec-n1.json ] && ok "poststop after the process ended released it" \
	|| bad "poststop left the claim"
exit "$fail"
