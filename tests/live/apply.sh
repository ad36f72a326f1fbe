#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/apply.sh NICNUMA - apply/check/rollback and irqbalance on this machine (suite 'live')
#
#  1. eth0's virtio queue IRQs planned to CPU 1 (plan --nics eth0 --cpus 1),
#     applied: smp_affinity_list reads 1 for each; check aligned (exit 0);
#     a manual write to one of them is drift (exit 1); rollback restores;
#     every /proc/irq/*/smp_affinity_list is as before.
#  2. irqbalance (Debian's daemon, started here: --interval=1, its own pid
#     file): without handling, starting it rewrites an affinity apply set;
#     apply --irqbalance=stop stops it (rollback restarts it with the same
#     command line); apply --irqbalance=ban restarts it with nicnuma's policy
#     script and the planned affinities survive its start and later passes.
# Needs root, eth0 with IRQs; exits 77 with the reason otherwise. Restores every
# IRQ affinity it saw and stops only the irqbalance it started.
# shellcheck disable=SC2015  # pass/ok only print: "A && pass || fail" is if-then-else here
set -uo pipefail

nn=${1:?usage: apply.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (/proc/irq writes, signals)"; exit 77; }
[ -d /sys/class/net/eth0 ] || { echo "skip: no eth0 here"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 reads the JSON reports"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to move"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/apply-live.XXXXXX") || exit 2
# The daemon's pid file and nicnuma's state (its ban script) live where
# nicnuma trusts them: under /run, in a root-owned directory nobody else can
# write (a --pid outside /run, or a policy script below the world-writable
# /tmp, is dropped when irqbalance is restarted: issue 16).
run=$(mktemp -d /run/nicnuma-apply-live.XXXXXX) || exit 2
state=$run/state
pidfile=$run/irqbalance.pid
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }

affinities() {
	local d
	for d in /proc/irq/[0-9]*; do
		printf '%s %s\n' "${d##*/}" "$(cat "$d/smp_affinity_list" 2>/dev/null)"
	done
}

# Our daemon only: the pid in our pid file, still irqbalance, with our pid file
# on its command line (a pid reused by someone else's process is left alone).
our_irqbalance() {
	local pid
	pid=$(cat "$pidfile" 2>/dev/null) || return 1
	[ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = irqbalance ] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "--pid=$pidfile" || return 1
	echo "$pid"
}

# Gone, or a zombie (exited; its reaper, PID 1 here, has not collected it yet).
exited() {
	[ ! -d "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]
}

stop_ours() {
	local pid i
	pid=$(our_irqbalance) || return 0
	kill -TERM "$pid"
	for i in $(seq 50); do exited "$pid" && break; sleep 0.1; done
}

restore_affinities() {
	local irq want cur
	while read -r irq want; do
		[ -n "$want" ] || continue
		cur=$(cat "/proc/irq/$irq/smp_affinity_list" 2>/dev/null) || continue
		[ "$cur" = "$want" ] || echo "$want" >"/proc/irq/$irq/smp_affinity_list" 2>/dev/null
	done <"$tmp/before"
}

cleanup() {
	stop_ours
	restore_affinities
	rm -rf "$tmp" "$run"
}
trap cleanup EXIT

# Live irqbalance processes, zombies left out: this machine's PID 1 is no
# init and may reap late, and a zombie runs nothing.
live_irqbalance() { ps -C irqbalance -o pid=,stat= | awk '$2 !~ /^Z/ { print $1 }'; }
if [ -n "$(live_irqbalance)" ]; then
	echo "skip: an irqbalance this test did not start is running (pid $(live_irqbalance | tr '\n' ' '));" \
		"it would move IRQs under the test, and it is not ours to stop"
	exit 77
fi
affinities >"$tmp/before"

# The plan: eth0's queue IRQs on CPU 1 (its config IRQ to housekeeping CPU 0).
"$nn" --json plan --nics eth0 --cpus 1 >"$tmp/plan.json" 2>"$tmp/err"
[ $? -le 1 ] || { fail "plan: $(cat "$tmp/err")"; exit 1; }
mapfile -t qirqs < <(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
for i in p["irqs"]:
    if i["queue"] is not None and i["queue"] >= 0:
        assert i["cpus"] == "1", i
        print(i["irq"])' "$tmp/plan.json")
[ "${#qirqs[@]}" -gt 0 ] && pass "plan puts eth0 queue IRQs ${qirqs[*]} on CPU 1" \
	|| { fail "plan has no eth0 queue IRQ on CPU 1"; exit 1; }

# Start off the plan whatever an earlier run left: queue IRQs already on CPU 1
# would leave apply nothing to change and rollback no snapshot (cleanup puts
# the affinities recorded above back).
for i in "${qirqs[@]}"; do echo 0 >"/proc/irq/$i/smp_affinity_list" || fail "IRQ $i: cannot write 0"; done
affinities >"$tmp/start"	# what rollback must bring back

on_plan() {	# every queue IRQ reads 1
	local i
	for i in "${qirqs[@]}"; do [ "$(cat "/proc/irq/$i/smp_affinity_list")" = 1 ] || return 1; done
}

# ---- 1. apply, check, drift, rollback --------------------------------------
"$nn" --json apply --plan "$tmp/plan.json" --state-dir "$state" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && pass "apply (exit 0)" || { fail "apply: exit $rc"; cat "$tmp/err"; }
on_plan && pass "queue IRQs ${qirqs[*]} read back 1" || fail "queue IRQs not on CPU 1"
python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["apply"]
for v in a["values"]:
    assert v["status"] in ("changed", "unchanged", "managed"), v
    if v["status"] == "changed":
        assert v["after"] == v["planned"], v
        # effective CPUs within what was written (x86 picks one), or the
        # move is pending until the next interrupt, and the report says so
        eff_ok = v["effective"] is None or v["effective"] == v["after"]
        assert eff_ok or "until the next interrupt" in (v["note"] or ""), v
print(len(a["values"]))' "$tmp/out" >/dev/null 2>"$tmp/pyerr" && pass "report: every value changed/unchanged, after == planned" \
	|| { fail "apply report"; cat "$tmp/pyerr"; }
"$nn" check --plan "$tmp/plan.json" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && pass "check aligned (exit 0)" || { fail "check after apply: exit $rc"; cat "$tmp/out"; }
echo 0 >"/proc/irq/${qirqs[0]}/smp_affinity_list"
"$nn" --json check --plan "$tmp/plan.json" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && python3 -c '
import json, sys
d = [v for v in json.load(open(sys.argv[1]))["check"]["values"] if v["status"] == "drift"]
assert [(v["irq"], v["current"], v["expected"]) for v in d] == [(int(sys.argv[2]), "0", "1")], d' \
	"$tmp/out" "${qirqs[0]}" && pass "manual write to IRQ ${qirqs[0]} is drift (exit 1): current 0, expected 1" \
	|| { fail "drift not reported (exit $rc)"; cat "$tmp/out"; }
"$nn" rollback --state-dir "$state" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && pass "rollback (exit 0)" || { fail "rollback: exit $rc"; cat "$tmp/out"; }
affinities >"$tmp/after"
if diff "$tmp/start" "$tmp/after" >"$tmp/diff"; then pass "every /proc/irq/*/smp_affinity_list as before"; else
	fail "affinities differ after rollback"; cat "$tmp/diff"; fi

# ---- 2. irqbalance ----------------------------------------------------------
irqb=$(command -v irqbalance) || { echo "skip: irqbalance is not installed (part 2)"; exit $((fails ? 1 : 77)); }
start_daemon() {
	"$irqb" --interval=1 --pid="$pidfile" || return 1	# daemonizes, writes the pid file
	local i
	for i in $(seq 50); do our_irqbalance >/dev/null && return 0; sleep 0.1; done
	return 1
}
wait_ours() {	# up to 5 s for our daemon (pid file written after it forks)
	local i
	for i in $(seq 50); do our_irqbalance && return 0; sleep 0.1; done
	return 1
}
wait_moved() {	# up to $1 s for any queue IRQ to leave CPU 1
	local i
	for i in $(seq $(($1 * 10))); do on_plan || return 0; sleep 0.1; done
	return 1
}

# 2a. Control: applied, then irqbalance starts: its first pass places every IRQ.
"$nn" apply --plan "$tmp/plan.json" --state-dir "$state" --irqbalance ignore >/dev/null 2>&1 && on_plan \
	|| fail "apply (ignore) did not put the queue IRQs on CPU 1"
start_daemon || { fail "cannot start $irqb --interval=1 --pid=$pidfile"; exit 1; }
pass "irqbalance started: pid $(our_irqbalance) ($irqb --interval=1 --pid=$pidfile)"
if wait_moved 8; then
	moved=$(for i in "${qirqs[@]}"; do printf '%s->%s ' "$i" "$(cat "/proc/irq/$i/smp_affinity_list")"; done)
	pass "control: without handling, irqbalance rewrote the planned affinity ($moved)"
else
	echo "skip: irqbalance left IRQs ${qirqs[*]} on CPU 1 for 8 s, so this host cannot show that"
	echo "      handling it matters (it places by load; nothing to prove the fence against)"
	exit $((fails ? 1 : 77))
fi
stop_ours
"$nn" rollback --state-dir "$state" >"$tmp/rb" 2>&1 || { fail "rollback after the control: exit $?"; cat "$tmp/rb"; }
start_daemon || { fail "cannot restart our irqbalance"; exit 1; }
old=$(our_irqbalance)
sleep 2	# let its first pass run, so the test starts from a balanced state

# 2b. stop mode.
"$nn" --json apply --plan "$tmp/plan.json" --state-dir "$state" --irqbalance stop >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && on_plan && pass "apply --irqbalance=stop (exit 0), queue IRQs on CPU 1" \
	|| { fail "apply stop: exit $rc"; cat "$tmp/err"; }
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["apply"]["irqbalance"]["status"])' "$tmp/out"
exited "$old" && pass "irqbalance pid $old stopped" || fail "irqbalance pid $old still running after stop"
sleep 3
on_plan && pass "planned affinities held for 3 s (3 of its intervals)" || fail "affinities moved after stop"
"$nn" rollback --state-dir "$state" >"$tmp/out" 2>&1 || { fail "rollback (stop)"; cat "$tmp/out"; }
new=$(wait_ours) && [ "$new" != "$old" ] && pass "rollback restarted irqbalance: pid $new, $(tr '\0' ' ' <"/proc/$new/cmdline")" \
	|| fail "rollback did not restart irqbalance"
sleep 2

# 2c. ban mode: the daemon is restarted with the policy script; its start-up
# pass (which moved them in the control) and later passes leave them alone.
"$nn" --json apply --plan "$tmp/plan.json" --state-dir "$state" --irqbalance ban >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && on_plan && pass "apply --irqbalance=ban (exit 0), queue IRQs on CPU 1" \
	|| { fail "apply ban: exit $rc"; cat "$tmp/err"; }
python3 -c 'import json,sys; print("     " + json.load(open(sys.argv[1]))["apply"]["irqbalance"]["status"])' "$tmp/out"
fenced=$(wait_ours) && tr '\0' ' ' <"/proc/$fenced/cmdline" | grep -q -- "--policyscript=$state/irqbalance-ban.sh" \
	&& pass "irqbalance running fenced: pid $fenced with --policyscript=$state/irqbalance-ban.sh" \
	|| fail "no fenced irqbalance running"
for i in "${qirqs[@]}"; do
	[ "$(sh "$state/irqbalance-ban.sh" /sys/x "$i")" = ban=true ] || fail "policy script does not ban IRQ $i"
done
if wait_moved 6; then fail "irqbalance moved a planned IRQ despite the ban"; else
	pass "planned affinities survived 6 s of its passes (interval 1 s)"; fi
"$nn" check --plan "$tmp/plan.json" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && pass "check: aligned, irqbalance fenced (exit 0)" || { fail "check under ban: exit $rc"; cat "$tmp/out"; }
"$nn" rollback --state-dir "$state" >"$tmp/out" 2>&1 || { fail "rollback (ban)"; cat "$tmp/out"; }
sleep 0.5
back=$(wait_ours) && ! tr '\0' ' ' <"/proc/$back/cmdline" | grep -q policyscript \
	&& pass "rollback restored irqbalance as it was started: pid $back, $(tr '\0' ' ' <"/proc/$back/cmdline")" \
	|| fail "rollback did not restore the unfenced irqbalance"
[ ! -e "$state/irqbalance-ban.sh" ] && pass "ban script removed" || fail "ban script left behind"

stop_ours
restore_affinities
affinities >"$tmp/after"
if diff "$tmp/before" "$tmp/after" >"$tmp/diff"; then pass "machine left as found: every IRQ affinity as before, our irqbalance stopped"; else
	fail "affinities differ at the end"; cat "$tmp/diff"; fi
[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
