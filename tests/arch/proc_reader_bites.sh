#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/proc_reader_bites.sh SRCDIR - proc_reader.sh fails when a
# process stat/comm read or a stat parser is planted in a copy of the
# sources (the private parsers it replaced, in the files they were in), and
# passes the copy when the same words are only in comments: the check can fail.
set -uo pipefail

src=${1:?usage: proc_reader_bites.sh SRCDIR}
check=$src/tests/arch/proc_reader.sh
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0

# one copy; each plant goes into one file, put back after
mkdir -p "$tmp/src" && cp -r "$src/nicnuma" "$src/irq" "$src/hugepages" "$tmp/src/" || exit 2
plant() {	# NAME FILE LINE: expect proc_reader.sh to fail naming FILE
	cp "$src/$2" "$tmp/src/$2" || exit 2
	printf '%s\n' "$3" >>"$tmp/src/$2"
	out=$(bash "$check" "$tmp/src" 2>&1)
	rc=$?
	cp "$src/$2" "$tmp/src/$2" || exit 2
	if [ "$1" = clean ]; then
		if [ "$rc" != 0 ]; then
			echo "FAIL: words in a comment made it fail ($rc): $3"
			echo "$out"
			fail=1
		else
			echo "ok: not caught in a comment: $3"
		fi
	elif [ "$rc" != 1 ] || ! grep -q "$2:" <<<"$out"; then
		echo "FAIL: planted $1 not caught in $2 (exit $rc): $3"
		echo "$out"
		fail=1
	else
		echo "ok: planted $1 caught in $2"
	fi
}

# the copies this check replaced: irqbalance's, the NAPI thread's, the sampler's
plant stat-path irq/irqbalance_id.c 'static const char *p1 = "/proc/%d/stat";'
plant comm-path irq/napi_thread.c 'static void p2(char *b, int pid) { snprintf(b, 64, "/proc/%d/comm", pid); }'
plant task-stat nicnuma/discover/procmap_read.c 'static const char *p3 = "%s/%ld/stat";'
plant self-stat hugepages/hp_state.c 'static const char *p4 = "/proc/self/stat";'
plant parser nicnuma/obs/obs_sample.c 'static const char *p5(const char *t) { return strrchr(t, '"')'"'); }'
plant kthread irq/napi_thread.c 'static int p6(long f) { return !!(f & NN_PF_KTHREAD); }'
plant kthread-hex nicnuma/obs/obs_attr.c 'static int p7(long f) { return !!(f & 0x00200000); }'
# the per-process files' private readers this check replaced: irqbalance's
# uids, cmdline and environ, the NAPI thread's status, the process map's
plant status-path irq/irqbalance_id.c 'static void p9(char *b, int pid) { snprintf(b, 64, "/proc/%d/status", pid); }'
plant environ-path irq/irqbalance_id.c 'static void p10(char *b, int pid, const char *w) { snprintf(b, 64, "/proc/%d/%s", pid, w); }'
plant status-cpus irq/napi_thread.c 'static const char *p11 = "/proc/%d/status";'
plant numa-maps nicnuma/discover/procmap_read.c 'static const char *p12 = "/proc/%ld/numa_maps";'
plant task-dir nicnuma/discover/procmap_read.c 'static const char *p13 = "/proc/%d/task";'
plant clean irq/napi_thread.c '/* read "/proc/%d/status" and "/proc/%d/stat", strrchr(t, '"')'"'), PF_KTHREAD: in a comment */'
plant clean nicnuma/obs/obs_parse.c 'static const char *p8 = "/proc/stat";	/* host-wide, not a process */'
[ "$fail" = 0 ] || exit 1
echo "ok: proc_reader.sh catches what is planted and passes comments"
