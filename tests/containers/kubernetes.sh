#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/containers/kubernetes.sh NICNUMA - contrib/kubernetes checked offline (suite 'containers')
#
# There is no cluster here: `kubectl apply --dry-run=client` asks the API
# server for its resource list even so, and fails offline. What runs:
#   1. `kubectl label --local -f` decodes every object into its typed API
#      struct (a wrong type fails) without a server;
#   2. the DaemonSet has what the watcher needs (hostNetwork, hostPID,
#      privileged, host paths /run/nicnuma, /var/lib/nicnuma, /etc/nicnuma,
#      /sys) and runs `nicnuma watch`;
#   3. and no more (issue 36.10): a read-only root filesystem, seccomp
#      RuntimeDefault, no service account token, no init container, no host
#      path under /etc mounted writable, no container but the watcher
#      privileged (the hooks.d entry comes with the node's package);
#   4. contrib/oci/50-nicnuma-crio.json's when/stages select what
#      `nicnuma hook` acts on.
# Needs kubectl (kubernetes-client) and python3-yaml; 77 otherwise.
# shellcheck disable=SC2015  # pass/fail only print
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
ds=$oci_top/contrib/kubernetes/nicnuma-daemonset.yaml
if ! command -v kubectl >/dev/null && [ "$(id -u)" -eq 0 ]; then
	# shellcheck source=../../scripts/lib.sh
	. "$oci_top/scripts/lib.sh"
	(nn_install "${NN_KUBECTL_PACKAGES[@]}")
fi
command -v kubectl >/dev/null || { echo "skip: kubectl is not installed (kubernetes-client)"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || { echo "skip: python3-yaml is not installed"; exit 77; }
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# 1. typed decoding, offline (KUBECONFIG points nowhere: no server is asked)
if KUBECONFIG=/dev/null kubectl label --local -f "$ds" nicnuma-check=1 -o name >"$tmp/out" 2>&1; then
	pass "kubectl decodes $(tr '\n' ' ' <"$tmp/out")"
else
	fail "kubectl label --local: $(cat "$tmp/out")"
fi
# a broken manifest is caught the same way (the check can fail)
printf 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: [x]\n' >"$tmp/bad.yaml"
KUBECONFIG=/dev/null kubectl label --local -f "$tmp/bad.yaml" x=1 -o name >/dev/null 2>&1 \
	&& fail "kubectl accepted a DaemonSet whose name is a list" || pass "a malformed DaemonSet is refused"

# 2. to 4.
python3 - "$ds" "$oci_top/contrib/oci/50-nicnuma-crio.json" <<'PY' && pass "DaemonSet: host access, paths, command, least privilege; contrib/oci/50-nicnuma-crio.json" || fail "manifest content (above)"
import json, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
kinds = {d["kind"]: d for d in docs}
bad = []
ds = kinds["DaemonSet"]["spec"]["template"]["spec"]
if not ds.get("hostNetwork"): bad.append("hostNetwork")
if not ds.get("hostPID"): bad.append("hostPID")
c = ds["containers"][0]
if c["command"][-1] != "watch": bad.append("command %r" % c["command"])
sc = c.get("securityContext", {})
if not sc.get("privileged"): bad.append("privileged")
paths = {v["name"]: v.get("hostPath", {}).get("path") for v in ds["volumes"]}
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
for p in ["/run/nicnuma", "/var/lib/nicnuma", "/etc/nicnuma", "/sys"]:
    names = [n for n, hp in paths.items() if hp == p]
    if not names or mounts.get(names[0]) != p:
        bad.append("host path %s not mounted at %s" % (p, p))
# least privilege: what a compromise of the pod gets is cut where it can be
if sc.get("readOnlyRootFilesystem") is not True: bad.append("readOnlyRootFilesystem is not true")
if sc.get("seccompProfile", {}).get("type") != "RuntimeDefault": bad.append("seccompProfile is not RuntimeDefault")
if ds.get("automountServiceAccountToken") is not False: bad.append("a service account token is mounted")
if ds.get("initContainers"): bad.append("init containers: %s" % [i["name"] for i in ds["initContainers"]])
for k in ds["containers"][1:]:
    if k.get("securityContext", {}).get("privileged"): bad.append("%s is privileged" % k["name"])
for k in ds["containers"] + ds.get("initContainers", []):
    for m in k.get("volumeMounts", []):
        hp = paths.get(m["name"]) or ""
        if (hp == "/etc" or hp.startswith("/etc/")) and not m.get("readOnly"):
            bad.append("%s writes the host's %s" % (k["name"], hp))
hook = json.load(open(sys.argv[2]))
if hook["version"] != "1.0.0" or set(hook["stages"]) != {"prestart", "poststop"}: bad.append("stages")
if hook["hook"]["args"][:2] != ["nicnuma", "hook"]: bad.append("args")
if hook["hook"]["path"] != "/usr/sbin/nicnuma": bad.append("hook path %s" % hook["hook"]["path"])
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
