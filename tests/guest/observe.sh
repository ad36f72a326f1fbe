#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/observe.sh - nicnuma observe proves the work moved, on a real
# kernel (run by checks.sh on the 2node guest; alone: scripts/testhost --shape
# 2node run bash tests/guest/observe.sh).
#
# Bounded traffic into the node-N NIC's tap: raw UDP frames (varied ports, so
# RSS spreads them over its queues) sent out of the node-0 NIC to the local
# NIC's MAC; the bridge of scripts/testhost carries them from tap to tap,
# nothing leaves the host. `observe` measures the local NIC's interrupt work
# per node:
#   before apply        reported (spread over both nodes where the kernel
#                       spread the queue IRQs; a SKIP says when it did not)
#   after apply         >= 95 % on the NIC's node
#   after a mismatched  apply --cpus <node 0's CPUs>: <= 5 % on it
#   after rollback x2   the affinities of before, and the share reported
# One line per check: PASS name | FAIL name: why | SKIP name: why.
set -uo pipefail

[ "${NN_GUEST:-}" = 1 ] || { echo "observe.sh: run me inside scripts/testhost" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
nn=$NN_BUILD/nicnuma/nicnuma
node=$NN_GUEST_NIC_NODE
netdev_of() { basename "$(ls -d /sys/bus/pci/devices/"$1"/virtio*/net/* 2>/dev/null | head -n1)"; }
nic=$(netdev_of "$NN_GUEST_NIC_LOCAL")
src=$(netdev_of "$NN_GUEST_NIC_NODE0")
work=$(mktemp -d /tmp/observe.XXXXXX)
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
skip() { echo "SKIP $*"; }

if [ -z "$nic" ] || [ -z "$src" ]; then
	fail "observe: no local NIC ($nic) or sender NIC ($src) in this guest"
	exit 1
fi
ip link set "$nic" up
ip link set "$src" up
mac=$(cat "/sys/class/net/$nic/address")

# measure LABEL: the flood around one 4 s interval of observe; prints the
# local NIC's irq_local_ratio and the nodes that took interrupts. observe
# starts once the flood says it runs, and the flood stops when observe is
# done (30 s at most): a 7 s flood and a fixed 1 s sleep once measured 0
# IRQ/s (29531 frames sent) in the systemd-booted 6.12 guest at load 13,
# whichever of the two starts was late.
measure() {
	local fl i
	python3 "$here/flood.py" "$src" "$mac" 30 >"$work/$1.sent" 2>"$work/$1.flood.err" &
	fl=$!
	for ((i = 0; i < 300; i++)); do grep -q flooding "$work/$1.flood.err" && break; sleep 0.1; done
	echo "observe: $1: the flood started after $((i / 10)).$((i % 10)) s" >&2
	sleep 0.5
	"$nn" observe "$nic" --count 1 --interval 4 --json >"$work/$1.json" 2>"$work/$1.err"
	kill -TERM "$fl" 2>/dev/null
	wait "$fl"
	python3 - "$work/$1.json" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
n = d["nics"][0]
nodes = sorted({c["numa_node"] for q in n["queues"] for c in q["cpus"]})
r = n["irq_local_ratio"]
print("%s %.0f %s" % ("none" if r is None else "%.4f" % r, n["irqs_per_s"], ",".join(map(str, nodes)) or "-"))
EOF
}

snap_aff() {
	for f in /proc/irq/*/smp_affinity_list; do printf '%s %s\n' "$f" "$(cat "$f")"; done
}

snap_aff >"$work/aff.before"
read -r r0 rate0 nodes0 <<<"$(measure before)"
echo "observe: before apply $nic (node $node): irq_local_ratio $r0 at $rate0 IRQ/s, nodes $nodes0 (sent $(cat "$work/before.sent"))"
if [ "$rate0" = 0 ] || [ -z "$rate0" ]; then
	fail "observe before apply: no interrupts on $nic under the flood ($(grep -hv '^flooding$' "$work/before.flood.err" "$work/before.err" | head -3))"
	exit 1
fi
case $nodes0 in
*,*) pass "observe before apply: $nic's interrupt work spread over nodes $nodes0 (local share $r0)" ;;
*) skip "observe before apply: the kernel put all of $nic's interrupt work on node $nodes0 (local share $r0): nothing spread to show" ;;
esac

if "$nn" apply --nics "$nic" --irqbalance ignore >"$work/apply.out" 2>&1; then
	read -r r1 rate1 nodes1 <<<"$(measure applied)"
	if awk -v r="$r1" 'BEGIN { exit !(r != "none" && r >= 0.95) }'; then
		pass "observe after apply: $r1 of $nic's interrupt work on node $node ($rate1 IRQ/s)"
	else
		fail "observe after apply: $r1 of $nic's interrupt work on node $node, want >= 0.95 (nodes $nodes1)"
	fi
else
	fail "observe: apply --nics $nic failed: $(tail -2 "$work/apply.out")"
fi

node0=$(cat /sys/devices/system/node/node0/cpulist)
if "$nn" apply --nics "$nic" --cpus "$node0" --irqbalance ignore >"$work/mismatch.out" 2>&1; then
	read -r r2 rate2 nodes2 <<<"$(measure mismatched)"
	if awk -v r="$r2" 'BEGIN { exit !(r != "none" && r <= 0.05) }'; then
		pass "observe after a mismatched plan (--cpus $node0): $r2 on node $node ($rate2 IRQ/s on nodes $nodes2)"
	else
		fail "observe after a mismatched plan (--cpus $node0): $r2 on node $node, want <= 0.05"
	fi
else
	fail "observe: apply --cpus $node0 failed: $(tail -2 "$work/mismatch.out")"
fi

"$nn" rollback >/dev/null 2>&1
"$nn" rollback >/dev/null 2>&1
snap_aff >"$work/aff.after"
if cmp -s "$work/aff.before" "$work/aff.after"; then
	read -r r3 rate3 nodes3 <<<"$(measure rolledback)"
	pass "observe after rollback: the affinities of before; local share $r3 (before $r0), nodes $nodes3, $rate3 IRQ/s"
else
	fail "observe after rollback: affinities differ: $(diff "$work/aff.before" "$work/aff.after" | head -4 | tr '\n' ' ')"
fi
rm -rf "$work"
[ "$fails" -eq 0 ]
