#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/persist/fake_root.sh NICNUMA FIXTURE_TAR - issue 13 on a fake root:
# enable -> watch (once, loop, restart after SIGKILL, a second one refused)
# -> drift put back -> other owners refused -> status -> disable restores.
# Nothing live: a writable copy of a captured tree; systemctl never runs.
set -uo pipefail
nn=$1 tar=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nn-persist.XXXXXX")
pids=()
cleanup() { for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
R=$tmp/root; mkdir -p "$R"; tar -xzf "$tar" -C "$R"
n() { "$nn" --root "$R" "$@"; }
logs() { find "$R/var/lib/nicnuma" -name '[0-9]*.json' | wc -l; }
aff() { cat "$R/proc/irq/$1/smp_affinity_list"; }

before43=$(aff 43)
before46=$(aff 46)
n enable --nics eth1 >"$tmp/out" 2>&1 || fail "enable: $(cat "$tmp/out")"
grep -q 'unit: not enabled or started (fake root: systemd left alone)' "$tmp/out" || fail "enable: no fake-root unit line"
# the unit written is named where it is: in the tree
grep -qF "unit: wrote $R/etc/systemd/system/nicnuma-watch.service" "$tmp/out" || fail "enable: unit path not under the root"
grep -q '^nic = 0000:65:00.0 eth1$' "$R/etc/nicnuma/nicnuma.conf" || fail "config lacks the NIC by PCI"
[ "$(stat -c %a "$R/etc/nicnuma/nicnuma.conf")" = 644 ] || fail "config mode"
grep -q '^Type=notify$' "$R/etc/systemd/system/nicnuma-watch.service" || fail "unit Type"
grep -q '^Conflicts=shutdown.target irqbalance.service$' "$R/etc/systemd/system/nicnuma-watch.service" ||
	fail "unit Conflicts"
grep -q '^ConditionPathExists=/etc/nicnuma/nicnuma.conf$' "$R/etc/systemd/system/nicnuma-watch.service" ||
	fail "unit ConditionPathExists"
# a claim's move does not wait behind a loaded host's threads (issue 40.1):
# the lowest real-time priority, not inherited by children
for k in CPUSchedulingPolicy=fifo CPUSchedulingPriority=1 CPUSchedulingResetOnFork=yes; do
	grep -qx "$k" "$R/etc/systemd/system/nicnuma-watch.service" || fail "unit lacks $k"
done
# one template: the packaged unit (watch --print-unit, what meson installs)
# is enable's but for the header comments and Conflicts=irqbalance.service
n watch --print-unit --exec "$(readlink -f "$nn")" >"$tmp/pkg.unit" || fail "watch --print-unit"
grep -q '^Conflicts=shutdown.target$' "$tmp/pkg.unit" || fail "packaged unit names irqbalance"
diff <(grep -v '^#' "$tmp/pkg.unit") <(grep -v '^#' "$R/etc/systemd/system/nicnuma-watch.service" |
	sed 's/^Conflicts=shutdown.target irqbalance.service$/Conflicts=shutdown.target/') ||
	fail "the packaged unit and enable's differ beyond Conflicts="
n watch --print-unit --exec relative/nicnuma >/dev/null 2>&1 && fail "--print-unit took a relative --exec"
[ "$(logs)" = 1 ] || fail "enable: expected one snapshot"
want43=$(aff 43)
[ "$want43" != "$before43" ] || fail "enable changed nothing on IRQ 43"

# nothing to write: no new snapshot, result unchanged
n watch --once 2>"$tmp/err" || fail "watch --once: $(cat "$tmp/err")"
[ "$(logs)" = 1 ] || fail "watch --once wrote a snapshot with nothing to change"
jq -e '.last_action.result == "unchanged" and .counters.values_written == 0' \
	"$R/run/nicnuma/watch.json" >/dev/null || fail "watch.json: $(cat "$R/run/nicnuma/watch.json")"

# the loop: drift put back on the periodic check, a second watcher refused
"$nn" --root "$R" watch --interval 1 2>"$tmp/loop" & w=$!; pids+=("$w")
for _ in $(seq 50); do [ -s "$R/run/nicnuma/watch.json" ] && grep -q "\"pid\":$w" "$R/run/nicnuma/watch.json" && break; sleep 0.1; done
n watch --once 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'refusing: another nicnuma watch is running' "$tmp/err" || fail "second watcher: rc $rc $(cat "$tmp/err")"
echo 0-3 > "$R/proc/irq/43/smp_affinity_list"
for _ in $(seq 40); do [ "$(aff 43)" = "$want43" ] && break; sleep 0.1; done
[ "$(aff 43)" = "$want43" ] || fail "drift not put back"
sleep 0.3
grep -q 'drift: 1 values rewritten by someone else' "$tmp/loop" || fail "no drift line: $(cat "$tmp/loop")"
[ "$(logs)" = 1 ] || fail "drift made a new snapshot"
n --json status > "$tmp/st"; rc=$?
[ $rc = 0 ] || fail "status rc $rc: $(cat "$tmp/st")"
jq -e '.enabled and .service == null and (.watcher.pid > 0) and .matches_desired and .drift == [] and
	.watcher.counters.applies >= 1 and .watcher.counters.values_written >= 1 and
	.watcher.counters.events >= 0 and .watcher.counters.relevant >= 0' \
	"$tmp/st" >/dev/null || fail "status: $(cat "$tmp/st")"
# check with no plan given compares with the desired state, as status does
# (issue 41 item 3): both agree; --fresh re-plans and says so
n check >"$tmp/ck" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && [ "$(head -n1 "$tmp/ck")" = "plan: desired state (/etc/nicnuma/nicnuma.conf)" ] ||
	fail "check (enabled, no plan given): rc $rc $(head -n3 "$tmp/ck") $(cat "$tmp/err")"
n --json check 2>/dev/null | jq -e '.check.plan_source == "desired" and .check.drift_count == 0' >/dev/null ||
	fail "check --json: not the desired state's plan, or drift"
n check --fresh >"$tmp/ck" 2>/dev/null
[ "$(head -n1 "$tmp/ck")" = "plan: fresh (locality rule)" ] || fail "check --fresh: $(head -n1 "$tmp/ck")"
n apply --nics eth1 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "refusing: nicnuma watch (/run/nicnuma/watch.lock) is running" "$tmp/err" ||
	fail "apply beside the watcher: rc $rc $(cat "$tmp/err")"
# check beside the watcher: no other owner for the plan it keeps (the
# desired state's); named for a plan it does not keep
n check --nics eth1 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && ! grep -q 'nicnuma watch' "$tmp/err" || fail "check of the kept plan beside the watcher: rc $rc $(cat "$tmp/err")"
n check --nics eth1 --policy remote >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q 'another owner of IRQ placement: nicnuma watch' "$tmp/err" ||
	fail "check of another plan beside the watcher: rc $rc $(cat "$tmp/err")"

# SIGKILL and restart: the lock is free, the host as left, nothing written
kill -KILL "$w"; wait "$w" 2>/dev/null
n watch --once 2>"$tmp/err" || fail "restart after SIGKILL: $(cat "$tmp/err")"
[ "$(logs)" = 1 ] || fail "restart wrote a snapshot"

# IRQ 46 (queue 3) held its planned CPU before enable, so enable wrote nothing
# there; the before-enable log must still record it: when someone rewrites it
# later and the watcher puts it back, disable restores the value from before
# enable, not the other one's (the guest's "queue 3 on CPU 0 after disable")
[ "$(aff 46)" = "$before46" ] || fail "precondition: enable changed IRQ 46 ($before46 -> $(aff 46))"
echo 0 > "$R/proc/irq/46/smp_affinity_list"
n watch --once 2>"$tmp/err" || fail "watch --once after a rewrite: $(cat "$tmp/err")"
[ "$(aff 46)" = "$before46" ] || fail "watch --once did not put IRQ 46 back ($(aff 46))"
[ "$(logs)" = 1 ] || fail "the rewrite made a second snapshot"

# SIGTERM: clean exit 0
"$nn" --root "$R" watch 2>/dev/null & w=$!; pids+=("$w"); sleep 0.5; kill -TERM "$w"; wait "$w"; rc=$?
[ $rc = 0 ] || fail "SIGTERM exit $rc"

# another owner: refused with its name, --coexist goes on, check warns
mkdir -p "$R/etc/tuned" "$R/usr/lib/tuned/network-latency"
echo network-latency > "$R/etc/tuned/active_profile"
printf '[main]\n[irqbalance]\nbanned_cpus=0\n' > "$R/usr/lib/tuned/network-latency/tuned.conf"
n enable --nics eth1 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -qF "refusing: tuned profile 'network-latency' (/usr/lib/tuned/network-latency/tuned.conf) sets [irqbalance]" "$tmp/err" ||
	fail "tuned not refused: rc $rc $(cat "$tmp/err")"
n check --nics eth1 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "another owner of IRQ placement: tuned profile" "$tmp/err" || fail "check: rc $rc $(cat "$tmp/err")"
n enable --nics eth1 --coexist >"$tmp/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "another owner of IRQ placement" "$tmp/out" || fail "enable --coexist: rc $rc $(cat "$tmp/out")"
[ "$(logs)" = 1 ] || fail "a second enable started another snapshot"
rm -rf "$R/etc/tuned"

# disable: the before-enable values back, files gone
n disable >"$tmp/out" 2>&1 || fail "disable: $(cat "$tmp/out")"
[ "$(aff 43)" = "$before43" ] || fail "disable did not restore IRQ 43 ($(aff 43) != $before43)"
[ "$(aff 46)" = "$before46" ] || fail "disable left IRQ 46 at $(aff 46), not its before-enable $before46"
[ ! -e "$R/etc/nicnuma/nicnuma.conf" ] && [ ! -e "$R/etc/systemd/system/nicnuma-watch.service" ] &&
	[ ! -e "$R/var/lib/nicnuma/enabled.json" ] || fail "disable left files behind"
n status >/dev/null 2>&1; [ $? = 1 ] || fail "status after disable should be 1"
echo "ok: enable, watch, drift, restart, owners, disable on a fake root"
