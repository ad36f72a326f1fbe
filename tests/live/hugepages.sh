#!/usr/bin/env bash
# tests/live/hugepages.sh NICNUMA
# On this machine, node 0, 2 MB pages: reserve 64 more, see free_hugepages
# grow by 64, release them, left as found; then --mount on a temp dir and
# `nicnuma rollback` takes both the pages and the mount away again; and a
# non-root run is refused with nothing changed. Other helpers share the
# machine: counts are compared as deltas of our own changes, the undo logs go
# to a private state dir, and every exit path puts back what was found.
set -u
nn=$1
pool=/sys/devices/system/node/node0/hugepages/hugepages-2048kB
[ "$(id -u)" = 0 ] || { echo "skip: needs root to write $pool/nr_hugepages"; exit 77; }
[ -e "$pool/nr_hugepages" ] || { echo "skip: no node 0 2M pool ($pool)"; exit 77; }

tmp=$(mktemp -d /tmp/hugepages-live.XXXXXX) || exit 1
export NICNUMA_STATE_DIR=$tmp/state
mnt=$tmp/mnt
mkdir "$mnt"
nr0=$(cat "$pool/nr_hugepages")
free0=$(cat "$pool/free_hugepages")
fail=0

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	if grep -q " $mnt hugetlbfs " /proc/mounts; then umount "$mnt" || echo "cannot unmount $mnt"; fi
	if [ "$(cat "$pool/nr_hugepages")" != "$nr0" ]; then
		echo "restoring nr_hugepages to $nr0"
		echo "$nr0" >"$pool/nr_hugepages"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

bad() { printf 'FAIL: %s\n' "$*"; fail=1; }
nr() { cat "$pool/nr_hugepages"; }
free_() { cat "$pool/free_hugepages"; }

echo "node 0 2M before: nr_hugepages=$nr0 free_hugepages=$free0"

"$nn" hugepages reserve --nodes 0 --size 2M --count 64 || bad "reserve exited $?"
nr1=$(nr) free1=$(free_)
echo "after reserve:   nr_hugepages=$nr1 free_hugepages=$free1"
[ "$nr1" -eq $((nr0 + 64)) ] || bad "nr_hugepages $nr1, want $((nr0 + 64))"
# Other helpers' DPDK runs map pages from this pool too: name that when it
# is why free_hugepages moved by other than our 64.
[ "$free1" -eq $((free0 + 64)) ] ||
	bad "free_hugepages $free1, want $((free0 + 64)) (pages in use went $((nr0 - free0)) -> $((nr1 - free1)))"
"$nn" --json hugepages show >"$tmp/show" || bad "show exited $?"
python3 - "$tmp/show" "$nr1" <<'EOF' || bad "show --json does not report node 0's 2M pool as $nr1"
import json, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d["hugepages"] if p["node"] == 0 and p["size_kb"] == 2048]
assert p and p[0]["total"] == int(sys.argv[2]), p
EOF

"$nn" hugepages release --nodes 0 --size 2M --count 64 || bad "release exited $?"
echo "after release:   nr_hugepages=$(nr) free_hugepages=$(free_)"
[ "$(nr)" -eq "$nr0" ] || bad "nr_hugepages $(nr) after release, want $nr0"
[ "$(free_)" -eq "$free0" ] || bad "free_hugepages $(free_) after release, want $free0"

# Not root: refused before anything is written.
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$nn" hugepages reserve --nodes 0 --size 2M --count 64 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || bad "non-root reserve exited $rc, want 2"
	grep -q "run as root" "$tmp/err" || bad "non-root message: $(cat "$tmp/err")"
	[ "$(nr)" -eq "$nr0" ] || bad "non-root run changed nr_hugepages to $(nr)"
fi

# --mount on a temp dir, then rollback: pages and mount both gone.
existing=$(awk '$3 == "hugetlbfs" && $4 ~ /pagesize=2M/ { print $2; exit }' /proc/mounts)
"$nn" hugepages reserve --nodes 0 --size 2M --count 64 --mount "$mnt" >"$tmp/out" || bad "reserve --mount exited $?"
cat "$tmp/out"
if [ -n "$existing" ]; then
	# Someone else's 2M mount: reserve must leave ours alone and say so.
	grep -q "already mounted at" "$tmp/out" || bad "existing mount $existing not reported"
	grep -q " $mnt hugetlbfs " /proc/mounts && bad "mounted $mnt although $existing exists"
else
	grep -Eq "^hugetlbfs $mnt hugetlbfs .*pagesize=2M" /proc/mounts ||
		bad "$mnt not mounted with pagesize=2M: $(grep hugetlbfs /proc/mounts)"
fi
[ "$(nr)" -eq $((nr0 + 64)) ] || bad "nr_hugepages $(nr) after reserve --mount, want $((nr0 + 64))"
if "$nn" rollback --help >/dev/null 2>&1; then
	"$nn" rollback || bad "rollback exited $?"
	grep -q " $mnt hugetlbfs " /proc/mounts && bad "rollback left $mnt mounted"
	[ "$(nr)" -eq "$nr0" ] || bad "nr_hugepages $(nr) after rollback, want $nr0"
else
	bad "no 'nicnuma rollback' command in this build: cannot check that rollback unmounts"
fi
echo "at the end:      nr_hugepages=$(nr) free_hugepages=$(free_)"
exit "$fail"
