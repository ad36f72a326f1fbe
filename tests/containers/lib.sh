# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/containers/lib.sh - shared by the OCI hook's live tests and scripts/bench claims
#
# A bundle needs no image registry: a rootfs of busybox-static and its
# links, config.json from `runc spec` edited with jq (no terminal, the
# command, the cpuset, annotations, the nicnuma hook at createRuntime and
# poststop). eth0's queue IRQs are found by nicnuma nics (never 40-43:
# another device's).

oci_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# nn_forget_watcher CONF: a killed watcher's /run/nicnuma files of this test's config
# shellcheck source=../lib/watcher.sh
. "$oci_top/tests/lib/watcher.sh"

# oci_packages: the runtimes and busybox-static from the project's list
# (scripts/lib.sh NN_CONTAINER_PACKAGES), installed when missing; 77 when
# that cannot be done.
oci_packages() {
	# shellcheck source=../../scripts/lib.sh
	. "$oci_top/scripts/lib.sh"
	(nn_install "${NN_CONTAINER_PACKAGES[@]}") || return 77
}

# oci_setup NICNUMA WHAT TOOL...: what the runtimes' tests (WHAT: runc,
# podman) start with, or exit 77 with the reason: root, 2 CPUs, the packages,
# TOOLs and busybox-static, no irqbalance, eth0's queue IRQs. Sets nn, irqs,
# orig (each IRQ's list now), cpu (1), run (a private directory under /run),
# state, watcher (none yet), fails.
oci_setup() {
	local what=$2 t i pid
	nn=$1
	shift 2
	[ "$(id -u)" -eq 0 ] || { echo "skip: needs root ($what, /proc/irq)"; exit 77; }
	[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to claim"; exit 77; }
	oci_packages || { echo "skip: cannot install ${NN_CONTAINER_PACKAGES[*]}"; exit 77; }
	for t in "$@"; do command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }; done
	[ -x /bin/busybox ] || { echo "skip: busybox-static is not installed"; exit 77; }
	if pid=$(pgrep -r R,S,D -x irqbalance); then
		echo "skip: irqbalance (pid ${pid//$'\n'/,}) runs: the watcher refuses to share eth0's IRQs with it"
		exit 77
	fi
	mapfile -t irqs < <(oci_nic_irqs "$nn")
	[ "${#irqs[@]}" -gt 0 ] || { echo "skip: eth0 has no queue IRQs here"; exit 77; }
	cpu=1
	run=$(mktemp -d "/run/nicnuma-$what-test.XXXXXX") || exit 2
	state=$run/state
	watcher=
	fails=0
	declare -gA orig=()
	for i in "${irqs[@]}"; do orig[$i]=$(cat "/proc/irq/$i/smp_affinity_list"); done
}

pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
# wait_for COND_FN MS: poll every 5 ms; 0 when it held, 1 after MS
wait_for() {
	local fn=$1 ms=$2 t=0
	while ! "$fn"; do
		[ "$t" -ge "$ms" ] && return 1
		sleep 0.005
		t=$((t + 5))
	done
}
# at_base: eth0's queue IRQs are where the watcher put them with no claim ($base)
at_base() { [ "$(oci_affinities "${irqs[@]}")" = "$base" ]; }

# oci_start_watcher: the watcher of $run/conf started in the background
# (its pid in watcher, its output in $run/watch.log).
oci_start_watcher() {
	"$nn" watch --config "$run/conf" --state-dir "$state" --settle 10 >>"$run/watch.log" 2>&1 &
	watcher=$!
}

# oci_first_watcher: the first watcher started and its first reconcile
# waited for, base set to its placement; exit 77 when another test's watcher
# holds the host (one per host: watch.lock), 1 when it did not start.
oci_first_watcher() {
	oci_start_watcher
	if oci_watcher_ready "$watcher"; then
		base=$(oci_affinities "${irqs[@]}")
		return 0
	fi
	grep -q "another nicnuma watch is running" "$run/watch.log" \
		&& { echo "skip: $(grep -m1 "another nicnuma watch" "$run/watch.log")"; exit 77; }
	echo "FAIL the watcher did not start: $(tail -n 5 "$run/watch.log")"
	exit 1
}

# oci_restore: after the runtime's own cleanup, the test's watcher killed
# first: every snapshot rolled back, the watcher's /run/nicnuma files gone,
# eth0's IRQs back on their lists and the private directory removed.
oci_restore() {
	local i
	oci_rollback "$nn" "$state"
	nn_forget_watcher "$run/conf"
	for i in "${irqs[@]}"; do echo "${orig[$i]}" >"/proc/irq/$i/smp_affinity_list" 2>/dev/null; done
	rm -rf "$run"
}

# oci_rootfs DIR: a busybox-static rootfs in DIR/rootfs.
oci_rootfs() {
	local d=$1/rootfs l
	mkdir -p "$d/bin" "$d/proc" "$d/sys" "$d/dev" "$d/tmp" || return 1
	cp /bin/busybox "$d/bin/busybox" || return 1
	for l in sh sleep true cat grep; do ln -sf busybox "$d/bin/$l"; done
}

# oci_bundle DIR NICNUMA STATE_DIR CPUS ANNOTATIONS_JSON [ARGS_JSON]: a
# bundle (rootfs shared through a symlink-free copy) whose config.json runs
# ARGS (default sleep 1000) on CPUS with the hook at createRuntime/poststop.
oci_bundle() {
	local dir=$1 nn=$2 state=$3 cpus=$4 ann=$5 args=${6:-'["sleep","1000"]'}
	mkdir -p "$dir" || return 1
	[ -d "$dir/rootfs" ] || oci_rootfs "$dir" || return 1
	(cd "$dir" && rm -f config.json && runc spec) || return 1
	jq --arg nn "$nn" --arg state "$state" --arg cpus "$cpus" --argjson ann "$ann" --argjson args "$args" '
		.process.terminal = false | .process.args = $args | .root.readonly = true
		| .linux.resources.cpu = {"cpus": $cpus}
		| .annotations = $ann
		| .hooks = {
			"createRuntime": [{"path": $nn, "args": ["nicnuma", "hook", "--stage", "createRuntime",
				"--state-dir", $state], "timeout": 5}],
			"poststop": [{"path": $nn, "args": ["nicnuma", "hook", "--stage", "poststop",
				"--state-dir", $state], "timeout": 5}]
		}' "$dir/config.json" >"$dir/config.json.new" && mv "$dir/config.json.new" "$dir/config.json"
}

# oci_nic_irqs NICNUMA: eth0's queue IRQs (role "queue" in nics --json), one
# a line: the IRQs a claim moves (its config IRQ is no queue's).
oci_nic_irqs() {
	"$1" nics --json 2>/dev/null \
		| jq -r '.nics[] | select(.name == "eth0") | .irqs[] | select(.role == "queue") | .irq'
}

# oci_irqs_on CPU IRQ...: the IRQs whose smp_affinity_list holds CPU.
oci_irqs_on() {
	local cpu=$1 irq; shift
	for irq in "$@"; do
		oci_list_has "$(cat "/proc/irq/$irq/smp_affinity_list")" "$cpu" && printf '%s ' "$irq"
	done
	return 0
}

# oci_affinities IRQ...: "IRQ=LIST ..." now.
oci_affinities() {
	local irq
	for irq in "$@"; do printf '%s=%s ' "$irq" "$(cat "/proc/irq/$irq/smp_affinity_list")"; done
}

# oci_napi_on CPU: NAPI kthreads (comm napi/eth0-*) allowed on CPU.
oci_napi_on() {
	local cpu=$1 p comm list
	for p in /proc/[0-9]*; do
		comm=$(cat "$p/comm" 2>/dev/null) || continue
		case $comm in napi/eth0-*) ;; *) continue ;; esac
		list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$p/status" 2>/dev/null)
		oci_list_has "$list" "$cpu" && printf '%s ' "${p#/proc/}"
	done
}

# oci_list_has LIST CPU: whether kernel cpulist LIST holds CPU (pure bash:
# it runs a few times per container start).
oci_list_has() {
	local part a b IFS=,
	for part in $1; do
		case $part in
		*-*) a=${part%-*} b=${part#*-}; [ "$2" -ge "$a" ] && [ "$2" -le "$b" ] && return 0 ;;
		"$2") return 0 ;;
		esac
	done
	return 1
}

# oci_conf NICNUMA: the watcher's desired state for eth0 (by its PCI address).
oci_conf() {
	local pci
	pci=$("$1" nics --json 2>/dev/null | jq -r '.nics[] | select(.name == "eth0") | .pci // empty')
	[ -n "$pci" ] || return 1
	printf '[nicnuma]\nnic = %s eth0\npolicy = local\nirqbalance = leave\ninterval = 1\n' "$pci"
}

# oci_rollback NICNUMA STATE_DIR: every snapshot the watchers of a test took,
# newest first (each rollback marks one; the next walks back further).
oci_rollback() {
	local _
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		"$1" rollback --state-dir "$2" >/dev/null 2>&1 || break
	done
}


# oci_watcher_ready PID: wait (up to 10 s) until watcher PID has done its
# first reconcile (its /run/nicnuma/watch.json names it and a last action).
oci_watcher_ready() {
	local _
	for _ in $(seq 1 200); do
		jq -e --argjson p "$1" '.pid == $p and .last_action != null' /run/nicnuma/watch.json >/dev/null 2>&1 \
			&& return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
