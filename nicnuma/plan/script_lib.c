// SPDX-License-Identifier: GPL-2.0-or-later
/* script_lib.c - the POSIX sh that every generated script carries
 *
 * Kept as text here (not generated at build time) so the shell is reviewed
 * like any other source. The generated script (script.c) adds only data:
 * the host checks and the values, every name single-quoted. Tests run
 * shellcheck on whole generated scripts.
 */
#include "nicnuma/plan/script_text.h"

/* Mask comparison by value, shared by the script and its restore script. */
/* get PATH: CUR = the file's first line; the script and its restore script
 * both read values with it. */
#define SH_GET \
	"# A sysctl answers only a read at offset 0, and read(1) takes a byte at a time.\n" \
	"get() {\n" \
	"	CUR=\n" \
	"	case $1 in\n" \
	"	*/proc/sys/*) CUR=$(cat \"$1\" 2>/dev/null) && [ -n \"$CUR\" ] ;;\n" \
	"	*) IFS= read -r CUR <\"$1\" 2>/dev/null || [ -n \"$CUR\" ] ;;\n" \
	"	esac\n" \
	"}\n"

#define SH_NORM_SAME \
	"norm() {\n" \
	"	NORM=\n" \
	"	case $1 in *[ABCDEF]*) set -- \"$(printf '%s' \"$1\" | tr 'ABCDEF' 'abcdef')\" ;; esac\n" \
	"	rest=$1\n" \
	"	while :; do\n" \
	"		case $rest in\n" \
	"		*,*) NORM=$NORM${rest%%,*}; rest=${rest#*,} ;;\n" \
	"		*) NORM=$NORM$rest; break ;;\n" \
	"		esac\n" \
	"	done\n" \
	"	while :; do\n" \
	"		case $NORM in 0?*) NORM=${NORM#0} ;; *) break ;; esac\n" \
	"	done\n" \
	"	[ -n \"$NORM\" ] || NORM=0\n" \
	"}\n" \
	"same() {\n" \
	"	if [ \"$1\" = mask ]; then\n" \
	"		norm \"$2\"\n" \
	"		a=$NORM\n" \
	"		norm \"$3\"\n" \
	"		[ \"$a\" = \"$NORM\" ]\n" \
	"	elif [ \"$1\" = atleast ]; then\n" \
	"		[ \"$2\" -ge \"$3\" ] 2>/dev/null\n" \
	"	else\n" \
	"		[ \"$2\" = \"$3\" ]\n" \
	"	fi\n" \
	"}\n"

/* Which irqbalance is the system's, and what of its command line may go back
 * to it: the rules of irq/irqbalance_id.c, shared by the script and its
 * restore script. A process name proves nothing (anyone can name a program
 * irqbalance): under systemd it is the unit's MainPID, otherwise a uid-0
 * process running a root-owned binary in a system directory. */
#define SH_IRQB_ID \
	"# q STRING: STRING single-quoted for sh ('\\'' for each quote); sed only\n" \
	"# when there is a quote, so the common case forks nothing.\n" \
	"q() {\n" \
	"	case $1 in\n" \
	"	*\\'*) printf \"'%s'\" \"$(printf '%s' \"$1\" | sed \"s/'/'\\\\\\\\''/g\")\" ;;\n" \
	"	*) printf \"'%s'\" \"$1\" ;;\n" \
	"	esac\n" \
	"}\n" \
	"systemd_up() { [ \"$(cat /proc/1/comm 2>/dev/null)\" = systemd ] && command -v systemctl >/dev/null 2>&1; }\n" \
	"# trusted FILE: FILE and every directory above it are root's and writable\n" \
	"# by no one else (ls -ldn: mode, links, uid), none of them a symlink.\n" \
	"trusted() {\n" \
	"	case $1 in /*/*) ;; *) return 1 ;; esac\n" \
	"	case $1 in *//* | */./* | */../* | */. | */.. | */) return 1 ;; esac\n" \
	"	t=$1 k=-\n" \
	"	while :; do\n" \
	"		# shellcheck disable=SC2046,SC2012 # only ls -ldn's first words are used\n" \
	"		set -- $(ls -ldn -- \"${t:-/}\" 2>/dev/null)\n" \
	"		case ${1-} in \"$k\"????[!w]??[!w]*) ;; *) return 1 ;; esac\n" \
	"		[ \"${3-}\" = 0 ] || return 1\n" \
	"		[ -n \"$t\" ] || return 0\n" \
	"		t=${t%/*} k=d\n" \
	"	done\n" \
	"}\n" \
	"IRQB_SYSEXES='/usr/sbin/irqbalance /usr/bin/irqbalance /sbin/irqbalance /bin/irqbalance /usr/local/sbin/irqbalance'\n" \
	"# irqb_exe: IRQB_EXE = the system's irqbalance binary; fails when none.\n" \
	"irqb_exe() {\n" \
	"	for IRQB_EXE in $IRQB_SYSEXES; do\n" \
	"		trusted \"$IRQB_EXE\" && return 0\n" \
	"	done\n" \
	"	IRQB_EXE=\n" \
	"	return 1\n" \
	"}\n" \
	"# irqb_pids [report]: the system's irqbalance pids; with report, every\n" \
	"# other process running a program called irqbalance (its executable's\n" \
	"# name; its comm where that link cannot be read) is named on stderr and\n" \
	"# left alone (nicnuma's own rule, irq/irqbalance_id.c).\n" \
	"irqb_pids() {\n" \
	"	if systemd_up; then\n" \
	"		m=$(systemctl show -p MainPID --value irqbalance.service 2>/dev/null)\n" \
	"		case $m in '' | 0 | *[!0-9]*) ;; *) printf '%s\\n' \"$m\" ;; esac\n" \
	"		return 0\n" \
	"	fi\n" \
	"	for d in /proc/[0-9]*; do\n" \
	"		e=$(readlink \"$d/exe\" 2>/dev/null)\n" \
	"		e=${e% (deleted)}\n" \
	"		if [ -n \"$e\" ]; then\n" \
	"			[ \"${e##*/}\" = irqbalance ] || continue\n" \
	"		else\n" \
	"			[ \"$(cat \"$d/comm\" 2>/dev/null)\" = irqbalance ] || continue\n" \
	"		fi\n" \
	"		st=$(cat \"$d/stat\" 2>/dev/null) || continue\n" \
	"		case ${st##*\\)} in ' Z'* | ' X'* | '') continue ;; esac\n" \
	"		u=$(awk '/^Uid:/ { print $2 \" \" $3 }' \"$d/status\" 2>/dev/null)\n" \
	"		case \" $IRQB_SYSEXES \" in *\" $e \"*) ;; *) u=\"$u not-system\" ;; esac\n" \
	"		if [ \"$u\" = '0 0' ] && trusted \"$e\"; then\n" \
	"			printf '%s\\n' \"${d##*/}\"\n" \
	"		elif [ \"${1-}\" = report ]; then\n" \
	"			printf 'nicnuma-script: a process named irqbalance (pid %s, uid %s, exe %s) is not the system irqbalance: left alone\\n' \\\n" \
	"				\"${d##*/}\" \"${u%% *}\" \"$(printf '%s' \"$e\" | tr -c '[:graph:]' '?')\" >&2\n" \
	"		fi\n" \
	"	done\n" \
	"}\n" \
	"irqb_drop() { printf 'nicnuma-script: irqbalance argument dropped: %s\\n' \"$(printf '%s' \"$*\" | tr -c '[:graph:]' '?')\" >&2; }\n" \
	"# irqb_args ARG...: irqbalance's documented options among ARG (irqbalance(1)),\n" \
	"# each one quoted word --long[=VALUE]; anything else is dropped, said on stderr.\n" \
	"irqb_args() {\n" \
	"	while [ $# -gt 0 ]; do\n" \
	"		a=$1\n" \
	"		shift\n" \
	"		case $a in\n" \
	"		-o | --oneshot) printf '%s ' --oneshot ;;\n" \
	"		-d | --debug) printf '%s ' --debug ;;\n" \
	"		-f | --foreground) printf '%s ' --foreground ;;\n" \
	"		-j | --journal) printf '%s ' --journal ;;\n" \
	"		-[pimcelst] | --powerthresh | --banirq | --banmod | --deepestcache | --migrateval | --policyscript | --pid | --interval)\n" \
	"			[ $# -gt 0 ] || break\n" \
	"			irqb_opt \"$a\" \"$1\"\n" \
	"			shift\n" \
	"			;;\n" \
	"		--*=*) irqb_opt \"${a%%=*}\" \"${a#*=}\" ;;\n" \
	"		-[pimcelst]?*) irqb_opt \"${a%\"${a#??}\"}\" \"${a#??}\" ;;\n" \
	"		*) irqb_drop \"$a\" ;;\n" \
	"		esac\n" \
	"	done\n" \
	"}\n" \
	"irqb_opt() {\n" \
	"	case $1 in\n" \
	"	-p | --powerthresh) o=powerthresh c=power ;;\n" \
	"	-i | --banirq) o=banirq c=num ;;\n" \
	"	-m | --banmod) o=banmod c=word ;;\n" \
	"	-c | --deepestcache) o=deepestcache c=num ;;\n" \
	"	-e | --migrateval) o=migrateval c=float ;;\n" \
	"	-t | --interval) o=interval c=num ;;\n" \
	"	-s | --pid) o=pid c=pidfile ;;\n" \
	"	-l | --policyscript) o=policyscript c=file ;;\n" \
	"	*) irqb_drop \"$1=$2\"; return 0 ;;\n" \
	"	esac\n" \
	"	case $c in\n" \
	"	num) case $2 in '' | *[!0-9]*) c=bad ;; esac ;;\n" \
	"	float) case $2 in '' | *[!0-9.]*) c=bad ;; esac ;;\n" \
	"	power) case $2 in off) ;; '' | *[!0-9]*) c=bad ;; esac ;;\n" \
	"	word) case $2 in '' | *[!A-Za-z0-9_-]*) c=bad ;; esac ;;\n" \
	"	pidfile) case $2 in *..* | *[!A-Za-z0-9_./-]*) c=bad ;; /run/* | /var/run/*) ;; *) c=bad ;; esac ;;\n" \
	"	file) trusted \"$2\" || c=bad ;;\n" \
	"	esac\n" \
	"	if [ \"$c\" = bad ]; then\n" \
	"		irqb_drop \"--$o=$2\"\n" \
	"	else\n" \
	"		q \"--$o=$2\"\n" \
	"		printf ' '\n" \
	"	fi\n" \
	"}\n" \
	"# irqb_start ARG...: the system's binary, found again, with the filtered\n" \
	"# ARG, detached, and an environment of PATH only.\n" \
	"irqb_start() {\n" \
	"	if ! irqb_exe; then\n" \
	"		printf 'nicnuma-script: no root-owned irqbalance in a system directory to start\\n' >&2\n" \
	"		return 1\n" \
	"	fi\n" \
	"	eval \"set -- $(irqb_args \"$@\")\"\n" \
	"	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \"$IRQB_EXE\" \"$@\" </dev/null >/dev/null 2>&1 &\n" \
	"	printf 'started irqbalance: %s %s\\n' \"$IRQB_EXE\" \"$*\"\n" \
	"}\n"

/* Helpers of the script itself: checks, snapshot, apply with readback, irqbalance. */
/* A threaded NAPI's kernel thread: the plan's pid (the one the kernel's
 * netdev napi-get named for that device's NAPI when it was planned), taken
 * only while /proc/PID is still a kernel thread (PF_KTHREAD, 0x00200000, in
 * /proc/PID/stat's flags, field 9; no exe link) whose comm is exactly the
 * full "napi/IF-ID" (a kernel thread's comm is not cut at 15 characters).
 * A shell cannot ask napi-get, so the thread is never looked up by name: a
 * same-named device's thread in another network namespace (a user's veth in
 * their own user+net namespace) is never taken, and a pid that is no longer
 * that thread is left alone ("plan again"). Checking /proc/PID/ns/net would
 * prove nothing: every kernel thread is in the initial network namespace.
 * What remains is a kthread of that very name at that very pid, which needs
 * the device's NAPI deleted and its id handed out again (NAPI ids are unique
 * among live NAPIs) and the pid recycled: `nicnuma apply` asks the kernel
 * and closes that too. The rule of irq/napi_thread.h, shared by the script
 * and its restore script. */
#define SH_NAPI \
	"# napi_pid PID COMM: PID is the kernel thread whose comm is exactly COMM;\n" \
	"# 1 when it is gone, 2 when /proc/PID is another task. PID is the plan's:\n" \
	"# the thread the kernel's napi-get named for the device when it was\n" \
	"# planned. A thread is never looked up by its name: sh cannot ask napi-get,\n" \
	"# and a device of the same name in another network namespace has a kernel\n" \
	"# thread named like it. A thread that went (threaded NAPI toggled, the\n" \
	"# device reset) is left alone: plan again, or use nicnuma apply.\n" \
	"napi_pid() {\n" \
	"	PID=\n" \
	"	case $1 in '' | *[!0-9]*) return 2 ;; esac\n" \
	"	[ -d \"/proc/$1\" ] || return 1\n" \
	"	IFS= read -r c <\"/proc/$1/comm\" 2>/dev/null || return 1\n" \
	"	[ \"$c\" = \"$2\" ] || return 2\n" \
	"	readlink \"/proc/$1/exe\" >/dev/null 2>&1 && return 2\n" \
	"	IFS= read -r st <\"/proc/$1/stat\" 2>/dev/null || return 1\n" \
	"	fl=$(printf '%s\\n' \"${st##*) }\" | cut -d ' ' -f 7)\n" \
	"	case $fl in '' | *[!0-9]*) return 2 ;; esac\n" \
	"	[ $((fl & 0x00200000)) -ne 0 ] || return 2\n" \
	"	PID=$1\n" \
	"}\n" \
	"# napi_cur PID: its allowed CPUs as taskset lists them; '' when unreadable.\n" \
	"napi_cur() {\n" \
	"	taskset -pc \"$1\" 2>/dev/null | sed -n 's/^.*: *//p'\n" \
	"}\n" \
	"# expand LIST: EXP = ' 0 1 2 5' for '0-2,5' (taskset writes 0,1 where\n" \
	"# the kernel writes 0-1); LIST holds digits, ',' and '-' only.\n" \
	"expand() {\n" \
	"	EXP=\n" \
	"	rest=$1,\n" \
	"	while [ -n \"$rest\" ]; do\n" \
	"		r=${rest%%,*}\n" \
	"		rest=${rest#*,}\n" \
	"		case $r in\n" \
	"		'') ;;\n" \
	"		*-*)\n" \
	"			i=${r%-*}\n" \
	"			while [ \"$i\" -le \"${r#*-}\" ]; do\n" \
	"				EXP=\"$EXP $i\"\n" \
	"				i=$((i + 1))\n" \
	"			done\n" \
	"			;;\n" \
	"		*) EXP=\"$EXP $r\" ;;\n" \
	"		esac\n" \
	"	done\n" \
	"}\n" \
	"# same_cpus A B: the same CPU lists however written.\n" \
	"same_cpus() {\n" \
	"	case $1$2 in '' | *[!0-9,-]*) return 1 ;; esac\n" \
	"	expand \"$1\"\n" \
	"	ea=$EXP\n" \
	"	expand \"$2\"\n" \
	"	[ \"$ea\" = \"$EXP\" ]\n" \
	"}\n"

const char nn_script_lib[] =
	"say() { printf '%s\\n' \"$*\"; }\n"
	"warn() { printf 'nicnuma-script: %s\\n' \"$*\" >&2; }\n"
	"err() { warn \"$*\"; nfail=$((nfail + 1)); }\n"
	"bad_host() { warn \"refusing: $*\"; refuse=1; }\n"
	"\n"
	SH_IRQB_ID
	"\n"
	"# NORM = hex mask $1 by value: no commas, lower case, no leading zeros.\n"
	"# Builtins only: a host has thousands of these to compare.\n"
	SH_NORM_SAME
	"\n"
	"# get PATH: CUR = the file's first line (builtin read: no fork).\n"
	SH_GET
	"\n"
	"count_list() {\n"
	"	printf '%s\\n' \"$1\" | awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { if (split($i, r, \"-\") == 2) n += r[2] - r[1] + 1; else if ($i != \"\") n++ } print n }'\n"
	"}\n"
	"\n"
	"check_cpus() {\n"
	"	if ! get \"$ROOT/sys/devices/system/cpu/online\"; then\n"
	"		bad_host \"cannot read $ROOT/sys/devices/system/cpu/online\"\n"
	"		return\n"
	"	fi\n"
	"	on=$CUR\n"
	"	n=$(count_list \"$on\")\n"
	"	[ \"$n\" = \"$1\" ] || bad_host \"the plan is for $1 CPUs, this host has $n online ($on)\"\n"
	"}\n"
	"\n"
	"check_nodes() {\n"
	"	n=0\n"
	"	for d in \"$ROOT\"/sys/devices/system/node/node[0-9]*; do\n"
	"		[ -d \"$d\" ] && n=$((n + 1))\n"
	"	done\n"
	"	# A kernel without NUMA has one implicit node.\n"
	"	[ \"$n\" -gt 0 ] || n=1\n"
	"	[ \"$n\" = \"$1\" ] || bad_host \"the plan is for $1 NUMA nodes, this host has $n\"\n"
	"}\n"
	"\n"
	"# pci_dir IFNAME: PCIDIR = the PCI device directory above the netdev, \"\" if none.\n"
	"pci_dir() {\n"
	"	[ \"${PCINIC-}\" = \"$1\" ] && [ \"${PCINIC+set}\" = set ] && return 0\n"
	"	PCINIC=$1\n"
	"	PCIDIR=\n"
	"	sysdir=$(cd -P \"$ROOT/sys\" 2>/dev/null && pwd -P) || return 0\n"
	"	d=$(cd -P \"$ROOT/sys/class/net/$1/device\" 2>/dev/null && pwd -P) || return 0\n"
	"	while :; do\n"
	"		case $d in\n"
	"		\"$sysdir\"/devices/*) ;;\n"
	"		*) return 0 ;;\n"
	"		esac\n"
	"		case ${d##*/} in\n"
	"		*:*:*.*) PCIDIR=$d; return 0 ;;\n"
	"		esac\n"
	"		d=${d%/*}\n"
	"	done\n"
	"}\n"
	"\n"
	"check_nic() {\n"
	"	if [ ! -e \"$ROOT/sys/class/net/$1\" ]; then\n"
	"		bad_host \"no network device $1\"\n"
	"		return\n"
	"	fi\n"
	"	[ -n \"$2\" ] || return 0\n"
	"	pci_dir \"$1\"\n"
	"	if [ \"${PCIDIR##*/}\" != \"$2\" ]; then\n"
	"		bad_host \"$1 is at ${PCIDIR:+PCI }${PCIDIR##*/}${PCIDIR:-no PCI address} here, the plan has $2\"\n"
	"		return\n"
	"	fi\n"
	"	get \"$PCIDIR/numa_node\" || CUR=-1\n"
	"	node=$CUR\n"
	"	case $node in '' | *[!0-9-]*) node=-1 ;; esac\n"
	"	[ \"$node\" = \"$3\" ] || bad_host \"$1 is on NUMA node $node here, the plan has node $3\"\n"
	"}\n"
	"\n"
	"check_irq() {\n"
	"	if [ ! -e \"$ROOT/proc/irq/$2/smp_affinity_list\" ]; then\n"
	"		bad_host \"IRQ $2 ($1) does not exist here\"\n"
	"		return\n"
	"	fi\n"
	"	pci_dir \"$1\"\n"
	"	[ -n \"$PCIDIR\" ] || return 0\n"
	"	if [ -d \"$PCIDIR/msi_irqs\" ]; then\n"
	"		[ -e \"$PCIDIR/msi_irqs/$2\" ] ||\n"
	"			bad_host \"IRQ $2 is not one of $1's MSI vectors here (driver reloaded or rebooted? plan again)\"\n"
	"	elif ! get \"$PCIDIR/irq\" || [ \"$CUR\" != \"$2\" ]; then\n"
	"		bad_host \"IRQ $2 is not $1's IRQ here (plan again)\"\n"
	"	fi\n"
	"}\n"
	"\n"
	"# snap LABEL PATH KIND VALUE: record the current value for the restore script.\n"
	"snap() {\n"
	"	if ! get \"$ROOT$2\"; then\n"
	"		err \"$1: cannot read $2\"\n"
	"		return\n"
	"	fi\n"
	"	cur=$CUR\n"
	"	case $cur in '' | *[!0-9a-fA-F,-]*)\n"
	"		err \"$1: unexpected value '$cur' in $2\"\n"
	"		return\n"
	"		;;\n"
	"	esac\n"
	"	same \"$3\" \"$cur\" \"$4\" && return\n"
	"	# A value kept when it is at least the plan's goes back exactly.\n"
	"	k=$3\n"
	"	[ \"$k\" != atleast ] || k=num\n"
	"	{ printf 'put '; q \"$2\"; printf \" %s '%s'\\n\" \"$k\" \"$cur\"; } >>\"$RTMP\" || err \"cannot write $RTMP\"\n"
	"	nchange=$((nchange + 1))\n"
	"}\n"
	"\n"
	"# apply LABEL PATH KIND VALUE: write, read back, report.\n"
	"apply() {\n"
	"	p=$ROOT$2\n"
	"	if ! get \"$p\"; then\n"
	"		err \"$1: cannot read $2\"\n"
	"		return\n"
	"	fi\n"
	"	cur=$CUR\n"
	"	if same \"$3\" \"$cur\" \"$4\"; then\n"
	"		nsame=$((nsame + 1))\n"
	"		return\n"
	"	fi\n"
	"	# A kernel-managed IRQ refuses even its current value (EIO, EPERM).\n"
	"	# (stderr is redirected first, so even a failed open says nothing.)\n"
	"	if [ \"$3\" = list ] && ! printf '%s\\n' \"$cur\" 2>/dev/null >\"$p\"; then\n"
	"		say \"  ~ $1: managed by the kernel, left alone ($cur)\"\n"
	"		nmanaged=$((nmanaged + 1))\n"
	"		return\n"
	"	fi\n"
	"	if ! printf '%s\\n' \"$4\" 2>\"$ETMP\" >\"$p\"; then\n"
	"		err \"$1: cannot write $4 to $2: $(tail -n 1 \"$ETMP\")\"\n"
	"		return\n"
	"	fi\n"
	"	get \"$p\"\n"
	"	got=$CUR\n"
	"	if same \"$3\" \"$got\" \"$4\"; then\n"
	"		say \"  + $1: $cur -> $4\"\n"
	"		nset=$((nset + 1))\n"
	"	else\n"
	"		err \"$1: wrote $4 to $2, it reads back '$got'\"\n"
	"	fi\n"
	"}\n"
	"\n"
	"chan_cur() {\n"
	"	ethtool -l \"$1\" 2>/dev/null | awk '/^Current hardware settings/ { c = 1 } c && /^Combined:/ { print $2; exit }'\n"
	"}\n"
	"\n"
	"chan_snap() {\n"
	"	if [ -n \"$ROOT\" ]; then\n"
	"		say \"ROOT is set: channels of $1 left alone\"\n"
	"		return\n"
	"	fi\n"
	"	if ! command -v ethtool >/dev/null 2>&1; then\n"
	"		err \"ethtool is needed to set the channels of $1\"\n"
	"		return\n"
	"	fi\n"
	"	cur=$(chan_cur \"$1\")\n"
	"	case $cur in '' | *[!0-9]*)\n"
	"		err \"cannot read the combined channels of $1\"\n"
	"		return\n"
	"		;;\n"
	"	esac\n"
	"	[ \"$cur\" = \"$2\" ] && return\n"
	"	{ printf 'chan '; q \"$1\"; printf ' %s\\n' \"$cur\"; } >>\"$RTMP\" || err \"cannot write $RTMP\"\n"
	"	nchange=$((nchange + 1))\n"
	"}\n"
	"\n"
	SH_NAPI
	"# napi_snap NIC ID PID COMM CPUS: the thread's CPUs into the restore script.\n"
	"napi_snap() {\n"
	"	if [ -n \"$ROOT\" ]; then\n"
	"		say \"ROOT is set: NAPI thread $4 left alone\"\n"
	"		return\n"
	"	fi\n"
	"	if ! command -v taskset >/dev/null 2>&1; then\n"
	"		err \"taskset is needed to place NAPI thread $4\"\n"
	"		return\n"
	"	fi\n"
	"	napi_pid \"$3\" \"$4\"\n"
	"	case $? in\n"
	"	0) ;;\n"
	"	1)\n"
	"		say \"NAPI thread $4 of $1 (pid $3) is gone (threaded NAPI off?): left alone; plan again\"\n"
	"		return\n"
	"		;;\n"
	"	*)\n"
	"		say \"pid $3 is not NAPI thread $4 of $1 any more: left alone; plan again\"\n"
	"		return\n"
	"		;;\n"
	"	esac\n"
	"	cur=$(napi_cur \"$PID\")\n"
	"	case $cur in '' | *[!0-9,-]*)\n"
	"		err \"cannot read the CPUs of NAPI thread $4\"\n"
	"		return\n"
	"		;;\n"
	"	esac\n"
	"	same_cpus \"$cur\" \"$5\" && return\n"
	"	{ printf 'napi %s ' \"$PID\"; q \"$4\"; printf ' %s\\n' \"$cur\"; } >>\"$RTMP\" || err \"cannot write $RTMP\"\n"
	"	nchange=$((nchange + 1))\n"
	"}\n"
	"\n"
	"napi_apply() {\n"
	"	[ -z \"$ROOT\" ] || return 0\n"
	"	napi_pid \"$3\" \"$4\" || return 0\n"
	"	cur=$(napi_cur \"$PID\")\n"
	"	same_cpus \"$cur\" \"$5\" && return\n"
	"	if taskset -pc \"$5\" \"$PID\" >/dev/null 2>\"$ETMP\" && same_cpus \"$(napi_cur \"$PID\")\" \"$5\"; then\n"
	"		say \"  + NAPI thread $4 (pid $PID): $cur -> $5\"\n"
	"		nset=$((nset + 1))\n"
	"	else\n"
	"		err \"NAPI thread $4: cannot place it on $5: $(tail -n 1 \"$ETMP\")\"\n"
	"	fi\n"
	"}\n"
	"\n"
	"# preview LABEL PATH KIND VALUE: what apply would do, nothing written.\n"
	"preview() {\n"
	"	if ! get \"$ROOT$2\"; then\n"
	"		err \"$1: cannot read $2\"\n"
	"		return\n"
	"	fi\n"
	"	if same \"$3\" \"$CUR\" \"$4\"; then\n"
	"		nsame=$((nsame + 1))\n"
	"		return\n"
	"	fi\n"
	"	say \"  ~ $1: $CUR -> $4 (would change)\"\n"
	"	nchange=$((nchange + 1))\n"
	"}\n"
	"\n"
	"chan_preview() {\n"
	"	if [ -n \"$ROOT\" ]; then\n"
	"		say \"ROOT is set: channels of $1 left alone\"\n"
	"		return\n"
	"	fi\n"
	"	cur=$(chan_cur \"$1\")\n"
	"	if [ \"$cur\" = \"$2\" ]; then\n"
	"		nsame=$((nsame + 1))\n"
	"		return\n"
	"	fi\n"
	"	say \"  ~ $1: ${cur:-?} -> $2 combined channels (would change)\"\n"
	"	nchange=$((nchange + 1))\n"
	"}\n"
	"\n"
	"napi_preview() {\n"
	"	[ -z \"$ROOT\" ] || return 0\n"
	"	napi_pid \"$3\" \"$4\" || return 0\n"
	"	cur=$(napi_cur \"$PID\")\n"
	"	if same_cpus \"$cur\" \"$5\"; then\n"
	"		nsame=$((nsame + 1))\n"
	"		return\n"
	"	fi\n"
	"	say \"  ~ NAPI thread $4 (pid $PID): $cur -> $5 (would change)\"\n"
	"	nchange=$((nchange + 1))\n"
	"}\n"
	"\n"
	"chan_apply() {\n"
	"	[ -z \"$ROOT\" ] || return 0\n"
	"	cur=$(chan_cur \"$1\")\n"
	"	[ \"$cur\" = \"$2\" ] && return\n"
	"	if ethtool -L \"$1\" combined \"$2\" 2>\"$ETMP\" && [ \"$(chan_cur \"$1\")\" = \"$2\" ]; then\n"
	"		say \"  + $1: $cur -> $2 combined channels\"\n"
	"		nset=$((nset + 1))\n"
	"	else\n"
	"		err \"$1: cannot set $2 combined channels: $(tail -n 1 \"$ETMP\")\"\n"
	"	fi\n"
	"}\n"
	"\n"
	"# eth_cur NIC C|G NAME: a coalescing value (ethtool -c) or current ring\n"
	"# size (ethtool -g) as ethtool prints it; '' when unreadable.\n"
	"eth_cur() {\n"
	"	if [ \"$2\" = G ]; then\n"
	"		ethtool -g \"$1\" 2>/dev/null | awk -v k=\"$3\" 'BEGIN { k = toupper(k) \":\" } /^Current hardware settings/ { c = 1 } c && $1 == k { print $2; exit }'\n"
	"	else\n"
	"		ethtool -c \"$1\" 2>/dev/null | awk -v k=\"$3\" 'k == \"adaptive-rx\" && /^Adaptive RX:/ { print $3; exit } k == \"adaptive-tx\" && /^Adaptive RX:/ { print $5; exit } $1 == k \":\" { print $2; exit }'\n"
	"	fi\n"
	"}\n"
	"\n"
	"# eth_read NIC C|G NAME VALUE: CUR = the current value; false (said) when\n"
	"# it cannot be had: ROOT set, no ethtool, or the driver does not say.\n"
	"eth_read() {\n"
	"	if [ -n \"$ROOT\" ]; then\n"
	"		say \"ROOT is set: $3 of $1 left alone\"\n"
	"		return 1\n"
	"	fi\n"
	"	if ! command -v ethtool >/dev/null 2>&1; then\n"
	"		say \"ethtool is not installed: $3 of $1 left alone (planned $4)\"\n"
	"		return 1\n"
	"	fi\n"
	"	CUR=$(eth_cur \"$1\" \"$2\" \"$3\")\n"
	"	case $CUR in on | off) ;; '' | *[!0-9]*)\n"
	"		say \"ethtool -$(printf '%s' \"$2\" | tr CG cg) shows no $3 for $1: left alone (planned $4)\"\n"
	"		return 1\n"
	"		;;\n"
	"	esac\n"
	"}\n"
	"\n"
	"# eth_snap NIC C|G NAME VALUE: the current value into the restore script.\n"
	"eth_snap() {\n"
	"	eth_read \"$@\" || return 0\n"
	"	[ \"$CUR\" = \"$4\" ] && return\n"
	"	{ printf 'eth '; q \"$1\"; printf ' %s %s %s\\n' \"$2\" \"$3\" \"$CUR\"; } >>\"$RTMP\" || err \"cannot write $RTMP\"\n"
	"	nchange=$((nchange + 1))\n"
	"}\n"
	"\n"
	"eth_preview() {\n"
	"	eth_read \"$@\" || return 0\n"
	"	if [ \"$CUR\" = \"$4\" ]; then\n"
	"		nsame=$((nsame + 1))\n"
	"		return\n"
	"	fi\n"
	"	say \"  ~ $1 $3: $CUR -> $4 (ethtool -$2, would change)\"\n"
	"	nchange=$((nchange + 1))\n"
	"}\n"
	"\n"
	"# eth_apply: quiet where eth_snap already said why a value is left alone.\n"
	"eth_apply() {\n"
	"	eth_read \"$@\" >/dev/null || return 0\n"
	"	cur=$CUR\n"
	"	if [ \"$cur\" = \"$4\" ]; then\n"
	"		nsame=$((nsame + 1))\n"
	"		return\n"
	"	fi\n"
	"	if ethtool \"-$2\" \"$1\" \"$3\" \"$4\" >/dev/null 2>\"$ETMP\" && [ \"$(eth_cur \"$1\" \"$2\" \"$3\")\" = \"$4\" ]; then\n"
	"		say \"  + $1 $3: $cur -> $4 (ethtool -$2)\"\n"
	"		nset=$((nset + 1))\n"
	"	else\n"
	"		err \"$1: cannot set $3 to $4 (ethtool -$2): $(tail -n 1 \"$ETMP\")\"\n"
	"	fi\n"
	"}\n"
	"\n"
	"# own_dir DIR: DIR is ours and writable by no one else, so a file made\n"
	"# there cannot be swapped by another user before it is renamed or run.\n"
	"own_dir() {\n"
	"	od=$1\n"
	"	# shellcheck disable=SC2046,SC2012 # only ls -ldn's first words are used\n"
	"	set -- $(ls -ldn -- \"$od\" 2>/dev/null)\n"
	"	case ${1-} in d????[!w]??[!w]*) ;; *)\n"
	"		warn \"$od is writable by group or others\"\n"
	"		return 1\n"
	"		;;\n"
	"	esac\n"
	"	[ \"${3-}\" = \"$(id -u)\" ] && return 0\n"
	"	warn \"$od belongs to uid ${3-?}, not to us\"\n"
	"	return 1\n"
	"}\n"
	"\n"
	"# The running daemons' options (irqbalance's own only), a line of quoted words each.\n"
	"# shellcheck disable=SC2120 # \"$@\" is set from the daemon's command line\n"
	"irqb_cmdlines() {\n"
	"	for pid in $IRQB_PIDS; do\n"
	"		line=$(tr '\\0' '\\n' <\"/proc/$pid/cmdline\" | while IFS= read -r a; do printf '%s ' \"$(q \"$a\")\"; done)\n"
	"		eval \"set -- $line\"\n"
	"		[ $# -eq 0 ] || shift\n"
	"		irqb_args \"$@\"\n"
	"		printf '\\n'\n"
	"	done\n"
	"}\n"
	"\n"
	"irqb_fenced() {\n"
	"	for pid in $IRQB_PIDS; do\n"
	"		cl=\" $(tr '\\0' ' ' <\"/proc/$pid/cmdline\") \"\n"
	"		for irq in $BANNED_IRQS; do\n"
	"			case $cl in *\" --banirq=$irq \"*) ;; *) return 1 ;; esac\n"
	"		done\n"
	"	done\n"
	"	return 0\n"
	"}\n"
	"\n"
	"irqb_snap() {\n"
	"	IRQB_PIDS=\n"
	"	[ \"$IRQBALANCE\" != none ] || return 0\n"
	"	if [ -n \"$ROOT\" ]; then\n"
	"		say \"ROOT is set: irqbalance left alone\"\n"
	"		return\n"
	"	fi\n"
	"	IRQB_PIDS=$(irqb_pids report)\n"
	"	[ -n \"$IRQB_PIDS\" ] || return 0\n"
	"	if [ \"$IRQBALANCE\" = ban ] && irqb_fenced; then\n"
	"		IRQB_PIDS=\n"
	"		return\n"
	"	fi\n"
	"	nchange=$((nchange + 1))\n"
	"	if systemd_up; then\n"
	"		if [ \"$IRQBALANCE\" = ban ]; then\n"
	"			say 'irqb_unban' >>\"$RTMP\"\n"
	"		elif [ \"$(systemctl is-enabled irqbalance.service 2>/dev/null)\" = enabled ]; then\n"
	"			say 'irqb_systemd enable --now' >>\"$RTMP\"\n"
	"		else\n"
	"			say 'irqb_systemd start' >>\"$RTMP\"\n"
	"		fi\n"
	"	else\n"
	"		irqb_cmdlines | while IFS= read -r line; do say \"irqb_restart $line\"; done >>\"$RTMP\"\n"
	"	fi\n"
	"}\n"
	"\n"
	"irqb_wait_gone() {\n"
	"	i=0\n"
	"	while [ -n \"$(irqb_pids)\" ] && [ \"$i\" -lt 50 ]; do\n"
	"		sleep 0.1 2>/dev/null || sleep 1\n"
	"		i=$((i + 1))\n"
	"	done\n"
	"	[ -z \"$(irqb_pids)\" ] || err \"irqbalance is still running\"\n"
	"}\n"
	"\n"
	"# shellcheck disable=SC2120 # \"$@\" below is the daemon's own command line\n"
	"irqb_do() {\n"
	"	[ -n \"$IRQB_PIDS\" ] || return 0\n"
	"	if systemd_up; then\n"
	"		if [ \"$IRQBALANCE\" = stop ]; then\n"
	"			say \"stopping irqbalance: systemctl disable --now irqbalance.service\"\n"
	"			systemctl disable --now irqbalance.service || err \"systemctl disable --now irqbalance.service failed\"\n"
	"		else\n"
	"			say \"fencing the planned IRQs from irqbalance: $BANNED_DROPIN, restart\"\n"
	"			{ mkdir -p \"${BANNED_DROPIN%/*}\" &&\n"
	"				printf '[Service]\\nEnvironment=\"IRQBALANCE_ARGS=%s\"\\n' \"$BANNED_ARGS\" >\"$BANNED_DROPIN\" &&\n"
	"				systemctl daemon-reload && systemctl restart irqbalance.service; } ||\n"
	"				err \"could not restart irqbalance with $BANNED_ARGS\"\n"
	"		fi\n"
	"		return\n"
	"	fi\n"
	"	cmds=$(irqb_cmdlines 2>/dev/null)\n"
	"	for pid in $IRQB_PIDS; do\n"
	"		say \"stopping irqbalance (pid $pid)\"\n"
	"		kill \"$pid\" || err \"cannot stop irqbalance (pid $pid)\"\n"
	"	done\n"
	"	irqb_wait_gone\n"
	"	[ \"$IRQBALANCE\" = ban ] || return 0\n"
	"	printf '%s\\n' \"$cmds\" | while IFS= read -r line; do\n"
	"		[ -n \"$line\" ] || continue\n"
	"		eval \"set -- $line\"\n"
	"		say \"restarting irqbalance fenced from the planned IRQs: $BANNED_ARGS\"\n"
	"		# shellcheck disable=SC2086 # one word per --banirq\n"
	"		irqb_start \"$@\" $BANNED_ARGS || err \"could not restart irqbalance\"\n"
	"	done\n"
	"}\n";

/* The restore script's fixed part (written through a quoted here-document,
 * so nothing in it is expanded); the script appends ROOT and the values. */
const char nn_script_restore_head[] =
	"#!/bin/sh\n"
	"# shellcheck disable=SC2317 # helpers stay unused when nothing of their kind changed\n"
	"# Written by a nicnuma script before its first change: puts back every value\n"
	"# it changed. Run it as root: sh THIS_FILE [--dry-run]. Exit status 0: all restored.\n"
	"set -u\n"
	"LC_ALL=C\n"
	"export LC_ALL\n"
	"fail=0 DRY=\n"
	"# Arguments are checked before anything is written: a stray one changes nothing.\n"
	"if [ $# -gt 1 ]; then\n"
	"	printf 'restore: one argument at most (--help, --dry-run): nothing changed\\n' >&2\n"
	"	exit 2\n"
	"fi\n"
	"case ${1-} in\n"
	"'') ;;\n"
	"-h | --help)\n"
	"	printf 'usage: sh %s [--dry-run]\\n' \"$0\"\n"
	"	printf '  puts back every value a nicnuma script changed, as root\\n'\n"
	"	printf '  -n, --dry-run, --check: say what it would put back; change nothing\\n'\n"
	"	exit 0\n"
	"	;;\n"
	"-n | --dry-run | --check) DRY=1 ;;\n"
	"*)\n"
	"	printf 'restore: unknown argument %s (--help lists them): nothing changed\\n' \"$(printf '%s' \"$1\" | tr -c '[:graph:]' '?')\" >&2\n"
	"	exit 2\n"
	"	;;\n"
	"esac\n"
	"# dry WHAT: in a dry run, say WHAT would be done (and the caller returns).\n"
	"dry() {\n"
	"	[ -n \"$DRY\" ] || return 1\n"
	"	printf 'would %s\\n' \"$*\"\n"
	"}\n"
	SH_NORM_SAME
	SH_GET
	"put() {\n"
	"	if ! get \"$ROOT$1\"; then\n"
	"		printf 'restore: cannot read %s\\n' \"$1\" >&2\n"
	"		fail=1\n"
	"		return\n"
	"	fi\n"
	"	same \"$2\" \"$CUR\" \"$3\" && return\n"
	"	dry \"restore $1: $CUR -> $3\" && return\n"
	"	if printf '%s\\n' \"$3\" 2>/dev/null >\"$ROOT$1\" && get \"$ROOT$1\" && same \"$2\" \"$CUR\" \"$3\"; then\n"
	"		printf 'restored %s: %s\\n' \"$1\" \"$3\"\n"
	"	else\n"
	"		printf 'restore: could not put %s back into %s\\n' \"$3\" \"$1\" >&2\n"
	"		fail=1\n"
	"	fi\n"
	"}\n"
	SH_NAPI
	"# napi PID COMM CPUS: the thread, while PID is still it, back on CPUS.\n"
	"napi() {\n"
	"	if ! napi_pid \"$1\" \"$2\"; then\n"
	"		printf 'restore: NAPI thread %s (pid %s) is gone: left alone\\n' \"$2\" \"$1\" >&2\n"
	"		return\n"
	"	fi\n"
	"	dry \"put NAPI thread $2 (pid $PID) back on CPUs $3\" && return\n"
	"	if taskset -pc \"$3\" \"$PID\" >/dev/null; then\n"
	"		printf 'restored NAPI thread %s: CPUs %s\\n' \"$2\" \"$3\"\n"
	"	else\n"
	"		fail=1\n"
	"	fi\n"
	"}\n"
	"# eth NIC C|G NAME VALUE: a coalescing value or ring size back (ethtool -C / -G).\n"
	"eth() {\n"
	"	dry \"set $3 of $1 back to $4 (ethtool -$2)\" && return\n"
	"	if ethtool \"-$2\" \"$1\" \"$3\" \"$4\" >/dev/null; then\n"
	"		printf 'restored %s %s: %s\\n' \"$1\" \"$3\" \"$4\"\n"
	"	else\n"
	"		fail=1\n"
	"	fi\n"
	"}\n"
	"chan() {\n"
	"	dry \"set $1 back to $2 combined channels\" && return\n"
	"	if ethtool -L \"$1\" combined \"$2\"; then\n"
	"		printf 'restored %s: %s combined channels\\n' \"$1\" \"$2\"\n"
	"	else\n"
	"		fail=1\n"
	"	fi\n"
	"}\n"
	SH_IRQB_ID
	"# irqb_restart ARG...: the system's irqbalance (found again, never a path\n"
	"# from this file) with irqbalance's own options among ARG.\n"
	"irqb_restart() {\n"
	"	dry \"restart irqbalance with its options: $*\" && return\n"
	"	for pid in $(irqb_pids report); do kill \"$pid\" || fail=1; done\n"
	"	i=0\n"
	"	while [ -n \"$(irqb_pids)\" ] && [ \"$i\" -lt 5 ]; do\n"
	"		sleep 1\n"
	"		i=$((i + 1))\n"
	"	done\n"
	"	irqb_start \"$@\" || fail=1\n"
	"}\n"
	"irqb_systemd() {\n"
	"	dry \"run systemctl $* irqbalance.service\" && return\n"
	"	if systemctl \"$@\" irqbalance.service; then\n"
	"		printf 'irqbalance: systemctl %s irqbalance.service\\n' \"$*\"\n"
	"	else\n"
	"		fail=1\n"
	"	fi\n"
	"}\n"
	"irqb_unban() {\n"
	"	dry \"remove the nicnuma bans from irqbalance and restart it\" && return\n"
	"	if rm -f /etc/systemd/system/irqbalance.service.d/nicnuma-ban.conf &&\n"
	"		systemctl daemon-reload && systemctl restart irqbalance.service; then\n"
	"		printf 'irqbalance: restarted without the nicnuma bans\\n'\n"
	"	else\n"
	"		fail=1\n"
	"	fi\n"
	"}\n";
