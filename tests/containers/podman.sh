#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/containers/podman.sh NICNUMA - the hooks.d entry with podman (suite 'containers')
#
# contrib/oci/50-nicnuma-claim.json and 50-nicnuma-crio.json (the path made
# this build's binary) in a private --hooks-dir; podman runs the busybox
# rootfs (--rootfs: no image, no registry) on CPU 1 with runc, in private
# --root/--runroot, while `nicnuma watch` keeps eth0 placed:
#   1. --annotation nicnuma.io/claim=true: the hook claims at prestart (the
#      record oci-ID, eth0's queue IRQs off CPU 1); `podman rm -f` releases
#      at poststop (record gone, IRQs back at the baseline);
#   2. --annotation irq-load-balancing.crio.io=disable: the same through
#      the CRI-O entry;
#   3. no annotation: podman does not run the hook at all (no record).
# Podman here: cgroupfs manager (no systemd as PID 1), file events, runc
# (crun refuses the hybrid cgroup layout), nofile/nproc ulimits below the
# hard limit of this machine. Needs root; exits 77 with the reason when
# podman cannot run a container here.
# shellcheck disable=SC2015  # pass/fail only print
set -uo pipefail

nn=$(readlink -f "${1:?usage: podman.sh NICNUMA}")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (podman, /proc/irq)"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to claim"; exit 77; }
oci_packages || { echo "skip: cannot install ${NN_CONTAINER_PACKAGES[*]}"; exit 77; }
for t in podman runc jq; do command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }; done
if pid=$(pgrep -r R,S,D -x irqbalance); then
	echo "skip: irqbalance (pid ${pid//$'\n'/,}) runs: the watcher refuses to share eth0's IRQs with it"
	exit 77
fi
mapfile -t irqs < <(oci_nic_irqs "$nn")
[ "${#irqs[@]}" -gt 0 ] || { echo "skip: eth0 has no queue IRQs here"; exit 77; }

cpu=1
run=$(mktemp -d /run/nicnuma-podman-test.XXXXXX) || exit 2
state=$run/state
watcher=
fails=0
cids=()
declare -A orig
for i in "${irqs[@]}"; do orig[$i]=$(cat "/proc/irq/$i/smp_affinity_list"); done
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
pm() {
	podman --root "$run/root" --runroot "$run/runroot" --runtime runc --cgroup-manager cgroupfs \
		--events-backend file --hooks-dir "$run/hooks.d" "$@"
}
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	local i
	[ -z "$watcher" ] || kill -9 "$watcher" 2>/dev/null
	pm rm -a -f >/dev/null 2>&1
	for i in "${cids[@]}"; do rm -f "/run/nicnuma/claims/oci-$i.json"; done
	oci_rollback "$nn" "$state"
	oci_forget_watcher "$run/conf"
	for i in "${irqs[@]}"; do echo "${orig[$i]}" >"/proc/irq/$i/smp_affinity_list" 2>/dev/null; done
	# podman's overlay/shm mounts below the private root
	grep -o "${run}[^ ]*" /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
	rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
wait_for() {
	local fn=$1 ms=$2 t=0
	while ! "$fn"; do
		[ "$t" -ge "$ms" ] && return 1
		sleep 0.005
		t=$((t + 5))
	done
}
off_cpu() { [ -z "$(oci_irqs_on "$cpu" "${irqs[@]}")" ]; }
at_base() { [ "$(oci_affinities "${irqs[@]}")" = "$base" ]; }
claims_of() { find /run/nicnuma/claims -name "oci-$1*.json" 2>/dev/null | wc -l; }

mkdir -p "$run/hooks.d" "$state"
for f in 50-nicnuma-claim.json 50-nicnuma-crio.json; do
	jq --arg nn "$nn" --arg state "$state" '.hook.path = $nn | .hook.args += ["--state-dir", $state]' \
		"$oci_top/contrib/oci/$f" >"$run/hooks.d/$f" || { echo "FAIL contrib/oci/$f"; exit 1; }
done
oci_rootfs "$run" || exit 2
pmrun() {
	pm run -d --name "$1" --network none --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
		--cpuset-cpus "$cpu" "${@:2}" --rootfs "$run/rootfs" sleep 1000
}
if ! pmrun nnt-probe >"$run/out" 2>&1 </dev/null; then
	echo "skip: podman cannot run a container here: $(head -c 300 "$run/out")"
	exit 77
fi
pm rm -f nnt-probe >/dev/null 2>&1

oci_conf "$nn" >"$run/conf" || { echo "skip: eth0 has no PCI address here"; exit 77; }
"$nn" watch --config "$run/conf" --state-dir "$state" --settle 10 >>"$run/watch.log" 2>&1 &
watcher=$!
if ! oci_watcher_ready "$watcher"; then
	# another test's watcher on this host (one per host: watch.lock)
	grep -q "another nicnuma watch is running" "$run/watch.log" \
		&& { echo "skip: $(grep -m1 "another nicnuma watch" "$run/watch.log")"; exit 77; }
	echo "FAIL the watcher did not start: $(tail -n 5 "$run/watch.log")"
	exit 1
fi
base=$(oci_affinities "${irqs[@]}")
[ -n "$(oci_irqs_on "$cpu" "${irqs[@]}")" ] \
	|| { echo "skip: the watcher's placement leaves CPU $cpu without eth0 IRQs ($base)"; exit 77; }

for ann in nicnuma.io/claim=true irq-load-balancing.crio.io=disable; do
	pmrun nnt-a --annotation "$ann" >"$run/out" 2>&1 </dev/null \
		|| { fail "podman run --annotation $ann: $(cat "$run/out")"; continue; }
	cid=$(pm inspect -f '{{.Id}}' nnt-a)
	cids+=("$cid")
	wait_for off_cpu 2000 && [ "$(claims_of "$cid")" -eq 1 ] \
		&& pass "podman --annotation $ann: claimed oci-${cid:0:12}..., IRQs off CPU $cpu" \
		|| fail "podman --annotation $ann: claims $(claims_of "$cid"), $(oci_affinities "${irqs[@]}")"
	pm rm -f nnt-a >"$run/out" 2>&1
	wait_for at_base 2000 && [ "$(claims_of "$cid")" -eq 0 ] \
		&& pass "podman rm -f: released at poststop, IRQs back ($base)" \
		|| fail "podman rm -f: claims $(claims_of "$cid"), $(oci_affinities "${irqs[@]}") (baseline $base)"
done

# no annotation: the hooks.d condition keeps the hook out
pmrun nnt-n >"$run/out" 2>&1 </dev/null
cid=$(pm inspect -f '{{.Id}}' nnt-n 2>/dev/null)
sleep 0.3
[ -n "$cid" ] && [ "$(claims_of "$cid")" -eq 0 ] && at_base && pass "no annotation: no hook, no claim" \
	|| fail "no annotation: claims $(claims_of "${cid:-x}"), $(oci_affinities "${irqs[@]}")"
pm rm -f nnt-n >/dev/null 2>&1

kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null; watcher=
[ "$fails" -eq 0 ] || { echo "--- watcher log (tail)"; tail -n 30 "$run/watch.log"; }
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
