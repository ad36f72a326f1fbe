#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/package/package.sh [OUTDIR] - the Debian packages (scripts/test suite 'package')
#
# Builds them (scripts/package), runs lintian (no error, no warning; the
# justified ones are in debian/*.lintian-overrides), unpacks each .deb
# (dpkg -x) and compares its files, modes and owners with
# tests/package/PKG.files (the directories every package has left out).
# Then, as root on a host where nicnuma is neither installed nor has left
# /etc/nicnuma or /var/lib/nicnuma: dpkg -i, checks that no unit was enabled
# or started and the installed modes, and dpkg --purge (otherwise that part
# is skipped, saying why: a real installation is never touched).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/build-deb}
fail=0
err() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }

debs=$("$top/scripts/package" "$out") || { echo "FAIL: scripts/package" >&2; exit 1; }
lintian --fail-on error,warning "$out"/nicnuma_*.changes 2>&1 | grep -v 'root privileges' ||
	true
lintian --fail-on error,warning "$out"/nicnuma_*.changes >/dev/null 2>&1 || err "lintian (above)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nicnuma-pkg.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
for pkg in nicnuma nicnuma-fwd; do
	deb=$(printf '%s\n' "$debs" | grep "/${pkg}_[^/]*\.deb$")
	[ -n "$deb" ] || { err "no $pkg .deb"; continue; }
	# modes and names of files, and of directories that are not 0755 or that
	# the package owns alone (etc/nicnuma, var/lib/nicnuma)
	dpkg-deb -c "$deb" | awk '
		$2 != "root/root" { print "owner:", $0 }
		/^-/ || $6 ~ /^\.\/(etc\/nicnuma|var\/lib\/nicnuma)\/$/ || (/^d/ && $1 != "drwxr-xr-x") { print $1, $6 }' |
		sort -k2 > "$tmp/$pkg.got"
	diff -u "$here/$pkg.files" "$tmp/$pkg.got" || err "$pkg: files differ from tests/package/$pkg.files"
	mkdir "$tmp/$pkg" || exit 2
	dpkg -x "$deb" "$tmp/$pkg" || err "dpkg -x $deb"
done
# the unpacked CLI runs and the unit starts the installed path
"$tmp/nicnuma/usr/sbin/nicnuma" --version >/dev/null || err "unpacked nicnuma does not run"
grep -qx 'ExecStart=/usr/sbin/nicnuma watch' "$tmp/nicnuma/lib/systemd/system/nicnuma-watch.service" ||
	err "nicnuma-watch.service: ExecStart is not /usr/sbin/nicnuma watch"
# one template: the packaged unit is what the binary prints (enable writes
# the same with the host's specifics to /etc/systemd/system)
"$tmp/nicnuma/usr/sbin/nicnuma" watch --print-unit --exec /usr/sbin/nicnuma |
	cmp -s - "$tmp/nicnuma/lib/systemd/system/nicnuma-watch.service" ||
	err "nicnuma-watch.service differs from 'nicnuma watch --print-unit'"
grep -q 'irqbalance' "$tmp/nicnuma/lib/systemd/system/nicnuma-watch.service" &&
	grep -q '^Conflicts=.*irqbalance' "$tmp/nicnuma/lib/systemd/system/nicnuma-watch.service" &&
	err "the packaged unit conflicts with irqbalance (only enable's may)"
grep -qx 'ConditionPathExists=/etc/nicnuma/nicnuma.conf' "$tmp/nicnuma/lib/systemd/system/nicnuma-watch.service" ||
	err "the packaged unit has no ConditionPathExists=/etc/nicnuma/nicnuma.conf"

if [ "$(id -u)" != 0 ]; then
	echo "note: not root: dpkg -i part skipped" >&2
elif dpkg-query -W -f='${Status}' nicnuma 2>/dev/null | grep -q installed ||
     [ -e /etc/nicnuma ] || [ -e /var/lib/nicnuma ]; then
	echo "note: nicnuma is installed here or has state (/etc/nicnuma, /var/lib/nicnuma): dpkg -i part skipped" >&2
else
	deb=$(printf '%s\n' "$debs" | grep '/nicnuma_[^/]*\.deb$')
	if dpkg -i "$deb" > "$tmp/dpkg.log" 2>&1; then
		[ "$(stat -c %a:%U /var/lib/nicnuma)" = 700:root ] || err "installed /var/lib/nicnuma: $(stat -c %a:%U /var/lib/nicnuma)"
		[ "$(stat -c %a:%U /etc/nicnuma)" = 755:root ] || err "installed /etc/nicnuma: $(stat -c %a:%U /etc/nicnuma)"
		ls /etc/systemd/system/*.wants/nicnuma* 2>/dev/null && err "a nicnuma unit was enabled by the install"
		if [ -d /run/systemd/system ] && systemctl is-active -q nicnuma-watch.service nicnuma-metrics.timer; then
			err "a nicnuma unit was started by the install"
		fi
		/usr/sbin/nicnuma --help >/dev/null || err "installed nicnuma --help"
	else
		cat "$tmp/dpkg.log" >&2; err "dpkg -i $deb"
	fi
	dpkg --purge nicnuma > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log" >&2; err "dpkg --purge nicnuma"; }
	[ -e /usr/sbin/nicnuma ] && err "/usr/sbin/nicnuma left after purge"
fi
[ "$fail" = 0 ] && echo "ok: packages build, lintian clean, contents and modes as expected"
exit "$fail"
