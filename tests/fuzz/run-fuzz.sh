#!/usr/bin/env bash
# Run the libFuzzer harnesses built by `make fuzz` (FUZZ_BUILD/fuzz_NAME), each for FUZZ_SECONDS,
# FUZZ_JOBS at a time, and end with one line per harness: executions, executions per second,
# corpus size and crashes. Exit 1 when any harness crashed (its input is in
# FUZZ_BUILD/crashes/NAME/; save it as tests/fuzz/regressions/NAME/ once fixed).
#
# Seeds (read-only): the kept corpus tests/fuzz/corpus/NAME, the saved regressions
# tests/fuzz/regressions/NAME, and the fixtures each parser reads (small ones: libFuzzer mutates
# big inputs slowly). New inputs go to FUZZ_BUILD/corpus/NAME, kept between runs; merge them
# into the kept corpus by hand (fuzz_NAME -merge=1 tests/fuzz/corpus/NAME FUZZ_BUILD/corpus/NAME).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${FUZZ_BUILD:-build/fuzz}
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
export PTSBENCH_DATADIR="$root"
# a crash must say where: symbolised stacks, and no leak report holding up the exit
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:symbolize=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# The fixtures that seed each harness (shell globs; files over 64 KiB are left out).
seeds_of() {
  case "$1" in
    profile)  echo "profiles/*.ini" ;;
    pts)      echo "pts/*.ini" ;;
    preset)   echo "profiles/devices/*.ini" ;;
    sheet)    echo "specs/*.ini" ;;
    fio)      echo "tests/fixtures/fio/*" ;;
    show|measure|report|plot|gate) echo "tests/fixtures/results/*/results.json" ;;
    *)        echo "" ;;
  esac
}

# Harnesses of one kind of input share a kept corpus and a dictionary: tests/fuzz/corpus/GROUP
# (the results seeds are the fixtures cut down to a few rounds, points and rows) and
# tests/fuzz/GROUP.dict.
group_of() {
  case "$1" in
    show|measure|report|plot|gate) echo results ;;
    profile|pts|preset|sheet) echo ini ;;
    *) echo "" ;;
  esac
}

run_one() {
  local name=$1 bin="$build/fuzz_$1" log="$build/logs/$1.log"
  local corpus="$build/corpus/$name" seeds="$build/seeds/$name" crashes="$build/crashes/$name"
  mkdir -p "$corpus" "$seeds" "$crashes" "$build/logs"
  rm -f "$seeds"/*
  for f in $(seeds_of "$name"); do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
  done
  local dirs=("$corpus" "$seeds") group
  group=$(group_of "$name")
  [ -d "tests/fuzz/corpus/$name" ] && dirs+=("tests/fuzz/corpus/$name")
  [ -n "$group" ] && [ -d "tests/fuzz/corpus/$group" ] && dirs+=("tests/fuzz/corpus/$group")
  [ -d "tests/fuzz/regressions/$name" ] && dirs+=("tests/fuzz/regressions/$name")
  local dict=()
  if [ -f "tests/fuzz/$name.dict" ]; then dict=("-dict=tests/fuzz/$name.dict")
  elif [ -n "$group" ] && [ -f "tests/fuzz/$group.dict" ]; then dict=("-dict=tests/fuzz/$group.dict")
  fi
  local before
  before=$(ls "$crashes" | wc -l)
  "$bin" "${dirs[@]}" "${dict[@]}" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
         -print_final_stats=1 -artifact_prefix="$crashes/" >"$log" 2>&1
  local rc=$?
  local runs persec cov found
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  persec=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  found=$(( $(ls "$crashes" | wc -l) - before ))
  [ "$rc" -ne 0 ] && [ "$found" -eq 0 ] && found=1    # died without an artifact
  printf '%-9s %10s runs %8s exec/s  cov %6s  corpus %5s  crashes %s%s\n' "$name" "${runs:-?}" \
         "${persec:-?}" "${cov:-?}" "$(ls "$corpus" | wc -l)" "$found" \
         "$([ "$found" -gt 0 ] && echo "  (see $log, $crashes/)")" >"$build/logs/$name.summary"
  return 0
}

mkdir -p "$build/logs"
echo "fuzzing $# harnesses, ${seconds} s each, ${jobs} at a time"
running=0
for name in "$@"; do
  if [ ! -x "$build/fuzz_$name" ]; then
    echo "no $build/fuzz_$name (run make fuzz)" >&2
    exit 2
  fi
  rm -f "$build/logs/$name.summary"
  run_one "$name" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
echo
failed=0
for name in "$@"; do
  cat "$build/logs/$name.summary"
  grep -q 'crashes [1-9]' "$build/logs/$name.summary" && failed=1
done
if [ "$failed" -ne 0 ]; then
  echo "crashes found: fix them, then save each input as tests/fuzz/regressions/NAME/"
  exit 1
fi
echo "no crashes"
