# purge-scsi-ata.sh — a lab scenario (scripts/vmlab/run.sh): --purge on a virtio-scsi disk and
# two SATA disks on AHCI, through the sd driver, sg_format and hdparm. SCSI FORMAT UNIT (a no-op
# in QEMU) without sg_format's 15 s countdown and its fixed 60 s poll, recorded as not verified
# erased; discard (UNMAP, TRIM) issued where the disk supports it and refused in one line where
# it does not (the second SATA disk has no TRIM: discard_granularity=0); ATA secure erase and
# sanitize refused up front in one line (QEMU's ATA disk has neither feature set), nothing written.
# qemu: -device virtio-scsi-pci,id=scsi0
# qemu: -drive file=@vs:64M,if=none,id=vs0,format=raw,discard=unmap
# qemu: -device scsi-hd,drive=vs0,bus=scsi0.0,serial=PTSBSCSIP1,rotation_rate=1
# qemu: -drive file=@sa:64M,if=none,id=sa0,format=raw,discard=unmap
# qemu: -device ide-hd,drive=sa0,bus=ide.0,serial=PTSBSATAP1,rotation_rate=1
# qemu: -drive file=@sb:64M,if=none,id=sb0,format=raw
# qemu: -device ide-hd,drive=sb0,bus=ide.1,serial=PTSBSATAP2,rotation_rate=1,discard_granularity=0
# modules: virtio_scsi,sd_mod,ahci
. "$(dirname "$0")/lib.sh"

by_serial() {   # the /dev/sdX whose Unit Serial Number VPD page holds $1
  for d in /sys/block/sd*; do
    grep -qa "$1" $d/device/vpd_pg80 2>/dev/null && { echo /dev/$(basename $d); return; }
  done
}
scsi=$(by_serial PTSBSCSIP1) sata=$(by_serial PTSBSATAP1) notrim=$(by_serial PTSBSATAP2)
[ -n "$scsi" ] && [ -n "$sata" ] && [ -n "$notrim" ]
check three-disks-present $? "scsi '$scsi' sata '$sata' no-trim '$notrim'"
short="--workload rw=read,bs=4k,qd=1 --rounds 1 --round-time 1 -q"
hdparm -I $sata 2>&1 | sed 's/^/  hdparm-I| /'

# ---- SCSI format: no countdown, no fixed minute; not verified erased (QEMU's is a no-op)
dd if=/dev/urandom of=$scsi bs=1M count=4 oflag=direct status=none
t0=$(date +%s)
"$pts" run --target $scsi --destructive --purge format $short -o /tmp/fmt > /tmp/fmt.log 2>&1
rc=$?; secs=$(( $(date +%s) - t0 ))
check scsi-format-run-completes $rc "$(tail -1 /tmp/fmt.log)"
r=/tmp/fmt/results.json
echo "  scsi format: $secs s; command: $(field $r preconditioning.purge.command); verify: $(field $r preconditioning.purge.verify)"
ps=$(field $r preconditioning.purge.seconds)
python3 -c "import sys; sys.exit(0 if 0 <= float(sys.argv[1] or 99) < 40 else 1)" "$ps"
check scsi-format-no-fixed-waits $? "the purge took $ps s (sg_format's countdown and 60 s poll?)"
case "$(field $r preconditioning.purge.command)" in *--quick*) true ;; *) false ;; esac
check scsi-format-quick $? "command '$(field $r preconditioning.purge.command)'"
[ "$(field $r preconditioning.purge.variant)" = "SCSI format unit" ] && [ "$(field $r preconditioning.purge.ran)" = true ]
check scsi-format-recorded $? "variant '$(field $r preconditioning.purge.variant)' ran '$(field $r preconditioning.purge.ran)'"
[ -n "$(field $r preconditioning.purge.verify.note)" ] && [ "$(field $r preconditioning.purge.verify.erased)" = false ]
check scsi-format-labelled-not-verified $? "purge.verify '$(field $r preconditioning.purge.verify)'"

# ---- discard: SCSI UNMAP, ATA TRIM; refused on the disk without TRIM
for d in $scsi $sata $notrim; do
  n=$(basename $d); dmb=$(cat /sys/block/$n/queue/discard_max_bytes)
  dd if=/dev/urandom of=$d bs=1M count=4 oflag=direct status=none
  before=$(md5 $d)
  "$pts" run --target $d --destructive --purge discard $short -o /tmp/dis-$n > /tmp/dis-$n.out 2> /tmp/dis-$n.err
  rc=$?; r=/tmp/dis-$n/results.json
  echo "  $n discard: discard_max_bytes $dmb, exit $rc, variant '$(field $r preconditioning.purge.variant)'"
  if [ $d = $notrim ]; then
    [ "$dmb" = 0 ] && [ $rc = 2 ] && [ "$(wc -l < /tmp/dis-$n.err)" = 1 ] && [ ! -e /tmp/dis-$n ] &&
      [ "$(md5 $d)" = "$before" ]
    check ata-no-trim-discard-refused $? "dmb $dmb exit $rc: $(tr '\n' '|' < /tmp/dis-$n.err)"
  else
    [ "$dmb" -gt 0 ] && [ $rc = 0 ] && [ "$(field $r preconditioning.purge.variant)" = BLKDISCARD ] &&
      [ "$(field $r preconditioning.purge.ran)" = true ]
    check $([ $d = $scsi ] && echo scsi-unmap || echo ata-trim)-discard $? \
      "dmb $dmb exit $rc: $(tail -1 /tmp/dis-$n.err)"
  fi
done

# ---- ATA secure erase and sanitize: QEMU's disk has neither; refused up front, one line
for m in secure-erase sanitize; do
  dd if=/dev/urandom of=$sata bs=1M count=4 oflag=direct status=none
  before=$(md5 $sata)
  "$pts" run --target $sata --destructive --purge $m $short -o /tmp/$m > /tmp/$m.out 2> /tmp/$m.err
  rc=$?
  echo "  ata $m: exit $rc; stderr: $(head -3 /tmp/$m.err | tr '\n' '|')"
  [ $rc = 2 ]; check ata-$m-refused-exit-2 $? "exit $rc"
  [ "$(wc -l < /tmp/$m.err)" = 1 ] && grep -q "$sata" /tmp/$m.err && grep -q -- "$m" /tmp/$m.err
  check ata-$m-refused-one-line $? "stderr: $(tr '\n' '|' < /tmp/$m.err)"
  [ ! -e /tmp/$m ] && [ "$(md5 $sata)" = "$before" ]
  check ata-$m-nothing-written $? "$(ls /tmp/$m 2>&1 | tr '\n' ' ')"
done
exit 0
