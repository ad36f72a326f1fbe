#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/ansible/run.sh [NICNUMA [MKHOST.PY]] - the Ansible role (ansible/roles/nicnuma)
#
# ansible-lint and a syntax check, then real playbook runs on this machine
# (connection local) against three fake hosts built by tests/fixtures/mkhost.py
# (even-odd, vm-virtio, xeon-2s-smt; per-host variables in host_vars/). Every
# nicnuma call gets --root (nicnuma_root) and nothing is installed
# (nicnuma_install: false): no live IRQ, XPS, hugepage or irqbalance is touched.
#   1. --check --diff: changed, a diff naming each host's NIC, the trees unchanged
#   2. first run: changed on every host; enabled, matching, facts set
#   3. second run: changed=0
#   4. a value rewritten behind nicnuma's back: changed (only that host), then 0
#   5. a variable changed (interval): changed, then 0
#   6. absent --check: nothing written; absent: disabled, every value as before
#      the first enable; absent again: changed=0
# Needs nicnuma enable/disable/status (issue 13): without them it FAILS, saying so.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
nicnuma=${1:-$top/build/nicnuma/nicnuma}
mkhost=${2:-$top/tests/fixtures/mkhost.py}
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"

nn_install "${NN_ANSIBLE_PACKAGES[@]}"
fail=0
err() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }
die() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nicnuma-ansible.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
export ANSIBLE_CONFIG=$here/ansible.cfg ANSIBLE_LOCAL_TEMP=$tmp/ansible-local \
  ANSIBLE_HOME=$tmp/ansible-home ANSIBLE_NOCOLOR=1 \
  NN_ANSIBLE_NICNUMA=$nicnuma NN_ANSIBLE_ROOTS=$tmp/roots
hosts=(even-odd vm-virtio xeon-2s-smt)
declare -A nic=([even-odd]=0000:81:00.0 [vm-virtio]=0000:00:03.0 [xeon-2s-smt]=0000:af:00.0)

# 1. lint (the role, with ansible/.ansible-lint) and syntax
(cd "$top/ansible" && ansible-lint --nocolor roles/nicnuma) > "$tmp/lint" 2>&1 ||
  { cat "$tmp/lint" >&2; err "ansible-lint roles/nicnuma"; }
(cd "$here" && ansible-lint --nocolor -c "$top/ansible/.ansible-lint" local.yml fleet.yml) > "$tmp/lint2" 2>&1 ||
  { cat "$tmp/lint2" >&2; err "ansible-lint tests/ansible/local.yml fleet.yml"; }
(cd "$here" && ansible-playbook -i inventory.yml local.yml --syntax-check) >/dev/null ||
  err "syntax check"

# The playbook runs need the issue-13 commands: lint and syntax above do not.
[ -x "$nicnuma" ] || die "$nicnuma: no nicnuma binary (meson setup build && ninja -C build)"
for c in enable disable status; do
  "$nicnuma" "$c" --help >/dev/null 2>&1 ||
    die "$nicnuma has no '$c' command: the role drives nicnuma enable/disable/status; this build predates them"
done

for h in "${hosts[@]}"; do
  python3 "$mkhost" build "$h" "$tmp/roots/$h" >/dev/null || exit 2
done
# Every file of every tree with its content: what "nothing written" compares.
trees() { (cd "$tmp/roots" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
trees > "$tmp/trees.0"

# play NAME [ansible-playbook args]: the json callback's document in $tmp/NAME.json
play() {
  local name=$1; shift
  (cd "$here" && ANSIBLE_STDOUT_CALLBACK=nn_json ansible-playbook -i inventory.yml local.yml "$@") \
    > "$tmp/$name.json" 2> "$tmp/$name.err"
  local rc=$?
  [ "$rc" = 0 ] || { err "$name: ansible-playbook exit $rc"; cat "$tmp/$name.err" >&2
    jq -r '.plays[].tasks[] | .task.name as $t | .hosts | to_entries[]
           | select(.value.failed) | "\(.key): \($t): \(.value.msg // "") \(.value.stderr // "")"' \
      "$tmp/$name.json" >&2; }
}
changed() { jq -r --arg h "$2" '.stats[$h].changed' "$tmp/$1.json"; }
failures() { jq -r --arg h "$2" '(.stats[$h].failures // 0) + (.stats[$h].unreachable // 0)' "$tmp/$1.json"; }
# task_result NAME HOST TASK-NAME-PREFIX: that task's result for the host
task_result() {
  jq --arg h "$2" --arg t "$3" '[.plays[].tasks[] | select(.task.name | contains($t))
     | .hosts[$h] | select(. != null)] | last' "$tmp/$1.json"
}
expect_changed() { # RUN HOST WANT (0, or + for at least one)
  local c f; c=$(changed "$1" "$2"); f=$(failures "$1" "$2")
  [ "$f" = 0 ] || err "$1: $2 failed ($f)"
  case $3 in
    +) [ "$c" -ge 1 ] 2>/dev/null || err "$1: $2 changed=$c, want changes" ;;
    *) [ "$c" = "$3" ] || err "$1: $2 changed=$c, want $3" ;;
  esac
}
values() { # the live values nicnuma plans, per tree (affinities, XPS, hugepages)
  (cd "$tmp/roots/$1" && find proc/irq -name smp_affinity_list -print0 | sort -z | xargs -0 grep -H . ;
   find sys/class/net/ -L -maxdepth 4 -name xps_cpus 2>/dev/null | sort | xargs grep -H . ;
   find sys/devices/system/node -name nr_hugepages | sort | xargs grep -H .)
}
for h in "${hosts[@]}"; do values "$h" > "$tmp/values.$h.0"; done

# 2. check mode: a diff per host, the trees untouched
play check --check --diff
for h in "${hosts[@]}"; do
  expect_changed check "$h" +
  r=$(task_result check "$h" "Preview what nicnuma enable")
  jq -e --arg p "${nic[$h]}" '.changed and (.diff.after | test("nic = " + $p))
       and (.diff.before | test("^nic = "; "m") | not) and any(.reasons[]; . == "not enabled")' <<<"$r" >/dev/null ||
    err "check: $h: no diff adding nic = ${nic[$h]}: $r"
  # vm-virtio's values already are as planned: only its file is new.
  if [ "$h" = vm-virtio ]; then
    jq -e '.would_change == 0 and (.diff.after | test("# live values") | not)' <<<"$r" >/dev/null ||
      err "check: vm-virtio: values reported that already match: $r"
  else
    jq -e '.would_change > 0 and (.diff.after | test("# live values"))' <<<"$r" >/dev/null ||
      err "check: $h: no live values in the diff: $r"
  fi
done
trees > "$tmp/trees.1"
cmp -s "$tmp/trees.0" "$tmp/trees.1" || { diff "$tmp/trees.0" "$tmp/trees.1" | head >&2; err "check mode wrote into a tree"; }

# 3. first run: enabled on each, facts report it
play first
for h in "${hosts[@]}"; do
  expect_changed first "$h" +
  [ -f "$tmp/roots/$h/etc/nicnuma/nicnuma.conf" ] || err "first: $h: no desired state file"
  grep -q "^nic = ${nic[$h]} " "$tmp/roots/$h/etc/nicnuma/nicnuma.conf" || err "first: $h: conf lacks ${nic[$h]}"
  f=$(task_result first "$h" "Set the nicnuma facts")
  jq -e '.ansible_facts.nicnuma_status.enabled == true' <<<"$f" >/dev/null || err "first: $h: nicnuma_status.enabled: $f"
  jq -e '.ansible_facts.nicnuma_check | has("drift_count")' <<<"$f" >/dev/null || err "first: $h: no nicnuma_check"
  jq -e '.ansible_facts.nicnuma_metrics | map(.name) | index("nicnuma_nic_queue_irqs")' <<<"$f" >/dev/null ||
    err "first: $h: no nicnuma_metrics samples"
done
# xeon leaves its (fake) irqbalance running: that drift is reported, the rest matches
f=$(task_result first even-odd "Set the nicnuma facts")
jq -e '.ansible_facts.nicnuma_status.matches_desired == true and .ansible_facts.nicnuma_check.drift_count == 0' \
  <<<"$f" >/dev/null || err "first: even-odd does not match after enable: $f"
grep -qx 'interval = 30' "$tmp/roots/vm-virtio/etc/nicnuma/nicnuma.conf" || err "host_vars: vm-virtio interval"
grep -qx 'reserve = none' "$tmp/roots/vm-virtio/etc/nicnuma/nicnuma.conf" || err "host_vars: vm-virtio reserve"
grep -qx 'irqbalance = ignore' "$tmp/roots/xeon-2s-smt/etc/nicnuma/nicnuma.conf" || err "host_vars: xeon irqbalance"
grep -q '^hugepages = 2048kB:8' "$tmp/roots/xeon-2s-smt/etc/nicnuma/nicnuma.conf" || err "host_vars: xeon hugepages"

# 4. idempotent
play second
for h in "${hosts[@]}"; do expect_changed second "$h" 0; done

# 5. drift on one host: only it changes, and it converges
irq=$(awk -F: '/ens2f0-TxRx-0/ {gsub(/ /, "", $1); print $1}' "$tmp/roots/even-odd/proc/interrupts")
echo 0 > "$tmp/roots/even-odd/proc/irq/$irq/smp_affinity_list"
play drift
expect_changed drift even-odd +
expect_changed drift vm-virtio 0
expect_changed drift xeon-2s-smt 0
r=$(task_result drift even-odd "Say why nicnuma enable ran")
jq -e '.msg | map(test("values differ")) | any' <<<"$r" >/dev/null || err "drift: reason not given: $r"
play drift2
for h in "${hosts[@]}"; do expect_changed drift2 "$h" 0; done

# 6. a changed variable re-enables; then stable
play var -e nicnuma_interval=45 -l even-odd
expect_changed var even-odd +
grep -qx 'interval = 45' "$tmp/roots/even-odd/etc/nicnuma/nicnuma.conf" || err "var: interval not written"
play var2 -e nicnuma_interval=45 -l even-odd
expect_changed var2 even-odd 0

# 7. absent: check mode writes nothing; then disabled, values back; then stable
trees > "$tmp/trees.2"
play absent-check -e nicnuma_state=absent --check --diff
for h in "${hosts[@]}"; do expect_changed absent-check "$h" +; done
trees > "$tmp/trees.3"
cmp -s "$tmp/trees.2" "$tmp/trees.3" || err "absent --check wrote into a tree"
play absent -e nicnuma_state=absent
for h in "${hosts[@]}"; do
  expect_changed absent "$h" +
  [ ! -e "$tmp/roots/$h/etc/nicnuma/nicnuma.conf" ] || err "absent: $h: conf left"
  [ ! -e "$tmp/roots/$h/var/lib/nicnuma/enabled.json" ] || err "absent: $h: enable record left"
  values "$h" > "$tmp/values.$h.1"
  diff -u "$tmp/values.$h.0" "$tmp/values.$h.1" >&2 || err "absent: $h: values not as before the first enable"
  f=$(task_result absent "$h" "Set the nicnuma facts")
  jq -e '.ansible_facts.nicnuma_status.enabled == false' <<<"$f" >/dev/null || err "absent: $h: still enabled"
done
play absent2 -e nicnuma_state=absent
for h in "${hosts[@]}"; do expect_changed absent2 "$h" 0; done

[ "$fail" = 0 ] || exit 1
echo "ok: ansible-lint, syntax, check mode, enable, changed=0, drift, absent on ${hosts[*]}"
