#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/checks.sh - the nicnuma flow inside the multi-NUMA guest.
#
# Runs in the chroot of scripts/testhost (NN_GUEST=1): the host-built binaries
# from $NN_BUILD against a kernel with 2 or 4 NUMA nodes, every result compared
# with /sys and /proc read directly (truth.py). One line per check:
#   PASS name | FAIL name: why | SKIP name: why
# and a final "N passed, N failed, N skipped". Exit 1 when anything failed.
# "checks.sh quick" leaves out apply/irqbalance/observe and bench/layout (the 4-node
# shape, whose emulation costs twice the CPU): discovery, capture, plan,
# script, hugepages and the forwarder on its node 3 NIC still run.
# "checks.sh kernel" is the short pass on a second kernel (6.12, with
# isolcpus=): discovery with the drivers' IRQ roles and netdev netlink, plan,
# apply, check, drift, rollback, and the isolated CPUs kept out of the plan.
# It ends with claims.sh (issue 27: cgroup v2 cpuset partitions as claims).
# Both the full and the kernel pass run profiles.sh (issue 28: coalescing,
# rings and NAPI settings on e1000e and vmxnet3; the full one apply --verify).
# The NICs with real drivers (e1000e, vmxnet3, on the virtio NIC's node) go
# through discovery and the plan in every mode; the full run adds their
# channels (ethtool -L), the forwarder and check --dpdk through their PMDs.
# A command missing from nicnuma is a FAIL (its run exits with the wrong status).
set -uo pipefail

[ "${NN_GUEST:-}" = 1 ] || { echo "checks.sh: run me inside scripts/testhost" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
nn=$NN_BUILD/nicnuma/nicnuma
fwd=$NN_BUILD/dpdk-app/nicnuma-fwd
shape=$NN_GUEST_SHAPE
node=$NN_GUEST_NIC_NODE
quick=0 kmode=0
case ${1:-full} in quick) quick=1 ;; kernel) quick=1 kmode=1 ;; full) ;;
  *) echo "checks.sh: mode ${1:-} is not full, quick or kernel" >&2; exit 2 ;; esac
work=$(mktemp -d /tmp/checks.XXXXXX)
results=$work/results
: >"$results"

pass() { echo "PASS $*" | tee -a "$results"; }
fail() { echo "FAIL $*" | tee -a "$results"; }
skip() { echo "SKIP $*" | tee -a "$results"; }
# truth SUBCOMMAND ARGS: truth.py's PASS/FAIL lines go into the tally.
truth() { python3 "$here/truth.py" "$@" | tee -a "$results"; }
section() { printf '\n== %s (%s, %d s)\n' "$*" "$shape" "$SECONDS"; }
# run NAME WANT_RC... -- CMD: run, keep output in $work/NAME.{out,err}, check the status.
step_limit=${NN_GUEST_STEP_LIMIT:-300}
run() {
  local name=$1; shift
  local want=() rc
  while [ "$1" != -- ]; do want+=("$1"); shift; done
  shift
  # Bounded: a step that hangs fails alone, and the rest of the run (and its
  # result line) still comes.
  timeout -k 10 "$step_limit" "$@" >"$work/$name.out" 2>"$work/$name.err"; rc=$?
  for w in "${want[@]}"; do [ "$rc" -eq "$w" ] && { pass "$name: exit $rc"; return 0; }; done
  if [ "$rc" -eq 124 ]; then fail "$name: timed out after $step_limit s: $*"
  else fail "$name: exit $rc (wanted ${want[*]}): $*"; fi
  sed 's/^/    /' "$work/$name.err" | tail -n 15
  sed 's/^/    out: /' "$work/$name.out" | tail -n 10
  return 1
}
netdev_of() { basename "$(ls -d /sys/bus/pci/devices/"$1"/virtio*/net/* /sys/bus/pci/devices/"$1"/net/* 2>/dev/null | head -n1)"; }
# The NICs with real drivers (scripts/testhost puts them on the NIC's node).
real=()
for p in "${NN_GUEST_NIC_E1000E:-}" "${NN_GUEST_NIC_VMXNET3:-}"; do [ -n "$p" ] && real+=("$p"); done

nic_local=$(netdev_of "$NN_GUEST_NIC_LOCAL")
for i in /sys/class/net/*; do ip link set "${i##*/}" up 2>/dev/null; done

section "guest kernel $(uname -r)${NN_GUEST_APPEND:+ ($NN_GUEST_APPEND)}"
n_nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
case $shape in 2node) want_nodes=2 ;; 4node) want_nodes=4 ;; esac
if [ "$n_nodes" -eq "$want_nodes" ]; then pass "guest: $n_nodes NUMA nodes"; else fail "guest: $n_nodes NUMA nodes, wanted $want_nodes"; fi
# A kernel-managed IRQ (virtio-blk queue) must refuse affinity writes, even of
# its current value (apply's probe): the path apply reports as "managed".
blk=$(awk -F: '/virtio[0-9]+-req\.0/ { gsub(/ /, "", $1); print $1; exit }' /proc/interrupts)
if [ -n "$blk" ]; then
  cur=$(cat "/proc/irq/$blk/smp_affinity_list")
  for v in "$cur" 0; do
    if err=$(sh -c "echo $v > /proc/irq/$blk/smp_affinity_list" 2>&1); then
      fail "guest: virtio-blk irq $blk accepted the affinity write '$v' (not managed?)"
    else
      case $err in
        *"Input/output error"*|*"I/O error"*) pass "guest: virtio-blk irq $blk refuses '$v' with EIO (managed)" ;;
        *"not permitted"*) pass "guest: virtio-blk irq $blk refuses '$v' with EPERM (managed)" ;;
        *) fail "guest: virtio-blk irq $blk write '$v' failed with: $err" ;;
      esac
    fi
  done
else
  fail "guest: no virtio-blk queue IRQ in /proc/interrupts"
fi

section "discovery: topo, nics"
if [ ! -x "$nn" ]; then
  fail "topo/nics: $nn not built"
else
  run topo 0 -- "$nn" topo --json && truth topo "$work/topo.out"
  run nics 0 1 -- "$nn" nics --json && truth nics "$work/nics.out"
  for p in "${real[@]}"; do
    d=$(netdev_of "$p")
    drv=$(basename "$(readlink "/sys/bus/pci/devices/$p/driver" 2>/dev/null)")
    if [ -n "$d" ]; then pass "guest: $p is $d, driver $drv, numa_node $(cat "/sys/bus/pci/devices/$p/numa_node")"
    else fail "guest: $p has no netdev (driver '$drv')"; fi
  done
  if [ ${#real[@]} -gt 0 ] && [ -s "$work/nics.out" ]; then
    truth roles "$work/nics.out" "${real[@]}"
    truth genl "$work/nics.out" "$NN_GUEST_NIC_LOCAL" "${real[@]}"
  fi
  run nics-text 0 1 -- "$nn" nics
  if grep -q "unknown locality" "$work/nics-text.out"; then pass "nics: the table says 'unknown locality' for the root-bus NIC"
  else fail "nics: no 'unknown locality' in the table"; fi
  run topo-text 0 -- "$nn" topo
  if grep -qi "virtual machine" "$work/topo-text.out"; then pass "topo: the table says this is a virtual machine"
  else fail "topo: the table does not say 'virtual machine'"; fi
fi

section "capture-host: fixture of this guest"
if [ "$kmode" = 1 ]; then
  skip "capture: the $(uname -r) pass is the short one (the $shape run on the default kernel captures)"
elif [ ! -x scripts/capture-host ]; then
  skip "capture: scripts/capture-host not in this tree yet"
elif [ ! -s "$work/nics.out" ]; then
  skip "capture: no live topo/nics output to compare with"
else
  cap=$work/guest-$shape.tar.gz
  if run capture 0 -- scripts/capture-host "$cap"; then
    mkdir "$work/cap" && tar -C "$work/cap" -xzf "$cap"
    "$nn" --root "$work/cap" topo --json >"$work/cap-topo.json" 2>/dev/null
    "$nn" --root "$work/cap" nics --json >"$work/cap-nics.json" 2>/dev/null
    truth same "$work/topo.out" "$work/cap-topo.json"
    truth same "$work/nics.out" "$work/cap-nics.json"
    [ -d "${NN_OUT:-/nonexistent}" ] && cp "$cap" "$NN_OUT/" && echo "capture saved: guest-$shape.tar.gz"
  fi
fi

section "plan, and the plan as a standalone script"
truth snap "$work/before.json"
if run plan 0 1 -- "$nn" plan --json; then
  cp "$work/plan.out" "$work/plan.json"
  truth plan "$work/plan.json"
  for p in "${real[@]}"; do truth plan "$work/plan.json" "$p"; done
fi
iso=$(cat /sys/devices/system/cpu/isolated 2>/dev/null)
if [ -n "$iso" ] && [ -s "$work/plan.json" ]; then
  section "isolated CPUs ($iso)"
  if python3 -c 'import json, sys; sys.exit("isolation" not in json.load(open(sys.argv[1])))' "$work/topo.out" 2>/dev/null; then
    truth isolated "$work/plan.json" "$work/topo.out"
  else
    truth isolated "$work/plan.json" kernel
    skip "isolcpus: the planner keeps IRQs off isolated CPUs $iso: nicnuma topo --json has no 'isolation' key in this tree (issue 20 item 5, branch napi)"
  fi
fi
if [ "$kmode" = 1 ]; then
  skip "script: the $(uname -r) pass is the short one"
elif [ -s "$work/plan.json" ] && run script 0 1 -- "$nn" script --plan "$work/plan.json" -o "$work/bind.sh"; then
  # The script on the real kernel: values read back, restore script puts back every one.
  if run script-run 0 -- env NICNUMA_RESTORE="$work/restore.sh" sh "$work/bind.sh"; then
    TRUTH_LABEL="script" truth applied "$work/plan.json" "$work/before.json"
    run script-again 0 -- env NICNUMA_RESTORE="$work/restore2.sh" sh "$work/bind.sh"
  fi
  if [ -s "$work/restore.sh" ]; then
    run script-restore 0 -- sh "$work/restore.sh"
  else
    fail "script: no restore script at $work/restore.sh"
  fi
  TRUTH_LABEL="script restore" truth unchanged "$work/before.json"
fi

if [ "$quick" = 1 ] && [ "$kmode" = 0 ]; then
  skip "apply, irqbalance: the $shape run is the quick one (tests/guest/run.sh runs them on 2node)"
else
section "apply, check, drift, rollback"
if [ ! -s "$work/plan.json" ]; then
  fail "apply: no plan to apply (the plan section failed)"
else
  truth snap "$work/before.json"
  run apply-dry 0 1 -- "$nn" apply --plan "$work/plan.json" --dry-run
  TRUTH_LABEL="apply --dry-run" truth unchanged "$work/before.json"
  if run apply 0 1 -- "$nn" apply --plan "$work/plan.json"; then
    truth applied "$work/plan.json" "$work/before.json"
    run check-aligned 0 -- "$nn" check --plan "$work/plan.json"
    # Drift: move one planned queue IRQ off its node by hand.
    # Drift: one planned queue IRQ of each NIC on the node moved off it by hand.
    other=$(cut -d, -f1 /sys/devices/system/node/node0/cpulist | cut -d- -f1)
    moved=()
    # (the real NICs' queue vector as their driver names it: nicnuma may not know it)
    for d in "$nic_local" "${real[@]}"; do
      case $d in
        *:*) irq=$(python3 "$here/truth.py" queue-irq "$d") ;;
        *) irq=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p=p.get("plan",p)
print(next(i["irq"] for i in p["irqs"] if i.get("nic")==sys.argv[2] and i.get("queue") is not None))' \
            "$work/plan.json" "$d" 2>/dev/null) ;;
      esac
      if [ -n "$irq" ] && grep -qE "\"irq\": *${irq}[,}]" "$work/plan.json"; then
        echo "$other" >"/proc/irq/$irq/smp_affinity_list" && moved+=("$irq")
      else
        fail "check: no queue IRQ of $d in the plan to drift (driver's queue vector: ${irq:-none})"
      fi
    done
    if [ ${#moved[@]} -gt 0 ] && run check-drift 1 -- "$nn" check --plan "$work/plan.json"; then
      for irq in "${moved[@]}"; do
        if grep -qw "$irq" "$work/check-drift.out"; then pass "check: drift names irq $irq"
        else fail "check: drift output does not name irq $irq"; fi
      done
    fi
  fi
  run rollback 0 1 -- "$nn" rollback
  truth unchanged "$work/before.json"
  # Kernel-managed IRQs (virtio-blk) in a plan: apply reports them, does not fail.
  if [ -n "$blk" ]; then
    python3 - "$work/plan.json" "$blk" >"$work/plan-blk.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d.get('plan', d)
first = next(i for i in p['irqs'] if i.get('queue') is not None)
extra = dict(first, irq=int(sys.argv[2]), queue=None, dir=None, reason='virtio-blk queue (managed)')
p['irqs'].append(extra)
json.dump(d, sys.stdout)
PY
    "$nn" apply --plan "$work/plan-blk.json" >"$work/apply-managed.out" 2>&1; rc=$?
    if [ "$rc" -eq 2 ] && grep -q "not one of its IRQs" "$work/apply-managed.out"; then
      # apply takes only a NIC's own IRQs, and no NIC in this guest has
      # kernel-managed ones: the kernel's refusal is checked above instead.
      skip "apply managed: apply refuses a plan with the virtio-blk irq $blk (not a NIC's IRQ); no guest NIC has managed IRQs"
    elif [ "$rc" -le 1 ]; then
      if grep -qi managed "$work/apply-managed.out"; then pass "apply: virtio-blk irq $blk reported as managed, exit $rc"
      else fail "apply: virtio-blk irq $blk not reported as managed"; fi
      run rollback-managed 0 1 -- "$nn" rollback
      TRUTH_LABEL="rollback after managed" truth unchanged "$work/before.json"
    else
      fail "apply managed: exit $rc: $(tail -n 2 "$work/apply-managed.out")"
    fi
  fi
fi

section "irqbalance in both modes"
if [ "$kmode" = 1 ]; then
  skip "irqbalance: the $(uname -r) pass is the short one"
elif [ ! -s "$work/plan.json" ]; then
  skip "irqbalance: no plan from the section above"
else
  for m in stop ban; do
    # Started the way a distribution's init script does (it daemonizes); apply
    # finds it in /proc, rollback restarts it from the command line it saved.
    irqbalance >"$work/irqbalance-$m.log" 2>&1
    sleep 2
    pgrep -x irqbalance >/dev/null || { fail "irqbalance: the daemon did not start"; continue; }
    # Where each IRQ fires now: the daemon may have moved one in its first
    # seconds, and an idle IRQ keeps that CPU until it fires again.
    truth snap "$work/before-irqb-$m.json"
    if run "irqbalance-$m-apply" 0 1 -- "$nn" apply --plan "$work/plan.json" --irqbalance="$m"; then
      if [ "$m" = stop ]; then
        if pgrep -x irqbalance >/dev/null; then fail "irqbalance=stop: the daemon still runs"
        else pass "irqbalance=stop: the daemon is stopped"; fi
      else
        if pgrep -x irqbalance >/dev/null; then pass "irqbalance=ban: the daemon still runs"
        else fail "irqbalance=ban: the daemon is gone"; fi
      fi
      # In ban mode the daemon keeps running: one pass (10 s interval) must not move planned IRQs.
      [ "$m" = ban ] && sleep 11
      TRUTH_LABEL="irqbalance=$m, after a pass" truth applied "$work/plan.json" "$work/before-irqb-$m.json"
      run "irqbalance-$m-rollback" 0 1 -- "$nn" rollback
      if pgrep -x irqbalance >/dev/null; then pass "irqbalance=$m: rollback leaves irqbalance running as before"
      else fail "irqbalance=$m: rollback did not bring irqbalance back"; fi
    fi
    pkill -x irqbalance 2>/dev/null  # in the guest: the daemon this loop started
  done
  # No "as before" check here: the running daemon legitimately moved IRQs
  # outside the plan (the 9p and blk ones), which rollback does not own.
fi

section "observe: the NIC's interrupt work before and after apply"
bash "$here/observe.sh" | tee -a "$results"

# Issue 28: profiles, coalescing, rings and the NAPI files on the e1000e and
# vmxnet3 NICs on both kernels; apply --verify under traffic on the full pass.
section "profiles, coalescing and rings on the real-driver NICs; apply --verify"
pmode=full; [ "$kmode" = 1 ] && pmode=kernel
bash "$here/profiles.sh" "$nn" "$pmode" | tee -a "$results"
fi

if [ "$kmode" = 1 ]; then
  # Issue 27 on the newer kernel: isolated and remote cpuset partitions,
  # cpuset.cpus.isolated, while a watcher runs (its own enable, disabled after).
  # The issue's 50 cycles run here (the systemd boot on 6.1 runs fewer:
  # persist.sh says how many; docs/guest.md has the seconds).
  section "claims: cgroup v2 cpuset partitions while the watcher runs"
  NN_CLAIMS_CYCLES=${NN_CLAIMS_CYCLES:-50} bash "$here/claims.sh" "$nn" | tee -a "$results"
  npass=$(grep -c '^PASS' "$results"); nfail=$(grep -c '^FAIL' "$results"); nskip=$(grep -c '^SKIP' "$results")
  printf '\n%s: %d passed, %d failed, %d skipped\n' "$shape-$(uname -r | cut -d. -f1,2)" "$npass" "$nfail" "$nskip"
  rm -rf "$work"
  [ "$nfail" -eq 0 ]; exit
fi

if [ "$quick" != 1 ] && [ ${#real[@]} -gt 0 ]; then
  section "channels of the real-driver NICs (ethtool -L)"
  for p in "${real[@]}"; do
    d=$(netdev_of "$p"); drv=$(basename "$(readlink "/sys/bus/pci/devices/$p/driver")")
    # (a here-string: the busybox guest's chroot has no /dev/fd for <(...))
    read -r cmax ccur <<<"$(ethtool -l "$d" 2>/dev/null | awk '/^Combined:/ { v[++n] = $2 } END { print v[1] + 0, v[2] + 0 }')"
    if [ "${cmax:-0}" -lt 2 ]; then
      skip "channels: $d ($drv) reports at most ${cmax:-0} combined channels: nothing to change"; continue
    fi
    nch=$((ccur > 1 ? ccur / 2 : 2))
    if ! ethtool -L "$d" combined "$nch" 2>"$work/ethtool-$d.err"; then
      skip "channels: $d ($drv): ethtool -L combined $nch refused by the driver: $(tr '\n' ' ' <"$work/ethtool-$d.err")"
      continue
    fi
    pass "channels: $d ($drv) combined $ccur -> $nch"
    "$nn" nics --json >"$work/nics-L.json" 2>/dev/null && truth roles "$work/nics-L.json" "$p"
    "$nn" plan --json >"$work/plan-L.json" 2>/dev/null && truth plan "$work/plan-L.json" "$p"
    ethtool -L "$d" combined "$ccur" || fail "channels: $d ($drv): ethtool -L combined $ccur (back) failed"
  done
fi

bash "$here/rss.sh" "$nn" "$nic_local" "$work" "$quick" | tee -a "$results"

section "hugepages on node $node"
hp=/sys/devices/system/node/node$node/hugepages/hugepages-2048kB/nr_hugepages
hp0=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages
b=$(cat "$hp"); b0=$(cat "$hp0")
if run hugepages-reserve 0 -- "$nn" hugepages reserve --nodes "$node" --size 2M --count 16; then
  a=$(cat "$hp"); a0=$(cat "$hp0")
  if [ "$a" -eq $((b + 16)) ] && { [ "$node" -eq 0 ] || [ "$a0" -eq "$b0" ]; }; then
    pass "hugepages: node $node $b -> $a, node 0 stays $b0"
  else
    fail "hugepages: node $node $b -> $a (wanted $((b + 16))), node 0 $b0 -> $a0"
  fi
  run hugepages-show 0 -- "$nn" hugepages show --json
  python3 - "$work/hugepages-show.out" "$node" "$a" <<'EOF' | tee -a "$results"
import json, sys
d = json.load(open(sys.argv[1]))
row = [h for h in d.get('hugepages', []) if h.get('node') == int(sys.argv[2]) and h.get('size_kb') == 2048]
ok = len(row) == 1 and row[0].get('total') == int(sys.argv[3])
print(('PASS' if ok else 'FAIL') + f' hugepages show: node {sys.argv[2]} 2M total = {sys.argv[3]}' + ('' if ok else f': {row}'))
EOF
  run hugepages-release 0 -- "$nn" hugepages release --nodes "$node" --size 2M --count 16
  if [ "$(cat "$hp")" -eq "$b" ]; then pass "hugepages release: node $node back to $b"
  else fail "hugepages release: node $node at $(cat "$hp"), was $b"; fi
fi
if run hugepages-reserve2 0 -- "$nn" hugepages reserve --nodes "$node" --size 2M --count 8; then
  run hugepages-rollback 0 1 -- "$nn" rollback
  if [ "$(cat "$hp")" -eq "$b" ]; then pass "hugepages rollback: node $node back to $b"
  else fail "hugepages rollback: node $node at $(cat "$hp"), was $b"; fi
fi

section "nicnuma-fwd on a DPDK-bound NIC"
if [ ! -x "$fwd" ]; then
  skip "nicnuma-fwd: $fwd not built"
else
  # The full run's check --dpdk starts the 'local' forwarder and checks its
  # report as fwd.sh does (dpdk_check_truth.py): here only 'remote' then.
  sels="local remote"; [ "$quick" != 1 ] && sels=remote
  bash "$here/fwd.sh" "$fwd" "$work" "$NN_GUEST_NIC_LOCAL" "" "$sels" | tee -a "$results"
fi

if [ "$quick" != 1 ]; then
section "check --dpdk on running DPDK processes"
if [ ! -x "$fwd" ]; then skip "check --dpdk: $fwd not built"
else
  bash "$here/dpdk_check.sh" "$nn" "$fwd" "$work" | tee -a "$results"
  # The real-driver NICs: one forwarder each (its report: PMD, nodes,
  # move_pages), checked by check --dpdk while it runs (dpdk_check.sh PCI PMD).
  [ -n "${NN_GUEST_NIC_E1000E:-}" ] && bash "$here/dpdk_check.sh" "$nn" "$fwd" "$work" "$NN_GUEST_NIC_E1000E" net_e1000_em | tee -a "$results"
  [ -n "${NN_GUEST_NIC_VMXNET3:-}" ] && bash "$here/dpdk_check.sh" "$nn" "$fwd" "$work" "$NN_GUEST_NIC_VMXNET3" net_vmxnet3 | tee -a "$results"
fi
section "DPDK ports: vfio-pci without an IOMMU (issue 38)"
if [ ! -x "$fwd" ]; then skip "ports: $fwd not built"
else bash "$here/ports.sh" "$nn" "$work" | tee -a "$results"; fi
fi

if [ "$quick" = 1 ]; then
  skip "bench, layout: the $shape run is the quick one (tests/guest/run.sh runs them on 2node)"
else
section "bench mismatch"
if run bench 0 1 -- "$nn" bench mismatch --duration 1 --repeat 1 --json; then
  python3 - "$work/bench.out" <<'EOF' | tee -a "$results"
import json, sys
d = json.load(open(sys.argv[1]))
def check(name, ok, why=''):
    print(('PASS' if ok else 'FAIL') + f' bench mismatch: {name}' + ('' if ok else f': {why}'))
rows = d.get('rows', [])
ran = [r for r in rows if r.get('skipped') is None]
check('4 rows, all run (none skipped on this multi-node guest)', len(rows) == 4 and len(ran) == 4,
      [(r.get('lcores'), r.get('mbufs'), r.get('skipped')) for r in rows])
# 'local' is one node for every row; 'remote' pools sit on another node.
check('local rows on one node, remote rows on another',
      len({r.get('lcore_node') for r in ran if r.get('lcores') == 'local'}) == 1 and
      not ({r.get('mbuf_node') for r in ran if r.get('mbufs') == 'remote'} &
           {r.get('mbuf_node') for r in ran if r.get('mbufs') == 'local'}),
      [(r.get('lcores'), r.get('lcore_node'), r.get('mbufs'), r.get('mbuf_node')) for r in ran])
host = d.get('host', {})
check('report says the nodes are emulated (hypervisor flag, timings not trusted)',
      host.get('hypervisor') is True and 'cannot be trusted' in (host.get('trust') or ''),
      f"hypervisor {host.get('hypervisor')!r}, trust {host.get('trust')!r}")
EOF
fi

section "layout and check --pid"
if [ ! -f "$here/layout_instances.sh" ]; then
  skip "layout/check --pid: tests/guest/layout_instances.sh not in this tree"
else
  bash "$here/layout_instances.sh" "$nn" >"$work/layout.out" 2>&1; rc=$?
  case $rc in
    0) pass "layout: one instance per node; the one with memory on the other node caught by check --pid" ;;
    77) skip "layout: $(tail -n1 "$work/layout.out")" ;;
    *) fail "layout/check --pid: exit $rc"; sed 's/^/    /' "$work/layout.out" | tail -n 15 ;;
  esac
fi

fi

npass=$(grep -c '^PASS' "$results"); nfail=$(grep -c '^FAIL' "$results"); nskip=$(grep -c '^SKIP' "$results")
printf '\n%s: %d passed, %d failed, %d skipped\n' "$shape" "$npass" "$nfail" "$nskip"
rm -rf "$work"
[ "$nfail" -eq 0 ]
