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

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
oci_setup "$(readlink -f "${1:?usage: podman.sh NICNUMA}")" podman podman runc jq
cids=()
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
	# podman's overlay/shm mounts below the private root
	grep -o "${run}[^ ]*" /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
	oci_restore
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM
off_cpu() { [ -z "$(oci_irqs_on "$cpu" "${irqs[@]}")" ]; }
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
oci_first_watcher
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
