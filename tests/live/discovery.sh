#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/discovery.sh NICNUMA CAPTURE_HOST - discovery on this machine (suite 'live')
#
#  1. eth0's IRQs from `nics --json` are exactly its msi_irqs, with the names,
#     queues and affinities of /proc/interrupts and /proc/irq/N; its PCIe
#     report is null for virtio-net ("not a PCIe device"), else its link.
#  1b. The kernel's netdev genl (6.8+): every rx queue in sysfs is in
#     `queues` with a NAPI id; an IRQ a NAPI names is decided by netlink
#     (source netlink, its queue), the others by name (virtio_net links no IRQ
#     to its NAPIs on this machine's 6.18); none is left unknown.
#  2. veth and tun devices made in a private netns (disc-*) show as virtual with
#     the right kind, and rtnetlink agrees with sysfs (no warnings; ifindexes
#     equal `ip -j link`); entered without its own /sys, they disagree and
#     that is reported.
#  3. Under --root nothing opens a socket (strace), while the live run does.
#  4. A root that does not exist exits 2.
#  5. In a writable capture of this host: garbage numa_node, a truncated
#     cpulist and an IRQ missing from /proc/irq each give a warning naming the
#     file, the rest of the report still prints, and the exit status is 1.
# Needs root (netns, /proc/irq); exits 77 with the reason otherwise. Everything
# it makes (netns, temp trees) is removed on exit.
# shellcheck disable=SC2016  # jq programs use $vars of their own
set -uo pipefail

nn=${1:?usage: discovery.sh NICNUMA CAPTURE_HOST}
capture=${2:?usage: discovery.sh NICNUMA CAPTURE_HOST}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (network namespaces, /proc/irq)"; exit 77; }
for t in jq ip strace; do
  command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }
done

ns=disc-live-$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/disc-live.XXXXXX")
cleanup() {
  ip netns del "$ns" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
jqok() { jq -e "$@" > /dev/null; }

# --- 1. eth0's IRQs against msi_irqs and /proc/interrupts ---------------------
nic=eth0
if [ ! -e /sys/class/net/$nic/device ]; then
  nic=
  for d in /sys/class/net/*; do
    [ -e "$d/device" ] && { nic=${d##*/}; break; }
  done
fi
if [ -z "$nic" ]; then
  echo "note: no physical NIC on this host; IRQ checks not run"
else
  dev=$(readlink -f "/sys/class/net/$nic/device")
  case ${dev##*/} in virtio*) fn=${dev%/*};; *) fn=$dev;; esac
  "$nn" nics --json "$nic" > "$tmp/live.json" 2> "$tmp/live.err"
  rc=$?
  check "nics --json $nic exits 0 (got $rc: $(tr '\n' ' ' < "$tmp/live.err"))" [ "$rc" -eq 0 ]
  want=$(find "$fn/msi_irqs" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -n | tr '\n' ' ')
  got=$(jq -r '.nics[0].irqs[].irq' "$tmp/live.json" | tr '\n' ' ')
  check "$nic IRQs [$got] = $fn/msi_irqs [$want]" [ -n "$want" ] && [ "$got" = "$want" ]
  check "$nic pci is ${fn##*/}" [ "$(jq -r '.nics[0].pci' "$tmp/live.json")" = "${fn##*/}" ]
  check "$nic driver is $(basename "$(readlink "$dev/driver")")" \
    [ "$(jq -r '.nics[0].driver' "$tmp/live.json")" = "$(basename "$(readlink "$dev/driver")")" ]
  ncpu=$(head -1 /proc/interrupts | wc -w)
  for irq in $want; do
    name=$(awk -v irq="$irq:" -v n="$ncpu" '$1 == irq { s = $(n + 4); for (i = n + 5; i <= NF; i++) s = s " " $i; print s }' /proc/interrupts)
    jname=$(jq -r --argjson i "$irq" '.nics[0].irqs[] | select(.irq == $i) | .name' "$tmp/live.json")
    check "IRQ $irq name '$jname' = /proc/interrupts '$name'" [ -n "$name" ] && [ "$jname" = "$name" ]
    aff=$(cat /proc/irq/"$irq"/smp_affinity_list)
    jaff=$(jq -r --argjson i "$irq" '.nics[0].irqs[] | select(.irq == $i) | .affinity' "$tmp/live.json")
    # Other live tests may move this IRQ meanwhile: re-read once before failing.
    [ "$jaff" = "$aff" ] || { "$nn" nics --json "$nic" > "$tmp/live.json" 2>/dev/null
      aff=$(cat /proc/irq/"$irq"/smp_affinity_list)
      jaff=$(jq -r --argjson i "$irq" '.nics[0].irqs[] | select(.irq == $i) | .affinity' "$tmp/live.json"); }
    check "IRQ $irq affinity '$jaff' = /proc/irq/$irq/smp_affinity_list '$aff'" [ "$jaff" = "$aff" ]
    case $name in
      virtio*-input.*)  wq=${name##*.} wd=rx;;
      virtio*-output.*) wq=${name##*.} wd=tx;;
      *-TxRx-*)         wq=${name##*-} wd=rxtx;;
      *)                wq=null wd=null;;
    esac
    jq_q=$(jq -r --argjson i "$irq" '.nics[0].irqs[] | select(.irq == $i) | "\(.queue) \(.dir)"' "$tmp/live.json")
    check "IRQ $irq ($name) queue/dir '$jq_q' = '$wq $wd'" [ "$jq_q" = "$wq $wd" ]
  done
  # PCIe: virtio-net's link is the hypervisor's, never judged (pcie null); a
  # PCI function reports its own link width, or 'link unknown' without files.
  "$nn" nics "$nic" > "$tmp/live.txt" 2>/dev/null
  case ${dev##*/} in
    virtio*)
      check "$nic pcie is null (virtio: not a PCIe device)" jqok '.nics[0].pcie == null' "$tmp/live.json"
      check "$nic text says 'not a PCIe device'" grep -q "^  $nic: PCIe: not a PCIe device$" "$tmp/live.txt";;
    *)
      if [ -r "$fn/current_link_width" ]; then
        w=$(cat "$fn/current_link_width")
        case $w in 0|255) w=null;; esac
        jw=$(jq -r '.nics[0].pcie.width' "$tmp/live.json")
        check "$nic pcie width $jw = $fn/current_link_width $w" [ "$jw" = "$w" ]
      else
        check "$nic pcie verdict is 'link unknown' (no link files)" \
          jqok '.nics[0].pcie.verdict == "link unknown"' "$tmp/live.json"
      fi
      check "$nic text has a PCIe line" grep -q "^  $nic: PCIe " "$tmp/live.txt";;
  esac
fi

# --- 1b. queue -> NAPI -> IRQ from the kernel ---------------------------------
if [ -n "$nic" ]; then
  "$nn" nics --json "$nic" > "$tmp/genl.json" 2>/dev/null
  kmaj=$(uname -r | cut -d. -f1) kmin=$(uname -r | cut -d. -f2 | tr -cd '0-9')
  if [ "$kmaj" -lt 6 ] || { [ "$kmaj" -eq 6 ] && [ "${kmin:-0}" -lt 8 ]; }; then
    check "kernel $(uname -r) before 6.8: queues null, every IRQ decided by name or unknown" \
      jqok '.nics[0].queues == null and all(.nics[0].irqs[]; .source != "netlink")' "$tmp/genl.json"
  else
    nrx=$(find "/sys/class/net/$nic/queues" -maxdepth 1 -name 'rx-*' | wc -l)
    check "$nic: $nrx rx queues of sysfs in netdev genl queue-get, each with a NAPI" \
      jqok --argjson n "$nrx" '[.nics[0].queues[] | select(.type == "rx" and (.napi_id | type) == "number")] | length == $n' \
      "$tmp/genl.json"
    check "$nic: an IRQ a NAPI names is decided by netlink with that queue" \
      jqok '.nics[0] as $d | all($d.queues[] | select(.irq != null); . as $q |
        any($d.irqs[]; .irq == $q.irq and .source == "netlink" and .queue == $q.id))' "$tmp/genl.json"
    check "$nic: IRQs no NAPI names are decided by name (source name, none unknown)" \
      jqok '.nics[0] as $d | ([$d.queues[] | .irq | select(. != null)]) as $l |
        all($d.irqs[] | select(.irq as $i | $l | index($i) | not); .source == "name")' "$tmp/genl.json"
    jq -r '.nics[0] | "note: \(.name): \(.queues | length) queues, NAPI irqs \([.queues[].irq] | unique), sources \([.irqs[].source] | unique)"' "$tmp/genl.json"
  fi
fi

# --- 2. virtual devices in a private netns; netlink agrees with sysfs ---------
ip netns add "$ns" || { fail "cannot create netns $ns"; exit 1; }
ip -n "$ns" link set lo up
check "veth pair disc-v0/disc-v1 created" ip -n "$ns" link add disc-v0 type veth peer name disc-v1
check "tun device disc-t0 created" ip -n "$ns" tuntap add dev disc-t0 mode tun
# Interface names may hold shell and JSON metacharacters.
# shellcheck disable=SC1003  # the backslash is part of the name
odd1='disc-$(x);' odd2='disc-"q\'
check "veth pair with hostile names created" ip -n "$ns" link add "$odd1" type veth peer name "$odd2"
have_dummy=0
if ip -n "$ns" link add disc-d0 type dummy 2>/dev/null; then
  have_dummy=1
else
  echo "note: this kernel has no 'dummy' link type (no module loading here); veth and tun stand in for it"
fi
ip netns exec "$ns" "$nn" nics --json > "$tmp/ns.json" 2> "$tmp/ns.err"
rc=$?
check "nics in netns exits 0, no warnings (got $rc: $(tr '\n' ' ' < "$tmp/ns.err"))" \
  [ "$rc" -eq 0 ] && [ "$(jq '.warnings | length' "$tmp/ns.json")" -eq 0 ]
kind() { jq -r --arg n "$1" '.nics[] | select(.name == $n) | "\(.virtual) \(.kind) \(.pci) \(.driver)"' "$tmp/ns.json"; }
check "disc-v0 is virtual veth without pci/driver ($(kind disc-v0))" [ "$(kind disc-v0)" = "true veth null null" ]
check "disc-v1 is virtual veth without pci/driver ($(kind disc-v1))" [ "$(kind disc-v1)" = "true veth null null" ]
check "disc-t0 is virtual tun without pci/driver ($(kind disc-t0))" [ "$(kind disc-t0)" = "true tun null null" ]
check "lo is virtual loopback ($(kind lo))" [ "$(kind lo)" = "true loopback null null" ]
check "$odd1 is virtual veth, name intact in JSON ($(kind "$odd1"))" [ "$(kind "$odd1")" = "true veth null null" ]
check "$odd2 is virtual veth, name intact in JSON ($(kind "$odd2"))" [ "$(kind "$odd2")" = "true veth null null" ]
[ "$have_dummy" = 1 ] && check "disc-d0 is virtual dummy ($(kind disc-d0))" [ "$(kind disc-d0)" = "true dummy null null" ]
want=$(ip -n "$ns" -j link show | jq -r '.[] | "\(.ifname) \(.ifindex)"' | sort)
got=$(jq -r '.nics[] | "\(.name) \(.ifindex)"' "$tmp/ns.json" | sort)
check "netns links and ifindexes = ip -j link ($(tr '\n' ' ' <<< "$got"))" [ "$got" = "$want" ]

# The cross-check can fail: entering only the netns (no mount namespace, so
# /sys still shows this host's devices) makes rtnetlink and sysfs disagree.
if command -v nsenter > /dev/null; then
  nsenter --net="/run/netns/$ns" "$nn" nics --json > "$tmp/split.json" 2> "$tmp/split.err"
  rc=$?
  check "netns without its sysfs: exit 1 (got $rc)" [ "$rc" -eq 1 ]
  check "netns without its sysfs: 'rtnetlink lists link disc-v0 that /sys/class/net lacks'" \
    jqok '[.warnings[].message | select(test("rtnetlink lists link disc-v0 .*lacks"))] | length == 1' "$tmp/split.json"
  check "netns without its sysfs: lo is in both, so no warning names it" \
    jqok '[.warnings[] | select(.file == "lo")] | length == 0' "$tmp/split.json"
else
  echo "note: nsenter missing; the sysfs/netlink disagreement check was not run"
fi

# --- 3. --root never opens a socket; the live run does ----------------------
"$capture" "$tmp/cap.tar.gz" 2>/dev/null || fail "capture-host failed"
mkdir "$tmp/cap"
tar -C "$tmp/cap" -xzf "$tmp/cap.tar.gz"
strace -f -e trace=socket -o "$tmp/strace.root" "$nn" --root "$tmp/cap" nics --json > /dev/null 2>&1
check "--root run makes no socket (no netlink, no ioctl socket)" \
  [ -s "$tmp/strace.root" ] && ! grep -q 'socket(' "$tmp/strace.root"
strace -f -e trace=socket -o "$tmp/strace.live" "$nn" nics --json > /dev/null 2>&1
check "live run opens a netlink socket (the check above can fail)" grep -q 'socket(AF_NETLINK' "$tmp/strace.live"

# --- 4. a root that does not exist -------------------------------------------
"$nn" --root "$tmp/does-not-exist" topo > /dev/null 2> "$tmp/noroot.err"
rc=$?
check "nonexistent --root exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "its message names the root" grep -q "does-not-exist" "$tmp/noroot.err"

# --- 5. malformed files in a writable copy of the capture --------------------
# bad NAME CMD FILE: run CMD on copy NAME, want exit 1, a warning naming FILE in
# the JSON and on stderr, and the rest of the report present.
bad() {
  local name=$1 cmd=$2 file=$3 root=$tmp/$1 rc
  "$nn" --root "$root" "$cmd" --json > "$tmp/$name.json" 2> "$tmp/$name.err"
  rc=$?
  check "$name: exit 1 (got $rc)" [ "$rc" -eq 1 ]
  check "$name: JSON warning names $file" \
    jqok --arg f "$file" '[.warnings[] | select(.file == $f)] | length > 0' "$tmp/$name.json"
  check "$name: stderr names $file" grep -qF "$file" "$tmp/$name.err"
}
if [ -n "$nic" ]; then
  capdev=$(readlink -f "$tmp/cap/sys/class/net/$nic/device")
  capdev=${capdev#"$tmp/cap"}
  case ${capdev##*/} in virtio*) capfn=${capdev%/*};; *) capfn=$capdev;; esac

  cp -a "$tmp/cap" "$tmp/numa"
  printf 'banana\n' > "$tmp/numa$capfn/numa_node"
  bad numa nics "$capfn/numa_node"
  check "numa: $nic still listed, numa_node null, IRQs still there" \
    jqok --arg n "$nic" '.nics[] | select(.name == $n) | .numa_node == null and (.irqs | length) > 0' \
    "$tmp/numa.json"

  first=$(find "$tmp/cap$capfn/msi_irqs" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -n | head -1)
  cp -a "$tmp/cap" "$tmp/noirq"
  rm -rf "$tmp/noirq/proc/irq/$first"
  bad noirq nics "/proc/irq/$first"
  check "noirq: IRQ $first listed with null affinity, the others still have theirs" \
    jqok --arg n "$nic" --argjson i "$first" \
    '.nics[] | select(.name == $n) | .irqs | (map(select(.irq == $i))[0].affinity == null) and (map(select(.irq != $i and .affinity != null)) | length) == (length - 1)' \
    "$tmp/noirq.json"
fi

cp -a "$tmp/cap" "$tmp/cpulist"
printf '0-\n' > "$tmp/cpulist/sys/devices/system/node/node0/cpulist"
bad cpulist topo /sys/devices/system/node/node0/cpulist
check "cpulist: nodes and cpus still printed" \
  jqok '(.nodes | length) > 0 and (.cpus | length) > 0 and .nodes[0].cpus == null' "$tmp/cpulist.json"

cp -a "$tmp/cap" "$tmp/sibl"
printf '0-x\n' > "$tmp/sibl/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"
bad sibl topo /sys/devices/system/cpu/cpu0/topology/thread_siblings_list

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
