#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/observe.sh NICNUMA - nicnuma observe on this machine (suite 'live')
#
#  1. eth0's real IRQ counters: observe's interrupts per IRQ and CPU are
#     within what this script's own reads of /proc/interrupts, taken before
#     and after, saw (never more, never on a CPU that took none), with the
#     IRQ names of /proc/interrupts; under light traffic (a bounded UDP
#     trickle to the default gateway's discard port) some are seen.
#  2. A veth pair between two private netns (observe-a-PID, observe-b-PID):
#     a bounded flood (count- and time-limited UDP from a sender pinned with
#     taskset, to an address inside the pair only) puts the NET_RX work on
#     the sender's CPU, and observe says so: that CPU does >= 80 % of it;
#     for each CPU of the first two in turn.
#  3. Threaded NAPI on the receiving veth (GRO + UDP GRO forwarding, then
#     threaded = 1), its napi/observe-v1-ID kthread pinned to another CPU
#     than the sender: observe reports the kthread of the NIC on that CPU,
#     busy, and the host's NAPI work on that CPU; NET_RX on the sender's CPU
#     drops below 20 % of the flood.
# Run under flock /tmp/nn-live.lock (meson's live suite). Needs root, ip,
# ethtool, taskset, python3; exits 77 with the reason otherwise. The netns
# (and everything in them) are removed on exit.
set -uo pipefail

nn=${1:?usage: observe.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (network namespaces)"; exit 77; }
for t in ip ethtool taskset python3; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }
done

nsa=observe-a-$$
nsb=observe-b-$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/observe-live.XXXXXX")
cleanup() {
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

fails=0
skips=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
skip() { printf 'SKIP %s\n' "$*"; skips=$((skips + 1)); }

# A bounded UDP sender: at most COUNT datagrams, at most SECS seconds.
cat > "$tmp/send.py" <<'EOF'
import socket, sys, time
dst, n, secs, gap = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.monotonic() + secs
sent = 0
while sent < n and time.monotonic() < end:
    try:
        s.sendto(b"x" * 64, (dst, 9))
    except OSError:
        pass
    sent += 1
    if gap:
        time.sleep(gap)
print(sent)
EOF

# /proc/interrupts rows of IRQS (space-separated) as JSON {irq: [per CPU]}
intr_snapshot() {
	python3 - "$1" <<'EOF'
import json, sys
want = set(sys.argv[1].split())
lines = open("/proc/interrupts").read().split("\n")
cpus = [int(c[3:]) for c in lines[0].split()]
out = {}
for l in lines[1:]:
    head, _, rest = l.partition(":")
    if head.strip() in want:
        tok = rest.split()
        out[head.strip()] = {"cpus": dict(zip(cpus, map(int, tok[:len(cpus)]))), "name": tok[-1]}
print(json.dumps(out))
EOF
}

# --- 1. eth0 ----------------------------------------------------------------
nic=eth0
if [ ! -e /sys/class/net/$nic ]; then
	skip "no eth0 on this host"
else
	irqs=$("$nn" nics --json "$nic" 2>/dev/null | python3 -c 'import json,sys
print(" ".join(str(i["irq"]) for i in json.load(sys.stdin)["nics"][0]["irqs"]))')
	gw=$(ip -4 route show default dev "$nic" 2>/dev/null | awk '{ print $3; exit }')
	intr_snapshot "$irqs" > "$tmp/before.json"
	[ -n "$gw" ] && python3 "$tmp/send.py" "$gw" 300 3 0.01 >/dev/null 2>&1 &
	trickle=$!
	"$nn" observe "$nic" --count 1 --interval 2 --json > "$tmp/eth0.jsonl" 2> "$tmp/eth0.err"
	rc=$?
	wait "$trickle" 2>/dev/null
	intr_snapshot "$irqs" > "$tmp/after.json"
	if [ "$rc" -gt 1 ]; then
		fail "observe $nic: exit $rc $(cat "$tmp/eth0.err")"
	else
		python3 - "$tmp/before.json" "$tmp/after.json" "$tmp/eth0.jsonl" <<'EOF' > "$tmp/eth0.res"
import json, sys
b, a = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
doc = json.loads(open(sys.argv[3]).readline())
nic = doc["nics"][0]
errs, seen, bracket = [], 0, 0
got_irqs = sorted(str(q["irq"]) for q in nic["queues"])
if got_irqs != sorted(b):
    errs.append("IRQs %s, want %s" % (got_irqs, sorted(b)))
for q in nic["queues"]:
    irq = str(q["irq"])
    if irq not in b:
        continue
    if q["name"] != b[irq]["name"]:
        errs.append("IRQ %s named %s, /proc/interrupts says %s" % (irq, q["name"], b[irq]["name"]))
    d = {c: a[irq]["cpus"][c] - b[irq]["cpus"][c] for c in b[irq]["cpus"]}
    bracket += sum(d.values())
    for c in q["cpus"]:
        n = c["irqs_per_s"] * doc["interval_s"]
        seen += n
        if n > d.get(str(c["cpu"]), 0) + 0.5:
            errs.append("IRQ %s: %g on CPU %s, but only %d there in the bracket" % (irq, n, c["cpu"], d.get(str(c["cpu"]), 0)))
print(json.dumps({"errors": errs, "seen": seen, "bracket": bracket}))
EOF
		if ! [ -s "$tmp/eth0.res" ]; then
			fail "$nic: observe's report unreadable: $(head -c 300 "$tmp/eth0.jsonl")"
		else
			errs=$(python3 -c 'import json,sys; print("; ".join(json.load(open(sys.argv[1]))["errors"]))' "$tmp/eth0.res")
			seen=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["seen"]))' "$tmp/eth0.res")
			bracket=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bracket"])' "$tmp/eth0.res")
			if [ -n "$errs" ]; then
				fail "$nic: $errs"
			else
				pass "$nic: IRQs and names as /proc/interrupts; $seen interrupts attributed, within the $bracket around them"
			fi
			if [ "$bracket" -ge 20 ]; then
				if [ "$seen" -gt 0 ]; then pass "$nic: interrupts seen under traffic"
				else fail "$nic: $bracket interrupts around the interval, none in it"; fi
			else
				skip "$nic: only $bracket interrupts around the interval (no traffic here): not judged"
			fi
		fi
	fi
fi

# per-queue packet counts: netdev netlink where the kernel has qstats-get
if [ -s "$tmp/eth0.jsonl" ]; then
	qs=$(python3 -c 'import json,sys
n = json.loads(open(sys.argv[1]).readline())["nics"][0]
rx = [q["rx_pps"] for q in n["queues"] if q["queue"] is not None and q["dir"] in ("rx", "rxtx")]
print(n["queue_stats"], "yes" if rx and all(v is not None and v >= 0 for v in rx) else "no")' "$tmp/eth0.jsonl")
	case $qs in
	"netlink yes"|"ethtool yes") pass "$nic: per-queue packet rates from ${qs% *}" ;;
	not_available*) skip "$nic: no per-queue packet counts here (no qstats-get, no ethtool queue counters)" ;;
	*) fail "$nic: queue statistics '$qs'" ;;
	esac
fi

# --- 2. a veth pair between two private netns ---------------------------------
ncpu=$(nproc)
if [ "$ncpu" -lt 2 ]; then
	skip "veth: one CPU, nothing to tell apart"
	echo "$fails failed, $skips skipped"
	[ "$fails" -eq 0 ] || exit 1
	exit 0
fi
if ! ip netns add "$nsa" || ! ip netns add "$nsb" ||
   ! ip -n "$nsa" link add observe-v0 type veth peer name observe-v1 netns "$nsb"; then
	echo "skip: cannot make network namespaces or a veth pair here"
	exit 77
fi
ip -n "$nsa" addr add 10.199.0.1/24 dev observe-v0
ip -n "$nsb" addr add 10.199.0.2/24 dev observe-v1
for n in "$nsa" "$nsb"; do ip -n "$n" link set lo up; done
ip -n "$nsa" link set observe-v0 up
ip -n "$nsb" link set observe-v1 up

# flood CPU SECS: the sender pinned to CPU, into the pair only, bounded
flood() {
	ip netns exec "$nsa" taskset -c "$1" python3 "$tmp/send.py" 10.199.0.2 2000000 "$2" 0
}

# observe_b OUT: observe observe-v1 from inside its netns, one 3 s interval
observe_b() {
	ip netns exec "$nsb" "$nn" observe observe-v1 --count 1 --interval 3 --json > "$1" 2> "$1.err"
}

for cpu in 0 1; do
	(sleep 0.3; flood "$cpu" 4 > "$tmp/sent.$cpu") &
	flooder=$!
	observe_b "$tmp/veth.$cpu.jsonl"
	rc=$?
	wait "$flooder"
	res=$(python3 - "$tmp/veth.$cpu.jsonl" "$cpu" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
cpu = int(sys.argv[2])
rx = {c["cpu"]: c["net_rx_per_s"] for c in d["cpus"]}
total = sum(rx.values())
print("%d %.0f %.0f" % (rx.get(cpu, 0) >= 0.8 * total, rx.get(cpu, 0), total))
EOF
)
	read -r ok mine total <<<"$res"
	if [ "$rc" -gt 1 ] || [ -z "$res" ]; then
		fail "veth, sender on CPU $cpu: observe exit $rc $(cat "$tmp/veth.$cpu.jsonl.err")"
	elif [ "${total%.*}" -lt 1000 ]; then
		fail "veth, sender on CPU $cpu: only $total NET_RX/s seen (sent $(cat "$tmp/sent.$cpu"))"
	elif [ "$ok" = 1 ]; then
		pass "veth, sender on CPU $cpu: NET_RX attributed to CPU $cpu ($mine of $total /s)"
	else
		fail "veth, sender on CPU $cpu: NET_RX on CPU $cpu only $mine of $total /s"
	fi
done

# --- 3. threaded NAPI: the work follows the kthread --------------------------
if ! ip netns exec "$nsb" ethtool -K observe-v1 gro on rx-udp-gro-forwarding on >/dev/null 2>&1 ||
   ! ip netns exec "$nsb" sh -c 'echo 1 > /sys/class/net/observe-v1/threaded' 2>/dev/null; then
	skip "threaded NAPI: this kernel's veth cannot (gro / threaded)"
else
	pid=
	for p in $(cat /proc/2/task/2/children 2>/dev/null); do
		case $(cat "/proc/$p/comm" 2>/dev/null) in napi/observe-v1*) pid=$p;; esac
	done
	if [ -z "$pid" ]; then
		fail "threaded NAPI: no napi/observe-v1 kthread after threaded = 1"
	else
		taskset -p -c 0 "$pid" >/dev/null
		(sleep 0.3; flood 1 4 > "$tmp/sent.napi") &
		flooder=$!
		observe_b "$tmp/napi.jsonl"
		rc=$?
		wait "$flooder"
		res=$(python3 - "$tmp/napi.jsonl" "$pid" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
pid = int(sys.argv[2])
nic = [n for n in d["nics"] if n["name"] == "observe-v1"][0]
t = [z for z in nic["napi_threads"] if z["pid"] == pid]
rx1 = sum(c["net_rx_per_s"] for c in d["cpus"] if c["cpu"] == 1)
napi0 = sum(c["napi_busy"] for c in d["cpus"] if c["cpu"] == 0)
if not t:
    print("missing - - -")
else:
    print("%s %s %.4f %.4f %.0f" % (t[0]["cpu"], t[0]["comm"], t[0]["busy"], napi0, rx1))
EOF
)
		read -r tcpu comm busy napi0 rx1 <<<"$res"
		if [ "$rc" -gt 1 ] || [ "$tcpu" = missing ]; then
			fail "threaded NAPI: kthread $pid not reported for observe-v1 (exit $rc)"
		elif [ "$tcpu" = 0 ] && awk -v b="$busy" -v n="$napi0" 'BEGIN { exit !(b > 0 && n > 0) }'; then
			pass "threaded NAPI: $comm reported on CPU 0, busy $busy of a CPU; host NAPI work on CPU 0 $napi0"
		else
			fail "threaded NAPI: $comm on CPU $tcpu busy $busy (want CPU 0, busy), host NAPI on CPU 0 $napi0"
		fi
		sent=$(cat "$tmp/sent.napi")
		if awk -v r="$rx1" -v s="$sent" 'BEGIN { exit !(r < 0.2 * s / 4) }'; then
			pass "threaded NAPI: NET_RX on the sender's CPU 1 down to $rx1 /s ($sent sent in 4 s)"
		else
			fail "threaded NAPI: NET_RX on the sender's CPU 1 still $rx1 /s ($sent sent in 4 s)"
		fi
	fi
fi

echo "$fails failed, $skips skipped"
[ "$fails" -eq 0 ] || exit 1
exit 0
