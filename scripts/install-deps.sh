#!/usr/bin/env bash
# Install the Debian packages ptsbench needs to build, test and plot.
# Called by the make targets that need them; does nothing when all are present.
# Usage: scripts/install-deps.sh [--check] [--pdf]
#   --check: only report, exit 1 if any is missing
#   --pdf:   also chromium and poppler-utils (large, optional: `report --pdf` prints with a
#            headless Chromium; test_report_pdf reads the PDF back with pdftotext; without
#            them that test skips and --pdf says what is missing; scripts/screenshots.sh
#            needs both)
set -euo pipefail
check=""
pdf=""
for a in "$@"; do
  case "$a" in
    --check) check=1 ;;
    --pdf) pdf=1 ;;
    *) echo "install-deps: unknown option $a (--check, --pdf)" >&2; exit 2 ;;
  esac
done

packages=(
  build-essential   # gcc, make
  pkg-config
  liburing-dev      # io_uring engine
  libaio-dev        # libaio engine
  libjson-c-dev     # results
  zlib1g-dev        # compressibility checks (tests, results)
  liblz4-dev        # compressibility checks (second compressor)
  libcmocka-dev     # unit and integration tests
  libblkid-dev      # filesystem, partition-table, LVM and RAID signatures on a target (safety)
  libsqlite3-dev    # the results history (ptsbench db, gate --db): one file, no server
  nettle-dev        # SHA-256 of an imported results document (the history's content key)
  clang             # make fuzz: libFuzzer harnesses (clang's -fsanitize=fuzzer)
  fio               # fio engine, make bench
  gnuplot-nox       # plots
  e2fsprogs         # mkfs.ext4 for the mounted-device refusal test
  util-linux        # losetup, mount, blkdiscard
  python3           # tests: Python's csv and html.parser read back export's CSV and the single-file report
)
if [ -n "$pdf" ]; then
  packages+=(chromium poppler-utils)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ -n "$check" ]; then
  echo "missing packages: ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: not root and no sudo; please install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
