# nvme-subsys.sh — a lab scenario (scripts/vmlab/run.sh): an NVMe subsystem with three namespaces
# (512 B LBA, zoned, 4 KiB LBA) on a controller behind a PCIe root port of NUMA node 1, reached
# through native-multipath head nodes (/dev/nvme0nY; the path nvme0c0nY is hidden): identity and
# NUMA node of a head node, the 4 KiB namespace's block size, the zoned namespace's refusal.
# qemu: -object memory-backend-ram,id=mem0,size=512M -object memory-backend-ram,id=mem1,size=512M
# qemu: -numa node,nodeid=0,cpus=0,memdev=mem0 -numa node,nodeid=1,cpus=1,memdev=mem1
# qemu: -device pxb-pcie,id=pxb1,bus_nr=64,numa_node=1,bus=pcie.0
# qemu: -device pcie-root-port,id=rp1,bus=pxb1,chassis=1,slot=1
# qemu: -device nvme-subsys,id=subsys0,nqn=ptsb-subsys
# qemu: -device nvme,id=ctrl0,serial=PTSBSUB1,subsys=subsys0,bus=rp1
# qemu: -drive file=@plain:128M,if=none,id=ns1,format=raw
# qemu: -device nvme-ns,drive=ns1,bus=ctrl0,nsid=1
# qemu: -drive file=@zoned:64M,if=none,id=ns2,format=raw
# qemu: -device nvme-ns,drive=ns2,bus=ctrl0,nsid=2,zoned=true,zoned.zone_size=8M,zoned.zone_capacity=8M
# qemu: -drive file=@lba4k:64M,if=none,id=ns3,format=raw
# qemu: -device nvme-ns,drive=ns3,bus=ctrl0,nsid=3,logical_block_size=4096,physical_block_size=4096
# modules: nvme
. "$(dirname "$0")/lib.sh"

# flat FILE: every value of results FILE as "a.b.0.c<TAB>value" lines in FILE.flat, with one
# python3 (slow to start in the guest: over 9p, under TCG); get FILE a.b.0.c reads one back.
flat() {
  python3 - "$1" > "$1.flat" <<'PY'
import json, sys
def walk(p, v):
    if isinstance(v, dict):
        for k, x in v.items(): walk(p + [k], x)
    elif isinstance(v, list):
        for i, x in enumerate(v): walk(p + [str(i)], x)
    else:
        print(".".join(p) + "\t" + ("" if v is None else str(v).replace("\n", " ")))
try:
    walk([], json.load(open(sys.argv[1])))
except Exception:
    pass
PY
}
get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1.flat" 2>/dev/null; }

plain=/dev/nvme0n1 zoned=/dev/nvme0n2 lba4k=/dev/nvme0n3
ctrl=/sys/class/nvme/nvme0
pci=$(basename "$(readlink -f $ctrl/device)")
quick="--rounds 1 --round-time 1 -q"

# ---- the lab itself: two nodes, the controller on node 1, head nodes with hidden paths
[ "$(cat /sys/devices/system/node/online 2>/dev/null)" = 0-1 ]; check guest-two-numa-nodes $? \
  "nodes online '$(cat /sys/devices/system/node/online 2>/dev/null)'"
[ "$(cat $ctrl/device/numa_node 2>/dev/null)" = 1 ]; check controller-on-node-1 $? \
  "$pci numa_node '$(cat $ctrl/device/numa_node 2>/dev/null)'"
[ -b $plain ] && [ -b $zoned ] && [ -b $lba4k ] && [ -e /sys/block/nvme0c0n1 ] && \
  [ ! -e /dev/nvme0c0n1 ] && [ "$(basename "$(readlink -f /sys/block/nvme0n1/device)")" = nvme-subsys0 ]
check multipath-heads-present $? "$(ls /dev/nvme* /sys/block 2>&1 | tr '\n' ' ')"

# ---- 1. identity of a head node: taken from its path's controller
"$pts" run --target $plain --workload rw=randread,bs=4k,qd=4 $quick -o /tmp/head > /tmp/head.log 2>&1
check head-read-run-completes $? "$(tail -1 /tmp/head.log)"
r=/tmp/head/results.json; flat $r
[ "$(get $r target.model)" = "QEMU NVMe Ctrl" ]; check head-model $? "model '$(get $r target.model)'"
[ "$(get $r target.serial)" = PTSBSUB1 ]; check head-serial $? "serial '$(get $r target.serial)'"
[ "$(get $r target.firmware)" = "$(cat $ctrl/firmware_rev | tr -d ' ')" ] && [ -n "$(get $r target.firmware)" ]
check head-firmware $? "firmware '$(get $r target.firmware)'"
[ "$(get $r target.driver)" = nvme ]; check head-driver $? "driver '$(get $r target.driver)'"
[ "$(get $r target.interface)" = nvme ]; check head-interface $? "interface '$(get $r target.interface)'"
[ "$(get $r target.pcie.address)" = "$pci" ]; check head-pcie-address $? \
  "address '$(get $r target.pcie.address)', the controller's is $pci"
[ "$(get $r target.pcie.link_speed)" = "$(cat /sys/bus/pci/devices/$pci/current_link_speed)" ] \
  && [ "$(get $r target.pcie.link_width)" = "$(cat /sys/bus/pci/devices/$pci/current_link_width)" ]
check head-pcie-link $? "link '$(get $r target.pcie.link_speed)' x'$(get $r target.pcie.link_width)'"
[ "$(get $r target.numa_node)" = 1 ]; check head-numa-node $? "numa_node '$(get $r target.numa_node)'"
[ "$(get $r placement.device_node)" = 1 ] && [ "$(get $r placement.node)" = 1 ]
check head-placement-node-1 $? "device_node '$(get $r placement.device_node)' pinned node \
'$(get $r placement.node)': $(get $r placement.device_node_reason) $(get $r placement.reason)"
[ "$(get $r target.multipath.paths.0.name)" = nvme0c0n1 ] && \
  [ "$(get $r target.multipath.paths.0.controller)" = nvme0 ] && \
  [ "$(get $r target.multipath.used)" = nvme0c0n1 ]
check head-paths-recorded $? "$(grep multipath $r.flat | tr '\n' ' ')"

# ---- 2. the 4 KiB-LBA namespace
sum=$(md5 $lba4k)
"$pts" run --target $lba4k --destructive --workload rw=randwrite,bs=512,qd=4 $quick -o /tmp/b512 \
  > /tmp/b512.log 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e /tmp/b512 ] && grep -q 512 /tmp/b512.log && grep -q 4096 /tmp/b512.log && \
  [ "$(wc -l < /tmp/b512.log)" = 1 ]
check lba4k-bs512-refused $? "exit $rc: $(cat /tmp/b512.log)"
"$pts" run --target $lba4k --destructive --workload rw=randwrite,bs=4k,offset=2048,qd=4 $quick \
  -o /tmp/off > /tmp/off.log 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e /tmp/off ] && grep -q 2048 /tmp/off.log && grep -q 4096 /tmp/off.log
check lba4k-unaligned-offset-refused $? "exit $rc: $(cat /tmp/off.log)"
[ "$(md5 $lba4k)" = "$sum" ]; check lba4k-refusals-wrote-nothing $? "md5 changed"
"$pts" run --target $lba4k --destructive --workload rw=randrw,rwmixread=70,bs=4k,qd=8 $quick \
  -o /tmp/rw4k > /tmp/rw4k.log 2>&1
check lba4k-randrw-runs $? "$(tail -1 /tmp/rw4k.log)"
r=/tmp/rw4k/results.json; flat $r
[ "$(get $r target.logical_sector)" = 4096 ] && [ "$(get $r status)" = complete ]
check lba4k-logical-sector-recorded $? "logical_sector '$(get $r target.logical_sector)' status \
'$(get $r status)'"

# ---- 3. the zoned namespace: detected, reads run, writes and purges refused up front
[ "$(cat /sys/block/nvme0n2/queue/zoned)" = host-managed ]; check zoned-namespace-host-managed $? \
  "queue/zoned '$(cat /sys/block/nvme0n2/queue/zoned)'"
"$pts" run --target $zoned --workload rw=randread,bs=4k,qd=4 $quick -o /tmp/zr > /tmp/zr.log 2>&1
check zoned-randread-runs $? "$(tail -1 /tmp/zr.log)"
r=/tmp/zr/results.json; flat $r
[ "$(get $r target.zoned.model)" = host-managed ] && \
  [ "$(get $r target.zoned.zone_bytes)" = 8388608 ] && [ "$(get $r target.zoned.zones)" = 8 ]
check zoned-recorded $? "zoned: $(grep zoned $r.flat | tr '\n' ' ')"
sum=$(md5 $zoned)
refused() {   # NAME ARGS...: exit 2, one line naming the zoned model, no results directory
  local name=$1; shift
  "$pts" run --target $zoned --destructive "$@" $quick -o /tmp/$name > /tmp/$name.log 2>&1
  local rc=$?
  [ $rc = 2 ] && [ ! -e /tmp/$name ] && grep -q "$zoned" /tmp/$name.log && \
    grep -q host-managed /tmp/$name.log && [ "$(wc -l < /tmp/$name.log)" = 1 ]
  check $name $? "exit $rc: $(head -c 300 /tmp/$name.log)"
}
refused zoned-randwrite-refused --workload rw=randwrite,bs=4k,qd=4
refused zoned-seqwrite-refused --workload rw=write,bs=128k,qd=1
refused zoned-purge-format-refused --purge format --workload rw=randread,bs=4k,qd=4
refused zoned-purge-discard-refused --purge discard --workload rw=randread,bs=4k,qd=4
[ "$(md5 $zoned)" = "$sum" ]; check zoned-refusals-wrote-nothing $? "md5 changed"
echo "  zoned refusal: $(head -c 200 /tmp/zoned-randwrite-refused.log)"
echo "  head paths: $(grep multipath /tmp/head/results.json.flat | tr '\t\n' '= ')"
exit 0
