#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/run.sh FUZZER SEED_DIR - one short, bounded libFuzzer run (suite 'fuzz')
#
# Works on a scratch copy of the seed corpus so the tree is never written to;
# a crash leaves its reproducer in $NN_FUZZ_CRASHES (default build-fuzz/crashes
# next to the fuzzer) and prints how to replay it. Bounded by time and runs:
#   NN_FUZZ_SECONDS (default 10), NN_FUZZ_RUNS (default 2000000).
set -uo pipefail

fuzzer=${1:-}
seeds=${2:-}
if [ -z "$fuzzer" ] || [ -z "$seeds" ]; then
	echo "usage: $0 FUZZER SEED_DIR" >&2
	exit 2
fi
[ -x "$fuzzer" ] || { echo "skip: $fuzzer is not built (needs CC=clang -Dfuzz=enabled)" >&2; exit 77; }
[ -d "$seeds" ] || { echo "error: no seed corpus $seeds" >&2; exit 2; }

# An UBSan finding halts the run (a crash with its reproducer), not a line that passes.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
name=$(basename "$fuzzer")
crashes=${NN_FUZZ_CRASHES:-$(dirname "$fuzzer")/crashes}
mkdir -p "$crashes" || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/nicnuma-$name.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 143' TERM INT
mkdir "$work/corpus"
cp -R "$seeds/." "$work/corpus/"

"$fuzzer" -max_total_time="${NN_FUZZ_SECONDS:-10}" -runs="${NN_FUZZ_RUNS:-2000000}" \
	-max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$crashes/$name-" "$work/corpus" 2>"$work/log"
rc=$?
grep -E '^(stat::number_of_executed_units|stat::new_units_added|#[0-9]+ +DONE)' "$work/log"
if [ "$rc" -ne 0 ]; then
	tail -n 60 "$work/log" >&2
	echo "FAIL $name: exit $rc; reproducer(s) in $crashes:" >&2
	for f in "$crashes/$name"-*; do [ -e "$f" ] && echo "  $f" >&2; done
	echo "replay: $fuzzer FILE   (or build/tests/fuzz/replay_${name#fuzz_} FILE)" >&2
	exit 1
fi
exit 0
