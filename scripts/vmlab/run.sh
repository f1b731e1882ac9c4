#!/usr/bin/env bash
# scripts/vmlab/run.sh SCENARIO... — boot the lab guest once per scenario and print its checks.
#
# A scenario is tests/vmlab/NAME.sh: a bash script run inside the guest (as root, in a chroot of
# this machine's root, read-only, with empty tmpfs /tmp and /var/tmp), whose header says
#   # qemu: ARG ARG ...     the devices QEMU gives the guest (disk images named @NAME are made
#                           by this script: @NAME:SIZE, sparse, under a temp dir, removed after)
#   # modules: A,B:k=v:k=v  the kernel modules the guest loads before the scenario runs, each
#                           with its parameters after ':'
# and which prints one line per check, "PASS name" or "FAIL name: why". This script prints the
# guest's console, then per scenario and over all the plain count "N passed, N failed". Exit 1
# when a check failed or a guest did not end with VMLAB-EXIT 0 (a crash, a hang: $VMLAB_TIMEOUT
# seconds, default 600: a TCG guest on a busy 2-core machine runs several times slower).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# Where the lab cannot be set up (qemu cannot be installed, the kernel package cannot be
# downloaded) or qemu cannot run, it is skipped with one line and exit 0, unless VMLAB_REQUIRED=1.
skip() {
  echo "vmlab: skipped: $*"
  [ "${VMLAB_REQUIRED:-0}" = 1 ] && exit 1
  exit 0
}
why=$(mktemp)
t0=$(date +%s)
cache=$("$root/scripts/vmlab/setup.sh" 2>"$why" | tail -1)
[ -n "$cache" ] || skip "$(tail -1 "$why")"
rm -f "$why"
echo "vmlab: set-up in $(( $(date +%s) - t0 )) s ($cache)"
timeout 60 qemu-system-x86_64 -machine q35 -accel tcg -nodefaults -display none -S -no-reboot \
  -qmp stdio >/dev/null 2>&1 <<<'{"execute":"qmp_capabilities"} {"execute":"quit"}' ||
  skip "qemu-system-x86_64 cannot start a TCG q35 machine here"
kv=$(cat "$cache/kernel-version")
passed=0 failed=0 rc=0
for name in "$@"; do
  sc="$root/tests/vmlab/$name.sh"
  [ -f "$sc" ] || { echo "vmlab: no scenario $sc" >&2; rc=1; continue; }
  tmp=$(mktemp -d /var/tmp/ptsbench-vmlab-run-XXXXXX)
  qargs=$(sed -n 's/^# qemu: //p' "$sc" | tr '\n' ' ')
  mods=$(sed -n 's/^# modules: //p' "$sc" | tr -d ' \n')
  args=()
  for a in $qargs; do
    if [[ "$a" =~ ^(.*)@([a-z0-9_-]+):([0-9]+[kmgKMG]?)(.*)$ ]]; then
      img="$tmp/${BASH_REMATCH[2]}.img"
      [ -f "$img" ] || truncate -s "${BASH_REMATCH[3]}" "$img"
      a="${BASH_REMATCH[1]}$img${BASH_REMATCH[4]}"
    fi
    args+=("$a")
  done
  start=$(date +%s)
  log="$tmp/console.log"
  timeout "${VMLAB_TIMEOUT:-600}" qemu-system-x86_64 -machine q35 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
    -kernel "$cache/vmlinuz-$kv" -initrd "$cache/initrd-$kv.gz" \
    -append "console=ttyS0 quiet panic=-1 ptsb.repo=$root ptsb.scenario=tests/vmlab/$name.sh ptsb.modules=$mods" \
    -fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
    -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot "${args[@]}" \
    </dev/null 2>&1 | tr -d '\r' | tee "$log" | grep -E '^(PASS|FAIL|VMLAB|  )'
  p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log")
  if ! grep -q '^VMLAB-EXIT 0' "$log"; then
    echo "FAIL $name: the guest did not end its scenario (see $log)"; f=$((f + 1)); rc=1
  else
    rm -rf "$tmp"
  fi
  [ "$f" -gt 0 ] && rc=1
  echo "vmlab $name: $p passed, $f failed in $(( $(date +%s) - start )) s"
  passed=$((passed + p)); failed=$((failed + f))
done
echo "vmlab: $# scenarios in $(( $(date +%s) - t0 )) s"
echo "$passed passed, $failed failed"
exit $rc
