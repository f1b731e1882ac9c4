#!/usr/bin/env bash
# scripts/screenshots.sh — regenerate reports/img/report-*.png (by hand; not part of make test).
#
# A two-device report on both simulated drives (sim:zdrive-6300-1.6t, sim:zdrive-r4-cm88-1.6t):
# suite iops,dirth with 5-second elements, a cut latency sweep (no preconditioning, 2-second
# points) and the ATTO sweep (2-second points), reported with --single-file --pdf, and the first
# page of each section printed to PNG (pdftoppm, poppler-utils). Needs build/ptsbench (or
# PTSBENCH=...), chromium and poppler-utils. Run from the repository root:
#   scripts/screenshots.sh [SCRATCH_DIR]      (default /tmp/shots)
set -euo pipefail
cd "$(dirname "$0")/.."
PTSBENCH=${PTSBENCH:-build/ptsbench}
OUT=${1:-/tmp/shots}
mkdir -p "$OUT"

# REUSE=1: keep results already in SCRATCH_DIR (only the report and the images are redone)
have() { [[ -n ${REUSE:-} && -f $1/results.json ]]; }
for dev in zdrive-6300-1.6t zdrive-r4-cm88-1.6t; do
    have "$OUT/suite-$dev" || "$PTSBENCH" suite --target "sim:$dev" --tests iops,dirth --round-time 5s \
        --out "$OUT/suite-$dev" --force --quiet
    have "$OUT/latency-$dev" || "$PTSBENCH" profile latency-sweep --target "sim:$dev" --workers 1,4 --qd 1,4,16,64 \
        --precondition none --round-time 2s --out "$OUT/latency-$dev" --force --quiet
    have "$OUT/atto-$dev" || "$PTSBENCH" profile atto --target "sim:$dev" --round-time 2s \
        --out "$OUT/atto-$dev" --force --quiet
done

rm -rf "$OUT/rep"
"$PTSBENCH" report --single-file --pdf -o "$OUT/rep" \
    "$OUT/suite-zdrive-6300-1.6t" "$OUT/suite-zdrive-r4-cm88-1.6t" \
    "$OUT/latency-zdrive-6300-1.6t" "$OUT/latency-zdrive-r4-cm88-1.6t" \
    "$OUT/atto-zdrive-6300-1.6t" "$OUT/atto-zdrive-r4-cm88-1.6t"

# the first page whose text has a line matching $1 (an extended regular expression)
page_of() {
    local pages p
    pages=$(pdfinfo "$OUT/rep/report.pdf" | awk '/^Pages:/ {print $2}')
    for ((p = 2; p <= pages; p++)); do   # page 1: the title and the contents
        # the page's text whole first: grep -q would end the pipe early (pipefail)
        if grep -Eq "$1" <<<"$(pdftotext -f "$p" -l "$p" -layout "$OUT/rep/report.pdf" -)"; then
            echo "$p"
            return
        fi
    done
    echo "no page for $1" >&2
    return 1
}

mkdir -p reports/img
for shot in "summary:^ *Summary *$" "iops:IOPS test: IOPS by block size, one line per R/W mix" \
            "latency-sweep:latency-sweep-read: mean latency against IOPS" \
            "atto:ATTO: sequential MB/s by transfer size" \
            "dirth:^ *Demand Intensity / Response Time Histogram *$"; do
    name=${shot%%:*}
    p=$(page_of "${shot#*:}")
    pdftoppm -png -r 80 -f "$p" -l "$p" -singlefile "$OUT/rep/report.pdf" "reports/img/report-$name"
    echo "reports/img/report-$name.png: page $p"
done
