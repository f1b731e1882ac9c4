# nvme-health.sh — a lab scenario (scripts/vmlab/run.sh): a drive's health and its write cache
# as ptsbench reads, records and sets them (issue 44, items 3 and 4), on QEMU's NVMe controller
# and on a SATA disk on AHCI.
# - Health: the controller reports critical warning 5 (smart_critical_warning=5: bit 0, spare
#   below threshold, and bit 2, reliability degraded) and QEMU's fixed 323 K (50 °C). Both are
#   recorded; the warning is said in one line on stderr at the start of the run; the data units
#   written and read (1000 x 512 bytes, rounded up) grow by what the kernel sent the namespace
#   (its sysfs stat) within one unit. The SATA disk's health comes from smartctl as it reports it.
# - Write cache: QEMU's controller has a volatile write cache (id-ctrl VWC = 7: present, and the
#   broadcast namespace ID supported). The Volatile Write Cache feature (06h) is the
#   controller's: set on a namespace it fails "Feature Not Namespace Specific". A suite under
#   PTS-E (write cache off) must record it applied, have it off on the device while it runs (an
#   independent `nvme get-feature` poll), and put back what it found (here: on). Under PTS-C
#   (on) with the cache found off, the same the other way round.
# qemu: -drive file=@nvme0:32M,if=none,id=nv0,format=raw
# qemu: -device nvme,serial=PTSBH001,id=nvc0,smart_critical_warning=5
# qemu: -device nvme-ns,drive=nv0,bus=nvc0,nsid=1
# qemu: -drive file=@sata:64M,if=none,id=sa0,format=raw
# qemu: -device ide-hd,drive=sa0,bus=ide.0,serial=PTSBSATA01,rotation_rate=1
# modules: nvme,sd_mod,ahci
. "$(dirname "$0")/lib.sh"

ns=/dev/nvme0n1 ctrl=/dev/nvme0
[ -b $ns ] && [ -c $ctrl ]; check nvme-namespace-present $? "no $ns or $ctrl in the guest"
# the feature's current value (0 or 1) as the controller says it
vwc() { nvme get-feature $ctrl --feature-id=6 2>/dev/null | sed -n 's/.*Current value:\(0x\)\{0,1\}0*\([0-9a-f]*\).*/\2/p' |
        sed 's/^$/0/'; }
# sectors read and written (fields 3 and 7 of the block layer's stat)
stat_sectors() { awk -v f=$1 '{print $f}' /sys/block/nvme0n1/stat; }

echo "  captured: nvme smart-log $ctrl -o json (tests/fixtures/health)"
nvme smart-log $ctrl -o json 2>&1 | sed 's/^/  | /'

# ---- health over a run: warning, temperature, data units
r0=$(stat_sectors 3) w0=$(stat_sectors 7)
"$pts" run --target $ns --destructive --workload rw=randrw,rwmixread=50,bs=64k,qd=4 --rounds 1 \
  --round-time 2 -q -o /tmp/h > /tmp/h.out 2> /tmp/h.err
check health-run-completes $? "$(tail -1 /tmp/h.err)"
r1=$(stat_sectors 3) w1=$(stat_sectors 7)
r=/tmp/h/results.json
sed 's/^/  stderr: /' /tmp/h.err
n=$(grep -ci 'critical warning' /tmp/h.err)
head -1 /tmp/h.err | grep -qi 'critical warning' && [ "$n" = 1 ]
check critical-warning-said-at-start $? "$n lines name it; stderr begins '$(head -1 /tmp/h.err)'"
cw=$(field $r health.before.critical_warning.value)
[ "$cw" = 5 ] && [ "$(field $r health.after.critical_warning.value)" = 5 ]
check critical-warning-recorded $? "health.before.critical_warning = '$(field $r health.before.critical_warning)'"
[ "$(field $r health.before.temperature_c.value)" = 50 ]
check temperature-recorded $? "health.before.temperature_c = '$(field $r health.before.temperature_c)'"
[ "$(field $r health.before.source)" = nvme-cli ]
check health-from-nvme-cli $? "source '$(field $r health.before.source)' note '$(field $r health.before.note)'"
# the controller counts 512-byte units and says thousands of them, rounded up: the delta is at
# least what ptsbench measured in its rounds and at most what the kernel sent the namespace over
# the whole command (its own probes included), each within one unit
within() {  # DELTA_BYTES ROUNDS_BYTES KERNEL_SECTORS
  python3 -c "import sys; d=int(sys.argv[1] or -1); lo=int(sys.argv[2] or 0); hi=int(sys.argv[3])*512
sys.exit(0 if lo > 0 and lo - 512000 <= d <= hi + 512000 else 1)" "$1" "$2" "$3"
}
rounds_bytes() { python3 -c "import json,sys
print(sum(r[sys.argv[2]]['bytes'] for r in json.load(open(sys.argv[1]))['rounds']))" $r $1; }
dw=$(field $r health.delta.host_bytes_written.value) bw=$(rounds_bytes write)
within "$dw" "$bw" $((w1 - w0))
check data-units-written-delta $? "delta $dw bytes; rounds wrote $bw, the kernel $(( (w1 - w0) * 512 ))"
dr=$(field $r health.delta.host_bytes_read.value) br=$(rounds_bytes read)
within "$dr" "$br" $((r1 - r0))
check data-units-read-delta $? "delta $dr bytes; rounds read $br, the kernel $(( (r1 - r0) * 512 ))"
echo "  t=${SECONDS}s"

# ---- write cache: PTS-E asks it off; the controller has it on
[ "$(vwc)" = 1 ]; check wc-on-at-start $? "get-feature says '$(vwc)'"
suite() {  # SPEC OUT
  ( while :; do vwc >> /tmp/$2.poll; sleep 0.3; done ) &
  poll=$!
  "$pts" suite --target $ns --destructive --spec $1 --tests lat --round-time 500ms --max-rounds 1 \
    --purge discard -q -o /tmp/$2 > /tmp/$2.out 2> /tmp/$2.err
  local st=$?
  kill $poll; wait $poll 2>/dev/null
  echo "  t=${SECONDS}s: suite $1"
  return $st
}
suite pts-2.0-e wce
check wc-suite-completes $? "$(tail -1 /tmp/wce.err)"
r=/tmp/wce/results.json
echo "  spec.write_cache: $(field $r spec.write_cache)"
[ "$(field $r spec.write_cache.changed)" = true ] && [ "$(field $r spec.write_cache.as_requested)" = true ]
check wc-off-applied $? "$(field $r spec.write_cache)"
grep -qx 0 /tmp/wce.poll
check wc-off-while-running $? "get-feature during the suite: $(sort /tmp/wce.poll | uniq -c | tr '\n' ' ')"
[ "$(vwc)" = 1 ]; check wc-restored-on $? "after the suite get-feature says '$(vwc)'"
[ "$(field $r spec.write_cache.restored)" = enabled ]
check wc-restore-recorded $? "spec.write_cache.restored '$(field $r spec.write_cache.restored)'"
python3 -c "import json,sys; n=json.load(open(sys.argv[1]))['compliance']['notes']
w=[x for x in n if 'write cache' in x]; print('  ' + '; '.join(w)); sys.exit(1 if w else 0)" $r
check wc-no-compliance-note $? "a note on the write cache"

# ---- PTS-C asks it on; the controller has it off (set here, controller-wide)
nvme set-feature $ctrl --feature-id=6 --value=0 > /dev/null 2>&1
[ "$(vwc)" = 0 ]; check wc-off-set-by-hand $? "get-feature says '$(vwc)'"
suite pts-2.0-c wcc
check wc-c-suite-completes $? "$(tail -1 /tmp/wcc.err)"
r=/tmp/wcc/results.json
echo "  spec.write_cache: $(field $r spec.write_cache)"
[ "$(field $r spec.write_cache.before)" = disabled ] && [ "$(field $r spec.write_cache.changed)" = true ] &&
  [ "$(field $r spec.write_cache.as_requested)" = true ]
check wc-on-applied $? "$(field $r spec.write_cache)"
grep -qx 1 /tmp/wcc.poll
check wc-on-while-running $? "get-feature during the suite: $(sort /tmp/wcc.poll | uniq -c | tr '\n' ' ')"
[ "$(vwc)" = 0 ]; check wc-restored-off $? "after the suite get-feature says '$(vwc)'"
nvme set-feature $ctrl --feature-id=6 --value=1 > /dev/null 2>&1

echo "  t=${SECONDS}s"
# ---- SATA: smartctl's view of QEMU's ATA disk, recorded as it is
sata=""
for d in /dev/sd?; do [ -b "$d" ] && sata=$d; done
[ -n "$sata" ]; check sata-disk-present $? "no /dev/sd? in the guest"
smartctl -j -a $sata > /tmp/sc.json 2>&1
"$pts" run --target $sata --workload rw=randread,bs=4k,qd=4 --rounds 1 --round-time 1 -q \
  -o /tmp/s > /tmp/s.out 2> /tmp/s.err
check sata-run-completes $? "$(tail -1 /tmp/s.err)"
r=/tmp/s/results.json
echo "  sata health.before: $(field $r health.before)"
[ "$(field $r health.before.source)" = smartctl ] && [ "$(field $r health.before.protocol)" = ata ]
check sata-health-from-smartctl $? "source '$(field $r health.before.source)' note '$(field $r health.before.note)'"
t=$(field /tmp/sc.json temperature.current)
[ -n "$t" ] && [ "$(field $r health.before.temperature_c.value)" = "$t" ]
check sata-temperature $? "smartctl says '$t', recorded '$(field $r health.before.temperature_c)'"
h=$(field /tmp/sc.json power_on_time.hours)
[ -n "$h" ] && [ "$(field $r health.before.power_on_hours.value)" = "$h" ]
check sata-power-on-hours $? "smartctl says '$h', recorded '$(field $r health.before.power_on_hours)'"
# QEMU's ATA disk has no write counter attribute (241 and the like): said, never a zero
[ "$(field $r health.before.host_bytes_written)" = "not reported" ] &&
  [ "$(field $r health.before.critical_warning)" = "not reported" ]
check sata-absent-said-not-reported $? "host_bytes_written '$(field $r health.before.host_bytes_written)' critical_warning '$(field $r health.before.critical_warning)'"
! grep -qi 'critical warning' /tmp/s.err
check sata-no-warning-line $? "$(grep -i 'critical warning' /tmp/s.err)"
exit 0
