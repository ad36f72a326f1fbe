#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/security/harden.sh CASE NICNUMA [HELPER] - issue 22's findings, one
# case per meson test (suite security). Root runs nicnuma; `nobody` (uid
# 65534, through setpriv) is the attacker; fake roots from mkhost.py and
# private namespaces, nothing of the host is changed. Exit 77 (skip) when not
# root or a tool is missing, saying which.
#   openat2   without openat2 (a seccomp filter answering ENOSYS/EPERM) a
#             planted symlink at a value file is not written through, and
#             reads through sysfs's relative links still give the same JSON
#   lock      nobody cannot open the watcher's lock to hold it (0600), and a
#             watcher that cannot take it names the pid that holds it
#   path      a root shell with a hostile PATH and environment: status runs
#             /usr/bin/systemctl (a stand-in here) with the fixed environment,
#             never the PATH's systemctl (private mount namespace)
#   unitexe   enable (live root, --dry-run: nothing is written) refuses a
#             binary someone other than root could have replaced, naming it
#             (copies staged under /run whatever the checkout's path: owned by
#             nobody, a group-writable or sticky world-writable directory above
#             it like /tmp, a world-writable binary); a root-owned copy in
#             root-owned directories passes
#   fifo      FIFOs at run/nicnuma/watch.json and etc/nicnuma/nicnuma.conf
#             under --root: status and metrics finish (no hang), naming them
#   uevent    in a private network namespace: a uevent forged from a userspace
#             netlink socket is ignored by watch --events, a real one (a veth
#             made there) still seen
#   units     nicnuma-metrics.service and the watch unit are sandboxed
#             (ProtectSystem=strict, ReadWritePaths=, NoNewPrivileges=, ...),
#             systemd-analyze security --offline rates both <= 3.0 where it
#             runs; a directory planted at metrics --output is a clear error
#   dpdk      check --dpdk against hostile telemetry servers (dpdk_fake.py):
#             a greeting naming another pid, a symlinked socket, a socket of
#             another owner, slow replies (one --timeout deadline), 20000
#             ids (clipped), an lcore list (0-65535)@(0-65535) (bounded memory)
set -uo pipefail

case_=${1:?usage: harden.sh CASE NICNUMA [HELPER]}
nn=${2:?usage: harden.sh CASE NICNUMA [HELPER]}
helper=${3-}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (nobody is the attacker)"; exit 77; }
[ -x /usr/bin/python3 ] || { echo "skip: nobody runs /usr/bin/python3"; exit 77; }
for t in python3 setpriv timeout; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }
done
nn=$(realpath "$nn")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d /tmp/nn-harden.XXXXXX) || exit 2
chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*" >&2; fail=1; }
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# expect STATUS DESCRIPTION CMD...: stdout in $tmp/out, stderr in $tmp/err.
expect() {
	local want=$1 what=$2 rc
	shift 2
	timeout 30 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$what (exit $rc)"; else
		bad "$what: exit $rc, expected $want"; sed 's/^/    /' "$tmp/err" >&2; fi
}
err_has() { if grep -q -- "$1" "$tmp/err"; then ok "  says: $1"; else bad "  stderr lacks '$1'"; sed 's/^/    /' "$tmp/err" >&2; fi; }
mktree() {	# a vm-virtio tree at $t, root-owned
	t=$tmp/root
	python3 "$here/fixtures/mkhost.py" build vm-virtio "$t" >/dev/null || { bad "mkhost.py build"; exit 1; }
}

case_openat2() {
	local no=${helper:?openat2 needs the no_openat2 helper} e victim=$tmp/victim sd irqd
	mktree
	sd=$t/var/lib/nicnuma
	irqd=$t/proc/irq/27
	for e in ENOSYS EPERM; do
		# Reads: the same answers through the walk as through openat2.
		"$nn" --root "$t" nics --json >"$tmp/nics.want" 2>/dev/null
		"$no" "$e" "$nn" --root "$t" nics --json >"$tmp/nics.got" 2>"$tmp/err"
		if [ -s "$tmp/nics.want" ] && cmp -s "$tmp/nics.want" "$tmp/nics.got"; then
			ok "$e: nics --json the same without openat2"
		else bad "$e: nics --json differs without openat2"; sed 's/^/    /' "$tmp/err" >&2; fi
		# Writes: nobody owns proc/irq/27 and plants a link to a root file.
		for lnk in "$victim" "../../../../../../../../../../..$victim"; do
			echo precious >"$victim"
			chmod 0600 "$victim"
			rm -rf "$sd" && mkdir -p "$sd" && chmod 0700 "$sd"
			printf '{"version":1,"command":"apply","changes":[{"kind":"file","path":"/proc/irq/27/smp_affinity_list","before":"0-3","after":"0"}]}\n' \
				>"$sd/20990101T000000.000000000Z-apply.json"
			chmod 0600 "$sd/20990101T000000.000000000Z-apply.json"
			chown 65534:65534 "$irqd"
			as_nobody sh -c 'rm -f "$1/smp_affinity_list" && ln -s "$2" "$1/smp_affinity_list"' sh "$irqd" "$lnk" ||
				{ bad "nobody could not plant the link"; continue; }
			"$no" "$e" "$nn" --root "$t" rollback --state-dir /var/lib/nicnuma >"$tmp/out" 2>"$tmp/err"
			if [ "$(cat "$victim")" = precious ]; then
				ok "$e: rollback did not write through smp_affinity_list -> $lnk"
			else bad "$e: rollback wrote $victim through a planted link ($lnk)"; fi
			rm -f "$irqd/smp_affinity_list"; echo 0-3 >"$irqd/smp_affinity_list"
		done
	done
}

case_lock() {
	local lock holder hp
	mktree
	lock=$t/run/nicnuma/watch.lock
	# The first watcher makes the lock (then stops: no desired state).
	"$nn" --root "$t" watch --once >/dev/null 2>&1
	[ -f "$lock" ] || { bad "watch --once made no $lock"; return; }
	chmod 0755 "$t" "$t/run" "$t/run/nicnuma"
	# nobody holds a shared lock on it, as long as it can open it.
	as_nobody /usr/bin/python3 -c 'import fcntl, sys, time
f = open(sys.argv[1]); fcntl.flock(f, fcntl.LOCK_SH); print("held", flush=True); time.sleep(60)' \
		"$lock" >"$tmp/nobody" 2>/dev/null &
	holder=$!
	for _ in $(seq 30); do [ -s "$tmp/nobody" ] && break; kill -0 "$holder" 2>/dev/null || break; sleep 0.1; done
	if [ -s "$tmp/nobody" ]; then bad "nobody opened and holds $lock (mode $(stat -c %a "$lock"))"
	else ok "nobody cannot open $lock (mode $(stat -c %a "$lock"))"; fi
	expect 2 "watch --once beside nobody" "$nn" --root "$t" watch --once
	grep -q 'another nicnuma watch is running' "$tmp/err" && bad "  nobody's lock kept the watcher out" ||
		ok "  the watcher took the lock"
	kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
	# A holder that is not the pid the file names: the kernel's holder is named.
	echo 4242 >"$lock"
	python3 -c 'import fcntl, sys, time
f = open(sys.argv[1]); fcntl.flock(f, fcntl.LOCK_SH); print("held", flush=True); time.sleep(60)' \
		"$lock" >"$tmp/root-holder" 2>/dev/null &
	hp=$!
	for _ in $(seq 30); do [ -s "$tmp/root-holder" ] && break; sleep 0.1; done
	expect 2 "watch --once beside a holder" "$nn" --root "$t" watch --once
	err_has "pid $hp holds /run/nicnuma/watch.lock"
	kill "$hp" 2>/dev/null; wait "$hp" 2>/dev/null
	# An older 0644 lock is tightened by the next watcher.
	chmod 0644 "$lock"
	"$nn" --root "$t" watch --once >/dev/null 2>&1
	[ "$(stat -c %a "$lock")" = 600 ] && ok "an older 0644 lock is made 0600" || bad "lock left $(stat -c %a "$lock")"
}

case_path() {
	local w=$tmp/w
	command -v unshare >/dev/null || { echo "skip: unshare is not installed"; exit 77; }
	[ -x /usr/bin/systemctl ] || { echo "skip: no /usr/bin/systemctl to cover with a stand-in"; exit 77; }
	mkdir -p "$w/evil"
	printf '#!/bin/sh\n: >%s/evil-ran\n' "$w" >"$w/evil/systemctl"
	printf '#!/bin/sh\nenv >%s/real-env\nprintf "ActiveState=inactive\\nMainPID=0\\n"\n' "$w" >"$w/standin"
	chmod 755 "$w/evil/systemctl" "$w/standin"
	# In a private mount namespace: /run a tmpfs that says systemd booted,
	# /usr/bin/systemctl covered by the stand-in. Nothing of the host changes.
	unshare -m --propagation private sh -c '
		mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system &&
		mount --bind "$1/standin" /usr/bin/systemctl || exit 77
		PATH="$1/evil:$PATH" NN_EVIL=1 "$2" status >/dev/null 2>&1
		exit 0' sh "$w" "$nn"
	[ $? = 77 ] && { echo "skip: cannot mount in a private namespace"; exit 77; }
	[ -e "$w/evil-ran" ] && bad "status ran the PATH's systemctl" || ok "the PATH's systemctl did not run"
	if [ -e "$w/real-env" ]; then
		ok "status ran /usr/bin/systemctl"
		grep -q '^PATH=/usr/sbin:/usr/bin:/sbin:/bin$' "$w/real-env" && ok "  with the fixed PATH" ||
			bad "  PATH was $(grep '^PATH=' "$w/real-env")"
		grep -q NN_EVIL "$w/real-env" && bad "  the caller's environment reached it" ||
			ok "  none of the caller's environment"
	else bad "status did not run /usr/bin/systemctl"; fi
}

case_unitexe() {
	local nic u
	nic=$(ip -o link show 2>/dev/null | awk -F': ' '$2 != "lo" {sub(/@.*/, "", $2); print $2; exit}')
	[ -n "$nic" ] || { echo "skip: no NIC to name"; exit 77; }
	# The copies sit in a root-owned directory under /run whatever the
	# checkout's path (a clone under /tmp is where people start), so each
	# reason named is the copy's own (tests/lib/stage.sh).
	# shellcheck source=../lib/stage.sh
	. "$(dirname "$0")/../lib/stage.sh"
	u=$(mktemp -d /run/nicnuma-harden-unitexe.XXXXXX) || exit 2
	unitexe_dir=$u
	trap 'rm -rf "$tmp" "$unitexe_dir"' EXIT
	nn_stage_exe "$nn" "$u" >/dev/null || { echo "skip: /run is not root's alone: nowhere to stage the binary"; exit 77; }
	chown -R 65534:65534 "$u"
	expect 2 "enable -n from a binary nobody owns" "$u/nicnuma" enable -n --nics "$nic"
	err_has "refusing to write a unit that runs $u/nicnuma"
	err_has "/usr/sbin/nicnuma enable"
	err_has "$u is owned by uid 65534, not root"
	chown -R 0:0 "$u" && chmod 0775 "$u"
	expect 2 "enable -n from a root binary in a group-writable directory" "$u/nicnuma" enable -n --nics "$nic"
	err_has "$u is writable by group or others"
	# A checkout under /tmp: a sticky world-writable directory above the binary.
	chmod 1777 "$u"
	expect 2 "enable -n from a root binary under a sticky world-writable directory (/tmp)" \
		"$u/nicnuma" enable -n --nics "$nic"
	err_has "$u is writable by group or others"
	chmod 0755 "$u" && chmod 0757 "$u/nicnuma"
	expect 2 "enable -n from a world-writable root binary" "$u/nicnuma" enable -n --nics "$nic"
	err_has "$u/nicnuma is writable by group or others"
	chmod 0755 "$u/nicnuma"
	timeout 60 "$u/nicnuma" enable -n --nics "$nic" >"$tmp/out" 2>"$tmp/err"
	grep -q 'refusing to write a unit' "$tmp/err" && bad "the root-owned staged binary was refused: $(cat "$tmp/err")" ||
		ok "the root-owned staged binary passes"
}

case_fifo() {
	local f cmd
	mktree
	mkdir -p "$t/run/nicnuma" "$t/etc/nicnuma"
	for f in run/nicnuma/watch.json etc/nicnuma/nicnuma.conf; do
		mkfifo -m 0644 "$t/$f"
	done
	for cmd in status metrics; do
		timeout 20 "$nn" --root "$t" $cmd >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc = 124 ]; then bad "$cmd hangs on a FIFO"
		else ok "$cmd finished (exit $rc)"; err_has "not a regular file"; fi
	done
	timeout 20 "$nn" --root "$t" watch --once >"$tmp/out" 2>"$tmp/err"
	[ $? = 124 ] && bad "watch --once hangs on a FIFO config" || ok "watch --once finished"
	err_has "/etc/nicnuma/nicnuma.conf: not a regular file"
}

case_uevent() {
	command -v unshare >/dev/null && command -v ip >/dev/null ||
		{ echo "skip: unshare and ip are needed"; exit 77; }
	unshare -n bash -c '
		ip link set lo up
		"$1" watch --events >"$2/ev" 2>"$2/everr" & w=$!
		sleep 1
		python3 - <<PY || exit 3
import socket
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15)  # NETLINK_KOBJECT_UEVENT
s.bind((0, 0))
msg = b"add@/devices/virtual/net/hdnforged\0ACTION=add\0DEVPATH=/devices/virtual/net/hdnforged\0" \
      b"SUBSYSTEM=net\0INTERFACE=hdnforged\0IFINDEX=99\0SEQNUM=1\0"
s.sendto(msg, (0, 1))
PY
		ip link add hdn-v0 type veth peer name hdn-v1 || exit 4
		sleep 1
		kill $w; wait $w
		exit 0' sh "$nn" "$tmp"
	case $? in
	0) ;;
	3) bad "could not send a forged uevent"; return ;;
	4) echo "skip: cannot make a veth pair in a namespace"; exit 77 ;;
	*) bad "the namespace part failed"; return ;;
	esac
	grep -q 'event=uevent.*ifname=hdn-v0' "$tmp/ev" && ok "a real uevent (veth hdn-v0) is seen" ||
		{ bad "no uevent for hdn-v0"; sed 's/^/    /' "$tmp/ev" "$tmp/everr" >&2; }
	grep -q hdnforged "$tmp/ev" && bad "the forged uevent was taken: $(grep hdnforged "$tmp/ev")" ||
		ok "the forged uevent (sender port id not 0) was ignored"
}

case_units() {
	local mu=${helper:?units needs the built nicnuma-metrics.service} wu=$tmp/nicnuma-watch.service k u score
	"$nn" watch --print-unit --exec /usr/sbin/nicnuma >"$wu" || { bad "watch --print-unit"; return; }
	for k in ProtectSystem=strict ReadWritePaths=/var/lib/prometheus/node-exporter NoNewPrivileges=yes \
		PrivateTmp=yes ProtectHome=yes ProtectKernelTunables=yes 'CapabilityBoundingSet=CAP_NET_ADMIN CAP_SYS_PTRACE'; do
		grep -qx "$k" "$mu" && ok "metrics unit: $k" || bad "metrics unit lacks $k"
	done
	for k in ProtectSystem=strict StateDirectory=nicnuma RuntimeDirectory=nicnuma NoNewPrivileges=yes \
		PrivateTmp=yes ProtectHome=yes 'CapabilityBoundingSet=CAP_NET_ADMIN CAP_SYS_PTRACE CAP_KILL CAP_SYS_NICE'; do
		grep -qx "$k" "$wu" && ok "watch unit: $k" || bad "watch unit lacks $k"
	done
	if command -v systemd-analyze >/dev/null; then
		for u in "$mu" "$wu"; do
			cp "$u" "$tmp/x.service"
			score=$(cd "$tmp" && timeout 60 systemd-analyze security --offline=true ./x.service 2>/dev/null |
				sed -n 's/.*Overall exposure level for x.service: \([0-9.]*\).*/\1/p')
			if [ -z "$score" ]; then echo "note: systemd-analyze security --offline=true gave no score here"
			elif awk -v s="$score" 'BEGIN { exit !(s <= 3.0) }'; then ok "$(basename "$u"): exposure $score"
			else bad "$(basename "$u"): exposure $score, wanted <= 3.0"; fi
		done
	else echo "note: no systemd-analyze: the exposure scores are not checked"; fi
	# A directory planted at the output path: a clear error, promptly.
	mktree
	mkdir -p "$tmp/tf/nicnuma.prom"
	expect 2 "metrics --output over a planted directory" "$nn" --root "$t" metrics --output "$tmp/tf/nicnuma.prom"
	err_has "$tmp/tf/nicnuma.prom is a directory, not a file nicnuma replaces: remove it"
}

dpdk_srv=
dpdk_start() {	# MODE: a fake server at $tmp/dpdk/MODE.sock, its pid in $dpdk_srv
	mkdir -p "$tmp/dpdk"
	rm -f "$tmp/dpdk/$1.sock" "$tmp/dpdk/ready"
	python3 "$here/security/dpdk_fake.py" "$tmp/dpdk/$1.sock" "$1" >"$tmp/dpdk/ready" 2>/dev/null &
	dpdk_srv=$!
	for _ in $(seq 50); do [ -s "$tmp/dpdk/ready" ] && return 0; sleep 0.1; done
	bad "the fake $1 server did not start"; return 1
}
dpdk_stop() { kill "$dpdk_srv" 2>/dev/null; wait "$dpdk_srv" 2>/dev/null; }
case_dpdk() {
	local sock t0 t1 rss
	# 1. a greeting that names another process (pid 1)
	dpdk_start liar || return
	expect 1 "a greeting naming pid 1" "$nn" check --dpdk --socket "$tmp/dpdk/liar.sock"
	err_has "the greeting says pid 1 but the process serving the socket is pid $dpdk_srv"
	grep -q '^skipped:' "$tmp/out" && ok "  the process is skipped" || bad "  not skipped: $(head -3 "$tmp/out")"
	grep -q 'net_null0' "$tmp/out" && bad "  its port was reported" || ok "  nothing of it reported"
	dpdk_stop
	# 2. a symlink to a socket is not followed; 3. a socket of another owner
	dpdk_start honest || return
	sock=$tmp/dpdk/honest.sock
	expect 0 "an honest server" "$nn" check --dpdk --socket "$sock"
	ln -s "$sock" "$tmp/dpdk/link.sock"
	expect 2 "--socket a symlink to it" "$nn" check --dpdk --socket "$tmp/dpdk/link.sock"
	err_has "is a symbolic link (not followed)"
	chown 65534 "$sock"
	expect 1 "its socket owned by uid 65534, served by root" "$nn" check --dpdk --socket "$sock"
	err_has "owned by uid 65534, neither root nor the serving process's uid 0"
	dpdk_stop
	# 4. slow replies: one deadline for the whole exchange
	dpdk_start slow || return
	t0=$(date +%s.%N)
	expect 2 "50 replies of 0.3 s each, --timeout 2" "$nn" check --dpdk --socket "$tmp/dpdk/slow.sock" --timeout 2
	t1=$(date +%s.%N)
	err_has "before the deadline (--timeout 2.0 s for the whole check)"
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 4) }' && ok "  gave up in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s" ||
		bad "  took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
	dpdk_stop
	# 5. 20000 ids: the first 1024 asked
	dpdk_start many || return
	expect 1 "/ethdev/list of 20000 ids" "$nn" check --dpdk --socket "$tmp/dpdk/many.sock"
	err_has "/ethdev/list lists 20000 entries: only the first 1024 are asked"
	dpdk_stop
	# 6. (0-65535)@(0-65535): refused, memory bounded
	dpdk_start lcores || return
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$tmp/rss" "$nn" check --dpdk --socket "$tmp/dpdk/lcores.sock" >"$tmp/out" 2>"$tmp/err"
		rss=$(tail -1 "$tmp/rss")
		[ "${rss:-999999}" -lt 100000 ] && ok "--lcores=(0-65535)@(0-65535): max RSS ${rss} KiB" ||
			bad "--lcores=(0-65535)@(0-65535): max RSS ${rss} KiB (over 100 MB)"
	else
		timeout 30 "$nn" check --dpdk --socket "$tmp/dpdk/lcores.sock" >"$tmp/out" 2>"$tmp/err"
		echo "note: no /usr/bin/time: the memory bound is not measured"
	fi
	grep -q 'lcore ids of 1024 or more' "$tmp/out" && ok "  says the lcore list was refused" ||
		bad "  no note on the lcore list: $(cat "$tmp/out" "$tmp/err" | head -5)"
	dpdk_stop
}

case "$case_" in
dpdk) case_dpdk ;;
units) case_units ;;
uevent) case_uevent ;;
fifo) case_fifo ;;
unitexe) case_unitexe ;;
path) case_path ;;
lock) case_lock ;;
openat2) case_openat2 ;;
*) echo "harden.sh: unknown case $case_" >&2; exit 2 ;;
esac
exit "$fail"
