# shellcheck shell=bash
# scripts/suite_runner.sh - scripts/test's runner: each suite's verdict and
# seconds, the host_state check around it, one suite in the background
# beside the others, and the table at the end. Sourced; needs NN_TOP, NN_T0
# and nn_log (scripts/lib.sh). tests/unit/suite_runner.sh runs it on stubs.
# fail, npass, nfail, nskip: read by scripts/test after the suites.
# shellcheck disable=SC2034

fail=0 npass=0 nfail=0 nskip=0
# Each suite's name, verdict and seconds, for the table at the end (the trend).
t_names=() t_results=() t_secs=() t_beside=()
suite() {
  local name=$1; shift
  nn_log "suite: $name"
  local rc before after t0 result with=-
  t0=$(date +%s)
  # the background suite this one started beside, for the table
  beside_alive && with=$bg_name
  before=$("$NN_TOP/scripts/host_state")
  "$@"; rc=$?
  # What the suite changed on this host and did not put back: a defect of the
  # suite, and a trap for the next one (scripts/host_state says what it reads).
  after=$("$NN_TOP/scripts/host_state")
  if [ "$before" != "$after" ]; then
    nn_log "suite $name: left this host changed (before -> after):"
    diff <(echo "$before") <(echo "$after") | grep '^[<>]' >&2
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]; then rc=1; fi
  fi
  # A test that renames over /dev/null leaves a regular file there, and every
  # later redirection fills it: name the suite, put the device back.
  if [ ! -c /dev/null ]; then
    nn_log "suite $name: /dev/null is no longer a character device; restored (a defect of this suite)"
    rm -f /dev/null && mknod -m 666 /dev/null c 1 3
  fi
  if [ "$rc" -eq 0 ]; then result=ok; nn_log "suite $name: ok"; npass=$((npass + 1))
  elif [ "$rc" -eq 77 ]; then result=skipped; nn_log "suite $name: SKIPPED (reason above)"; nskip=$((nskip + 1))
  else result=FAILED; nn_log "suite $name: FAILED"; fail=1; nfail=$((nfail + 1)); fi
  t_names+=("$name") t_results+=("$result") t_secs+=($(($(date +%s) - t0))) t_beside+=("$with")
  [ "$with" = - ] || bg_fg+=${bg_fg:+,}$name
  return 0
}
# beside NAME CMD...: suite NAME in the background, its output prefixed with
# "NAME| ". One at a time; beside_wait adds its row to the table. Its
# host_state check spans its whole run, so a foreground suite's leftover
# would fail it too: only suites that change nothing run beside it.
# While it runs, this shell (and what it starts) is at nice 19: the
# background suite keeps its CPU share (the guests' hard limits), the
# foreground takes what it leaves; its end puts this shell's nice back.
bg_name='' bg_pid='' bg_file='' bg_fg='' bg_nice='' bg_shell=''
beside() {
  local name=$1; shift
  bg_name=$name bg_file=$(mktemp "${TMPDIR:-/tmp}/nicnuma-test-$name.XXXXXX") bg_nice=$(nice) bg_shell=$BASHPID
  { suite "$name" "$@"
    printf '%s %s\n' "${t_results[-1]}" "${t_secs[-1]}" >"$bg_file"
    renice -n "$bg_nice" -p "$bg_shell" >/dev/null; } 2>&1 | sed -u "s/^/$name| /" &
  bg_pid=$!
  renice -n 19 -p "$bg_shell" >/dev/null
}
# beside_alive: the background suite has not ended yet.
beside_alive() { [ -n "$bg_pid" ] && kill -0 "$bg_pid" 2>/dev/null; }
beside_wait() {
  local result secs
  wait "$bg_pid"
  renice -n "$bg_nice" -p "$bg_shell" >/dev/null
  read -r result secs <"$bg_file" 2>/dev/null || { result=FAILED secs=0; nn_log "suite $bg_name: no result (killed?)"; }
  rm -f "$bg_file"
  case $result in
    ok) npass=$((npass + 1)) ;;
    skipped) nskip=$((nskip + 1)) ;;
    *) result=FAILED; fail=1; nfail=$((nfail + 1)) ;;
  esac
  t_names+=("$bg_name") t_results+=("$result") t_secs+=("$secs") t_beside+=("${bg_fg:--}")
  bg_name='' bg_pid='' bg_file='' bg_fg='' bg_shell=''
}
# The seconds of each suite and of the whole run (builds included), slowest
# first, so that a suite growing slower shows from one run to the next.
times_table() {
  local i total=$(($(date +%s) - NN_T0))
  local sum=0
  printf '\n%-14s %-8s %7s  %s\n' suite result seconds beside
  for i in "${!t_names[@]}"; do
    printf '%-14s %-8s %7d  %s\n' "${t_names[$i]}" "${t_results[$i]}" "${t_secs[$i]}" "${t_beside[$i]}"
  done | sort -k3,3nr
  for i in "${!t_secs[@]}"; do sum=$((sum + t_secs[i])); done
  printf '%-14s %-8s %7d  (%dm%02ds wall, builds and installs included; suites %d s in all)\n' total "" "$total" \
    $((total / 60)) $((total % 60)) "$sum"
}
# mtest BUILD SUITE [ARGS...]: one meson suite, then its skips judged and
# printed (meson alone counts a suite whose every case skipped as passed).
# Beside a background suite (see beside): each test's timeout 10 times its
# own, as its CPU comes only when the guests leave some. meson's own number
# of jobs: at nice 19 they take little from the guests, and a suite still
# running when the guests end goes on with all of them.
mtest() {
  local dir=$1 s=$2 rc a m=1 args=(); shift 2
  if beside_alive; then
    while [ $# -gt 0 ]; do
      a=$1; shift
      if [ "$a" = --timeout-multiplier ]; then m=$1; shift; else args+=("$a"); fi
    done
    set -- "${args[@]}" --timeout-multiplier $((m * 10))
  fi
  meson test -C "$NN_TOP/$dir" --suite "$s" --print-errorlogs "$@"; rc=$?
  python3 "$NN_TOP/scripts/suite_result.py" "$NN_TOP/$dir/meson-logs/testlog.json" "$s" \
    "$NN_TOP/tests/skips.txt" || rc=1
  return "$rc"
}
