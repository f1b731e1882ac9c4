# nullblk-choices.sh — a lab scenario (scripts/vmlab/run.sh): the engine's choices that depend on
# the target (docs/engines.md, "The choices, recorded"), recorded per round and checked on
# null_blk, which completes I/O without blocking.
# "Plain" (what the engine does on a target that takes nowait I/O, every blk-mq device): the
# round's engine_choices say nowait true, and no I/O marked async, no nap, no yield, no batched
# wait (marked, napped, yielded, batched all 0). The workloads are those that would take each of
# them on a target without nowait I/O: 4 KiB reads at QD 32 x 2 workers (a total depth of 64 on
# 2 CPUs: marked; an engine per CPU: yields), 4 KiB at QD 16 (16 in flight: naps), 128 KiB at QD 8
# (64 KiB and up: marked). Devices: null_blk's default (blk-mq, irqmode=1: softirq completion),
# irqmode=0 (completed inside the submission), irqmode=2 (a timer, 1 ms); the same workloads on a
# bio-based null_blk (queue_mode=0: no nowait I/O) must record the other choices, so the plain
# ones above are not a counter that never moves.  Each round's waits are accounted for: at
# least one per completion at QD 1, and no way taken more often than there were waits.
# qemu:
# modules: null_blk:nr_devices=1:gb=1
. "$(dirname "$0")/lib.sh"

[ -b /dev/nullb0 ]; check nullb0-present $? "no /dev/nullb0"
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
# A null_blk device made through configfs: NAME KEY=VALUE...; prints its /dev path.
mk() {
  local d=/sys/kernel/config/nullb/$1; shift
  mkdir "$d" || return 1
  echo 1024 > "$d/size"
  for kv in "$@"; do echo "${kv#*=}" > "$d/${kv%%=*}" || return 1; done
  echo 1 > "$d/power" || return 1
  # newer kernels (6.1 here) name the disk after the directory, older ones nullb<index>
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do [ -b "/dev/${d##*/}" ] && break; sleep 0.2; done
  if [ -b "/dev/${d##*/}" ]; then echo "/dev/${d##*/}"; else echo /dev/nullb$(cat "$d/index"); fi
}
irq0=$(mk nullb-irq0 irqmode=0); timer=$(mk nullb-timer irqmode=2 completion_nsec=1000000)
bio=$(mk nullb-bio queue_mode=0 irqmode=0)
[ -b "$irq0" ] && [ -b "$timer" ] && [ -b "$bio" ]; check configfs-devices $? \
  "irq0 '$irq0' timer '$timer' bio '$bio'"

run() {   # OUT TARGET ENGINE WORKLOAD
  "$pts" run --target "$2" --engine "$3" --workload "$4" --rounds 1 --round-time 1 -q -o "/tmp/$1" \
    > "/tmp/$1.log" 2>&1 || echo "FAIL $1-runs: $(tail -1 /tmp/$1.log)"
}
for d in softirq:/dev/nullb0 irq0:$irq0 timer:$timer bio:$bio; do
  n=${d%%:*} t=${d#*:}
  run $n-uring-qd1 "$t" io_uring rw=randread,bs=4k,qd=1
  run $n-uring-qd16 "$t" io_uring rw=randread,bs=4k,qd=16
  run $n-uring-qd32x2 "$t" io_uring rw=randread,bs=4k,qd=32,workers=2
  run $n-uring-128k "$t" io_uring rw=randread,bs=128k,qd=8
  run $n-aio-qd16 "$t" libaio rw=randread,bs=4k,qd=16
done
run softirq-fio /dev/nullb0 fio rw=randread,bs=4k,qd=4

python3 - <<'PY'
import json
def rnd(name):
    try:
        return json.load(open("/tmp/%s/results.json" % name))["rounds"][0]
    except Exception:
        return None
def say(ok, name, why=""):
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))
WAYS = ("held", "spun", "napped", "yielded", "batched", "slept")
for dev in ("softirq", "irq0", "timer", "bio"):
    for run in ("uring-qd1", "uring-qd16", "uring-qd32x2", "uring-128k", "aio-qd16"):
        name = "%s-%s" % (dev, run)
        r = rnd(name)
        c = r.get("engine_choices") if r else None
        if not c:
            say(False, name + "-recorded", "no engine_choices in the round"); continue
        print("  %s: %s, %d I/Os" % (name, json.dumps(c), r["total"]["ios"]))
        ios = r["total"]["ios"]
        # accounted for: each way taken at most once per wait (a wait may take several in
        # turn: a nap, a spin, then a sleep), and at QD 1 every completion was waited for
        ok = ios > 0 and c["waits"] > 0 and all(c[k] <= c["waits"] for k in WAYS) and \
             (run != "uring-qd1" or c["waits"] >= ios)
        say(ok, name + "-waits-accounted", "%d I/Os, %s" % (ios, json.dumps(c)))
        if dev != "bio":
            plain = c["nowait"] is True and all(c[k] == 0 for k in ("marked", "napped", "yielded", "batched"))
            say(plain, name + "-plain", json.dumps(c))
        elif run.startswith("uring"):
            # no nowait I/O: the engine marks 128 KiB and a total depth of 64 on 2 CPUs
            # (whether a wait naps or yields depends on what it finds: not asserted)
            ok = c["nowait"] is False
            if run in ("uring-128k", "uring-qd32x2"):
                ok = ok and c["marked"] >= ios
            say(ok, name + "-not-plain", json.dumps(c))
        else:
            say(c["nowait"] is False, name + "-nowait-false", json.dumps(c))
r = rnd("softirq-fio")
c = r.get("engine_choices") if r else None
say(bool(c) and c.get("decided_by") == "fio" and "waits" not in c, "fio-says-fio-decides",
    json.dumps(c))
PY
for n in bio timer irq0; do
  echo 0 > /sys/kernel/config/nullb/nullb-$n/power; rmdir /sys/kernel/config/nullb/nullb-$n
done
exit 0
