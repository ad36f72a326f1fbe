#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/fwd.sh FWD WORKDIR [PCI PMD [SELECTIONS]] - nicnuma-fwd on a
# PCI NIC bound to DPDK, in the guest.
#
# The NIC (default: the virtio one on node NN_GUEST_NIC_NODE, machine pc,
# transitional virtio-net) is bound to uio_pci_generic, 2 MB pages are
# reserved on every node, and the forwarder runs once per selection (default
# "local remote"): lcores and mbufs 'local' (must land on the NIC's node) and
# 'remote' (the farthest node by the kernel's distances). Its JSON report is
# compared with the kernel: the port's node with /sys numa_node, the pool
# node with the expected node, placement_verified (move_pages) must hold, and
# with PMD the port's DPDK driver is that PMD (net_e1000_em, net_vmxnet3).
# Everything is put back: the NIC on its kernel driver, the page counts as found.
# Prints PASS/FAIL/SKIP lines (the caller counts them).
set -uo pipefail

fwd=${1:?usage: fwd.sh FWD WORKDIR [PCI PMD [SELECTIONS]]}
work=${2:?usage: fwd.sh FWD WORKDIR [PCI PMD [SELECTIONS]]}
addr=${3:-$NN_GUEST_NIC_LOCAL}
pmd=${4:-}
read -r -a sels <<<"${5:-local remote}"
node=$(cat "/sys/bus/pci/devices/$addr/numa_node")
kdrv=$(basename "$(readlink "/sys/bus/pci/devices/$addr/driver")")
devbind=$(command -v dpdk-devbind.py || command -v dpdk-devbind)
[ -n "$devbind" ] || { echo "SKIP fwd: dpdk-devbind.py not in the guest rootfs"; exit 0; }

declare -A hp_before=()
restore() {
  local f
  "$devbind" -b "$kdrv" "$addr" >/dev/null 2>&1
  for f in "${!hp_before[@]}"; do echo "${hp_before[$f]}" >"$f"; done
}
trap restore EXIT

modprobe uio_pci_generic 2>/dev/null
# EAL needs hugepages on the nodes whose memory it takes: 64 x 2 MB each.
for f in /sys/devices/system/node/node*/hugepages/hugepages-2048kB/nr_hugepages; do
  hp_before[$f]=$(cat "$f")
  echo $((hp_before[$f] + 64)) >"$f"
done

if ! "$devbind" -b uio_pci_generic "$addr" >"$work/devbind.out" 2>&1; then
  echo "FAIL fwd: dpdk-devbind.py -b uio_pci_generic $addr: $(tail -n1 "$work/devbind.out")"
  exit 0
fi
drv=$(basename "$(readlink "/sys/bus/pci/devices/$addr/driver")")
if [ "$drv" = uio_pci_generic ]; then echo "PASS fwd: $addr bound to uio_pci_generic (from $kdrv)"
else echo "FAIL fwd: $addr driver is $drv after binding"; exit 0; fi

# Expected pool node for 'remote': the farthest node by distance (ties: any of them).
read -r -a row <"/sys/devices/system/node/node$node/distance"
max=0; for d in "${row[@]}"; do [ "$d" -gt "$max" ] && max=$d; done
far=(); for i in "${!row[@]}"; do [ "${row[$i]}" -eq "$max" ] && far+=("$i"); done
lcores=$(cat /sys/devices/system/cpu/online)

for sel in "${sels[@]}"; do
  out=$work/fwd-$sel-$addr.json
  timeout 120 "$fwd" -l "$lcores" -a "$addr" --in-memory --no-telemetry -- \
    --mbuf-node "$sel" --lcore-node "$sel" --tx-first --duration 2 --mbufs 4095 --json \
    >"$out" 2>"$work/fwd-$sel-$addr.err"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAIL fwd $sel ($addr ${pmd:-$kdrv}): exit $rc: $(grep -v '^EAL' "$work/fwd-$sel-$addr.err" | tail -n 3 | tr '\n' ' ')"
    continue
  fi
  python3 - "$out" "$sel" "$node" "$addr" "${far[*]}" "$pmd" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
sel, node, addr, far, pmd = sys.argv[2], int(sys.argv[3]), sys.argv[4], [int(x) for x in sys.argv[5].split()], sys.argv[6]
c = d.get('config', {})
kernel = int(open(f'/sys/bus/pci/devices/{addr}/numa_node').read())
def check(name, ok, why):
    print(('PASS' if ok else 'FAIL') + f' fwd {sel}' + (f' ({addr} {pmd})' if pmd else '') + f': {name}' + ('' if ok else f': {why}'))
if pmd:
    drivers = [p.get('driver') for p in c.get('ports', [])]
    check(f'the port is driven by DPDK\'s {pmd}', drivers == [pmd], f'port drivers {drivers}')
check(f'port node = kernel numa_node {kernel}', c.get('port_node') == kernel, f"port_node {c.get('port_node')}")
want = [node] if sel == 'local' else far
check(f'mbuf node in {want}', c.get('mbuf_node') in want, f"mbuf_node {c.get('mbuf_node')}")
check(f'lcore node in {want}', c.get('lcore_node') in want, f"lcore_node {c.get('lcore_node')}")
check('placement verified by move_pages', d.get('placement_verified') is True,
      f"placement_verified {d.get('placement_verified')!r}")
EOF
done
