#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/package/install_ns.sh DEB - dpkg -i, the installed state, dpkg --purge,
# all inside a private mount namespace (package.sh runs it under unshare -m)
# so that nothing of the host changes and a host with nicnuma's state
# (/etc/nicnuma, /var/lib/nicnuma, /run/nicnuma, an installed nicnuma) still
# gets the install tested:
#  - /etc, /usr and /var are overlays whose upper layers live in a tmpfs that
#    goes with the namespace: dpkg's database, the installed files, the
#    host's own nicnuma state (hidden here, as on a fresh machine) included;
#  - /run is an empty tmpfs: no systemd is seen, so no maintainer script
#    talks to the host's systemd (the host's /run/nicnuma is not seen either).
# One line per failure (FAIL: ...); exit 0, 1 on a failure, 77 when the
# namespace cannot be built (the reason said).
set -uo pipefail
deb=${1:?usage: install_ns.sh DEB}
fail=0
err() { printf 'FAIL: %s\n' "$*"; fail=1; }

# The upper layers: a tmpfs on a directory outside /etc, /usr, /var and /run.
o=$(mktemp -d /tmp/nicnuma-pkg-ns.XXXXXX) || exit 77
mount -t tmpfs -o mode=0700 nicnuma-pkg "$o" || { echo "cannot mount a tmpfs: $o"; exit 77; }
cp -- "$deb" "$o/pkg.deb" || exit 77
for d in etc usr var; do
	mkdir "$o/$d.up" "$o/$d.work" &&
		mount -t overlay "nicnuma-pkg-$d" -o "lowerdir=/$d,upperdir=$o/$d.up,workdir=$o/$d.work" "/$d" ||
		{ echo "cannot mount an overlay over /$d"; exit 77; }
done
mount -t tmpfs -o mode=0755 nicnuma-pkg-run /run || { echo "cannot mount a tmpfs over /run"; exit 77; }
mkdir -p /run/lock

# A fresh machine: no nicnuma installed, no state left (in the overlays only).
if dpkg-query -W -f='${Status}' nicnuma 2>/dev/null | grep -q 'install ok installed'; then
	echo "note: nicnuma is installed on this host: purged first inside the namespace"
	dpkg --purge nicnuma >"$o/dpkg.log" 2>&1 || { cat "$o/dpkg.log"; err "purging the host's nicnuma in the namespace"; }
fi
rm -rf /etc/nicnuma /var/lib/nicnuma

if dpkg -i "$o/pkg.deb" >"$o/dpkg.log" 2>&1; then
	[ "$(stat -c %a:%U /var/lib/nicnuma)" = 700:root ] || err "installed /var/lib/nicnuma: $(stat -c %a:%U /var/lib/nicnuma)"
	[ "$(stat -c %a:%U /etc/nicnuma)" = 755:root ] || err "installed /etc/nicnuma: $(stat -c %a:%U /etc/nicnuma)"
	ls /etc/systemd/system/*.wants/nicnuma* 2>/dev/null && err "a nicnuma unit was enabled by the install"
	/usr/sbin/nicnuma --help >/dev/null || err "installed nicnuma --help"
	# where podman and CRI-O look by default (docs/oci-hook.md)
	for h in 50-nicnuma-claim.json 50-nicnuma-crio.json; do
		[ -f "/usr/share/containers/oci/hooks.d/$h" ] || err "installed: no /usr/share/containers/oci/hooks.d/$h"
	done
else
	cat "$o/dpkg.log"; err "dpkg -i $(basename "$deb")"
fi
dpkg --purge nicnuma >"$o/dpkg.log" 2>&1 || { cat "$o/dpkg.log"; err "dpkg --purge nicnuma"; }
for f in /usr/sbin/nicnuma /etc/nicnuma /var/lib/nicnuma /usr/share/containers/oci/hooks.d/50-nicnuma-claim.json; do
	[ -e "$f" ] && err "$f left after purge"
done
exit "$fail"
