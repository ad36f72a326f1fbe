#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/metrics/promtool.sh CACHE_DIR - prints the path of a promtool, or exits 77.
#
# promtool ships only in Debian's 'prometheus' package (19 MB, 96 MB
# installed), and installing that package enables and starts a Prometheus
# server on :9090 - not something a test should leave on a host being tuned.
# So: a promtool on PATH or in $NN_PROMTOOL if there is one, else the binary
# alone, taken out of the downloaded .deb (apt-get download, no install,
# no root) into CACHE_DIR once.
set -uo pipefail
cache=${1:?usage: promtool.sh CACHE_DIR}
if [ -n "${NN_PROMTOOL:-}" ] && [ -x "$NN_PROMTOOL" ]; then echo "$NN_PROMTOOL"; exit 0; fi
if command -v promtool >/dev/null; then command -v promtool; exit 0; fi
bin=$cache/usr/bin/promtool
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v apt-get >/dev/null || { echo "skip: no promtool and no apt-get to fetch it" >&2; exit 77; }
mkdir -p "$cache" || exit 2
tmp=$(mktemp -d "$cache/dl.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# apt-get download runs as _apt when it can: give it a directory it may write
chmod 0777 "$tmp"
download() { (cd "$tmp" && apt-get download -q prometheus >/dev/null 2>"$tmp/err"); }
# stale package lists: one update, as root
if ! download && ! { [ "$(id -u)" = 0 ] && apt-get update -q >/dev/null 2>&1 && download; }; then
	echo "skip: no promtool (apt-get download prometheus failed: $(tail -1 "$tmp/err"))" >&2
	exit 77
fi
dpkg-deb --fsys-tarfile "$tmp"/prometheus_*.deb | tar -x -C "$cache" ./usr/bin/promtool || exit 2
echo "$bin"
