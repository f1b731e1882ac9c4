#!/usr/bin/env bash
# make demo: the main job on the built-in default target, the simulated OCZ Z-Drive R4 CM88
# (8 SandForce controllers, 1.6 TB; ptsbench sim --describe zdrive-r4-cm88-1.6t).
# Quick settings: a write-saturation run (4 KiB random writes from fresh-out-of-box, 4 workers x
# QD 32, one-minute rounds) for 4 virtual hours with incompressible data, then 1 hour with 90%
# compressible data, which the DuraWrite-style controllers store in ~14% of the space; then the
# SNIA PTS IOPS test with shortened elements; the database and web server profiles at 0% and 90%
# compressible data with 1 and 4 workers; the drive checked against its spec sheet; and a
# report (HTML and Markdown, with gnuplot charts) of all of it.
# Virtual time: the whole demo takes seconds of CPU (about 30 on this project's 2-core machine). Results: demo-results/<timestamp>/.
set -euo pipefail
start=$SECONDS
bin=${1:-build/ptsbench}
here=$(cd "$(dirname "$0")" && pwd)
target=sim:zdrive-r4-cm88-1.6t
out="demo-results/$(date +%Y%m%d-%H%M%S)"

echo "== ptsbench demo on the simulated drive $target"
"$bin" sim --list | awk -v p="${target#sim:}" \
  '$1 == p { sub(/^[^ ]+ +/, ""); print "   " $0 " (its parameters: ptsbench sim --describe " p ")" }'
echo
# The five measurements are independent (each process simulates its own drive, in virtual time,
# one thread each), so they run at once on however many cores there are, and their output is
# printed in order, each step's when it has finished.
step1() {
  echo "== 1. write saturation from fresh-out-of-box, 0% compressible data: 240 x 1 min rounds"
  echo "      (4 h virtual); its first flat window is the burst plateau, its last the saturated drive"
  "$bin" run --target "$target" --workload rw=randwrite,bs=4k,qd=32,workers=4,compress=0 \
    --rounds 240 --round-time 1m --all-rounds --quiet --out "$out/wsat-0pct"
  "$bin" show --every 24 "$out/wsat-0pct"
}

step2() {
  echo "== 2. the same with 90% compressible data: 60 x 1 min rounds (1 h virtual)"
  "$bin" run --target "$target" --workload rw=randwrite,bs=4k,qd=32,workers=4,compress=90 \
    --rounds 60 --round-time 1m --all-rounds --quiet --out "$out/wsat-90pct"
  "$bin" show --every 10 "$out/wsat-90pct"
}

step3() {
  echo "== 3. the SNIA PTS-E 1.1 IOPS test (purge, WIPC, 56-element rounds to steady state), quick"
  echo "      settings: 10 s elements instead of 60 s, so the results say they are not compliant"
  "$bin" run-test iops --target "$target" --spec pts-e-1.1 --round-time 10s --out "$out/pts-iops"
}

step4() {
  echo "== 4. server profiles as in the StorageReview review: database and web server, 0% and 90%"
  echo "      compressible data, 1 and 4 workers, each point to steady state after WIPC + WDPC"
  "$bin" profile database webserver --target "$target" --compress 0,90 --workers 1,4 \
    --round-time 30s --quiet --out "$out/profiles"
  "$bin" show "$out/profiles"
}

step5() {
  echo "== 5. the drive against its spec sheet (specs/zdrive-r4-cm88-1.6t.ini): the vendor quotes"
  echo "      fresh-drive figures with compressible data, so they are measured that way"
  echo "      (profiles/datasheet.ini at 100% compressible data, burst after WIPC), and on the"
  echo "      drive alone: the preset carries the review's host (one Iometer worker's CPU per I/O),"
  echo "      the vendor measured on its own; verify exits 1 when a claim fails or has no"
  echo "      measurement in its state and at its conditions"
  "$bin" profile datasheet --target "$target,host_worker_us=0,host_worker_us_per_kib=0" \
    --compress 100 --round-time 10s --quiet --out "$out/datasheet"
  "$bin" show "$out/datasheet"
  echo
  "$bin" verify --spec zdrive-r4-cm88-1.6t "$out/datasheet" || true
}

logs=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$logs"' EXIT
mkdir -p "$out"
pids=()
for i in 1 2 3 4 5; do
  "step$i" >"$logs/$i" 2>&1 &
  pids[i]=$!
done
for i in 1 2 3 4 5; do
  status=0
  wait "${pids[i]}" || status=$?
  cat "$logs/$i"
  echo
  if [ "$status" -ne 0 ]; then echo "demo: step $i failed (exit $status)" >&2; exit "$status"; fi
done
echo "== 6. the report"
"$bin" report "$out/pts-iops" "$out/profiles" "$out/datasheet" "$out/wsat-0pct" \
  "$out/wsat-90pct" -l "Z-Drive R4 (PTS IOPS)" -l "Z-Drive R4 (profiles)" \
  -l "Z-Drive R4 (datasheet)" -l "Z-Drive R4 (WSAT 0%)" -l "Z-Drive R4 (WSAT 90%)" --title "ptsbench demo: simulated OCZ Z-Drive R4 CM88 1.6 TB" \
  --out "$out/report"
echo
echo "== 7. the figures README.md quotes, against this run's results"
python3 "$here/readme-figures.py" --check --readme "$here/../README.md" "$out"
echo
echo "demo: $((SECONDS - start)) s; results in $out/*/results.json (schema: reports/results-schema.md);"
echo "      open $out/report/report.html"
