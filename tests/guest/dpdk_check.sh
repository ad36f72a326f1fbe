#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/dpdk_check.sh NICNUMA FWD WORKDIR [PCI PMD] - nicnuma check
# --dpdk on a multi-node guest, against DPDK processes on the PCI NIC bound to DPDK.
#
# The NIC (default: the virtio one on node NN_GUEST_NIC_NODE) is bound to
# uio_pci_generic as in fwd.sh; 2 MB pages are added on every node. With PCI
# and PMD (a NIC with a real driver: net_e1000_em, net_vmxnet3) only the first
# run below, and the port's driver in the report must be PMD. Each run has telemetry on (a private
# --file-prefix) and is checked while it forwards:
#   fwd local        pools and lcores on the NIC's node       -> ok, exit 0
#   fwd mbuf remote  --mbuf-node remote                       -> mempool remote, exit 1
#   fwd lcore remote workers on the far node, main local      -> lcore remote, exit 1
#   testpmd remote   --no-numa --socket-num FAR (one pool)    -> mempool remote, exit 1
#   testpmd portnuma a pool per node, --port-numa-config=(0,FAR)
#                    --ring-numa-config=(0,3,FAR)              -> mempool unknown, exit 1
# The truth: the port's node is /sys numa_node, the pools' nodes come from
# move_pages (the forwarder's report) or numa_maps (testpmd's hugepages).
# Everything is put back. Prints PASS/FAIL/SKIP lines (the caller counts).
set -uo pipefail

nn=${1:?usage: dpdk_check.sh NICNUMA FWD WORKDIR [PCI PMD]}
fwd=${2:?usage: dpdk_check.sh NICNUMA FWD WORKDIR [PCI PMD]}
work=${3:?usage: dpdk_check.sh NICNUMA FWD WORKDIR [PCI PMD]}
addr=${4:-$NN_GUEST_NIC_LOCAL}
export PMD=${5:-}
node=$(cat "/sys/bus/pci/devices/$addr/numa_node")
kdrv=$(basename "$(readlink "/sys/bus/pci/devices/$addr/driver")")
here=$(cd "$(dirname "$0")" && pwd)
devbind=$(command -v dpdk-devbind.py || command -v dpdk-devbind)
[ -n "$devbind" ] || { echo "SKIP check --dpdk: dpdk-devbind.py not in the guest rootfs"; exit 0; }
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
[ "$nodes" -ge 2 ] || { echo "SKIP check --dpdk: skipped: one NUMA node"; exit 0; }

declare -A hp_before=()
restore() {
  local f
  "$devbind" -b "$kdrv" "$addr" >/dev/null 2>&1
  for f in "${!hp_before[@]}"; do echo "${hp_before[$f]}" >"$f"; done
  rm -rf /var/run/dpdk/nn-gcheck-*
}
trap restore EXIT

modprobe uio_pci_generic 2>/dev/null
for f in /sys/devices/system/node/node*/hugepages/hugepages-2048kB/nr_hugepages; do
  hp_before[$f]=$(cat "$f")
  echo $((hp_before[$f] + 64)) >"$f"
done
if ! "$devbind" -b uio_pci_generic "$addr" >"$work/dc-devbind.out" 2>&1; then
  echo "FAIL check --dpdk: dpdk-devbind.py -b uio_pci_generic $addr: $(tail -n1 "$work/dc-devbind.out")"
  exit 0
fi

# The farthest node from the NIC's, and one CPU of each.
read -r -a row <"/sys/devices/system/node/node$node/distance"
far=-1; max=0
for i in "${!row[@]}"; do [ "${row[$i]}" -gt "$max" ] && { max=${row[$i]}; far=$i; }; done
first_cpu() { cut -d, -f1 </sys/devices/system/node/node"$1"/cpulist | cut -d- -f1; }
local_cpu=$(first_cpu "$node"); far_cpu=$(first_cpu "$far")
all=$(cat /sys/devices/system/cpu/online)

# live NAME WANT_VERDICT WANT_EXIT BINARY EAL... -- APP...: starts the
# process with telemetry on its own prefix, checks it while it runs.
live() {
  local name=$1 want=$2 want_rc=$3 bin=$4 prefix=nn-gcheck-$1 sock rc pid i
  local eal=() app=()
  shift 4
  while [ $# -gt 0 ] && [ "$1" != -- ]; do eal+=("$1"); shift; done
  shift
  app=("$@")
  sock=/var/run/dpdk/$prefix/dpdk_telemetry.v2
  timeout 120 "$bin" "${eal[@]}" --file-prefix "$prefix" -- "${app[@]}" \
    >"$work/dc-$name.app" 2>"$work/dc-$name.err" </dev/null &
  pid=$!
  # EAL init in TCG on a loaded machine: up to 2 min; a process that died
  # is not waited for, and its last words are shown.
  for i in $(seq 600); do [ -S "$sock" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  [ -S "$sock" ] || echo "    $name: no telemetry socket after $i tries; $(kill -0 "$pid" 2>/dev/null && echo running ||
    echo exited): $(grep -v '^EAL: *Detected\|^EAL: *Probe\|^EAL: *Selected' "$work/dc-$name.err" | tail -n 3 | tr '\n' ' ')"
  # Telemetry starts inside rte_eal_init, before the application creates its
  # pools (one after the other, each listed before it is populated) and then
  # configures its ports: ask again until every pool is populated and every
  # port has its queues (TCG is slow).
  for i in $(seq 20); do
    timeout 60 "$nn" --json check --dpdk --file-prefix "$prefix" --timeout 10 \
      >"$work/dc-$name.json" 2>"$work/dc-$name.cerr"
    rc=$?
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["dpdk"]
pools, ports = d["mempools"], d["ports"]
sys.exit(0 if pools and ports and all(m["populated"] and m["populated"] == m["size"] for m in pools)
         and all((p["rx_queues"] or 0) > 0 for p in ports) else 1)' \
      "$work/dc-$name.json" 2>/dev/null && break
    sleep 1
  done
  kill -0 "$pid" 2>/dev/null || echo "    $name: the DPDK process had exited by the last check: $(grep -v \
    '^EAL: *Detected\|^EAL: *Probe\|^EAL: *Selected' "$work/dc-$name.err" | tail -n 4 | tr '\n' ' ')"
  cat "/proc/$(pgrep -P "$pid" | head -n1 || echo "$pid")/numa_maps" >"$work/dc-$name.numa" 2>/dev/null
  [ -s "$work/dc-$name.numa" ] || cat "/proc/$pid/numa_maps" >"$work/dc-$name.numa" 2>/dev/null
  if [ "$bin" != "$fwd" ]; then kill -INT "$(pgrep -P "$pid" | head -n1)" 2>/dev/null; fi
  wait "$pid" 2>/dev/null
  FORCED_SOCKET=${forced:-} python3 "$here/dpdk_check_truth.py" "$name" "$want" "$rc" "$want_rc" "$addr" \
    "$work/dc-$name.json" "$work/dc-$name.app" "$work/dc-$name.numa" "$work/dc-$name.cerr"
}

app=(--tx-first --duration 8 --mbufs 4095 --json)
if [ -n "$PMD" ]; then
  live "fwd-local-$PMD" ok 0 "$fwd" -l "$all" -a "$addr" --in-memory -- \
    --mbuf-node local --lcore-node local "${app[@]}"
  exit 0
fi
live fwd-local ok 0 "$fwd" -l "$all" -a "$addr" --in-memory -- \
  --mbuf-node local --lcore-node local "${app[@]}"
live fwd-mbuf-remote mempool_remote 1 "$fwd" -l "$all" -a "$addr" --in-memory -- \
  --mbuf-node remote --lcore-node local "${app[@]}"
# main lcore on the NIC's node, every worker on the far node
far_cpus=$(cat /sys/devices/system/node/node"$far"/cpulist)
live fwd-lcore-remote lcore_remote 1 "$fwd" -l "$local_cpu,$far_cpus" --main-lcore "$local_cpu" \
  -a "$addr" --in-memory -- --mbuf-node local --lcore-node "$far" "${app[@]}"
tp=$(command -v dpdk-testpmd)
if [ -z "$tp" ]; then
  echo "SKIP check --dpdk testpmd: dpdk-testpmd not in the guest rootfs"
else
  # one pool, forced to the far node (stock-l2fwd-like misplacement)
  forced=$far live testpmd-remote mempool_remote 1 "$tp" -l "$local_cpu,$far_cpu" --main-lcore "$local_cpu" \
    -a "$addr" --in-memory -- --no-numa --socket-num "$far" --total-num-mbufs 4096 \
    --stats-period 100
  # a pool on each node (lcores on both, the main one far), the port told to
  # draw from the far one: from outside this looks like testpmd's default,
  # so the honest verdict is "mempool of this port unknown", never ok
  forced=$far live testpmd-portnuma mempool_unknown 1 "$tp" -l "$far_cpu,$local_cpu" --main-lcore "$far_cpu" \
    -a "$addr" --in-memory -- --port-numa-config="(0,$far)" --ring-numa-config="(0,3,$far)" \
    --total-num-mbufs 4096 --stats-period 100
fi
