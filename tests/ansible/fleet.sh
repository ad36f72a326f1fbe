#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/ansible/fleet.sh - the role over ssh: two QEMU guests plus a fake root
#
# Boots the 2-node and then the 4-node guest with systemd and sshd
# (scripts/testhost --init systemd --ssh-port N), takes the .deb (NN_FLEET_DEB,
# or scripts/package), and runs ONE playbook (fleet.yml) on both guests (root
# over ssh to 127.0.0.1:N, the .deb copied and installed with dpkg -i: the
# guests' minbase rootfs has no python3-apt) and on this machine against a
# mkhost.py tree (--root, nothing live):
#   1. install + enable: changed on all three; the guests' watcher active and
#      their NIC's queue IRQs on its node (status and metrics facts)
#   2. the same again: changed=0
#   3. nicnuma_state=absent: disabled, the package gone from the guests
#   4. absent again: changed=0
# Then the guests are powered off (their run command waits for /out/stop).
# Root; minutes of TCG boot (NN_FLEET_BOOT_WAIT, default 600 s a guest).
# Exit 77 when testhost says this machine cannot host the guests.
# Ports: NN_FLEET_PORTS="2222 2224". NN_FLEET_KEEP=DIR keeps the plays' JSON.
# ok never fails, so "A && ok || err" is an if-then-else here.
# shellcheck disable=SC2015
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
nicnuma=${1:-$top/build/nicnuma/nicnuma}
read -r port2 port4 <<<"${NN_FLEET_PORTS:-2222 2224}"
cache=${NN_TESTHOST_CACHE:-/var/cache/nicnuma-testhost}
key=$cache/ssh/id_ed25519
boot_wait=${NN_FLEET_BOOT_WAIT:-600}

nn_install "${NN_ANSIBLE_PACKAGES[@]}" openssh-client jq
npass=0 nfail=0
ok() { echo "PASS fleet: $*"; npass=$((npass + 1)); }
err() { echo "FAIL fleet: $*"; nfail=$((nfail + 1)); }
[ -x "$nicnuma" ] || { echo "FAIL: $nicnuma is not built (the fake-root host runs it)" >&2; exit 1; }
nicnuma=$(cd "$(dirname "$nicnuma")" && pwd)/$(basename "$nicnuma")	# ansible runs in $here

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nicnuma-fleet.XXXXXX") || exit 2
pids=()
cleanup() {
  touch "$tmp/g2/stop" "$tmp/g4/stop" 2>/dev/null
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  # NN_FLEET_KEEP=DIR: the plays' JSON and stderr kept there, for reading
  [ -n "${NN_FLEET_KEEP:-}" ] && mkdir -p "$NN_FLEET_KEEP" && cp "$tmp"/*.json "$tmp"/*.err "$NN_FLEET_KEEP"/ 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# The .deb: NN_FLEET_DEB (scripts/test passes the package suite's), or built
# from this tree (a copy: the tree stays clean).
deb=${NN_FLEET_DEB:-}
if [ -z "$deb" ]; then
  deb=$("$top/scripts/package" "$tmp/deb" | grep '/nicnuma_[^/]*\.deb$') || { echo "FAIL: scripts/package" >&2; exit 1; }
fi
[ -f "$deb" ] || { echo "FAIL: $deb: no such file" >&2; exit 1; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")

"$top/scripts/testhost" --init systemd prepare >"$tmp/prepare.log" 2>&1; rc=$?
[ "$rc" = 77 ] && { echo "SKIP: testhost cannot host the guests:" >&2; tail -n 5 "$tmp/prepare.log" >&2; exit 77; }
[ "$rc" = 0 ] || { echo "FAIL: scripts/testhost --init systemd prepare exited $rc" >&2; tail -n 20 "$tmp/prepare.log" >&2; exit 1; }

# gssh PORT CMD: root in the guest whose sshd this machine's PORT reaches.
gssh() {
  local port=$1; shift
  ssh -i "$key" -p "$port" -o BatchMode=yes -o ConnectTimeout=10 -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR root@127.0.0.1 "$@"
}
ssh_ok() {
  local state
  state=$(gssh "$1" 'systemctl is-system-running --wait' 2>/dev/null)
  # degraded: up, with a failed unit (named in the log); ansible can work
  case $state in running|degraded) echo "$state"; return 0 ;; esac
  return 1
}
# One guest at a time: two TCG guests booting systemd at once on two CPUs
# took longer than any sane wait. Each is kept up until OUT/stop appears.
boot() {  # boot N PORT
  local n=$1 port=$2 t0 pid rc state
  mkdir -p "$tmp/g$n"
  "$top/scripts/testhost" --init systemd --shape "${n}node" --ssh-port "$port" --out "$tmp/g$n" \
    --timeout 3600 --boots 1 run 'while [ ! -e /out/stop ]; do sleep 2; done' \
    > "$tmp/testhost-$n.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  t0=$(date +%s)
  until state=$(ssh_ok "$port"); do
    if ! kill -0 "$pid" 2>/dev/null; then
      wait "$pid"; rc=$?
      [ "$rc" = 77 ] && { echo "SKIP: testhost cannot host the ${n}node guest:" >&2; tail -n 5 "$tmp/testhost-$n.log" >&2; exit 77; }
      echo "FAIL: the ${n}node guest exited ($rc) before ssh answered:" >&2; tail -n 30 "$tmp/testhost-$n.log" >&2; exit 1
    fi
    [ $(( $(date +%s) - t0 )) -lt "$boot_wait" ] ||
      { echo "FAIL: no ssh to the ${n}node guest on port $port in ${boot_wait}s:" >&2; tail -n 30 "$tmp/testhost-$n.log" >&2; exit 1; }
    sleep 5
  done
  echo "fleet: ${n}node guest up on port $port after $(( $(date +%s) - t0 )) s (systemd: $state)"
  [ "$state" = running ] || gssh "$port" 'systemctl --failed --no-legend --plain' | sed 's/^/    failed: /'
  # The e1000e and vmxnet3 NICs up: they request their IRQs only when opened,
  # so only then are there IRQs to place (down, their msi_irqs without
  # /proc/irq/N are a discovery note, not a warning). Only those: the virtio NIC the fleet
  # places stays as it boots, idle, so no packet leaves a queue IRQ's move
  # pending (x86 moves an IRQ when it next fires) when the metrics are read.
  gssh "$port" 'for i in /sys/class/net/*; do
    case $(basename "$(readlink "$i/device/driver")") in
      e1000e|vmxnet3) ip link set "${i##*/}" up ;;
    esac
  done; true'
  # The NIC under test is the one testhost puts on the last node (PCI
  # 0000:65:00.0); nicnuma --nics takes names: its name from sysfs, read
  # here once (over ssh, no Python) for the inventory, not in every play.
  nic[$n]=$(gssh "$port" 'ls /sys/bus/pci/devices/0000:65:00.0/virtio*/net | head -n1')
  [[ ${nic[$n]} =~ ^[a-z][a-z0-9]*$ ]] ||
    { echo "FAIL: the ${n}node guest's NIC at 0000:65:00.0 has no usable name ('${nic[$n]}')" >&2; exit 1; }
  echo "fleet: ${n}node guest's NIC under test: ${nic[$n]}"
}
declare -A nic
boot 2 "$port2"
boot 4 "$port4"

python3 "$top/tests/fixtures/mkhost.py" build even-odd "$tmp/root" >/dev/null || exit 2
cat > "$tmp/inventory.yml" <<INV
all:
  children:
    guests:
      vars:
        ansible_host: 127.0.0.1
        ansible_user: root
        ansible_ssh_private_key_file: $key
        ansible_ssh_common_args: -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
        nicnuma_deb_path: $deb
        nicnuma_deb_method: dpkg
        nicnuma_hugepages: "2M:16"
      hosts:
        guest-2node: {ansible_port: $port2, nicnuma_nics: [${nic[2]}]}
        guest-4node: {ansible_port: $port4, nicnuma_nics: [${nic[4]}]}
    fake:
      hosts:
        fake-even-odd:
          ansible_connection: local
          nicnuma_install: false
          nicnuma_bin: $nicnuma
          nicnuma_root: $tmp/root
          nicnuma_nics: [ens2f0]
INV
export ANSIBLE_CONFIG=$here/ansible.cfg ANSIBLE_HOME=$tmp/ansible-home ANSIBLE_NOCOLOR=1
hosts=(guest-2node guest-4node fake-even-odd)
play() {
  local name=$1 t0; shift
  t0=$(date +%s)
  (cd "$here" && ANSIBLE_STDOUT_CALLBACK=nn_json ansible-playbook -i "$tmp/inventory.yml" fleet.yml "$@") \
    > "$tmp/$name.json" 2> "$tmp/$name.err" || { err "$name: ansible-playbook failed"; cat "$tmp/$name.err" >&2
    jq -r '.plays[].tasks[] | .task.name as $t | .hosts | to_entries[] | select(.value.failed)
           | "\(.key): \($t): \(.value.msg // "") \(.value.stderr // "")"' "$tmp/$name.json" >&2; }
  # Where the time went: the play, and its slowest tasks (the callback's
  # nn_seconds: task start to the host's result).
  echo "fleet: play $name: $(( $(date +%s) - t0 )) s; slowest tasks:"
  jq -r '[.plays[].tasks[] | {t: .task.name, s: ([.hosts[].nn_seconds // 0] | max // 0)}]
         | sort_by(-.s) | .[:5][] | "    \(.s) s  \(.t)"' "$tmp/$name.json" 2>/dev/null
}
changed() { jq -r --arg h "$2" '.stats[$h].changed' "$tmp/$1.json"; }
# every host of a play reached and without a failed task (changed=0 on a
# host that failed would say nothing)
clean() {
  local h n
  for h in "${hosts[@]}"; do
    n=$(jq -r --arg h "$h" '(.stats[$h].failures // 0) + (.stats[$h].unreachable // 0)' "$tmp/$1.json" 2>/dev/null)
    [ "$n" = 0 ] && ok "$1: $h: no failed or unreachable task" || err "$1: $h: $n failed or unreachable tasks"
  done
}
facts() { jq --arg h "$2" '[.plays[].tasks[] | select(.task.name | contains("Set the nicnuma facts"))
  | .hosts[$h].ansible_facts | select(. != null)] | last' "$tmp/$1.json"; }

play enable
clean enable
for h in "${hosts[@]}"; do
  c=$(changed enable "$h")
  [ "$c" -ge 1 ] 2>/dev/null && ok "enable: $h changed=$c" || err "enable: $h changed=$c"
done
for g in guest-2node:1 guest-4node:3; do
  h=${g%:*} want=${g#*:}
  f=$(facts enable "$h")
  jq -e '.nicnuma_status.enabled and .nicnuma_status.service.active == "active"
         and .nicnuma_status.matches_desired' <<<"$f" >/dev/null &&
    ok "enable: $h: status enabled, nicnuma-watch active, matches desired (status fact)" ||
    err "enable: $h status: $(jq -c .nicnuma_status <<<"$f" | head -c 600)"
  # the NIC under test: node from sysfs, every queue IRQ on it (metrics fact)
  n=$(jq '[.nicnuma_metrics[] | select(.name == "nicnuma_nic_numa_node" and .labels.pci == "0000:65:00.0") | .value] | first' <<<"$f")
  [ "$n" = "$want" ] && ok "metrics: $h: nicnuma_nic_numa_node{pci=0000:65:00.0} = $want" ||
    err "metrics: $h: nicnuma_nic_numa_node{pci=0000:65:00.0} = $n, wanted $want"
  q=$(jq '[.nicnuma_metrics[] | select(.labels.pci == "0000:65:00.0") | select(.name == "nicnuma_nic_queue_irqs" or .name == "nicnuma_nic_queue_irqs_off_node") | "\(.name)=\(.value)"] | join(" ")' -r <<<"$f")
  case " $q " in
    *" nicnuma_nic_queue_irqs_off_node=0 "*) [[ $q =~ nicnuma_nic_queue_irqs=[1-9] ]] &&
      ok "metrics: $h: $q" || err "metrics: $h: no queue IRQs counted: $q" ;;
    *) err "metrics: $h: queue IRQs off the NIC's node: $q" ;;
  esac
done
play again
clean again
for h in "${hosts[@]}"; do
  c=$(changed again "$h")
  [ "$c" = 0 ] && ok "again: $h changed=0" || err "again: $h changed=$c"
done
play absent -e nicnuma_state=absent
clean absent
for h in "${hosts[@]}"; do
  c=$(changed absent "$h")
  [ "$c" -ge 1 ] 2>/dev/null && ok "absent: $h changed=$c" || err "absent: $h changed=$c"
done
for port in "$port2" "$port4"; do
  # shellcheck disable=SC2016  # expanded by the guest's shell
  if gssh "$port" '! dpkg-query -W -f="\${db:Status-Abbrev}" nicnuma 2>/dev/null | grep -q ^ii &&
                      ! systemctl is-active --quiet nicnuma-watch.service && [ ! -e /etc/nicnuma/nicnuma.conf ]'; then
    ok "absent: guest on port $port: package removed, watcher stopped, no desired state"
  else err "absent: guest on port $port: nicnuma still installed, running or configured"; fi
done
play absent2 -e nicnuma_state=absent
clean absent2
for h in "${hosts[@]}"; do
  c=$(changed absent2 "$h")
  [ "$c" = 0 ] && ok "absent again: $h changed=0" || err "absent again: $h changed=$c"
done

echo "fleet: $npass passed, $nfail failed, 0 skipped"
[ "$nfail" = 0 ]
