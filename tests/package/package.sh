#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/package/package.sh [OUTDIR] - the Debian packages (scripts/test suite 'package')
#
# Builds them (scripts/package), runs lintian (no error, no warning; the
# justified ones are in debian/*.lintian-overrides), unpacks each .deb
# (dpkg -x) and compares its files, modes and owners with
# tests/package/PKG.files (the directories every package has left out),
# the hooks.d entries against contrib/oci, and that no maintainer script
# starts a unit. Then, as root, in a private mount namespace (tests/package/install_ns.sh:
# overlays over /etc, /usr and /var, a tmpfs /run; nothing of the host
# changes, checked): dpkg -i, checks that no unit was enabled, the installed
# modes and hooks.d entries, and dpkg --purge; also where nicnuma is
# installed or has left /etc/nicnuma or /var/lib/nicnuma (a real
# installation is never touched).
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
# Nothing started by the install: the namespace's install below hides the
# host's systemd, so this is read from the maintainer scripts (an upgrade
# try-restarts what was running, nothing else).
deb=$(printf '%s\n' "$debs" | grep '/nicnuma_[^/]*\.deb$')
dpkg-deb -e "$deb" "$tmp/ctl" || err "dpkg-deb -e $deb"
grep -Eq 'deb-systemd-invoke +("?\$_dh_action|start|restart|enable)' "$tmp/ctl/postinst" &&
	err "the postinst starts a unit: $(grep -E 'deb-systemd-invoke' "$tmp/ctl/postinst" | tr '\n' ' ')"
# the OCI hook's hooks.d entries where podman and CRI-O look by default,
# as in contrib/oci, naming the packaged binary (docs/oci-hook.md)
for h in 50-nicnuma-claim.json 50-nicnuma-crio.json; do
	f=$tmp/nicnuma/usr/share/containers/oci/hooks.d/$h
	cmp -s "$f" "$top/contrib/oci/$h" || err "usr/share/containers/oci/hooks.d/$h is not contrib/oci/$h"
	python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["hook"]["path"] != "/usr/sbin/nicnuma")' "$f" ||
		err "$h does not run /usr/sbin/nicnuma"
done

# dpkg -i / purge in a private mount namespace (install_ns.sh): overlays over
# /etc, /usr and /var and a tmpfs /run, so it runs on a host with nicnuma's
# state or nicnuma installed too, and the host is as found after it (checked).
host_state() {
	local f
	dpkg-query -W -f='${Status} ${Version}\n' nicnuma 2>/dev/null
	for f in /etc/nicnuma /var/lib/nicnuma /usr/sbin/nicnuma /usr/share/containers/oci/hooks.d; do
		stat -c '%n %F %a %U' "$f" 2>&1
	done
	ls /usr/share/containers/oci/hooks.d 2>&1
}
if [ "$(id -u)" != 0 ]; then
	echo "note: not root: dpkg -i part skipped" >&2
elif ! command -v unshare >/dev/null; then
	echo "note: no unshare: dpkg -i part skipped" >&2
else
	deb=$(printf '%s\n' "$debs" | grep '/nicnuma_[^/]*\.deb$')
	before=$(host_state)
	unshare -m --propagation private "$here/install_ns.sh" "$deb" >"$tmp/ns.log" 2>&1
	rc=$?
	cat "$tmp/ns.log" >&2
	case $rc in
	0) echo "ok: dpkg -i, the installed state and dpkg --purge (private mount namespace)" ;;
	77) echo "note: dpkg -i part skipped: no private mount namespace here ($(tail -1 "$tmp/ns.log"))" >&2 ;;
	*) err "dpkg -i / --purge in a private mount namespace (above)" ;;
	esac
	after=$(host_state)
	[ "$before" = "$after" ] || err "the host changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]')"
fi
[ "$fail" = 0 ] && echo "ok: packages build, lintian clean, contents and modes as expected"
exit "$fail"
