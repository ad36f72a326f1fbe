#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/bench_profiles.sh NICNUMA BENCH - `scripts/bench profiles` runs (suite 'live')
#
# One short round (1 s per test) of every variant: the section prints its
# headers and a row for each variant, its JSON (NN_BENCH_PROFILES_JSON)
# carries every key with a figure for every variant, what each profile set
# is listed, and the host is as found afterwards (the bench's own read-back
# and this test's: the sysctls and THP it may write, no namespace left).
# Timings are not asserted. Needs root and sockperf (scripts/test installs it
# before the live suite, scripts/bench when missing; this test does not):
# exits 77 saying why otherwise.
# shellcheck disable=SC2015  # pass/fail only print
set -uo pipefail

nn=${1:?usage: bench_profiles.sh NICNUMA BENCH}
bench=${2:?usage: bench_profiles.sh NICNUMA BENCH}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root"; exit 77; }
for t in ip unshare python3 sockperf; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed (scripts/test installs it before the live suite: NN_LIVE_PACKAGES)"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-profiles.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
watch=(/proc/sys/net/core/rps_sock_flow_entries /proc/sys/net/core/busy_read /proc/sys/net/core/busy_poll
	/proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_background_ratio /proc/sys/vm/swappiness
	/proc/sys/net/ipv4/tcp_fastopen /proc/sys/net/ipv4/tcp_rmem /proc/sys/net/ipv4/tcp_wmem
	/sys/kernel/mm/transparent_hugepage/enabled /proc/sys/kernel/numa_balancing)
for f in "${watch[@]}"; do [ -e "$f" ] && printf '%s %s\n' "$f" "$(cat "$f")"; done >"$tmp/before"
ip netns list | sort >"$tmp/ns-before"

NN_BENCH_NICNUMA=$nn NN_BENCH_PROFILES_ROUNDS=1 NN_BENCH_PROFILES_SECONDS=1 NN_BENCH_PROFILES_JSON=$tmp/p.json \
	"$bench" profiles >"$tmp/out" 2>&1
rc=$?
sed 's/^/  | /' "$tmp/out"
[ "$rc" -eq 0 ] && pass "scripts/bench profiles exits 0" || fail "scripts/bench profiles exit $rc"
for h in "== profiles: sockperf UDP" "what each variant sets:" "nicnuma (plan --json on each veth end" \
	"ping-pong latency (sockperf's RTT/2, usec)" "throughput (sockperf throughput" "ratio to untuned" \
	"watched values"; do
	grep -qF -- "$h" "$tmp/out" && pass "prints: $h" || fail "does not print: $h"
done
python3 - "$tmp/p.json" <<'PY' >"$tmp/j" 2>&1 && pass "JSON: $(cat "$tmp/j")" || fail "JSON: $(cat "$tmp/j")"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("rounds", "seconds", "msg_size", "variants", "results", "rounds_raw", "tuned", "tuned_why",
          "host_restored", "host_values_watched"):
    assert k in d, "no key %s" % k
assert d["rounds"] == 1 and d["host_restored"] is True, (d["rounds"], d["host_restored"])
v = d["variants"]
assert v[:3] == ["untuned", "latency", "throughput"], v
if d["tuned"]:
    assert v[3:] == ["tuned-network-latency", "tuned-network-throughput"], v
else:
    assert len(v) == 3 and d["tuned_why"], (v, d["tuned_why"])
for name in v:
    r = d["results"][name]
    for k in ("p50_us", "p99_us", "p999_us", "sent_msg_s", "recv_msg_s", "drops_msg_s"):
        assert r[k] and r[k]["median"] is not None, (name, k, r.get(k))
    assert r["p50_us"]["median"] <= r["p99_us"]["median"] <= r["p999_us"]["median"], (name, r)
    if name != "untuned":
        for k in ("ratio_p50_us", "ratio_p99_us", "ratio_p999_us", "ratio_recv_msg_s"):
            assert r[k] and r[k]["median"] > 0, (name, k)
print("%d variants with p50/p99/p99.9, msg/s and ratios; tuned %s" % (len(v), "beside them" if d["tuned"] else "absent: " + d["tuned_why"]))
PY
# what the profiles set on veth: latency's per-NAPI threaded, throughput's RPS
grep -qE "napi [0-9]+ threaded +1 +changed" "$tmp/out" && pass "latency: per-NAPI threaded changed on veth" \
	|| fail "latency: no per-NAPI threaded row"
grep -qE "rps_cpus rx-0 +[0-9a-f]+ +changed" "$tmp/out" && pass "throughput: rps_cpus changed on veth" \
	|| fail "throughput: no rps_cpus row"
if python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["tuned"] else 1)' "$tmp/p.json" 2>/dev/null; then
	grep -qE "^\s+\[sysctl\] net.core.busy_read=50 +-> " "$tmp/out" && pass "tuned: network-latency's busy_read listed" \
		|| fail "tuned: no busy_read row"
fi
bad=0
while read -r f v; do [ "$(cat "$f")" = "$v" ] || { bad=1; echo "  $f: $(cat "$f"), was $v"; }; done <"$tmp/before"
[ "$bad" -eq 0 ] && pass "host values as found ($(wc -l <"$tmp/before") read back)" || fail "host values differ"
ip netns list | sort | cmp -s - "$tmp/ns-before" && pass "no network namespace left" || fail "namespaces left: $(ip netns list | tr '\n' ' ')"
grep -lx "napi/nnprof-[ab]-[0-9]*" /proc/[0-9]*/comm >/dev/null 2>&1 && fail "a NAPI kthread of the bench's veth is left" \
	|| pass "no NAPI kthread of the bench's veth left"

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
