#!/usr/bin/env bash
# Run every test program given on the command line (cmocka unit and integration tests),
# show their output, and end with one summary line "N passed, N failed, N skipped"
# counted over individual test cases.  Exit 1 when anything failed, 2 when given no program.
#
# Programs run two at a time (TEST_JOBS=N to change; 1: one after the other): the tests must
# pass on a busy machine anyway, and most of them are CPU-bound simulations.  A few that mostly
# wait on real time (WAITING below) run in a third slot of their own (TEST_WAIT_JOBS).  The few
# whose figures depend on the machine being otherwise idle (SERIAL below: engine-against-fio
# agreement, child-process timing) run alone.  Each program's output is shown when it ends,
# with its wall and CPU seconds.
#
# zram: the tests create devices of their own (tests/helpers.h: zram_create) and record each
# in $PTSBENCH_TEST_ZRAM_DIR (one directory per program) until they remove it.  After each
# program this script removes
# what is still recorded there (a program killed by SIGKILL or a crash outside a test could
# not), and only while /sys/block/zramN/diskseq still names the recorded instance; a program
# that exited 0 and left a device counts as one more failure.
#
# One more test case, "bystander zram device intact": before the first program this script
# makes a zram device of its own standing for someone's data (an unmounted, unswapped
# compressed scratch area: 16 MiB, a 4 MiB random pattern written at offset 0), and after the
# last one checks that it is the same instance (diskseq), still 16 MiB, and reads back the
# same bytes (O_DIRECT, not the page cache).  Skipped, with the reason, where there is no zram
# or no root.  The device is removed at the end, also when the run is interrupted.
set -u
# No program to run is a broken build or checkout, not a pass (a "make test" started on a
# half-copied tree once reported "1 passed": the bystander check alone).
if [ $# -eq 0 ]; then
  echo "run-tests.sh: no test programs given (is the checkout complete? tests/unit, tests/integration)" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PTSBENCH="${PTSBENCH:-$root/${BUILD:-build}/ptsbench}"
export PTSBENCH_DATADIR="$root"
passed=0 failed=0 skipped=0 broken=()

work=$(mktemp -d "${TMPDIR:-/var/tmp}/ptsbench-runner-XXXXXX") || exit 1
runner_start=$(date +%s)
zctl=/sys/class/zram-control
jobs_max=${TEST_JOBS:-2}
SERIAL=" test_fio_engine test_children "

# Reset and hot_remove zramN if it is still instance SEQ, retrying for 5 s at each step while
# it is busy (udev probes it for a moment after every close).  Status 0 when it is gone.
zram_alive() { [ "$(cat "/sys/block/zram$1/diskseq" 2>/dev/null)" = "$2" ]; }
zram_destroy() {
  local n=$1 seq=$2 i
  for i in $(seq 50); do
    zram_alive "$n" "$seq" || return 0
    { echo 1 > "/sys/block/zram$n/reset"; } 2>/dev/null && break
    sleep 0.1
  done
  for i in $(seq 50); do
    zram_alive "$n" "$seq" || return 0
    { echo "$n" > "$zctl/hot_remove"; } 2>/dev/null && return 0
    sleep 0.1
  done
  ! zram_alive "$n" "$seq"
}

# Remove what program $1 left recorded in directory $2; print each; set $leaked to how many.
zram_sweep() {
  local f n seq pid rest
  leaked=0
  for f in "$2"/zram*; do
    [ -e "$f" ] || continue
    read -r n seq pid rest < "$f" || true
    if [ -n "${n:-}" ] && [ -n "${seq:-}" ] && zram_alive "$n" "$seq"; then
      leaked=$((leaked + 1))
      if zram_destroy "$n" "$seq"; then
        echo "runner: removed /dev/zram$n, left behind by $1 (pid $pid)"
      else
        echo "runner: WARNING: cannot remove /dev/zram$n, left behind by $1 (pid $pid)"
      fi
    fi
    rm -f "$f"
  done
}

# The bystander: bys_state is "ready", or "skipped (REASON)".
bys_n="" bys_seq="" bys_size=$((16 << 20)) bys_state=""
bystander_setup() {
  if [ "$(id -u)" -ne 0 ]; then bys_state="skipped (needs root)"; return; fi
  if [ ! -r "$zctl/hot_add" ]; then
    bys_state="skipped (no $zctl/hot_add: zram module not loaded?)"; return
  fi
  if ! bys_n=$(cat "$zctl/hot_add" 2>/dev/null) || [ -z "$bys_n" ]; then
    bys_n=""; bys_state="skipped (cannot create a zram device: hot_add failed)"; return
  fi
  bys_seq=$(cat "/sys/block/zram$bys_n/diskseq" 2>/dev/null)
  if [ -z "$bys_seq" ]; then
    { echo "$bys_n" > "$zctl/hot_remove"; } 2>/dev/null
    bys_n=""; bys_state="skipped (no /sys/block/zramN/diskseq: kernel before 5.15)"; return
  fi
  local i
  for i in $(seq 20); do [ -b "/dev/zram$bys_n" ] && break; sleep 0.1; done
  if ! { echo "$bys_size" > "/sys/block/zram$bys_n/disksize"; } 2>/dev/null ||
     ! dd if=/dev/urandom of="$work/bystander.pattern" bs=1M count=4 status=none ||
     ! dd if="$work/bystander.pattern" of="/dev/zram$bys_n" bs=1M oflag=direct conv=fsync \
          status=none ||
     ! bystander_same; then
    bys_state="skipped (cannot set up /dev/zram$bys_n with a pattern that reads back)"
    bystander_remove; return
  fi
  bys_state=ready
  echo "=== bystander zram device /dev/zram$bys_n (diskseq $bys_seq): 16 MiB," \
       "4 MiB pattern; no test may touch it"
}
bystander_same() {
  dd if="/dev/zram$bys_n" bs=1M count=4 iflag=direct status=none 2>/dev/null |
    cmp -s - "$work/bystander.pattern"
}
bystander_remove() {
  if [ -n "$bys_n" ] && ! zram_destroy "$bys_n" "$bys_seq"; then
    echo "runner: WARNING: cannot remove the bystander /dev/zram$bys_n"
  fi
  bys_n=""
}
# One test case: passed, failed or skipped, with what was seen.
bystander_check() {
  local verdict why
  case "$bys_state" in
    ready)
      if ! zram_alive "$bys_n" "$bys_seq"; then
        verdict=failed why="/dev/zram$bys_n (diskseq $bys_seq) is gone or was re-created"
      elif [ "$(cat "/sys/block/zram$bys_n/disksize")" != "$bys_size" ]; then
        verdict=failed
        why="/dev/zram$bys_n disksize is $(cat "/sys/block/zram$bys_n/disksize"), not $bys_size"
      elif ! bystander_same; then
        verdict=failed why="/dev/zram$bys_n does not read back its 4 MiB pattern"
      else
        verdict=passed why="/dev/zram$bys_n: same instance, 16 MiB, 4 MiB pattern unchanged"
      fi ;;
    *) verdict=${bys_state%% *} why=${bys_state#* (}; why=${why%)} ;;
  esac
  echo "=== bystander zram device intact: $verdict ($why)"
  case "$verdict" in
    passed) passed=$((passed + 1)) ;;
    failed) failed=$((failed + 1)); broken+=("bystander zram device") ;;
    *) skipped=$((skipped + 1)) ;;
  esac
}

on_exit() {
  local d
  for d in "$work"/p*; do [ -d "$d/zram" ] && zram_sweep "$(cat "$d/name" 2>/dev/null)" "$d/zram"; done
  bystander_remove
  rm -rf "$work"
}
trap on_exit EXIT
trap 'echo "runner: interrupted"; exit 130' INT TERM HUP

# Program $2 as job $1: output, exit status, seconds and CPU seconds (user + system, the
# program and its children: what it cost the machine, whatever the load) into $work/p$1.
run_program() {
  local d="$work/p$1" start
  start=$(date +%s)
  (
    PTSBENCH_TEST_ZRAM_DIR="$d/zram" "$2" > "$d/out" 2>&1
    echo $? > "$d/rc.tmp"
    times > "$d/times"   # line 2: this subshell's children, i.e. the program
  )
  echo $(( $(date +%s) - start )) > "$d/secs"
  mv "$d/rc.tmp" "$d/rc"
}

# CPU seconds from the second line of bash's `times` in $1 ("0m1.250s 0m0.031s").
cpu_seconds() {
  sed -n 2p "$1" 2>/dev/null | tr 'ms' '  ' |
    awk '{ printf "%.0f", $1 * 60 + $2 + $3 * 60 + $4 }'
}

# Job $1 has ended: show its output, remove what it left, count its test cases.
finish_program() {
  local d="$work/p$1" t rc p f s
  t=$(cat "$d/name")
  echo "=== $t"
  cat "$d/out"
  rc=$(cat "$d/rc")
  zram_sweep "$t" "$d/zram"
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$d/out" | awk '{s+=$1} END {print s+0}')
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$d/out" | awk '{s+=$1} END {print s+0}')
  s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$d/out" | awk '{s+=$1} END {print s+0}')
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    failed=$((failed + 1))        # crashed or failed outside a test case
  fi
  if [ "$rc" -eq 0 ] && [ "$leaked" -gt 0 ]; then
    echo "runner: $t exited 0 but left $leaked zram device(s): counted as a failure"
    failed=$((failed + 1)); rc=1
  fi
  [ "$rc" -ne 0 ] && broken+=("$t")
  echo "--- $t: exit $rc in $(cat "$d/secs") s (CPU $(cpu_seconds "$d/times") s)"
  rm -rf "$d"
}

# Running jobs, and the slot each holds ("cpu" or "wait"). Reap: wait until a job ends, then
# finish (in the order they end) those that stopped.
running=()
declare -A slot=()
reap() {
  local keep i
  wait -n 2>/dev/null || true
  keep=()
  for i in "${running[@]}"; do
    if [ -e "$work/p$i/rc" ]; then finish_program "$i"; else keep+=("$i"); fi
  done
  running=("${keep[@]}")
}
# How many running jobs hold slot $1.
holding() {
  local i n=0
  for i in "${running[@]}"; do [ "${slot[$i]}" = "$1" ] && n=$((n + 1)); done
  echo "$n"
}
# Wait until at most $1 jobs are running.
wait_jobs() { while [ ${#running[@]} -gt "$1" ]; do reap; done; }

# The order: the serial programs first (a serial program waits until every slot is empty, and at
# the start nothing is running yet), then the long ones, so that the slots end close together.
# LONG is in order of duration (seconds in the clean-clone make test of 2026-12-06 00:55 on this
# project's 2-core machine, test_suite_recovery less the HIR it no longer runs: 150 110 70 57 45
# 36 34 33 32 29 29 28 19).
LONG="test_sim_calibration test_suite_recovery test_resume test_suite test_sim_presets
      test_estimate test_run test_plot test_steady_state test_report test_profile test_run_sim
      test_fleet"
# WAITING: programs that spend most of their time waiting on real time (sleeps, real-time rounds
# and idle gaps, timed children), not computing: at most TEST_WAIT_JOBS of them (default 1) run
# in a slot of their own beside the TEST_JOBS computing ones, since they leave the cores to the
# others (seconds and CPU seconds, make tests of 2026-12-06 00:55 and 01:47: test_resume 70 and
# 37, test_run 34 and 13, test_numa 14 and 7, test_safety 9 and 0, test_replay 9 and 4,
# test_spawn 3 and 0). Their tests pass on a busy machine anyway (make test beside another make
# test). With TEST_JOBS=1 everything runs one after the other.
WAITING="test_resume test_run test_numa test_safety test_replay test_spawn"
wait_max=${TEST_WAIT_JOBS:-1}
[ "$jobs_max" -le 1 ] && wait_max=0
serial_q=() cpu_q=() wait_q=()
in_list() { case " $(echo $1) " in *" $2 "*) return 0 ;; esac; return 1; }
waiting() { [ "$wait_max" -gt 0 ] && in_list "$WAITING" "$1"; }
for t in "$@"; do in_list "$SERIAL" "$(basename "$t")" && serial_q+=("$t"); done
for l in $WAITING; do   # in the list's order: the longest first
  in_list "$SERIAL" "$l" || ! waiting "$l" && continue
  for t in "$@"; do [ "$(basename "$t")" = "$l" ] && wait_q+=("$t"); done
done
for l in $LONG; do
  in_list "$SERIAL" "$l" || waiting "$l" && continue
  for t in "$@"; do [ "$(basename "$t")" = "$l" ] && cpu_q+=("$t"); done
done
for t in "$@"; do
  b=$(basename "$t")
  in_list "$SERIAL" "$b" || in_list "$LONG" "$b" || waiting "$b" || cpu_q+=("$t")
done

# Start program $1 as the next job, holding slot $2 ("serial": run it now, alone).
job=0
start_program() {
  job=$((job + 1))
  mkdir -p "$work/p$job/zram"
  echo "$1" > "$work/p$job/name"
  if [ "$2" = serial ]; then
    run_program "$job" "$1"
    finish_program "$job"
    return
  fi
  run_program "$job" "$1" &
  running+=("$job")
  slot[$job]=$2
}

bystander_setup
for t in "${serial_q[@]}"; do start_program "$t" serial; done
while [ ${#cpu_q[@]} -gt 0 ] || [ ${#wait_q[@]} -gt 0 ]; do
  started=0
  if [ ${#cpu_q[@]} -gt 0 ] && [ "$(holding cpu)" -lt "$jobs_max" ]; then
    start_program "${cpu_q[0]}" cpu; cpu_q=("${cpu_q[@]:1}"); started=1
  fi
  if [ ${#wait_q[@]} -gt 0 ] && [ "$(holding wait)" -lt "$wait_max" ]; then
    start_program "${wait_q[0]}" wait; wait_q=("${wait_q[@]:1}"); started=1
  fi
  [ $started -eq 1 ] || reap
done
wait_jobs 0
bystander_check
bystander_remove
echo
[ ${#broken[@]} -gt 0 ] && echo "failing programs: ${broken[*]}"
echo "runner: $job programs in $(( $(date +%s) - runner_start )) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
