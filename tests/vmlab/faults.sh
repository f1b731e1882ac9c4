# faults.sh — a lab scenario (scripts/vmlab/run.sh): a device that starts failing in the middle
# of a run. A dm device over a virtio disk is swapped, once the first round is in the results
# file, to dm-flakey with error_writes (writes fail, reads do not) or to dm-error (everything
# fails); a scsi_debug disk starts answering reads in its second half with MEDIUM ERROR when its
# opts turn to 2 mid-run. Each time ptsbench must print one line naming the device, the
# operation and the error, exit non-zero, and leave a results file that is whole JSON, status
# "failed", the error recorded, with every round the console printed as done; nothing hangs
# (every run under `timeout 120`, and a timeout fails the checks). Also with --engine fio.
# qemu: -drive file=@flaky:64M,if=none,id=fl,format=raw -device virtio-blk-pci,drive=fl,serial=PTSBFLAKY
# modules: virtio_blk,dm_mod,dm_flakey,sd_mod,scsi_debug:dev_size_mb=64:medium_error_start=65536:medium_error_count=65536
. "$(dirname "$0")/lib.sh"

sz=$(blockdev --getsz /dev/vda)
# no udev in the guest: dmsetup makes the /dev/mapper node itself (mknodes)
{ dmsetup create flaky --table "0 $sz linear /dev/vda 0" && dmsetup mknodes flaky; } \
  > /tmp/dm.log 2>&1
[ -b /dev/mapper/flaky ]; check dm-device-made $? "$(tail -1 /tmp/dm.log) ($(dmsetup ls 2>&1))"

# when_round1 DIR CMD...: in the background, run CMD once DIR/results.json holds a round
when_round1() {
  local dir=$1; shift
  ( for _ in $(seq 600); do
      grep -q "{ \"round\": 1," "$dir/results.json" 2>/dev/null && break
      sleep 0.1
    done
    "$@" ) &
  bgpid=$!
}
swap_table() {   # swap_table TABLE: the dm device's table, live
  dmsetup reload flaky --table "$1" && dmsetup resume flaky
}

# fault NAME TARGET OP WORKLOAD [ARG...]: run to a failure (the swap is started by the caller),
# then check the one line, the exit status and the results file
fault() {
  local name=$1 target=$2 op=$3 wl=$4; shift 4
  local out=/tmp/out-$name rc
  timeout -k 10 120 "$pts" run --target "$target" --workload "$wl" --rounds 25 --round-time 2 \
    --all-rounds -o $out "$@" > /tmp/$name.out 2> /tmp/$name.err
  rc=$?
  if [ $rc = 124 ] || [ $rc = 137 ]; then   # what was going on, for the report
    echo "  $name: $(tail -2 /tmp/$name.out | tr '\n' '|')"
    for e in $out/fio/*.stderr; do [ -s "$e" ] && echo "  $e: $(tail -2 "$e" | tr '\n' '|')"; done
    ps -eo pid,stat,etime,args | grep -E 'fio|ptsbench' | grep -v grep | sed 's/^/  /'
  fi
  kill $bgpid 2>/dev/null; wait $bgpid 2>/dev/null
  [ $rc != 124 ] && [ $rc != 137 ]; check $name-finishes $? "still running after 120 s"
  [ $rc != 0 ] && [ $rc != 124 ] && [ $rc != 137 ]; check $name-exit-nonzero $? "exit $rc"
  local n line
  n=$(grep -c . /tmp/$name.err); line=$(head -1 /tmp/$name.err)
  echo "  $name: exit $rc: $line"
  [ "$n" = 1 ]; check $name-one-line $? "$n lines on stderr: $(tr '\n' '|' < /tmp/$name.err)"
  case "$line" in *"$target"*) true ;; *) false ;; esac
  check $name-names-device $? "'$target' not in: $line"
  case "$line" in *"$op"*) true ;; *) false ;; esac
  check $name-names-operation $? "'$op' not in: $line"
  case "$line" in *"failed: "*|*" error "*) true ;; *) false ;; esac
  check $name-names-error $? "no error in: $line"
  python3 - "$out/results.json" "/tmp/$name.out" "$op" "$name" <<'PY'
import json, re, sys
path, console, op, name = sys.argv[1:5]
try:
    d = json.load(open(path))
except Exception as e:
    print("FAIL %s-results-json: %s" % (name, e)); sys.exit()
print("PASS %s-results-json" % name)
st = d.get("status")
print(("PASS %s-status-failed" % name) if st == "failed" else
      "FAIL %s-status-failed: status %s" % (name, st))
err = d.get("error") or ""
print(("PASS %s-error-recorded" % name) if op in err else
      "FAIL %s-error-recorded: error '%s'" % (name, err))
printed = len(re.findall(r"^round +\d+/", open(console).read(), re.M))
kept = len(d.get("rounds") or [])
print(("PASS %s-printed-rounds-kept" % name) if printed >= 1 and kept == printed else
      "FAIL %s-printed-rounds-kept: %d printed as done, %d in the results" % (name, printed, kept))
PY
}

# 1. writes start failing (dm-flakey, error_writes: reads still succeed)
when_round1 /tmp/out-write swap_table "0 $sz flakey /dev/vda 0 0 3600 1 error_writes"
fault write /dev/mapper/flaky write rw=randwrite,bs=4k,qd=4 --destructive
swap_table "0 $sz linear /dev/vda 0"

# 2. the same with fio as the engine
when_round1 /tmp/out-fio-write swap_table "0 $sz flakey /dev/vda 0 0 3600 1 error_writes"
fault fio-write /dev/mapper/flaky write rw=randwrite,bs=4k,qd=4 --destructive --engine fio
swap_table "0 $sz linear /dev/vda 0"

# 3. reads start failing (dm-error: every I/O fails)
when_round1 /tmp/out-read swap_table "0 $sz error"
fault read /dev/mapper/flaky read rw=randread,bs=4k,qd=4
swap_table "0 $sz linear /dev/vda 0"

# 4. a SCSI disk whose second half answers reads with MEDIUM ERROR once opts turns to 2
sd=$(for h in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
       [ -e "$h" ] && echo "${h##*/}"; done | head -1)
[ -n "$sd" ] && [ -b "/dev/$sd" ]; check scsi-debug-disk $? "no scsi_debug disk"
if [ -n "$sd" ]; then
  when_round1 /tmp/out-scsi-read sh -c 'echo 2 > /sys/bus/pseudo/drivers/scsi_debug/opts'
  fault scsi-read /dev/$sd read rw=randread,bs=4k,qd=4
  echo 0 > /sys/bus/pseudo/drivers/scsi_debug/opts
fi
dmsetup remove flaky 2>/dev/null
exit 0
