#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/profiles.sh NICNUMA [full|kernel] - issue 28 in the 2node guest:
# coalescing, ring sizes and the NAPI settings on the NICs with real drivers
# (e1000e, vmxnet3), and apply --verify under traffic. Called by checks.sh
# in the boots that already happen (full: Debian 12's 6.1; kernel: 6.12);
# alone: scripts/testhost --shape 2node [--kernel 6.12] run bash
# tests/guest/profiles.sh /build/nicnuma/nicnuma full.
#
#  A. plan --profile throughput on both NICs: what each driver reports
#     (ethtool -c/-g) decides what is planned (the driver's maximum rings,
#     adaptive moderation where it has it); apply; ethtool reads every value
#     back; rollback: everything as found.
#  B. plan --profile latency --busy-poll 50: rx-usecs 0 where the driver has
#     it; the NAPI settings per NAPI only where the kernel's netdev family
#     lists napi-set (asked of the kernel here, never from its version), else
#     the device-wide files with nicnuma's note; irq-suspend-timeout, which
#     has no such file, not planned and said; apply; the files read back;
#     check (nicnuma's own read) finds the plan aligned; rollback puts them
#     back.
#  C. a plan with values each driver cannot hold (profiles_truth.py REFUSE)
#     beside the throughput plan's IRQs and RPS: each refused with the
#     driver's words (quoted in the PASS line), the rest applied, exit 1;
#     rollback: everything as found.
#  D. (full) apply --verify under fixed traffic into the local virtio NIC
#     (flood.py from the node-0 NIC over the host bridge): the right plan is
#     kept (its values in place, the verdict said; no share threshold, which
#     a few seconds' window on a loaded host cannot promise), a plan made
#     worse on purpose (--cpus on node 0) is rolled back by apply itself
#     (exit 1, every value as before it).
# One line per check: PASS name | FAIL name: why | SKIP name: why.
set -uo pipefail

[ "${NN_GUEST:-}" = 1 ] || { echo "profiles.sh: run me inside scripts/testhost" >&2; exit 2; }
nn=${1:?usage: profiles.sh NICNUMA [full|kernel]}
mode=${2:-full}
here=$(cd "$(dirname "$0")" && pwd)
truth() { python3 "$here/profiles_truth.py" "$@"; }
work=$(mktemp -d /tmp/profiles.XXXXXX)
fails=0
pass() { echo "PASS profiles: $*"; }
fail() { echo "FAIL profiles: $*"; fails=$((fails + 1)); }
skip() { echo "SKIP profiles: $*"; }
# judge CMD...: truth's PASS/FAIL lines, FAILs counted
judge() {
	local out line n=0
	out=$("$@" 2>&1)
	printf '%s\n' "$out"
	while IFS= read -r line; do
		case $line in FAIL*) fails=$((fails + 1)); n=$((n + 1)) ;; PASS*|SKIP*) n=$((n + 1)) ;; esac
	done <<<"$out"
	[ "$n" -gt 0 ] || fail "no verdict from $*"
}
netdev_of() { basename "$(ls -d /sys/bus/pci/devices/"$1"/virtio*/net/* /sys/bus/pci/devices/"$1"/net/* 2>/dev/null | head -n1)"; }
t0=$SECONDS

nics=()
for p in "${NN_GUEST_NIC_E1000E:-}" "${NN_GUEST_NIC_VMXNET3:-}"; do
	[ -n "$p" ] || continue
	d=$(netdev_of "$p")
	if [ -n "$d" ]; then nics+=("$d"); ip link set "$d" up; else fail "no netdev for $p"; fi
done
list=$(IFS=,; echo "${nics[*]}")
command -v ethtool >/dev/null || { fail "the guest has no ethtool to read values back with"; exit 1; }

# snap FILE: every value a plan here may change, read from the kernel (one
# grep for the files: a process costs tens of ms under TCG)
snap() {
	local d files=(/proc/irq/*/smp_affinity_list /proc/sys/net/core/rps_sock_flow_entries)
	for d in "${nics[@]}" ${vnic:+"$vnic"}; do
		files+=(/sys/class/net/"$d"/{threaded,napi_defer_hard_irqs,gro_flush_timeout}
			/sys/class/net/"$d"/queues/*/{rps_cpus,rps_flow_cnt,xps_cpus})
	done
	{
		grep -sH '' "${files[@]}"
		for d in "${nics[@]}" ${vnic:+"$vnic"}; do
			echo "ethtool -c $d:"; ethtool -c "$d" 2>&1
			echo "ethtool -g $d:"; ethtool -g "$d" 2>&1
		done
	} >"$1"
}
# same LABEL A B: the two snapshots are equal
same() {
	if cmp -s "$2" "$3"; then pass "$1: every value as found (IRQs, RPS/XPS, NAPI files, ethtool -c/-g)"
	else fail "$1: values differ: $(diff "$2" "$3" | grep '^[<>]' | head -6 | tr '\n' ' ')"; fi
}
# nn_run NAME WANT_RC... -- ARGS: nicnuma ARGS into $work/NAME.{out,err}
nn_run() {
	local name=$1 w rc ok=0; shift
	local want=()
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	local t=$SECONDS
	"$nn" "$@" >"$work/$name.out" 2>"$work/$name.err"; rc=$?
	for w in "${want[@]}"; do [ "$rc" -eq "$w" ] && ok=1; done
	if [ "$ok" = 1 ]; then pass "$name: nicnuma $* exit $rc ($((SECONDS - t)) s)"; return 0; fi
	fail "$name: nicnuma $* exit $rc (wanted ${want[*]}): $(tail -n 4 "$work/$name.err" | tr '\n' ' ')"
	return 1
}

if [ ${#nics[@]} -eq 0 ]; then
	fail "no e1000e or vmxnet3 NIC in this guest"
else
	vnic=
	printf '\n== profiles on %s (%s)\n' "$list" "$(uname -r)" >&2
	snap "$work/found"
	# as ethtool reads them; every section starts from here (rollback
	# puts it back, checked each time)
	truth live "${nics[@]}" >"$work/live.json"

	# ---- A. throughput ----
	if nn_run plan-throughput 0 1 -- --json plan --nics "$list" --profile throughput; then
		judge truth plan "$work/plan-throughput.out" throughput "${nics[@]}"
		if nn_run apply-throughput 0 -- --json apply --plan "$work/plan-throughput.out" --irqbalance ignore; then
			judge truth applied "$work/apply-throughput.out" "$work/live.json" "throughput"
		fi
		nn_run rollback-throughput 0 -- rollback
		snap "$work/now"; same "throughput rollback" "$work/found" "$work/now"
	fi

	echo "profiles: throughput done at $((SECONDS - t0)) s"

	# ---- B. latency, the NAPI settings ----
	if nn_run plan-latency 0 1 -- --json plan --nics "$list" --profile latency --busy-poll 50; then
		judge truth plan "$work/plan-latency.out" latency "${nics[@]}"
		if nn_run apply-latency 0 -- --json apply --plan "$work/plan-latency.out" --irqbalance ignore; then
			judge truth applied "$work/apply-latency.out" "$work/live.json" "latency"
			nn_run check-latency 0 -- check --plan "$work/plan-latency.out"
		fi
		nn_run rollback-latency 0 -- rollback
		snap "$work/now"; same "latency rollback" "$work/found" "$work/now"
	fi

	echo "profiles: latency done at $((SECONDS - t0)) s"

	# ---- C. refusals ----
	if [ -s "$work/plan-throughput.out" ]; then
		truth refuse "$work/plan-throughput.out" "$work/plan-refuse.json" "${nics[@]}"
		if nn_run apply-refused 1 -- --json apply --plan "$work/plan-refuse.json" --irqbalance ignore; then
			judge truth applied "$work/apply-refused.out" "$work/live.json" "refused" refused
		fi
		nn_run rollback-refused 0 -- rollback
		snap "$work/now"; same "refused rollback" "$work/found" "$work/now"
	fi
fi

echo "profiles: refusals done at $((SECONDS - t0)) s"

# ---- D. apply --verify under traffic ----
if [ "$mode" != full ]; then
	skip "verify: the $(uname -r) pass is the short one (the 6.1 full pass runs apply --verify under traffic)"
else
	vnic=$(netdev_of "$NN_GUEST_NIC_LOCAL")
	src=$(netdev_of "$NN_GUEST_NIC_NODE0")
	node0=$(cat /sys/devices/system/node/node0/cpulist)
	secs=${NN_VERIFY_SECONDS:-3}
	printf '\n== apply --verify on %s under traffic from %s\n' "$vnic" "$src" >&2
	ip link set "$vnic" up; ip link set "$src" up
	mac=$(cat "/sys/class/net/$vnic/address")
	nics=()	# the snapshots: the local NIC's values only (a process each costs)
	# verify NAME WANT_RC ARGS: apply --verify under a flood that outlasts both windows
	verify() {
		local name=$1 rc_want=$2 fl; shift 2
		python3 "$here/flood.py" "$src" "$mac" 120 100000000 >"$work/$name.sent" 2>"$work/$name.flood.err" &
		fl=$!
		sleep 1
		nn_run "$name" "$rc_want" -- --json apply --nics "$vnic" --irqbalance ignore --verify "$secs" "$@"
		kill "$fl" 2>/dev/null; wait "$fl" 2>/dev/null
	}
	snap "$work/v-found"
	# from the kernel's own spread: the right plan raises the share: kept
	verify verify-keep 0
	judge truth verify "$work/verify-keep.out" kept "verify, the right plan"
	snap "$work/v-kept"
	if cmp -s "$work/v-found" "$work/v-kept"; then fail "verify: the kept plan changed nothing"; fi
	# from there, IRQs on the wrong node: the share falls: rolled back by apply
	verify verify-worse 1 --cpus "$node0"
	judge truth verify "$work/verify-worse.out" rolled_back "verify, --cpus $node0 (node 0)"
	snap "$work/v-worse"
	same "verify, the worse plan rolled back by apply" "$work/v-kept" "$work/v-worse"
	nn_run rollback-verify 0 -- rollback
	snap "$work/now"; same "verify rollback" "$work/v-found" "$work/now"
fi

echo "profiles: $((SECONDS - t0)) s in all"
# nicnuma's answers for a look afterwards (scripts/testhost --out)
if [ -d "${NN_OUT:-}" ] && mkdir -p "$NN_OUT/profiles-$(uname -r)"; then
	cp "$work"/*.out "$work"/*.err "$work"/*.json "$NN_OUT/profiles-$(uname -r)/" 2>/dev/null
fi
rm -rf "$work"
[ "$fails" -eq 0 ]
