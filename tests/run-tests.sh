#!/usr/bin/env bash
# Run every test program given on the command line (cmocka unit and integration tests),
# show their output, and end with one summary line "N passed, N failed, N skipped"
# counted over individual test cases.  Exit 1 when anything failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PTSBENCH="${PTSBENCH:-$root/${BUILD:-build}/ptsbench}"
export PTSBENCH_DATADIR="$root"
passed=0 failed=0 skipped=0 broken=()
for t in "$@"; do
  echo "=== $t"
  out=$(mktemp)
  start=$(date +%s)
  "$t" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
  s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
  rm -f "$out"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    failed=$((failed + 1))        # crashed or failed outside a test case
  fi
  [ "$rc" -ne 0 ] && broken+=("$t")
  echo "--- $t: exit $rc in $(( $(date +%s) - start )) s"
done
echo
[ ${#broken[@]} -gt 0 ] && echo "failing programs: ${broken[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
