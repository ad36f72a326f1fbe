# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for nicnuma: commands, each command's long options (the
# table below; tests/doc/completion.sh checks it against every --help), and
# the values the host has: NIC names, node ids, hugepage sizes, snapshots.
# Values come from --root DIR (or $NICNUMA_ROOT) when given, like the command.
# COMPREPLY=($(compgen ...)) is the completion idiom: the words split are NIC
# names, node ids and option names, which hold no blanks.
# shellcheck disable=SC2207,SC2046

_nicnuma_opts() {
	case $1 in
	topo) echo --help --no-cpus ;;
	nics) echo --brief --help ;;
	plan) echo --boot-args --busy-poll --channels --cpus --dpdk-ports --force-port --gro-flush-timeout --help --hugepages \
		--irq-suspend-timeout --irqbalance --isolate --napi-defer-hard-irqs --napi-threaded --nics --no-xps --noiommu \
		--policy --profile --reserve --rps --rss ;;
	apply) echo --boot-args --busy-poll --channels --coexist --cpus --dpdk-ports --dry-run --force-port \
		--gro-flush-timeout --help --hugepages --irq-suspend-timeout --irqbalance --isolate --keep-going --napi-defer-hard-irqs --napi-threaded \
		--nics --no-xps --noiommu --plan --policy --profile --reserve --rps --rss --state-dir --verify \
		--verify-better --verify-cmd --verify-margin --verify-runs --verify-strict ;;
	check) echo --boot-args --busy-poll --channels --count --cpus --dpdk --dpdk-ports --file-prefix --fresh \
		--force-port --gro-flush-timeout --help --hugepages --interval --irq-suspend-timeout --irqbalance --isolate --min-memory --napi-defer-hard-irqs \
		--napi-threaded --nics --no-xps --noiommu --pid --plan --policy --profile --reserve --rps --rss --socket \
		--threshold --timeout --traffic --vdev-node ;;
	rollback) echo --dry-run --help --list --state-dir ;;
	script) echo --busy-poll --channels --cpus --gro-flush-timeout --help --hugepages \
		--irq-suspend-timeout --irqbalance --napi-defer-hard-irqs --napi-threaded --nics --no-xps --output \
		--plan --policy --profile --reserve --restore-dir --rps ;;
	hugepages) echo --all --count --dry-run --help --mem --mount --nodes --partial --size --state-dir ;;
	bench) echo --duration --fwd --help --in-memory --pci --rate --repeat --report --size \
		--state-dir ;;
	layout) echo --channels --cpus --dpdk --dry-run --exec --force --help --hugepages \
		--include-irq-cores --irqbalance --nics --no-xps --nodes --numactl --output --plan --policy \
		--reserve --service ;;
	observe) echo --count --dpdk --duration --file-prefix --help --interval --max-remote --plain \
		--queue-stats ;;
	metrics) echo --channels --cpus --help --hugepages --irqbalance --nics --no-xps --output --plan \
		--policy --reserve --traffic ;;
	report) echo --channels --cpus --help --hugepages --irqbalance --nics --no-xps --output --plan \
		--policy --reserve --svg --title --traffic ;;
	enable) echo --busy-poll --channels --coexist --cpus --dpdk-ports --dry-run --force-port --gro-flush-timeout \
		--help --hugepages --interval --irq-suspend-timeout --irqbalance --napi-defer-hard-irqs \
		--napi-threaded --nics --no-start --no-xps --noiommu --policy --profile --reserve --rps --settle \
		--state-dir ;;
	disable) echo --help --keep-config --state-dir ;;
	status) echo --help --state-dir ;;
	claim) echo --coexist --cpus --dry-run --help --name --pid --reason --sched --state-dir ;;
	release) echo --coexist --dry-run --help --name --sched --state-dir ;;
	claims) echo --prune --help ;;
	hook) echo --deadline-ms --dry-run --help --stage --state-dir ;;
	watch) echo --cgroup-watches --coexist --config --count --duration --events --exec --help --interval --once \
		--print-unit --sched --settle --state-dir ;;
	esac
}

_nicnuma_commands="topo nics plan apply check rollback script hugepages bench layout observe
metrics report enable disable status watch claim release claims hook"

# Page sizes as nicnuma takes them: hugepages-2048kB -> 2M, -1048576kB -> 1G.
_nicnuma_sizes() {
	local d kb
	for d in "$1"/sys/kernel/mm/hugepages/hugepages-*kB; do
		[ -d "$d" ] || continue
		kb=${d##*hugepages-}; kb=${kb%kB}
		if (( kb % 1048576 == 0 )); then echo "$((kb / 1048576))G"
		elif (( kb % 1024 == 0 )); then echo "$((kb / 1024))M"
		else echo "${kb}K"; fi
	done
}

_nicnuma_nodes() {
	local d
	for d in "$1"/sys/devices/system/node/node[0-9]*; do
		[ -d "$d" ] && echo "${d##*node}"
	done
}

_nicnuma_nics() {
	local d
	for d in "$1"/sys/class/net/*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}

# Completes the last element of a comma list (eth0,eth<TAB>).
_nicnuma_list() {
	local cur=$1; shift
	local head="" last=$cur
	if [[ $cur == *,* ]]; then head=${cur%,*},; last=${cur##*,}; fi
	local IFS=$'\n'
	COMPREPLY=($(compgen -P "$head" -W "$*" -- "$last"))
}

_nicnuma() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=""
	local root=${NICNUMA_ROOT:-} cmd="" sub="" i w
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	# the command: the first word that is not a global option or its value
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--root) root=${COMP_WORDS[i + 1]:-}; ((i++)) ;;
		--root=*) root=${w#--root=} ;;
		-*) ;;
		*) if [ -z "$cmd" ]; then cmd=$w; elif [ -z "$sub" ]; then sub=$w; fi ;;
		esac
	done
	root=${root%/}
	local state=${NICNUMA_STATE_DIR:-/var/lib/nicnuma}

	case $prev in
	--root | --state-dir | --restore-dir | --mount | --report)
		COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--output | -o)	# layout writes a directory of units, the others one file
		if [ "$cmd" = layout ]; then COMPREPLY=($(compgen -d -- "$cur"))
		else COMPREPLY=($(compgen -f -- "$cur")); fi
		return ;;
	--plan | --config | --fwd | --socket)
		COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--nics) _nicnuma_list "$cur" $(_nicnuma_nics "$root"); return ;;
	--nodes)	# layout: which nodes get instances; hugepages: node ids or all
		if [ "$cmd" = layout ]; then _nicnuma_list "$cur" with-nics all $(_nicnuma_nodes "$root")
		else _nicnuma_list "$cur" all $(_nicnuma_nodes "$root"); fi
		return ;;
	--size) COMPREPLY=($(compgen -W "$(_nicnuma_sizes "$root")" -- "$cur")); return ;;
	--hugepages) COMPREPLY=($(compgen -S : -W "$(_nicnuma_sizes "$root")" -- "$cur"))
		compopt -o nospace 2>/dev/null; return ;;
	--policy) COMPREPLY=($(compgen -W "local spread remote" -- "$cur")); return ;;
	--queue-stats) COMPREPLY=($(compgen -W "auto ethtool none" -- "$cur")); return ;;
	--stage) COMPREPLY=($(compgen -W "prestart createRuntime createContainer startContainer poststart poststop" \
		-- "$cur")); return ;;
	--rss) COMPREPLY=($(compgen -W "local local:cpu none" -- "$cur")); return ;;
	--rps) COMPREPLY=($(compgen -W "auto off" -- "$cur")); return ;;
	--napi-threaded) COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
	--profile)	# list: plan only (the profiles' tables)
		if [ "$cmd" = plan ]; then COMPREPLY=($(compgen -W "throughput latency dpdk none list" -- "$cur"))
		else COMPREPLY=($(compgen -W "throughput latency dpdk none" -- "$cur")); fi
		return ;;
	--verify-better) COMPREPLY=($(compgen -W "higher lower" -- "$cur")); return ;;
	--irqbalance) COMPREPLY=($(compgen -W "stop ban ignore" -- "$cur")); return ;;
	--cpus | --reserve | --pid | --count | --threshold | --min-memory | --mem | \
	--duration | --repeat | --rate | --pci | --service | --exec | --interval | --settle | \
	--file-prefix | --vdev-node | --max-remote | --title | --traffic | --napi-defer-hard-irqs | \
	--gro-flush-timeout | --irq-suspend-timeout | --name | --reason | --deadline-ms)
		return ;;
	--timeout)	# check --dpdk: seconds for the whole exchange, 10 by default
		if [ "$cmd" = check ]; then COMPREPLY=($(compgen -W "10" -- "$cur")); fi
		return ;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--root --json --verbose --help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_nicnuma_commands" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_nicnuma_opts "$cmd") --json --root" -- "$cur"))
		return
	fi
	case $cmd in
	hugepages) [ -z "$sub" ] && COMPREPLY=($(compgen -W "show reserve release" -- "$cur")) ;;
	bench) [ -z "$sub" ] && COMPREPLY=($(compgen -W "mismatch" -- "$cur")) ;;
	release)
		# claim names: the records root can read (0700 directory)
		local f names=()
		for f in "$root"/run/nicnuma/claims/*.json; do [ -f "$f" ] && { f=${f##*/}; names+=("${f%.json}"); }; done
		COMPREPLY=($(compgen -W "${names[*]}" -- "$cur")) ;;
	nics | observe) COMPREPLY=($(compgen -W "$(_nicnuma_nics "$root")" -- "$cur")) ;;
	rollback)
		# snapshots by file name in the state directory (root-only: 0700)
		local f names=()
		for f in "$root$state"/*.json; do [ -f "$f" ] && names+=("${f##*/}"); done
		COMPREPLY=($(compgen -W "${names[*]}" -- "$cur")) ;;
	esac
}
complete -F _nicnuma nicnuma
