#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/ansible/fleet.sh - the role over ssh: two QEMU guests plus a fake root
#
# Boots the 2-node and the 4-node guest with systemd and sshd
# (scripts/testhost --init systemd --ssh-port N; branch guest13), builds the
# .deb (scripts/package), and runs ONE playbook (fleet.yml) on both guests
# (root over ssh to 127.0.0.1:N, the .deb copied and installed with dpkg -i:
# the guests' minbase rootfs has no python3-apt) and on this machine against
# a mkhost.py tree (--root, nothing live):
#   1. install + enable: changed on all three; the guests' watcher active and
#      their NIC's queue IRQs on its node (status and metrics facts)
#   2. the same again: changed=0
#   3. nicnuma_state=absent: disabled, the package gone from the guests
#   4. absent again: changed=0
# Then the guests are powered off (their run command waits for /out/stop).
# Root; minutes of TCG boot. Exit 77 when testhost says this machine cannot
# host the guests. Ports: NN_FLEET_PORTS="2222 2224".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"
nicnuma=${1:-$top/build/nicnuma/nicnuma}
read -r port2 port4 <<<"${NN_FLEET_PORTS:-2222 2224}"
cache=${NN_TESTHOST_CACHE:-/var/cache/nicnuma-testhost}
key=$cache/ssh/id_ed25519
boot_wait=${NN_FLEET_BOOT_WAIT:-900}

nn_install "${NN_ANSIBLE_PACKAGES[@]}" openssh-client
fail=0
err() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }
"$top/scripts/testhost" --help 2>/dev/null | grep -q -- '--ssh-port' ||
  { echo "FAIL: scripts/testhost has no --ssh-port (branch guest13 not merged)" >&2; exit 1; }
"$nicnuma" enable --help >/dev/null 2>&1 ||
  { echo "FAIL: $nicnuma has no 'enable' (issue 13, branch p13c not merged)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nicnuma-fleet.XXXXXX") || exit 2
pids=()
cleanup() {
  touch "$tmp/g2/stop" "$tmp/g4/stop" 2>/dev/null
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# The .deb, from this tree (a copy: the tree stays clean).
deb=$("$top/scripts/package" "$tmp/deb" | grep '/nicnuma_[^/]*\.deb$') || { echo "FAIL: scripts/package" >&2; exit 1; }

# Both guests, each kept up until fleet.sh touches OUT/stop.
for g in 2:"$port2" 4:"$port4"; do
  n=${g%%:*} port=${g#*:}
  mkdir -p "$tmp/g$n"
  "$top/scripts/testhost" --init systemd --shape "${n}node" --ssh-port "$port" --out "$tmp/g$n" \
    --timeout 3600 --boots 1 run 'while [ ! -e /out/stop ]; do sleep 2; done' \
    > "$tmp/testhost-$n.log" 2>&1 &
  pids+=($!)
done
ssh_ok() {
  ssh -i "$key" -p "$1" -o BatchMode=yes -o ConnectTimeout=5 -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile=/dev/null root@127.0.0.1 'systemctl is-system-running --wait' >/dev/null 2>&1
}
t0=$(date +%s)
for port in "$port2" "$port4"; do
  until ssh_ok "$port"; do
    for i in "${!pids[@]}"; do
      if ! kill -0 "${pids[$i]}" 2>/dev/null; then
        wait "${pids[$i]}"; rc=$?
        [ "$rc" = 77 ] && { echo "SKIP: testhost cannot host the guests:" >&2; tail -n 5 "$tmp"/testhost-*.log >&2; exit 77; }
        echo "FAIL: a guest exited ($rc) before ssh answered:" >&2; tail -n 20 "$tmp"/testhost-*.log >&2; exit 1
      fi
    done
    [ $(( $(date +%s) - t0 )) -lt "$boot_wait" ] || { echo "FAIL: no ssh on port $port in ${boot_wait}s" >&2; exit 1; }
    sleep 5
  done
done

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
        guest-2node: {ansible_port: $port2}
        guest-4node: {ansible_port: $port4}
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
  local name=$1; shift
  (cd "$here" && ANSIBLE_STDOUT_CALLBACK=nn_json ansible-playbook -i "$tmp/inventory.yml" fleet.yml "$@") \
    > "$tmp/$name.json" 2> "$tmp/$name.err" || { err "$name: ansible-playbook failed"; cat "$tmp/$name.err" >&2
    jq -r '.plays[].tasks[] | .task.name as $t | .hosts | to_entries[] | select(.value.failed)
           | "\(.key): \($t): \(.value.msg // "") \(.value.stderr // "")"' "$tmp/$name.json" >&2; }
}
changed() { jq -r --arg h "$2" '.stats[$h].changed' "$tmp/$1.json"; }
facts() { jq --arg h "$2" '[.plays[].tasks[] | select(.task.name | contains("Set the nicnuma facts"))
  | .hosts[$h].ansible_facts | select(. != null)] | last' "$tmp/$1.json"; }

play enable
for h in "${hosts[@]}"; do [ "$(changed enable "$h")" -ge 1 ] 2>/dev/null || err "enable: $h changed=$(changed enable "$h")"; done
for h in guest-2node guest-4node; do
  f=$(facts enable "$h")
  jq -e '.nicnuma_status.enabled and .nicnuma_status.service.active == "active"
         and .nicnuma_status.matches_desired' <<<"$f" >/dev/null || err "enable: $h status: $f"
  jq -e '[.nicnuma_metrics[] | select(.name == "nicnuma_nic_queue_irqs_off_node") | .value] | add == 0' \
    <<<"$f" >/dev/null || err "enable: $h: queue IRQs off the NIC's node (metrics)"
done
play again
for h in "${hosts[@]}"; do [ "$(changed again "$h")" = 0 ] || err "again: $h changed=$(changed again "$h")"; done
play absent -e nicnuma_state=absent
for h in "${hosts[@]}"; do [ "$(changed absent "$h")" -ge 1 ] 2>/dev/null || err "absent: $h changed=$(changed absent "$h")"; done
for port in "$port2" "$port4"; do
  ssh -i "$key" -p "$port" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    root@127.0.0.1 '! dpkg-query -W -f="\${db:Status-Abbrev}" nicnuma 2>/dev/null | grep -q ^ii' ||
    err "absent: nicnuma still installed in the guest on port $port"
done
play absent2 -e nicnuma_state=absent
for h in "${hosts[@]}"; do [ "$(changed absent2 "$h")" = 0 ] || err "absent2: $h changed=$(changed absent2 "$h")"; done

[ "$fail" = 0 ] || exit 1
echo "ok: one playbook on guest-2node, guest-4node and a fake root: enable, changed=0, absent"
