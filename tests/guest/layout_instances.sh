#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/layout_instances.sh NICNUMA - per-node instances on a multi-node
# host, and check --pid catching the one whose memory is on the other node
# (suite guest; run it in the QEMU guest:
#   scripts/testhost run tests/guest/layout_instances.sh /build/nicnuma/nicnuma).
#
#  1. nicnuma layout --nodes all --numactl writes one drop-in per node with CPUs;
#     each instance's CPUs lie on its node, its ExecStart= binds them
#     (systemd-analyze verify too, where it is installed).
#  2. Two instances are started the way the drop-ins' ExecStart= runs them
#     (numactl --physcpubind=CPUS --membind=NODE), each touching 64 MiB: the
#     first as laid out, the second deliberately with --membind of the first
#     node (its memory on the other node).
#  3. check --pid: the first is "bound, local" (exit 0); the second is flagged
#     "memory mostly remote" (exit 1) with its 64 MiB on the first node.
#  4. A process with a thread on each node and the default policy is flagged
#     "threads span nodes without a memory policy" (exit 1); one started with
#     numactl --interleave=all is "interleaved" (exit 0). All four: exit 1.
# Uses python3 (for JSON too: the guest rootfs has no jq). Exits 77 on a host with
# fewer than two nodes with CPUs (this build machine).
set -uo pipefail

nn=${1:?usage: layout_instances.sh NICNUMA}
for t in numactl python3; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }
done
nodes=0
for d in /sys/devices/system/node/node[0-9]*; do
	[ -n "$(tr -d '[:space:]' <"$d/cpulist" 2>/dev/null)" ] && nodes=$((nodes + 1))
done
[ "$nodes" -ge 2 ] || { echo "skip: $nodes NUMA node(s) with CPUs here; needs 2 (scripts/testhost)"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/layout-guest.XXXXXX")
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
err() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }

# pj FILE EXPR: a Python expression over the JSON document d, printed; exit 1
# when it is False.
pj() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
if v is False:
    sys.exit(1)
print(json.dumps(v) if isinstance(v, (list, dict)) else v)' "$1" "$2"
}

# "0-2,5" -> 0 1 2 5, one a line
expand() {
	local IFS=, p
	for p in $1; do
		if [[ $p == *-* ]]; then seq "${p%-*}" "${p#*-}"; else echo "$p"; fi
	done
}

# 1. the layout
"$nn" layout --service fwd --exec /bin/true --nodes all --numactl --output "$tmp/units" --json \
	>"$tmp/layout.json" 2>"$tmp/layout.err"
rc=$?
[ "$rc" -le 1 ] || { cat "$tmp/layout.err" >&2; echo "FAIL: layout exited $rc" >&2; exit 1; }
n=$(pj "$tmp/layout.json" 'len(d["layout"]["instances"])')
[ "$n" = "$nodes" ] || err "layout: $n instances for $nodes nodes with CPUs"
for ((i = 0; i < n; i++)); do
	node=$(pj "$tmp/layout.json" "d['layout']['instances'][$i]['node']")
	cpus=$(pj "$tmp/layout.json" "d['layout']['instances'][$i]['cpus']")
	nodecpus=$(tr -d '[:space:]' <"/sys/devices/system/node/node$node/cpulist")
	for c in $(expand "$cpus"); do
		expand "$nodecpus" | grep -qx "$c" || err "instance node $node: CPU $c is not on node $node ($nodecpus)"
	done
	conf=$tmp/units/fwd@$node.service.d/nicnuma.conf
	[ -f "$conf" ] || err "no drop-in for node $node"
	grep -q -- "--physcpubind=$cpus --membind=$node -- /bin/true" "$conf" \
		|| err "node $node: drop-in ExecStart= is not numactl --physcpubind=$cpus --membind=$node"
done
if command -v systemd-analyze >/dev/null; then
	for d in "$tmp"/units/fwd@*.service.d; do
		u=$(basename "$d" .d)
		out=$(cd "$tmp/units" && systemd-analyze verify --man=no "./$u" 2>&1) || err "verify $u: $out"
	done
fi

# 2. two instances; the second with its memory on the first one's node
node_a=$(pj "$tmp/layout.json" 'd["layout"]["instances"][0]["node"]')
cpus_a=$(pj "$tmp/layout.json" 'd["layout"]["instances"][0]["cpus"]')
node_b=$(pj "$tmp/layout.json" 'd["layout"]["instances"][1]["node"]')
cpus_b=$(pj "$tmp/layout.json" 'd["layout"]["instances"][1]["cpus"]')
# Touches every page of 64 MiB once (no transient copies: two of these share
# node memory with the guest's own), then waits.
toucher='import time
b = bytearray(64 << 20)
for i in range(0, len(b), 4096):
    b[i] = 1
print("ready", flush=True)
time.sleep(300)'
start() {
	local name=$1; shift
	"$@" python3 -c "$toucher" >"$tmp/$name.out" 2>&1 &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 600); do
		grep -q ready "$tmp/$name.out" && return 0
		sleep 0.1
	done
	err "$name: never ready: $(cat "$tmp/$name.out")"
	return 1
}
start good numactl --physcpubind="$cpus_a" --membind="$node_a" -- || exit 1
good=$pid
start bad numactl --physcpubind="$cpus_b" --membind="$node_a" -- || exit 1
bad=$pid

# 3. the check (first: both still alive, else say why - OOM on a small node?)
for p in "$good" "$bad"; do
	kill -0 "$p" 2>/dev/null || { err "instance pid $p died before the check"; dmesg 2>/dev/null | tail -n 20 >&2; }
done
"$nn" check --pid "$good" --json >"$tmp/good.json" 2>"$tmp/good.err"
rc=$?
[ "$rc" = 0 ] || err "good (node $node_a): exit $rc, want 0: $(cat "$tmp/good.err")"
pj "$tmp/good.json" '{"bound", "local"} <= set(d["processes"][0].get("verdicts", []))' >/dev/null \
	|| err "good: $(pj "$tmp/good.json" 'd["processes"][0]')"
"$nn" check --pid "$bad" --json >"$tmp/bad.json" 2>"$tmp/bad.err"
rc=$?
[ "$rc" = 1 ] || err "bad (CPUs of node $node_b, memory on $node_a): exit $rc, want 1"
pj "$tmp/bad.json" '"memory_mostly_remote" in d["processes"][0].get("verdicts", [])' >/dev/null \
	|| err "bad: not flagged remote: $(pj "$tmp/bad.json" 'd["processes"][0]')"
pj "$tmp/bad.json" "sum(m['anon_bytes'] for m in d['processes'][0]['memory'] if m['node'] == $node_a) >= 64 << 20" \
	>/dev/null || err "bad: its 64 MiB are not on node $node_a"
# 4. threads on both nodes with the default policy (each touching its own
#    16 MiB where it runs): flagged "threads span nodes without a memory policy";
#    and numactl --interleave=all: "interleaved", not flagged.
cpu_a=$(expand "$cpus_a" | head -n 1)
cpu_b=$(expand "$cpus_b" | head -n 1)
# shellcheck disable=SC2016 # Python, not shell
spanner='import os, sys, threading, time
ready = []
def work(cpu):
    os.sched_setaffinity(0, {cpu})
    b = bytearray(16 << 20)
    for i in range(0, len(b), 4096):
        b[i] = 1
    ready.append(b)
    time.sleep(300)
for c in sys.argv[1:]:
    threading.Thread(target=work, args=(int(c),), daemon=True).start()
while len(ready) < len(sys.argv) - 1:
    time.sleep(0.05)
print("ready", flush=True)
time.sleep(300)'
python3 -c "$spanner" "$cpu_a" "$cpu_b" >"$tmp/span.out" 2>&1 &
span=$!
pids+=("$span")
for _ in $(seq 600); do grep -q ready "$tmp/span.out" && break; sleep 0.1; done
"$nn" check --pid "$span" --json >"$tmp/span.json" 2>"$tmp/span.err"
rc=$?
[ "$rc" = 1 ] || err "span (threads on CPUs $cpu_a and $cpu_b): exit $rc, want 1: $(cat "$tmp/span.err")"
pj "$tmp/span.json" '"threads_span_nodes_without_policy" in d["processes"][0].get("verdicts", [])' >/dev/null \
	|| err "span: not flagged: $(pj "$tmp/span.json" 'd["processes"][0]')"
start interleaved numactl --interleave=all -- || exit 1
il=$pid
"$nn" check --pid "$il" --json >"$tmp/il.json" 2>"$tmp/il.err"
rc=$?
[ "$rc" = 0 ] || err "interleaved: exit $rc, want 0: $(cat "$tmp/il.err")"
pj "$tmp/il.json" 'd["processes"][0].get("verdicts") == ["interleaved", "local"] or d["processes"][0].get("verdicts") == ["interleaved"]' \
	>/dev/null || err "interleaved: $(pj "$tmp/il.json" 'd["processes"][0]')"

"$nn" check --pid "$good,$bad,$span,$il" >"$tmp/both.txt" 2>&1
rc=$?
[ "$rc" = 1 ] || err "all four: exit $rc, want 1"
cat "$tmp/both.txt"

[ "$fail" = 0 ] || exit 1
echo "ok: $n instances laid out; the misplaced one (memory on node $node_a, threads on node $node_b) is caught"
