#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/containers/claims_timer.py - the timer of `scripts/bench claims`

  claims_timer.py hook NICNUMA STATE_DIR BUNDLE CPU IRQ... : one run of the hook
  claims_timer.py claim NICNUMA STATE_DIR CPU IRQ...       : one run of `claim --cpus CPU --pid P`
  claims_timer.py irqbalance ENVFILE CPU IRQ...            : one run of the restart method
  claims_timer.py start CMD [ARG...]                       : one start of CMD, until it exited

Each prints one line: the milliseconds from the method's start (the hook's
exec; the banned list's write) until no IRQ's smp_affinity_list holds CPU,
polled every 0.5 ms (NN_TIMER_POLL_MS); "timeout" after 30 s (then why, on stderr). The hook's
line has a second number: the milliseconds until the hook process exited
(the runtime waits that long; the IRQs may be off before); the claim's
likewise, until `nicnuma claim` exited (NN_TIMER_CLAIM_SCHED=POLICY: with
--sched POLICY). The hook (claim)
run then releases (poststop) and waits for the IRQs to come back, untimed.
The timer itself polls at SCHED_FIFO priority 1 with reset-on-fork: at
nice 0 beside 48 busy loops the poller (a fifth of a CPU: it uses more
than its fair share) would see the move a scheduling round late, and its
lateness would be timed as the method's. Reset on fork: every method runs
at the class of a command started from a shell (SCHED_OTHER, nice 0).
NN_TIMER_POLL_SCHED=other leaves the poller at nice 0 (the timer before).
NN_TIMER_START_SCHED=fifo starts the method at SCHED_FIFO 1 instead (a
real-time caller: a runtime or agent under a unit with
CPUSchedulingPolicy=fifo): the fork itself is real-time, not only the
process once it runs. `start` times a command from its start until it
exited: the floor of any method started the same way (`start /bin/true`
beside 48 busy loops is what a process start alone costs there).
The irqbalance run bans every other IRQ (--banirq: it touches the NIC's
only), kills the daemon it started and leaves the NIC's IRQs where
irqbalance put them: the caller resets them.
"""
import json
import os
import signal
import subprocess
import sys
import time

TIMEOUT = 30.0
POLL_S = float(os.environ.get("NN_TIMER_POLL_MS", "0.5")) / 1e3


def spawn(argv, **kw):
    """Starts a method's process at the class NN_TIMER_START_SCHED names:
    a shell's (SCHED_OTHER nice 0, through the poller's reset-on-fork) or
    a real-time caller's (the poller drops reset-on-fork around the fork,
    so the child is SCHED_FIFO 1 from its first instruction)."""
    if os.environ.get("NN_TIMER_START_SCHED", "other") != "fifo":
        return subprocess.Popen(argv, **kw)
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    try:
        return subprocess.Popen(argv, **kw)
    finally:
        poll_sched()


def cpus_of(text):
    out = set()
    for part in text.strip().split(","):
        if not part:
            continue
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def on_cpu(cpu, irqs):
    for irq in irqs:
        with open("/proc/irq/%s/smp_affinity_list" % irq) as f:
            if cpu in cpus_of(f.read()):
                return True
    return False


def wait_off(cpu, irqs, t0, proc=None, hook=None):
    while on_cpu(cpu, irqs):
        if hook is not None and hook.exit_ms is None and hook.proc.poll() is not None:
            hook.exit_ms = (time.monotonic() - t0) * 1e3
        if time.monotonic() - t0 > TIMEOUT:
            return None
        if proc is not None and proc.poll() is not None:
            # the daemon is gone (irqbalance may quit by itself on a host it
            # finds nothing to balance on): nothing will move the IRQs now
            return None
        time.sleep(POLL_S)
    return (time.monotonic() - t0) * 1e3


class Hook:
    """The hook process and when it exited (ms from its start)."""

    def __init__(self, proc):
        self.proc = proc
        self.exit_ms = None


def run_hook(nn, state_dir, bundle, cpu, irqs):
    owner = subprocess.Popen(["sleep", "1000"])
    cid = "nnbench-%d" % os.getpid()
    st = {"ociVersion": "1.0.2", "id": cid, "status": "creating", "pid": owner.pid, "bundle": bundle}
    try:
        t0 = time.monotonic()
        hook = Hook(spawn([nn, "hook", "--stage", "createRuntime", "--state-dir", state_dir],
                                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL))
        hook.proc.stdin.write(json.dumps(st).encode())
        hook.proc.stdin.close()
        # polled while the hook runs: the watcher may move the IRQs before
        # the hook has exited (waiting for its exit first timed the hook)
        ms = wait_off(cpu, irqs, t0, hook=hook)
        hook.proc.wait()
        if hook.exit_ms is None:
            hook.exit_ms = (time.monotonic() - t0) * 1e3
        print("%.2f %.2f" % (ms, hook.exit_ms) if ms is not None else "timeout", flush=True)
    finally:
        # the container is gone before its poststop hook runs (the release
        # refuses a claim whose owner still lives)
        owner.kill()
        owner.wait()
        st["status"] = "stopped"
        del st["pid"]
        subprocess.run([nn, "hook", "--stage", "poststop", "--state-dir", state_dir],
                       input=json.dumps(st).encode(), stdout=subprocess.DEVNULL)
        t1 = time.monotonic()
        while not on_cpu(cpu, irqs) and time.monotonic() - t1 < 5:
            time.sleep(0.001)


def run_claim(nn, state_dir, cpu, irqs):
    owner = subprocess.Popen(["sleep", "1000"])
    name = "nnbench-%d" % os.getpid()
    sched = os.environ.get("NN_TIMER_CLAIM_SCHED")
    extra = ["--sched", sched] if sched else []
    try:
        t0 = time.monotonic()
        hook = Hook(spawn([nn, "claim", "--cpus", str(cpu), "--name", name, "--pid", str(owner.pid),
                                      "--state-dir", state_dir] + extra, stdout=subprocess.DEVNULL))
        ms = wait_off(cpu, irqs, t0, hook=hook)
        hook.proc.wait()
        if hook.exit_ms is None:
            hook.exit_ms = (time.monotonic() - t0) * 1e3
        print("%.2f %.2f" % (ms, hook.exit_ms) if ms is not None else "timeout", flush=True)
    finally:
        subprocess.run([nn, "release", name, "--state-dir", state_dir] + extra, stdout=subprocess.DEVNULL)
        owner.kill()
        owner.wait()
        t1 = time.monotonic()
        while not on_cpu(cpu, irqs) and time.monotonic() - t1 < 5:
            time.sleep(0.001)


def run_irqbalance(envfile, cpu, irqs):
    t0 = time.monotonic()
    # the write CRI-O does, then the restart (no systemd here: the daemon is
    # started with the file's variables, as its unit's EnvironmentFile would)
    with open(envfile, "w") as f:
        f.write("IRQBALANCE_BANNED_CPULIST=%d\n" % cpu)
    env = dict(os.environ)
    env["NN_CLAIMS_BENCH"] = "1"  # marks the bench's own daemons (scripts/bench stops only those)
    with open(envfile) as f:
        for line in f:
            k, _, v = line.strip().partition("=")
            if k and not k.startswith("#"):
                env[k] = v
    # irqbalance balances every IRQ it finds: all but the NIC's are banned
    # (--banirq) so that the bench moves nothing else on this host
    ban = []
    for name in os.listdir("/proc/irq"):
        if name.isdigit() and name not in irqs:
            ban.append("--banirq=%s" % name)
    os.makedirs("/run/irqbalance", exist_ok=True)  # its socket's directory
    proc = subprocess.Popen(["irqbalance", "--foreground"] + ban, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    ms = wait_off(cpu, irqs, t0, proc)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    if ms is None:
        last = [l for l in out.decode(errors="replace").splitlines() if l.strip()][-1:] or ["(nothing)"]
        print("timeout", flush=True)
        print("irqbalance %s; its last line: %s" % (
            "exited by itself (status %s) without moving them" % proc.returncode
            if time.monotonic() - t0 < TIMEOUT else "ran 30 s without moving them", last[0]),
            file=sys.stderr)
    else:
        print("%.2f" % ms, flush=True)


def poll_sched():
    """The poller's class (module docstring); its children never get it."""
    if os.environ.get("NN_TIMER_POLL_SCHED", "fifo") != "fifo":
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
        return
    os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(1))


def run_start(argv):
    t0 = time.monotonic()
    proc = spawn(argv, stdout=subprocess.DEVNULL)
    proc.wait()
    print("%.2f %.2f" % (((time.monotonic() - t0) * 1e3,) * 2), flush=True)


def main():
    poll_sched()
    if sys.argv[1] == "hook":
        run_hook(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6:])
    elif sys.argv[1] == "claim":
        run_claim(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:])
    elif sys.argv[1] == "irqbalance":
        run_irqbalance(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    elif sys.argv[1] == "start":
        run_start(sys.argv[2:])
    else:
        sys.exit("usage: claims_timer.py hook|claim|irqbalance|start ...")


if __name__ == "__main__":
    main()
