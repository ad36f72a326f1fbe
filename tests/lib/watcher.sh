# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/watcher.sh - sourced by live tests that run `nicnuma watch`.

# nn_forget_watcher CONF: what a test's watcher of config CONF leaves in
# /run/nicnuma when it is killed or ran --once (watch.json naming CONF, its
# lock, an empty claims directory) goes, so the host is as found; another
# watcher's is left alone.
nn_forget_watcher() {
	local f=/run/nicnuma/watch.json
	# json-c's key separator, with or without the space of its spaced form
	grep -qsF "\"config\":\"$1\"" "$f" || grep -qsF "\"config\": \"$1\"" "$f" || return 0
	rm -f /run/nicnuma/watch.json /run/nicnuma/watch.lock
	rmdir /run/nicnuma/claims /run/nicnuma 2>/dev/null
	return 0
}
