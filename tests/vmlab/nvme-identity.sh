# nvme-identity.sh — a lab scenario (scripts/vmlab/run.sh): an NVMe namespace through the
# kernel's nvme driver, as ptsbench probes and records it, read and written through the driver.
# qemu: -drive file=@nvme0:256M,if=none,id=nv0,format=raw -device nvme,serial=PTSB0001,drive=nv0
# modules: nvme
. "$(dirname "$0")/lib.sh"

dev=/dev/nvme0n1
[ -b $dev ]; check nvme-namespace-present $? "no $dev in the guest"
"$pts" run --target $dev --workload rw=randread,bs=4k,qd=4 --rounds 1 --round-time 1 -q \
  -o /tmp/read > /tmp/read.log 2>&1
check read-run-completes $? "$(tail -1 /tmp/read.log)"
r=/tmp/read/results.json
[ "$(field $r status)" = complete ]; check read-status-complete $? "status $(field $r status)"
[ "$(field $r target.model)" = "QEMU NVMe Ctrl" ]; check model $? "model '$(field $r target.model)'"
[ "$(field $r target.serial)" = PTSB0001 ]; check serial $? "serial '$(field $r target.serial)'"
[ "$(field $r target.driver)" = nvme ]; check driver $? "driver '$(field $r target.driver)'"
[ "$(field $r target.interface)" = nvme ]; check interface $? "interface '$(field $r target.interface)'"
[ -n "$(field $r target.pcie.address)" ]; check pcie-address $? "no PCIe address"
[ "$(field $r state.content)" = unknown ]; check content-history-unknown $? \
  "content '$(field $r state.content)' on a device nobody purged"
"$pts" run --target $dev --workload rw=randwrite,bs=4k,qd=4 --rounds 1 --round-time 1 -q \
  -o /tmp/refused > /tmp/refused.log 2>&1
[ $? = 2 ] && [ ! -e /tmp/refused ]; check write-needs-destructive $? \
  "exit $? without --destructive: $(tail -1 /tmp/refused.log)"
"$pts" run --target $dev --destructive --purge discard --workload rw=randrw,rwmixread=70,bs=4k,qd=8 \
  --rounds 2 --round-time 1 --all-rounds -q -o /tmp/rw > /tmp/rw.log 2>&1
check purge-and-write-through-the-driver $? "$(tail -1 /tmp/rw.log)"
r=/tmp/rw/results.json
[ "$(field $r state.content)" = purge ]; check content-after-purge $? "content '$(field $r state.content)'"
python3 - "$r" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r0 = d["rounds"][0]
ok = r0.get("unwritten_reads", {}).get("labelled") is True and r0["depth"]["declared"] == 8
print("PASS first-round-after-discard-labelled" if ok else
      "FAIL first-round-after-discard-labelled: %s" % json.dumps(r0.get("unwritten_reads")))
PY
exit 0
