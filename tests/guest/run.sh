#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/run.sh - the guest suite: nicnuma's whole flow on 2- and 4-node
# QEMU guests (scripts/testhost), checked against the guest kernel.
#
# Usage: tests/guest/run.sh [--shape 2node|4node]... [--init busybox|systemd]...
#                           [--kernel 6.1|6.12]... [--build DIR] [--deb FILE]
#                           [--update-fixtures]
#   --shape            run only these shapes (default: 2node and 4node)
#   --kernel           6.1: the shapes above, persist.sh and the fleet on
#                      Debian 12's kernel; 6.12: the short pass (checks.sh
#                      kernel, claims.sh's 50 partitions) on the 2node shape
#                      on bookworm-security's 6.12 with isolcpus= on CPU 1,
#                      busybox-booted (systemd-booted with --init systemd
#                      alone and --kernel 6.12) (default: both)
#   --init             busybox: checks.sh on the shapes (6.1); systemd:
#                      persist.sh on a systemd-booted 2node guest (6.1), two
#                      boots on one disk, the .deb installed; bootargs.sh
#                      (boot arguments through kernel-install and a DPDK port
#                      on vfio-pci, three boots on q35 with a virtual IOMMU);
#                      then the fleet (tests/ansible/fleet.sh: the role over ssh on the
#                      2node and 4node guests) (default: both, busybox first)
#   --build DIR        the host build tree the guest runs (default: build)
#   --deb FILE         the nicnuma .deb the systemd guest installs and runs the
#                      flow from (default: built here with scripts/package)
#   --update-fixtures  copy each guest's capture to tests/fixtures/guest-SHAPE.tar.gz
#
# Each guest prints PASS/FAIL/SKIP lines and "N passed, N failed, N skipped";
# this prints the total. Exit 0 all passed, 1 a failure, 77 when this machine
# cannot host the guest (the reason is printed). Cold caches (debootstrap) add
# a few minutes; the rootfs is reused afterwards.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
testhost=$top/scripts/testhost
shapes=()
build=$top/build
update=0
deb=
inits=()
kernels=()
while [ $# -gt 0 ]; do
  case $1 in
    --shape) shapes+=("${2:?--shape needs 2node or 4node}"); shift 2 ;;
    --build) build=${2:?--build needs a directory}; shift 2 ;;
    --update-fixtures) update=1; shift ;;
    --init) inits+=("${2:?--init needs busybox or systemd}"); shift 2 ;;
    --deb) deb=${2:?--deb needs a file}; shift 2 ;;
    --kernel) kernels+=("${2:?--kernel needs 6.1 or 6.12}"); shift 2 ;;
    -h|--help) sed -n '3,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#shapes[@]} -gt 0 ] || shapes=(2node 4node)
[ ${#inits[@]} -gt 0 ] || inits=(busybox systemd)
kernel_given=${#kernels[@]}
[ ${#kernels[@]} -gt 0 ] || kernels=(6.1 6.12)
want_init() { local i; for i in "${inits[@]}"; do [ "$i" = "$1" ] && return 0; done; return 1; }
want_kernel() { local k; for k in "${kernels[@]}"; do [ "$k" = "$1" ] && return 0; done; return 1; }
want_kernel 6.1 || shapes=()
want_init busybox || shapes=()
# The 6.12 pass boots busybox in the suite (its 50 partition cycles cost
# 3x as much under systemd: docs/guest.md), systemd with --init systemd
# alone and --kernel 6.12 (--init systemd alone: persist.sh and the fleet,
# as before).
k612=0 k61sd=0 init612=busybox
want_kernel 6.12 && { want_init busybox || [ "$kernel_given" -gt 0 ]; } && k612=1
want_init systemd && ! want_init busybox && init612=systemd
want_init systemd && want_kernel 6.1 && k61sd=1
[ ${#shapes[@]} -gt 0 ] || [ "$k612" = 1 ] || [ "$k61sd" = 1 ] ||
  { echo "run.sh: --init ${inits[*]} --kernel ${kernels[*]} selects no guest run" >&2; exit 2; }
[ -x "$build/nicnuma/nicnuma" ] || { echo "skip: $build/nicnuma/nicnuma is not built" >&2; exit 77; }

t0=$(date +%s)
# The caches of the guests that run: busybox on 6.1, systemd on 6.1 and 6.12.
preps=()
[ ${#shapes[@]} -gt 0 ] && preps+=("--init busybox")
[ "$k61sd" = 1 ] && preps+=("--init systemd")
[ "$k612" = 1 ] && preps+=("--init $init612 --kernel 6.12")
for p in "${preps[@]}"; do
  # shellcheck disable=SC2086  # two or four words
  "$testhost" $p prepare; rc=$?
  [ "$rc" -eq 77 ] && exit 77
  [ "$rc" -eq 0 ] || { echo "FAIL guest: scripts/testhost $p prepare exited $rc" >&2; exit 1; }
done
t_prep=$(( $(date +%s) - t0 ))

out=$(mktemp -d /tmp/nicnuma-guest-out.XXXXXX)
trap 'rm -rf "$out"' EXIT
tp=0 tf=0 ts=0 bad=0
# tally NAME RC LOG: adds the "NAME: N passed, N failed, N skipped" line of LOG
# to the totals; no such line is a failure. Exits 77 when RC says the guest
# cannot run here.
# Each run's row for the recap at the end (CI shows a log's tail only).
recap=() recap_logs=()
tally() {
  local name=$1 rc=$2 log=$3 line p f sk secs=$(( $(date +%s) - t1 ))
  [ "$rc" -eq 77 ] && { echo "skip: the $name guest cannot run here" >&2; exit 77; }
  line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$" "$log" | tail -n1)
  if [ -z "$line" ]; then
    echo "FAIL $name guest: no result line (exit $rc)"
    recap+=("$(printf '%-16s %-8s %6s %6s %7s %7s' "$name" "no-line" - - - "$secs") exit $rc")
    recap_logs+=("$log")
    bad=1; tf=$((tf + 1)); return 1
  fi
  read -r p f sk < <(sed -E 's/^[^:]*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/' <<<"$line")
  tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + sk))
  local res=ok; { [ "$rc" -eq 0 ] && [ "$f" -eq 0 ]; } || { res=FAILED; recap_logs+=("$log"); }
  recap+=("$(printf '%-16s %-8s %6s %6s %7s %7s' "$name" "$res" "$p" "$f" "$sk" "$secs") exit $rc")
  [ "$rc" -eq 0 ] || bad=1
}
# print_recap: one row per guest run, then each failed run's FAIL lines (or,
# with no result line, its log's last lines: the hang or crash).
print_recap() {
  local r log
  printf '\n%-16s %-8s %6s %6s %7s %7s\n' run result passed failed skipped seconds
  for r in "${recap[@]}"; do echo "$r"; done
  for log in "${recap_logs[@]}"; do
    echo "--- $(basename "$log" .log): what failed"
    if grep -q '^FAIL' "$log"; then grep '^FAIL' "$log" | head -n 40
    else tail -n 30 "$log"; fi
  done
}
for s in "${shapes[@]}"; do
  t1=$(date +%s)
  log=$out/$s.log
  # The hard limit covers a stuck guest; a normal run takes a few minutes.
  # 2node runs the whole flow; 4node (twice the vCPUs to emulate) the
  # discovery, capture, plan, script, hugepages and forwarder part, where
  # its shape (NIC on node 3, two distances) matters.
  # The limits are for a stuck guest, about twice a run at load 20 (a hung
  # step fails sooner: checks.sh bounds each by NN_GUEST_STEP_LIMIT).
  mode=full; limit=1200
  [ "$s" = 4node ] && { mode=quick; limit=900; }
  "$testhost" --shape "$s" --build "$build" --out "$out" --timeout "$limit" \
    run bash tests/guest/checks.sh "$mode" 2>&1 | tee "$log"
  tally "$s" "${PIPESTATUS[0]}" "$log" || continue
  echo "guest $s: $(( $(date +%s) - t1 )) s"
  if [ "$update" = 1 ] && [ -s "$out/guest-$s.tar.gz" ]; then
    cp "$out/guest-$s.tar.gz" "$top/tests/fixtures/guest-$s.tar.gz" && echo "updated tests/fixtures/guest-$s.tar.gz"
  fi
done
# The second kernel: Debian 12's 6.12 (netdev netlink: queue-get, napi-get;
# cpuset.cpus.exclusive and the root's cpuset.cpus.isolated), the 2node
# shape, a short pass (checks.sh kernel: discovery, plan, apply, check,
# rollback on every NIC, no DPDK; then claims.sh's 50 isolated partitions
# and a remote one while the watcher runs) in the same boot as isolcpus=
# on CPU 1 (node 0's CPU that is not housekeeping), so one boot shows both.
# With --init systemd alone it boots systemd: the partitions beside
# systemd's own cpuset cgroups, the watcher as nicnuma-watch.service
# (docs/guest.md: what that costs, and why it is not the suite's default).
if [ "$k612" = 1 ]; then
  t1=$(date +%s)
  log=$out/2node-6.12.log
  # systemd: its boot, and 50 claims cycles at ~3x busybox's seconds each
  lim=900; [ "$init612" = systemd ] && lim=1500
  "$testhost" --init "$init612" --shape 2node --kernel 6.12 --append "isolcpus=managed_irq,domain,1" --build "$build" \
    --out "$out" --timeout "$lim" run bash tests/guest/checks.sh kernel 2>&1 | tee "$log"
  tally 2node-6.12 "${PIPESTATUS[0]}" "$log" && echo "guest 2node-6.12: $(( $(date +%s) - t1 )) s"
fi
# The systemd shape: nn-test-runner.service runs persist.sh; its first boot
# enables nicnuma and exits 75, testhost powers the guest off and boots it
# again on the same (fresh) disk; each boot bounded by --timeout.
if [ "$k61sd" = 1 ]; then
  t1=$(date +%s)
  log=$out/2node-systemd.log
  # The package, not the build tree: persist.sh installs it on boot 1.
  if [ -z "$deb" ]; then
    deb=$("$top/scripts/package" "$out/deb" | grep '/nicnuma_[^/]*\.deb$') ||
      { echo "FAIL 2node-systemd guest: scripts/package built no nicnuma .deb"; exit 1; }
  fi
  [ -f "$deb" ] || { echo "FAIL 2node-systemd guest: $deb: no such file"; exit 1; }
  cp "$deb" "$out/" || exit 1
  echo "guest 2node-systemd: installs $(basename "$deb")"
  # (per boot; boot 2 took 669 s at load ~10 with claims.sh's 10 cycles)
  "$testhost" --init systemd --shape 2node --build "$build" --out "$out" --timeout 960 --boots 3 \
    run NN_GUEST_DEB="/out/$(basename "$deb")" bash tests/guest/persist.sh 2>&1 | tee "$log"
  tally 2node-systemd "${PIPESTATUS[0]}" "$log"
  echo "guest 2node-systemd: $(( $(date +%s) - t1 )) s"

  # Boot arguments through a real kernel-install, over three boots
  # (tests/guest/bootargs.sh): the guest copies the running kernel's image
  # and configuration, the ones testhost boots, from /out. On q35 with the
  # virtual IOMMU: the DPDK port planned, bound, kept across the reboot by
  # the watcher and given back, beside the boot arguments (issue 38's proof;
  # about 2.3x the pc pass: docs/guest.md).
  t1=$(date +%s)
  log=$out/2node-bootargs.log
  vmlinuz=$("$testhost" --init systemd prepare 2>&1 | sed -n 's/^testhost: ready: \([^,]*\),.*/\1/p')
  if [ -f "$vmlinuz" ]; then
    cp "$vmlinuz" "$out/" && cp "${vmlinuz%/*}/config-${vmlinuz##*/vmlinuz-}" "$out/" 2>/dev/null
    "$testhost" --iommu --init systemd --shape 2node --build "$build" --out "$out" --timeout 600 --boots 3 \
      run bash tests/guest/bootargs.sh 2>&1 | tee "$log"
    tally 2node-bootargs "${PIPESTATUS[0]}" "$log"
  else
    echo "FAIL 2node-bootargs guest: testhost prepare named no kernel image ('$vmlinuz')"
    recap+=("$(printf '%-16s %-8s' 2node-bootargs no-kernel)")
    bad=1; tf=$((tf + 1))
  fi
  echo "guest 2node-bootargs: $(( $(date +%s) - t1 )) s"

  # The fleet: the Ansible role over ssh on the 2- and 4-node systemd guests
  # and a fake root, in one playbook, installing the same .deb.
  t1=$(date +%s)
  log=$out/fleet.log
  NN_FLEET_DEB=$out/$(basename "$deb") "$top/tests/ansible/fleet.sh" "$build/nicnuma/nicnuma" 2>&1 | tee "$log"
  tally fleet "${PIPESTATUS[0]}" "$log"
  echo "guest fleet: $(( $(date +%s) - t1 )) s"
fi
print_recap
echo "guest suite: prepare ${t_prep} s, total $(( $(date +%s) - t0 )) s"
echo "$tp passed, $tf failed, $ts skipped"
[ "$bad" -eq 0 ] && [ "$tf" -eq 0 ]
