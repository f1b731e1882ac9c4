#!/usr/bin/env bash
# make demo: the main job on the built-in default target.
# Until the simulated SSD exists, the default target is a 1 GiB scratch file (O_DIRECT) in
# /var/tmp: a short 4 KiB random 70/30 workload, round by round, with steady-state tracking.
set -euo pipefail
bin=${1:-build/ptsbench}
scratch=$(mktemp -d /var/tmp/ptsbench-demo-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
out="demo-results/run-$(date +%Y%m%d-%H%M%S)"
"$bin" run --target "$scratch/demo-target.dat" --size 1g \
  --workload rw=randrw,rwmixread=70,bs=4k,qd=32,workers=2 \
  --rounds 8 --round-time 3 --out "$out"
echo
echo "demo: results in $out/results.json (schema: reports/results-schema.md)"
