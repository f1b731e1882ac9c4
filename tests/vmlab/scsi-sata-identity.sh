# scsi-sata-identity.sh — a lab scenario (scripts/vmlab/run.sh): a virtio-scsi disk and a SATA
# disk on AHCI, through the sd driver, as ptsbench probes them. SCSI and SATA disks keep their
# serial number in the Unit Serial Number VPD page (sysfs device/vpd_pg80; for SATA libata makes
# it from IDENTIFY DEVICE): before this scenario target.serial was empty for both, which also
# weakened --resume's same-drive check. rotation_rate=1 makes QEMU's disks report non-rotational.
# qemu: -device virtio-scsi-pci,id=scsi0 -drive file=@vs:64M,if=none,id=vs0,format=raw
# qemu: -device scsi-hd,drive=vs0,bus=scsi0.0,serial=PTSBSCSI01,rotation_rate=1
# qemu: -drive file=@sata:64M,if=none,id=sa0,format=raw
# qemu: -device ide-hd,drive=sa0,bus=ide.0,serial=PTSBSATA01,rotation_rate=1
# modules: virtio_scsi,sd_mod,ahci
. "$(dirname "$0")/lib.sh"
serials=""
for d in /dev/sd?; do
  [ -b "$d" ] || continue
  n=$(basename $d)
  if "$pts" run --target $d --workload rw=randread,bs=4k,qd=4 --rounds 1 --round-time 1 -q \
       -o /tmp/$n > /tmp/$n.log 2>&1; then
    echo "PASS $n-read-run"
  else
    echo "FAIL $n-read-run: $(tail -1 /tmp/$n.log)"; continue
  fi
  s=$(python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['target']
print(t.get('serial',''), t.get('interface',''), t.get('driver',''), t.get('rotational'))" /tmp/$n/results.json)
  echo "  $n: serial interface driver rotational = $s"
  set -- $s
  serials="$serials $1"
  case "$1" in
    PTSBSCSI01) [ "$2" = scsi ] || [ "$2" = virtio ] && echo "PASS $n-scsi-interface" ||
                  echo "FAIL $n-scsi-interface: '$2'" ;;
    PTSBSATA01) [ "$2" = sata ] && echo "PASS $n-sata-interface" || echo "FAIL $n-sata-interface: '$2'" ;;
  esac
  [ "$3" = sd ] && echo "PASS $n-driver-sd" || echo "FAIL $n-driver-sd: '$3'"
  [ "$4" = False ] && echo "PASS $n-not-rotational" || echo "FAIL $n-not-rotational: '$4'"
done
case "$serials" in *PTSBSCSI01*) echo "PASS scsi-serial-from-vpd80" ;;
  *) echo "FAIL scsi-serial-from-vpd80: serials found:$serials" ;; esac
case "$serials" in *PTSBSATA01*) echo "PASS sata-serial-from-vpd80" ;;
  *) echo "FAIL sata-serial-from-vpd80: serials found:$serials" ;; esac
exit 0
