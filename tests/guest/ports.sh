#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/ports.sh NICNUMA WORKDIR - issue 38's DPDK ports on a real
# kernel: the e1000e on the NIC node's pxb (machine pc: no IOMMU), or behind
# a root port of it with the virtual IOMMU on (scripts/testhost --iommu).
#
#   1. no IOMMU on (machine pc, or --iommu with intel_iommu=off): plan
#      --dpdk-ports PCI is refused (exit 2) naming the missing IOMMU, the
#      port left on e1000e; with the IOMMU on, 1 and 2 are replaced by
#      apply --dpdk-ports PCI behind it: the port's own IOMMU group,
#      /dev/vfio/GROUP, then 3 and 4 as below;
#   2. --noiommu on a kernel without vfio's no-IOMMU mode (Debian's 6.1 and
#      6.12: no CONFIG_VFIO_NOIOMMU) refused, the port left alone, and the
#      rest skipped saying why; where the kernel has the mode, it is turned
#      on (as an admin of such a VM does), then
#      apply --dpdk-ports PCI --noiommu: the kernel's driver link says
#      vfio-pci, /dev/vfio/noiommu-N is there, nics --json lists the port on
#      vfio-pci with the kernel's node, a second apply binds nothing;
#   3. bench mismatch --pci PCI forwards on it with DPDK's e1000 PMD
#      (QEMU's 82574): every row run, pools checked with move_pages; fed by
#      flood.py from node 0's virtio NIC (a kernel netdev whose tap is on the
#      same bridge) to the port's MAC while the bench runs, the matched row's
#      forwarder received frames (rx > 0) and each row's Mpps is printed
#      (TCG: placement, not cost);
#   4. rollback: the port back on e1000e with its netdev, driver_override
#      empty.
# The EXIT trap puts back what a failed step left (the driver, vfio's
# parameter, the page counts). Prints PASS/FAIL/SKIP lines (the caller counts).
# shellcheck disable=SC2015  # A && pass || fail: pass never fails
set -uo pipefail

nn=${1:?usage: ports.sh NICNUMA WORKDIR}
work=${2:?usage: ports.sh NICNUMA WORKDIR}
pci=${NN_GUEST_NIC_E1000E:-}
pass() { echo "PASS ports: $*"; }
fail() { echo "FAIL ports: $*"; }
[ -n "$pci" ] && [ -e "/sys/bus/pci/devices/$pci" ] || { echo "SKIP ports: no e1000e in this guest"; exit 0; }
dev=/sys/bus/pci/devices/$pci
drv() { local d; d=$(readlink "$dev/driver" 2>/dev/null) && echo "${d##*/}"; }
kdrv=$(drv)
node=$(cat "$dev/numa_node")
# the port's MAC while its kernel driver has it: the flood's destination
mac=$(cat "$dev"/net/*/address 2>/dev/null | head -n 1)
flood_pid=
noiommu=/sys/module/vfio/parameters/enable_unsafe_noiommu_mode
noiommu_before=
declare -A hp_before=()
restore() {
  local f
  [ -n "$flood_pid" ] && kill -TERM "$flood_pid" 2>/dev/null
  if [ "$(drv)" != "$kdrv" ]; then
    echo >"$dev/driver_override" 2>/dev/null
    [ -e "$dev/driver" ] && echo "$pci" >"$dev/driver/unbind" 2>/dev/null
    echo "$pci" >/sys/bus/pci/drivers_probe 2>/dev/null
  fi
  [ -n "$noiommu_before" ] && echo "$noiommu_before" >"$noiommu" 2>/dev/null
  for f in "${!hp_before[@]}"; do echo "${hp_before[$f]}" >"$f"; done
}
trap restore EXIT
# js FILE EXPR: a Python expression over the JSON document d; exit 1 when False.
js() {
  python3 -c 'import json, sys
try:
    d = json.load(open(sys.argv[1])); v = eval(sys.argv[2])
except Exception as e:
    print("(%s)" % e); sys.exit(1)
if v is False: sys.exit(1)
print(v)' "$1" "$2"
}
# Only the port: no profile, irqbalance left alone (the boot arguments and
# IRQs are other tests').
opts=(--dpdk-ports "$pci" --irqbalance ignore)

iommu=$(ls /sys/class/iommu 2>/dev/null | tr '\n' ' ')
# how apply binds: behind the IOMMU, or in vfio's no-IOMMU mode
mode=(); vfio_dev=
if [ -n "$iommu" ]; then
  group=$(readlink "$dev/iommu_group"); group=${group##*/}
  echo "    IOMMU on: $iommu; $pci in group $group ($(ls "/sys/kernel/iommu_groups/$group/devices" | tr '\n' ' ')), domain type $(cat "/sys/kernel/iommu_groups/$group/type" 2>/dev/null)"
  vfio_dev=/dev/vfio/$group
else
# 1. no IOMMU on (machine pc; --iommu with intel_iommu=off)
"$nn" plan "${opts[@]}" >"$work/ports-plan.out" 2>"$work/ports-plan.err"; rc=$?
[ "$rc" = 2 ] && grep -q "no IOMMU is on" "$work/ports-plan.err" && pass "no IOMMU: refused, exit 2, named" ||
  fail "no IOMMU: exit $rc, $(tail -n 2 "$work/ports-plan.err" | tr '\n' ' ')"
[ "$(drv)" = "$kdrv" ] && pass "the refusal left $pci on $kdrv" || fail "after the refusal $pci is on $(drv)"

# 2. no-IOMMU mode, as the admin of an IOMMU-less VM turns it on
modprobe vfio enable_unsafe_noiommu_mode=1 2>/dev/null; modprobe vfio-pci 2>/dev/null
if [ ! -e "$noiommu" ]; then
  # Debian's 6.1 and 6.12 are built without CONFIG_VFIO_NOIOMMU
  "$nn" plan "${opts[@]}" --noiommu >"$work/ports-noiommu.out" 2>"$work/ports-noiommu.err"; rc=$?
  [ "$rc" = 2 ] && grep -q "built without CONFIG_VFIO_NOIOMMU" "$work/ports-noiommu.err" &&
    pass "--noiommu on a kernel without vfio's no-IOMMU mode: refused, exit 2, named" ||
    fail "--noiommu without the mode: exit $rc, $(tail -n 2 "$work/ports-noiommu.err" | tr '\n' ' ')"
  [ "$(drv)" = "$kdrv" ] && pass "that refusal left $pci on $kdrv" || fail "after the --noiommu refusal $pci is on $(drv)"
  echo "SKIP ports: bind, forward and rollback on vfio-pci: $(uname -r) has no vfio no-IOMMU mode and no IOMMU is on"
  exit 0
fi
noiommu_before=$(cat "$noiommu")
echo 1 >"$noiommu"
mode=(--noiommu)
fi
"$nn" --json apply "${opts[@]}" "${mode[@]}" >"$work/ports-apply.json" 2>"$work/ports-apply.err"; rc=$?
{ [ "$rc" = 0 ] || [ "$rc" = 1 ]; } && js "$work/ports-apply.json" '[p["status"] for p in d["apply"]["ports"]] == ["bound"]' >/dev/null &&
  pass "apply ${mode[*]:-behind the IOMMU}: exit $rc, the port bound" ||
  fail "apply ${mode[*]}: exit $rc, $(js "$work/ports-apply.json" 'd["apply"].get("ports")') $(tail -n 2 "$work/ports-apply.err" | tr '\n' ' ')"
[ "$(drv)" = vfio-pci ] && pass "the kernel's driver link: vfio-pci (was $kdrv)" || fail "driver after apply: $(drv)"
if [ -n "$iommu" ]; then
  [ -c "$vfio_dev" ] && pass "vfio made $vfio_dev (the port's IOMMU group)" || fail "no $vfio_dev: $(ls /dev/vfio | tr '\n' ' ')"
else
  ls /dev/vfio/noiommu-* >/dev/null 2>&1 && pass "vfio made $(ls /dev/vfio/noiommu-* | tr '\n' ' ')" || fail "no /dev/vfio/noiommu-N"
fi
"$nn" --json nics >"$work/ports-nics.json" 2>/dev/null
js "$work/ports-nics.json" "[(p['pci'], p['driver'], p['node']) for p in d['ports'] if p['pci'] == '$pci'] == [('$pci', 'vfio-pci', $node)]" >/dev/null &&
  pass "nics: $pci on vfio-pci, node $node" || fail "nics' ports: $(js "$work/ports-nics.json" 'd.get("ports")')"
"$nn" --json apply "${opts[@]}" "${mode[@]}" >"$work/ports-again.json" 2>/dev/null
js "$work/ports-again.json" '[p["status"] for p in d["apply"]["ports"]] == ["unchanged"]' >/dev/null &&
  pass "a second apply binds nothing" || fail "second apply: $(js "$work/ports-again.json" 'd["apply"].get("ports")')"

# 3. the forwarder on it: DPDK's e1000 PMD, rows placed by node
for f in /sys/devices/system/node/node*/hugepages/hugepages-2048kB/nr_hugepages; do
  hp_before[$f]=$(cat "$f"); echo $((hp_before[$f] + 64)) >"$f"
done
# The port has no cable: the forwarder's --tx-first burst leaves over the
# tap's bridge and nothing comes back. Frames to its MAC out of node 0's
# virtio NIC (its tap on the same bridge) feed it for the whole bench; the
# flood starts before the first row and stops after the last.
src=$(basename "$(ls -d /sys/bus/pci/devices/"${NN_GUEST_NIC_NODE0:-none}"/virtio*/net/* 2>/dev/null | head -n 1)")
fed=
if [ -n "$src" ] && [ -n "$mac" ] && ip link set "$src" up 2>"$work/ports-flood.err"; then
  python3 "$(dirname "$0")/flood.py" "$src" "$mac" 300 2000000000 >"$work/ports-flood.sent" 2>>"$work/ports-flood.err" &
  flood_pid=$!
  for ((i = 0; i < 300; i++)); do grep -q flooding "$work/ports-flood.err" && break; sleep 0.1; done
  grep -q flooding "$work/ports-flood.err" && fed="$src to $mac" ||
    fail "flood.py out of $src did not start: $(tail -n 2 "$work/ports-flood.err" | tr '\n' ' ')"
elif [ -n "$src" ] && [ -n "$mac" ]; then
  fail "cannot set $src up for the flood: $(tr '\n' ' ' <"$work/ports-flood.err")"
fi
timeout 300 "$nn" --json bench mismatch --pci "$pci" --duration 1 --repeat 1 --in-memory \
  >"$work/ports-bench.json" 2>"$work/ports-bench.err"; rc=$?
if [ -n "$flood_pid" ]; then
  kill -TERM "$flood_pid" 2>/dev/null; wait "$flood_pid" 2>/dev/null; flood_pid=
  echo "    flood.py out of $src to $pci's MAC ${mac:-?}: $(cat "$work/ports-flood.sent") frames sent"
fi
if [ "$rc" -le 1 ]; then
  python3 - "$work/ports-bench.json" "$node" "$fed" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); node = int(sys.argv[2]); fed = sys.argv[3]
def check(name, ok, why=''):
    print(('PASS' if ok else 'FAIL') + f' ports: bench mismatch --pci: {name}' + ('' if ok else f': {why}'))
rows = d.get('rows', [])
ran = [r for r in rows if r.get('skipped') is None]
check('every row ran', rows and len(ran) == len(rows), [(r.get('lcores'), r.get('mbufs'), r.get('skipped')) for r in rows])
m = [r for r in ran if r.get('lcores') == 'local' and r.get('mbufs') == 'local']
check(f'the matched row: lcores and mbufs on the port\'s node {node}',
      len(m) == 1 and m[0].get('lcore_node') == node and m[0].get('mbuf_node') == node,
      [(r.get('lcores'), r.get('lcore_node'), r.get('mbufs'), r.get('mbuf_node')) for r in ran])
check('every row\'s pool pages checked with move_pages', all(r.get('placement_verified') is True for r in ran),
      [(r.get('lcores'), r.get('mbufs'), r.get('placement_verified')) for r in ran])
if fed:
    rx = [x.get('rx') for r in m for x in r.get('runs', [])]
    check(f'the matched row\'s forwarder received the flood ({fed}): rx {rx}',
          len(m) == 1 and rx and all(isinstance(v, int) and v > 0 for v in rx), 'want rx > 0 in every run')
else:
    print('SKIP ports: bench mismatch --pci: rx on the port: no flood (no node-0 virtio netdev or no MAC '
          'for the port); the forwarder\'s --tx-first burst alone never comes back')
for r in ran:
    mp = (r.get('mpps') or {}).get('median')
    rx = [x.get('rx') for x in r.get('runs', [])]
    print(f"    lcores {r.get('lcores')}/mbufs {r.get('mbufs')} (node {r.get('lcore_node')}/{r.get('mbuf_node')}) "
          f"on the vfio-pci port: {'-' if mp is None else '%.4f' % mp} Mpps, rx {rx} (TCG: placement, not cost)")
EOF
else
  fail "bench mismatch --pci $pci: exit $rc: $(grep -v '^EAL' "$work/ports-bench.err" | tail -n 3 | tr '\n' ' ')"
fi
for f in "${!hp_before[@]}"; do echo "${hp_before[$f]}" >"$f"; done
hp_before=()

# 4. rollback: every snapshot of this test, newest first, until the port is back
for _ in 1 2 3; do
  [ "$(drv)" = vfio-pci ] || break
  "$nn" rollback >>"$work/ports-rollback.out" 2>&1 || break
done
[ "$(drv)" = "$kdrv" ] && pass "rollback: $pci on $kdrv again" || fail "rollback: $pci on '$(drv)'"
ls "$dev/net" >/dev/null 2>&1 && pass "its netdev is back: $(ls "$dev/net")" || fail "no netdev under $dev/net"
[ -z "$(tr -d '\n' <"$dev/driver_override" | sed 's/(null)//')" ] && pass "driver_override empty again" ||
  fail "driver_override: $(cat "$dev/driver_override")"
