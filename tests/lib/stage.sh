# shellcheck shell=bash
# tests/lib/stage.sh - sourced by tests that run `enable` live: a copy of the
# binary where enable accepts it. enable rightly refuses a unit whose
# ExecStart= binary sits below a directory someone other than root could
# write (nn_trusted_file): a checkout under /tmp or in a group-writable home.
# Such tests run a staged copy instead, never failing for the checkout's path.

# nn_root_alone PATH: PATH and every directory above it are owned by root and
# writable by no group or other (each lstat'ed: a symlink is judged itself).
nn_root_alone() {
	local p=$1 uid mode
	while :; do
		read -r uid mode < <(stat -c '%u %a' -- "$p" 2>/dev/null) || return 1
		[ "$uid" = 0 ] && [ $((8#$mode & 8#022)) = 0 ] || return 1
		[ "$p" = / ] && return 0
		p=$(dirname -- "$p")
	done
}

# nn_stage_exe SRC DIR: copies SRC to DIR/nicnuma (root's, 0755) and prints
# that path; DIR must exist, be the caller's to remove and lie where every
# directory up to / is root's alone (a mktemp -d under /run). 1 when not.
nn_stage_exe() {
	nn_root_alone "$2" || { echo "$2 is not root's alone up to /" >&2; return 1; }
	install -m 0755 -o root -g root -- "$1" "$2/nicnuma" || return 1
	printf '%s\n' "$2/nicnuma"
}
