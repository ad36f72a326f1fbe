# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/bites_lib.sh - what the arch checks' "bites" tests share: a copy
# of some source folders, a line planted at the end of one file, the check
# run on the copy, the file put back. A planted NAME must make the check exit
# 1 naming the file ("FILE:" or "FILE "); a planted "clean" line (the same words in a comment or a
# string) must leave it passing: the check can fail, and does not fail on prose.
#
#   . bites_lib.sh
#   bites_init SRC DIR...        copy SRC/DIR... (e.g. nicnuma/cli) into $bites_tmp
#   bites_check CMD...           the check, run as CMD... (it reads $bites_tmp)
#   bites_plant NAME FILE LINE   FILE relative to SRC
#   bites_end MESSAGE            exit 1 if a plant was wrong, else print MESSAGE

bites_init() {
	local src=$1 d
	shift
	bites_src=$src
	bites_fail=0
	bites_tmp=$(mktemp -d) || exit 2
	# shellcheck disable=SC2064  # the path is fixed now
	trap "rm -rf '$bites_tmp'" EXIT
	for d in "$@"; do
		mkdir -p "$bites_tmp/$(dirname "$d")" && cp -r "$src/$d" "$bites_tmp/$(dirname "$d")/" || exit 2
	done
}

bites_check() { bites_cmd=("$@"); }

bites_plant() {
	local name=$1 file=$2 line=$3 out rc
	printf '%s\n' "$line" >>"$bites_tmp/$file"
	out=$("${bites_cmd[@]}" 2>&1)
	rc=$?
	cp "$bites_src/$file" "$bites_tmp/$file" || exit 2
	if [ "$name" = clean ]; then
		if [ "$rc" != 0 ]; then
			echo "FAIL: words in a comment or string made it fail ($rc): $line"
			echo "$out"
			bites_fail=1
		else
			echo "ok: not caught in a comment or string: $line"
		fi
	elif [ "$rc" != 1 ] || ! grep -q "$(basename "$file")[: ]" <<<"$out"; then
		echo "FAIL: planted $name not caught in $file (exit $rc): $line"
		echo "$out"
		bites_fail=1
	else
		echo "ok: planted $name caught in $file"
	fi
}

bites_end() {
	[ "$bites_fail" = 0 ] || exit 1
	echo "$1"
}
