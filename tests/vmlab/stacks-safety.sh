# stacks-safety.sh — a lab scenario (scripts/vmlab/run.sh): ptsbench's write refusals on real
# storage stacks. A member of an md RAID1, an LVM physical volume with an active volume, a disk
# with a mounted ext4 partition, and an NVMe namespace in a subsystem whose multipath head holds
# a mounted ext4 (the head and its hidden path as targets). Every destructive write and every
# purge is refused with one line naming the target as typed and what holds it, exit 2, no output
# directory made, and the device's bytes unchanged (md5 before and after). No udev in the guest:
# mdadm --run, lvm with udev_sync=0 udev_rules=0.
# qemu: -drive file=@md1:48M,if=none,id=m1,format=raw -device virtio-blk-pci,drive=m1,serial=PTSBMD1
# qemu: -drive file=@md2:48M,if=none,id=m2,format=raw -device virtio-blk-pci,drive=m2,serial=PTSBMD2
# qemu: -drive file=@pv:48M,if=none,id=pv,format=raw -device virtio-blk-pci,drive=pv,serial=PTSBPV
# qemu: -drive file=@part:48M,if=none,id=pt,format=raw -device virtio-blk-pci,drive=pt,serial=PTSBPART
# qemu: -device nvme-subsys,id=subsys0,nqn=ptsb-subsys0
# qemu: -device nvme,serial=PTSBMP01,subsys=subsys0
# qemu: -drive file=@mpns:48M,if=none,id=mp,format=raw -device nvme-ns,drive=mp,nsid=1
# modules: virtio_blk,nvme,raid1,dm_mod,crc32c_generic,ext4
. "$(dirname "$0")/lib.sh"

# lvm without udev, without writing /etc (the guest's root is read-only)
lvmcfg='devices{obtain_device_list_from_udev=0} activation{udev_sync=0 udev_rules=0} backup{backup=0 archive=0} global{use_lvmetad=0}'
mkdir -p /run/lock/lvm /tmp/mnt/part /tmp/mnt/mp

# refused NAME TARGET HOLDER ARG...: a run on TARGET with ARG... is refused with exit 2 and
# one line that names TARGET and HOLDER; no output directory; TARGET's bytes unchanged.
refused() {
  local name=$1 target=$2 holder=$3; shift 3
  local out=/tmp/out-$name before after rc line n
  before=$(md5 "$target")
  timeout 120 "$pts" run --target "$target" --rounds 1 --round-time 1 -q -o "$out" "$@" \
    > /tmp/$name.log 2>&1
  rc=$?
  after=$(md5 "$target")
  n=$(grep -c . /tmp/$name.log); line=$(head -1 /tmp/$name.log)
  echo "  $name: exit $rc: $line"
  [ $rc = 2 ]; check $name-exit-2 $? "exit $rc: $line"
  [ "$n" = 1 ]; check $name-one-line $? "$n lines: $(tr '\n' '|' < /tmp/$name.log)"
  case "$line" in *"$target "*|*"$target:"*|*"$target,"*|*"$target)"*) true ;; *) false ;; esac
  check $name-names-target $? "'$target' not in: $line"
  case "$line" in *"$holder"*) true ;; *) false ;; esac
  check $name-names-holder $? "'$holder' not in: $line"
  [ ! -e "$out" ]; check $name-nothing-created $? "$out exists"
  [ "$before" = "$after" ]; check $name-bytes-unchanged $? "md5 $before -> $after"
}
write=(--destructive --workload rw=randwrite,bs=4k,qd=4)
# a purge, confirming the signatures too: what holds the device still refuses it
purge=(--destructive --overwrite-signatures --purge discard --workload rw=randread,bs=4k,qd=4)

# 1. md RAID1 over vda and vdb (assume-clean: no resync writing the members)
mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 --assume-clean \
  --bitmap=none /dev/vda /dev/vdb > /tmp/md.log 2>&1
[ -b /dev/md0 ] && grep -q active /proc/mdstat; check md-raid1-built $? "$(tail -1 /tmp/md.log)"
refused md-member-write /dev/vda md0 "${write[@]}"
refused md-member-purge /dev/vdb md0 "${purge[@]}"

# 2. an LVM physical volume (vdc) with an active logical volume (held by dm-0)
{ pvcreate --config "$lvmcfg" /dev/vdc && vgcreate --config "$lvmcfg" ptsbvg /dev/vdc &&
  lvcreate --config "$lvmcfg" -Zn -an -L 16M -n lv0 ptsbvg &&
  vgchange --config "$lvmcfg" -ay ptsbvg --sysinit; } > /tmp/lvm.log 2>&1
ls /sys/block/vdc/holders 2>/dev/null | grep -q dm; check lvm-volume-active $? \
  "no holder of vdc: $(tail -2 /tmp/lvm.log | tr '\n' ' ')"
refused lvm-pv-write /dev/vdc ptsbvg-lv0 "${write[@]}"
refused lvm-pv-purge /dev/vdc ptsbvg-lv0 "${purge[@]}"

# 3. a disk (vdd) with two partitions, the first an ext4 mounted on /tmp/mnt/part
python3 - /dev/vdd <<'PY'
import struct, sys
# an MBR: vdd1 1 MiB..24 MiB, vdd2 24 MiB..47 MiB, both type 0x83
def entry(start, count):
    return struct.pack('<B3sB3sII', 0, b'\0\0\0', 0x83, b'\0\0\0', start, count)
mbr = bytearray(512)
mbr[446:462] = entry(2048, 45056)
mbr[462:478] = entry(47104, 47104)
mbr[510:512] = b'\x55\xaa'
with open(sys.argv[1], 'r+b') as f:
    f.write(mbr)
PY
blockdev --rereadpt /dev/vdd 2>/dev/null
for i in 1 2 3 4 5; do [ -b /dev/vdd1 ] && break; sleep 0.2; done
{ mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/vdd1 &&
  mount -o noatime /dev/vdd1 /tmp/mnt/part; } > /tmp/part.log 2>&1
grep -q ' /tmp/mnt/part ' /proc/mounts; check partition-mounted $? "$(tail -1 /tmp/part.log) $(dmesg | tail -2 | tr '\n' ' ')"
sync
refused partition-write /dev/vdd1 /tmp/mnt/part "${write[@]}"
refused partition-purge /dev/vdd1 /tmp/mnt/part "${purge[@]}"
refused partitioned-disk-write /dev/vdd /tmp/mnt/part "${write[@]}"

# 4. an NVMe namespace in a subsystem: the kernel's native multipath makes the head nvme0n1
# and hides the path nvme0c0n1; an ext4 on the head, mounted
head=/dev/nvme0n1
path=$(ls -d /sys/block/nvme0c*n1 2>/dev/null | head -1); path=${path##*/}
[ -b $head ] && [ -n "$path" ]; check multipath-head-present $? "no head or hidden path: $(ls /sys/block | tr '\n' ' ')"
# the hidden path has no node of its own (GENHD_FL_HIDDEN): make one from its sysfs dev
if [ -n "$path" ] && [ ! -e /dev/$path ] && [ -r /sys/block/$path/dev ]; then
  IFS=: read -r ma mi < /sys/block/$path/dev; mknod /dev/$path b "$ma" "$mi"
fi
{ mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $head &&
  mount -o noatime $head /tmp/mnt/mp; } > /tmp/mp.log 2>&1
grep -q ' /tmp/mnt/mp ' /proc/mounts; check multipath-head-mounted $? "$(tail -1 /tmp/mp.log) $(dmesg | tail -2 | tr '\n' ' ')"
sync
refused mpath-head-write $head /tmp/mnt/mp "${write[@]}"
refused mpath-head-purge $head /tmp/mnt/mp "${purge[@]}"
if [ -b "/dev/$path" ]; then
  refused mpath-path-write /dev/$path /tmp/mnt/mp "${write[@]}"
  refused mpath-path-purge /dev/$path /tmp/mnt/mp "${purge[@]}"
else
  # Linux 6.1 gives a hidden path no device number (sysfs has no dev file): nothing can open
  # it, and a run on its name is refused as a missing target
  "$pts" run --target /dev/$path "${write[@]}" --rounds 1 --round-time 1 -q \
    -o /tmp/out-mpath-path > /tmp/mpath-path.log 2>&1
  rc=$?
  [ $rc = 2 ] && [ "$(grep -c . /tmp/mpath-path.log)" = 1 ] && [ ! -e /tmp/out-mpath-path ]
  check mpath-path-without-node-refused $? "exit $rc: $(cat /tmp/mpath-path.log) ($(ls /sys/block/$path | tr '\n' ' '))"
fi

umount /tmp/mnt/part /tmp/mnt/mp 2>/dev/null
exit 0
