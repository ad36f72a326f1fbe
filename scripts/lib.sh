# shellcheck shell=bash
# scripts/lib.sh - shared by scripts/demo, scripts/test, scripts/bench.
# Installs what is missing (apt-get, as root) and builds with meson/ninja.

NN_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export NN_TOP

# Debian 12 packages the project needs to build, test and demo
# (libsystemd-dev: the watcher's sd_notify; scdoc: the man pages, built by
# every build that finds it; zlib1g-dev: the kernel configuration in
# /proc/config.gz, read for the boot arguments).
NN_PACKAGES=(
  build-essential meson ninja-build pkg-config python3
  libjson-c-dev libmnl-dev libnuma-dev libcmocka-dev zlib1g-dev
  numactl hwloc irqbalance ethtool iproute2 procps kmod shellcheck jq strace
  libxml2-utils
  libdpdk-dev dpdk dpdk-dev
  clang libclang-rt-14-dev
  systemd libsystemd-dev
  scdoc
)

# The fwd suite's 'report' case renders the bench report to a PNG (installed by the case itself).
NN_REPORT_PACKAGES=(chromium)

# Building the Debian packages (scripts/package, the package suite) and
# checking them (lintian); the build dependencies of debian/control are
# NN_PACKAGES' (dpkg-checkbuilddeps says what is missing).
NN_PACKAGE_BUILD=(dpkg-dev debhelper fakeroot scdoc bash-completion lintian)

# The Ansible role's tests only (tests/ansible): Debian's ansible-core and ansible-lint.
NN_ANSIBLE_PACKAGES=(ansible-core ansible-lint)

# Host tools for the multi-NUMA QEMU guest (scripts/testhost installs them on demand).
NN_GUEST_PACKAGES=(qemu-system-x86 busybox-static debootstrap cpio kmod)

# The OCI hook's live suite (tests/containers): runtimes run a
# busybox-static bundle, no image registry. The Kubernetes manifests'
# offline check needs a kubectl: Debian's kubernetes-client when none is
# installed (another package's /usr/bin/kubectl would conflict with it).
NN_CONTAINER_PACKAGES=(runc crun podman busybox-static)
NN_KUBECTL_PACKAGES=(kubernetes-client)

# scripts/bench profiles: sockperf (the traffic) and tuned (its network-latency
# and network-throughput profiles beside nicnuma's), installed on demand
# (tuned not under systemd: its package would start tuned.service).
NN_BENCH_PROFILES_PACKAGES=(sockperf tuned)

# The live suite's own (scripts/test installs them before it): sockperf for
# live/bench-profiles (the traffic of scripts/bench profiles; tuned stays the
# bench's, installed on demand).
NN_LIVE_PACKAGES=(sockperf)

nn_log() { printf '==> %s\n' "$*" >&2; }
nn_die() { printf 'error: %s\n' "$*" >&2; exit 2; }

# Install only the packages that are missing; one apt-get update, only if needed.
nn_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || nn_die "missing packages (${missing[*]}); run as root or install them"
  # One install at a time (scripts/test runs the guest suite beside others);
  # the lock is dropped when this shell ends or the install is done.
  local lock
  exec {lock}>/run/lock/nicnuma-apt.lock && flock "$lock"
  nn_log "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null || nn_die "apt-get update failed"
  apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null \
    || nn_die "apt-get install ${missing[*]} failed"
  exec {lock}>&-
}

nn_deps() { nn_install "${NN_PACKAGES[@]}"; }

# nn_build DIR [meson options...]: configure (once; later runs apply the
# options to the existing directory, so -Dwerror=true reaches old builds), then ninja.
nn_build() {
  local dir=$1; shift
  if [ ! -f "$NN_TOP/$dir/build.ninja" ]; then
    meson setup "$NN_TOP/$dir" "$NN_TOP" "$@" >/dev/null || nn_die "meson setup $dir failed"
  elif [ $# -gt 0 ]; then
    meson configure "$NN_TOP/$dir" "$@" >/dev/null || nn_die "meson configure $dir failed"
  fi
  ninja -C "$NN_TOP/$dir" >/dev/null || { ninja -C "$NN_TOP/$dir"; nn_die "build $dir failed"; }
}
