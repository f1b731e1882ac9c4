# purge-nvme.sh — a lab scenario (scripts/vmlab/run.sh): --purge on an NVMe controller with two
# namespaces, through the nvme driver and nvme-cli. Format NVM with SES=1 on namespace 2 (QEMU's
# format zeroes the namespace): issued to namespace 2 and no other, the whole namespace read back
# as zeroes, namespace 1 untouched, and the results say what was issued and what was verified.
# A discard purge issued and recorded. Sanitize: QEMU's controller has none (SANICAP 0), so
# --purge sanitize must be refused up front: exit 2, one line, nothing written.
# qemu: -drive file=@ns1:16M,if=none,id=nv1,format=raw -drive file=@ns2:32M,if=none,id=nv2,format=raw
# qemu: -device nvme,id=nvc,serial=PTSBPURGE1 -device nvme-ns,drive=nv1,bus=nvc,nsid=1
# qemu: -device nvme-ns,drive=nv2,bus=nvc,nsid=2
# modules: nvme
. "$(dirname "$0")/lib.sh"

ns1=/dev/nvme0n1 ns2=/dev/nvme0n2
[ -b $ns1 ] && [ -b $ns2 ]; check two-namespaces-present $? "$(ls /dev/nvme* 2>&1 | tr '\n' ' ')"
# what the controller says (sanicap, fna), for the unit tests' fixture
nvme id-ctrl /dev/nvme0 -o json 2>&1 | sed "s/^/  id-ctrl| /"
short="--workload rw=read,bs=4k,qd=1 --rounds 1 --round-time 1 -q"

# ---- format, SES=1, on namespace 2
dd if=/dev/urandom of=$ns1 bs=1M oflag=direct status=none
dd if=/dev/urandom of=$ns2 bs=1M oflag=direct status=none
before1=$(md5 $ns1)
! cmp -s -n $((1 << 20)) $ns2 /dev/zero; check pattern-written $? "namespace 2 reads zero before the purge"
t0=$(date +%s)
"$pts" run --target $ns2 --destructive --purge format $short -o /tmp/fmt > /tmp/fmt.log 2>&1
check format-run-completes $? "$(tail -1 /tmp/fmt.log)"
echo "  format took $(( $(date +%s) - t0 )) s: $(grep '^purge' /tmp/fmt.log | tail -1)"
r=/tmp/fmt/results.json
cmd=$(field $r preconditioning.purge.command)
echo "  purge.command: $cmd; variant: $(field $r preconditioning.purge.variant); verify: $(field $r preconditioning.purge.verify)"
case "$cmd" in *"nvme format"*"--ses=1"*) true ;; *) false ;; esac
check format-issued-ses1 $? "command '$cmd'"
case "$cmd" in *"$ns2 "*"--namespace-id=2"*) true ;; *) false ;; esac
check format-issued-to-namespace-2 $? "command '$cmd' (namespace 2 not named by device and id)"
[ "$(field $r preconditioning.purge.variant)" = "NVMe format (SES=1)" ] && [ "$(field $r preconditioning.purge.ran)" = true ]
check format-recorded-as-run $? "variant '$(field $r preconditioning.purge.variant)' ran '$(field $r preconditioning.purge.ran)'"
cmp -s -n $((32 << 20)) $ns2 /dev/zero; check format-data-zeroed $? \
  "$(cmp -n $((32 << 20)) $ns2 /dev/zero 2>&1 | head -1)"
[ "$(md5 $ns1)" = "$before1" ]; check format-namespace-1-untouched $? "namespace 1 changed"
s=$(field $r preconditioning.purge.verify.samples); z=$(field $r preconditioning.purge.verify.zero)
[ -n "$s" ] && [ "$s" -gt 0 ] && [ "$z" = "$s" ] && [ "$(field $r preconditioning.purge.verify.erased)" = true ]
check format-verified-zeroed-recorded $? "purge.verify '$(field $r preconditioning.purge.verify)'"

# ---- discard on namespace 2
dmb=$(cat /sys/block/nvme0n2/queue/discard_max_bytes)
dd if=/dev/urandom of=$ns2 bs=1M count=4 oflag=direct status=none
"$pts" run --target $ns2 --destructive --purge discard $short -o /tmp/dis > /tmp/dis.log 2>&1
rc=$?
[ "$dmb" -gt 0 ] && [ $rc = 0 ] || { [ "$dmb" = 0 ] && [ $rc = 2 ]; }
check discard-as-the-device-supports $? "discard_max_bytes $dmb, exit $rc: $(tail -1 /tmp/dis.log)"
r=/tmp/dis/results.json
[ "$(field $r preconditioning.purge.variant)" = BLKDISCARD ] && [ "$(field $r preconditioning.purge.ran)" = true ] &&
  [ "$(field $r preconditioning.purge.compliant)" = false ]
check discard-recorded $? "variant '$(field $r preconditioning.purge.variant)' ran '$(field $r preconditioning.purge.ran)' compliant '$(field $r preconditioning.purge.compliant)'"
[ -n "$(field $r preconditioning.purge.verify.samples)" ] && [ "$(field $r preconditioning.purge.verify.erased)" != true ]
check discard-not-claimed-erased $? "purge.verify '$(field $r preconditioning.purge.verify)'"

# ---- sanitize: not supported by this controller, refused before anything is written
dd if=/dev/urandom of=$ns2 bs=1M count=4 oflag=direct status=none
before2=$(md5 $ns2)
"$pts" run --target $ns2 --destructive --purge sanitize $short -o /tmp/san > /tmp/san.out 2> /tmp/san.err
rc=$?
echo "  sanitize: exit $rc; stderr: $(head -3 /tmp/san.err | tr '\n' '|')"
[ $rc = 2 ]; check sanitize-refused-exit-2 $? "exit $rc"
[ "$(wc -l < /tmp/san.err)" = 1 ] && grep -q "$ns2" /tmp/san.err && grep -qi sanitize /tmp/san.err &&
  grep -qi sanicap /tmp/san.err
check sanitize-refused-one-line $? "stderr: $(tr '\n' '|' < /tmp/san.err)"
[ ! -e /tmp/san ] && [ "$(md5 $ns2)" = "$before2" ]
check sanitize-nothing-written $? "$(ls /tmp/san 2>&1 | tr '\n' ' ')"
exit 0
