#!/usr/bin/env python3
"""blockeq.py [--ptsbench PATH] [--fio PATH] [--seconds S] [--engines LIST] [--aa] [--strict]
[--json] [FILE...]: block-layer equivalence of ptsbench and fio on fio's own example job files
(issue 47; `make equivtest`).

For each file (default: the eight of EXAMPLES below, from tests/fixtures/fio-examples/), on a
device of its own (a loop device over a sparse file in /dev/shm: zram is bio-based, so the
kernel's block_rq_issue/complete tracepoints never fire for it, see docs/workloads.md):
  1. a copy of the file for this device: every filename=, directory=, runtime=, timeout= and
     time_based line dropped and a first [global] section with filename=DEV, runtime=S and
     time_based=1 put before the rest (fio applies the job file's options over its command
     line's, so `fio --filename=DEV FILE` would still use the file's own filename); zipf.fio's
     ioengine=null becomes libaio with direct=1 (the null engine drives no device);
  2. `ptsbench trace capture --target DEV -o TRACE -- fio COPY` (fio's own run), and with --aa
     a second one (the A/A pair the tolerances come from; a comparison outside the fixed
     tolerances still passes within 1.5 x this run's fio-against-fio differences, said);
  3. the same capture around `ptsbench run --target DEV --workload COPY --engine E --rounds 1
     --round-time S --destructive` for each engine E (default io_uring, libaio, fio); an
     engine fio-ENGINE is fio itself on the copy with every ioengine= set to ENGINE (fio's
     io_uring against the file's libaio: is a difference ptsbench's or the kernel's?),
     printed against fio's run and never failed;
  4. from each trace (blkparse text: D issue, C complete; reads and writes, discards and
     flushes left out): the read share of requests (of the time, reads in flight over all in
     flight, for a file of several groups: each group runs for the same time, so the share of
     requests follows the groups' speeds), the request-size split (half the sum of
     the differences of the shares: 0 same, 1 disjoint), the access distribution (the share of
     accesses, per 4 KiB block covered, on the hottest 0.1, 1 and 10% of the blocks of the
     file's region, over N block-accesses of both traces, N the smaller trace's: the first N
     for a file of one group, N taken evenly over the trace for several groups) and the
     queue depth (requests in flight from issue to complete, time-weighted over the time when
     any is); a file of several groups is compared group by group (split_groups: cut at the
     pauses with no request in flight between its groups; each group as a file of one group,
     and on its sequential share), as one trace only when a trace cannot be cut;
  5. each ptsbench trace compared with fio's: within TOL below, or a failure unless the pair is
     in --known (tests/fixtures/fio-examples/blockeq-known.tsv: differences understood and
     explained, printed with their reason; one that comes within says so).
The device is blkdiscard-ed between runs (the tmpfs file gives back its pages). A file
ptsbench refuses is listed as not compared (its first line), a failure only with --strict.
Root, fio, losetup, blkdiscard and the block tracepoints (a one-second capture is tried
first); without them it prints "SKIP: why" and exits 0.
Exit 0 when every comparison made is within the tolerances, 1 otherwise, 2 on bad arguments."""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests/fixtures/fio-examples")
# Eight of fio's examples (docs/workloads.md, "## fio's examples", says why these).
EXAMPLES = ["fio-seq-read.fio", "iometer-file-access-server.fio", "jesd219.fio",
            "rand-zones.fio", "zipf.fio", "butterfly.fio", "ssd-test.fio",
            "tiobench-example.fio"]
HOT = (0.001, 0.01, 0.10)
KNOWN = {}
# Tolerances, ptsbench against fio: absolute differences of shares (read share; the size split
# and the hottest-block shares as in compare()); depth within depth_rel of fio's or depth_abs
# requests. Derived from A/A pairs (fio against fio on the same copy, 2-second jobs, on the
# 2-core machine shared with other work; docs/workloads.md has the numbers): about twice the
# largest A/A difference, at least a few binomial standard deviations of a 10,000-request
# trace. A file of several groups (stonewall, new_group, wait_for) is compared on the read
# share of the time, as its groups run for the same time each (the share of requests follows
# their speeds: 10 to 58% reads in A/A pairs of ssd-test.fio), and on hottest blocks sampled
# evenly over the trace.
TOL = {"one group": {"read_share": 0.02, "size_split": 0.05, "hot": 0.05, "depth_rel": 0.30,
                     "depth_abs": 1.0},
       "several groups": {"read_share": 0.05, "size_split": 0.05, "hot": 0.05,
                          "depth_rel": 0.30, "depth_abs": 1.0}}
DROP = re.compile(r"^\s*(filename|directory|runtime|timeout|time_based)\s*(=|$)")
LINE = re.compile(r"^\s*\d+,\d+\s+\d+\s+\d+\s+([\d.]+)\s+\d+\s+([DC])\s+(\S+)\s+(\d+)\s+\+\s+(\d+)")


def region(path, device_size):
    """The bytes from 0 the file's jobs address: its largest size= (k, m, g, t as fio reads
    them, base 1024), else the whole device."""
    big = 0
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"^\s*size\s*=\s*(\d+)\s*([kmgt]?)i?b?\s*$", line, re.I)
            if m:
                big = max(big, int(m.group(1)) << (10 * " kmgt".index(m.group(2).lower() or " ")))
    return min(big, device_size) if big else device_size


def job_copy(src, dst, dev, seconds):
    """The copy of job file src for device dev (see the module's comment, step 1)."""
    name = os.path.basename(src)
    out = ["; %s for blockeq.py: filename, runtime and time_based set here" % name,
           "[global]", "filename=%s" % dev, "runtime=%d" % seconds, "time_based=1"]
    with open(src, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if DROP.match(line):
                continue
            if name == "zipf.fio" and re.match(r"^\s*ioengine\s*=\s*null\s*$", line):
                out += ["ioengine=libaio", "direct=1"]
                continue
            out.append(line)
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


def engine_copy(src, dst, engine):
    """The copy src (job_copy's) with every ioengine= line set to engine, and engine in its first
    [global] too (a file without ioengine= runs fio's default): fio itself under another engine
    (--engines fio-ENGINE, e.g. fio-io_uring: is a difference ptsbench's or the kernel's?)."""
    out, put = [], False
    with open(src) as f:
        for line in f:
            line = line.rstrip("\n")
            if re.match(r"^\s*ioengine\s*=", line):
                line = "ioengine=%s" % engine
            out.append(line)
            if not put and line.strip() == "[global]":
                out.append("ioengine=%s" % engine)
                put = True
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


def run(argv, cwd, timeout):
    try:
        p = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % timeout
    lines = [x for x in (p.stderr + "\n" + p.stdout).splitlines() if x.strip()]
    return p.returncode, lines[0] if lines else ""


def parse_trace(path):
    """[(time s, 'D'|'C', 'R'|'W', sector, sectors)] of reads and writes, in file order."""
    ev = []
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            rwbs = m.group(3)
            if "D" in rwbs or int(m.group(5)) == 0:
                continue
            d = "R" if "R" in rwbs else "W" if "W" in rwbs else None
            if d:
                ev.append((float(m.group(1)), m.group(2), d, int(m.group(4)), int(m.group(5))))
    return ev


def measures(ev):
    """The figures of one trace but the access distribution (hot(), per pair)."""
    issues = [e for e in ev if e[1] == "D"]
    n = len(issues)
    if n == 0:
        return None
    reads = sum(1 for e in issues if e[2] == "R")
    sizes = collections.Counter(e[4] * 512 for e in issues)
    m = {"requests": n, "read_share": reads / n,
         "size_split": {str(k): v / n for k, v in sorted(sizes.items())}, "_issues": issues}
    # Requests in flight (+1 at issue, -1 at complete; a completion without its issue, from
    # before the capture, is not counted below 0), time-weighted over the time when at least
    # one is: a tool's set-up and the pauses between its groups left out.
    # The read share of that time too (reads in flight over all in flight, time-weighted): what
    # a file of several groups, each run for the same time, is compared on.
    inflight = {"R": 0, "W": 0}
    area, area_r, busy, last_t = 0.0, 0.0, 0.0, None
    for t, kind, d, _, _ in ev:
        depth = inflight["R"] + inflight["W"]
        if last_t is not None and depth > 0:
            area += depth * (t - last_t)
            area_r += inflight["R"] / depth * (t - last_t)
            busy += t - last_t
        last_t = t
        inflight[d] = inflight[d] + 1 if kind == "D" else max(0, inflight[d] - 1)
    m["depth"] = area / busy if busy > 0 else 0.0
    m["read_time_share"] = area_r / busy if busy > 0 else 0.0
    return m


def blocks_of(m):
    """4 KiB block-accesses of a trace (each request counts every block it covers)."""
    return sum((e[3] + e[4] - 1) // 8 - e[3] // 8 + 1 for e in m["_issues"])


def hot(m, k, region, even):
    """Shares of the accesses (per 4 KiB block a request covers) on the hottest 0.1/1/10% of the
    region's blocks (bytes 0 to region: the file's largest size=, else the device; accesses
    beyond it, such as a probe of the device's last blocks, left out), over about k of the
    trace's block-accesses: both traces of a pair are cut to the same amount, so that a random
    run's hottest blocks do not depend on how long it ran. One group: the first k, so that a
    sequential run covers the same blocks whatever its request sizes; several groups (even):
    requests taken evenly over the whole trace, so that every group is in it as it ran."""
    nblocks = max(1, region // 4096)
    total_blocks = blocks_of(m)
    blocks = collections.Counter()
    left, seen = k, 0
    for e in m["_issues"]:
        first, last = e[3] // 8, (e[3] + e[4] - 1) // 8
        if even:
            size = last - first + 1
            take = (seen + size) * k // total_blocks > seen * k // total_blocks
            seen += size
            if not take:
                continue
        else:
            if left <= 0:
                break
            last = min(last, first + left - 1)
            left -= last - first + 1
        if first < nblocks:
            blocks.update(range(first, min(last, nblocks - 1) + 1))
    counts = sorted(blocks.values(), reverse=True)
    total = sum(counts) or 1
    return {"%g%%" % (100 * h): sum(counts[:max(1, int(round(h * nblocks)))]) / total
            for h in HOT}


def load_known(path):
    """{(file, run): why} from a table of known differences (file, run, why; # comments)."""
    known = {}
    if path and os.path.isfile(path):
        with open(path) as f:
            for line in f:
                cols = line.rstrip("\n").split("\t")
                if line.strip() and not line.startswith("#") and len(cols) >= 3:
                    known[(cols[0], cols[1])] = cols[2]
    return known


def groups(path):
    """"several groups" when the file orders its jobs (stonewall, new_group, wait_for)."""
    with open(path, errors="replace") as f:
        text = f.read()
    several = re.search(r"^\s*(stonewall|new_group|wait_for)\b", text, re.M)
    return "several groups" if several else "one group"


def n_groups(path):
    """How many groups the file's jobs run in: a job section (not [global]) after the first
    with stonewall or new_group (in its own lines or its [global]'s) starts a new one."""
    n, seen = 0, False
    sections = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.split(";")[0].split("#")[0].strip()
            m = re.match(r"^\[(.+)\]$", line)
            if m:
                sections.append([m.group(1).strip(), False])
            elif sections and re.match(r"^(stonewall|new_group)\b", line):
                sections[-1][1] = True
    glob = any(name == "global" and st for name, st in sections)
    for name, st in sections:
        if name == "global":
            continue
        if not seen or st or glob:
            n += 1
        seen = True
    return max(1, n)


GAP_LEAST = 0.001   # a pause between groups is at least this long (seconds)


CHANGE_WINDOW = 256   # requests each side of a gap that changes_at looks at


def changes_at(ev, i):
    """Whether the requests change character at event i: the read share or the sequential
    share of the CHANGE_WINDOW requests issued before and after it differ by more than a half
    (a group's own stall leaves both as they were; every group of fio's examples differs from
    the next in one of them)."""
    before, after = [], []
    for j in range(i - 1, -1, -1):
        if ev[j][1] == "D":
            before.append(ev[j])
            if len(before) == CHANGE_WINDOW:
                break
    for j in range(i, len(ev)):
        if ev[j][1] == "D":
            after.append(ev[j])
            if len(after) == CHANGE_WINDOW:
                break
    if not before or not after:
        return False
    before.reverse()
    reads = [sum(e[2] == "R" for e in w) / len(w) for w in (before, after)]
    return abs(reads[0] - reads[1]) > 0.5 or abs(sequential(before) - sequential(after)) > 0.5


def split_groups(ev, n, seconds):
    """The trace cut into its n groups (lists of events), or None when it cannot be: the
    groups run one after another, so between two of them no request is in flight; the n-1
    longest such idle gaps are the boundaries, each group busy (its first issue to its last
    event) at least a quarter of its runtime (a set-up probe before the first group, ptsbench's
    --engine fio's 48 reads, is not taken for a group). Within a group the loop device over
    tmpfs is idle too, for microseconds; between groups fio and ptsbench end every job and
    start the next group's, milliseconds (GAP_LEAST at least: a group is not cut in two at one
    of its own microsecond pauses when the trace holds fewer groups than the file). A gap where
    the requests change character (changes_at) goes before a longer one where they do not: on a
    loaded machine a group's own stall can last longer than the pause between two groups
    (ssd-test.fio: a stall inside the random writes cut there, the random reads and sequential
    writes left as one group)."""
    if n <= 1:
        return [ev]
    gaps, depth, last_c = [], 0, None
    for i, (t, kind, _, _, _) in enumerate(ev):
        if kind == "D":
            if depth == 0 and last_c is not None:
                gaps.append((t - last_c, i))
            depth += 1
        else:
            depth = max(0, depth - 1)
            if depth == 0:
                last_c = t
    least, cuts = seconds / 4.0, []
    for _, gap, i in sorted(((changes_at(ev, i), g, i) for g, i in gaps if g >= GAP_LEAST),
                            reverse=True):
        bounds = [0] + sorted(cuts + [i]) + [len(ev)]
        if all(ev[b - 1][0] - ev[a][0] >= least for a, b in zip(bounds, bounds[1:])):
            cuts.append(i)
            if len(cuts) == n - 1:
                break
    if len(cuts) < n - 1:
        return None
    cuts = [0] + sorted(cuts) + [len(ev)]
    return [ev[a:b] for a, b in zip(cuts, cuts[1:])]


# The depth is printed, and judged only with --judge-depth: fio's own depth on this loop device
# over tmpfs is decided by noise (fio-seq-read.fio, 256 KiB reads at QD 16: 13.5, 14, 2.1, 4.5,
# 3.8 in five runs of one day, 2.1 and 4.5 back to back; the device completes faster than fio
# submits), so a failure there would say how busy the machine was, not whether the workload is
# fio's (docs/workloads.md, "fio's examples").
JUDGE_DEPTH = False


def within(d, tol):
    """Every difference of d within tol (depth, relative or absolute, with --judge-depth)."""
    depth_ok = d["depth_rel"] <= tol["depth_rel"] or d["depth"] <= tol["depth_abs"]
    return (d["read_share"] <= tol["read_share"] and d["size_split"] <= tol["size_split"] and
            d["hot"] <= tol["hot"] and (depth_ok or not JUDGE_DEPTH))


def widened(tol, aa):
    """The tolerances, or 1.5 x what fio differed from itself in this run's A/A pair where
    that is more: a figure fio itself does not repeat (the depth of sequential 256 KiB reads
    on a loop device over tmpfs: 2.1 and 4.5 in two fio runs) cannot tell ptsbench from fio
    closer than fio repeats it."""
    w = dict(tol)
    for k in ("read_share", "size_split", "hot"):
        w[k] = max(tol[k], 1.5 * aa[k])
    w["depth_rel"] = max(tol["depth_rel"], 1.5 * aa["depth_rel"])
    w["depth_abs"] = max(tol["depth_abs"], 1.5 * aa["depth"])
    return w


def compare(a, b, region, tol):
    """(within every tolerance of tol, {figure: difference}) of trace b against trace a."""
    share = "read_time_share" if tol is TOL["several groups"] else "read_share"
    d = {"read_share": abs(a[share] - b[share])}
    keys = set(a["size_split"]) | set(b["size_split"])
    d["size_split"] = 0.5 * sum(abs(a["size_split"].get(k, 0) - b["size_split"].get(k, 0))
                                for k in keys)
    k = min(blocks_of(a), blocks_of(b))
    even = tol is TOL["several groups"]
    ha, hb = hot(a, k, region, even), hot(b, k, region, even)
    d["hot"] = max(abs(ha[x] - hb[x]) for x in ha)
    d["hot_a"], d["hot_b"] = ha, hb
    d["depth"] = abs(a["depth"] - b["depth"])
    d["depth_rel"] = d["depth"] / a["depth"] if a["depth"] > 0 else 0.0
    return within(d, tol), d


def sequential(ev):
    """The share of a trace's requests that start where one of the 64 issued before it ended
    (several jobs of a group each sequential interleave): what tells a group's sequential
    pattern from its random one when each of its blocks is accessed once (ssd-test.fio's 4 KiB
    requests over 10 GiB: the hottest shares are then the same for both)."""
    ends, seq, n = collections.deque(maxlen=64), 0, 0
    for _, kind, _, sector, count in ev:
        if kind != "D":
            continue
        n += 1
        seq += sector in ends
        ends.append(sector + count)
    return seq / n if n else 0.0


SEQ_TOL = 0.05   # a group's sequential share, ptsbench against fio (fio against fio: 0 to 0.1)
# A group both runs issue sequentially (this share of requests or more on each side): its
# hottest-block shares are printed, not judged. Sequential jobs each cover every block once per
# pass, so over the first k accesses of several such jobs sharing one range (tiobench-example.fio's
# numjobs=4 writers) the shares say how closely the jobs kept step, which the scheduler decides:
# 98.4% for fio against 86.5% for ptsbench's io_uring on a machine loaded by four builds,
# 45.4% against 45.6% for libaio in the same run; fio against fio 0.0 and 15.8 points in two runs
# (2026-12-05); the
# sequential share and the size split still tell the pattern.
SEQ_GROUP = 0.9


def compare_groups(a, b, n, seconds, region, aa=None):
    """(ok, d) of trace b against trace a group by group (split_groups), each group judged
    with the one-group tolerances (widened by aa's same group where aa, a compare_groups
    result of fio against fio, is given): d holds each figure's largest difference over the
    groups and "groups", every group's (ok, d, fio's figures, b's); None when either trace
    cannot be cut into n groups."""
    ga, gb = split_groups(a["_ev"], n, seconds), split_groups(b["_ev"], n, seconds)
    if not ga or not gb:
        return None
    per = []
    for i, (ea, eb) in enumerate(zip(ga, gb)):
        ma, mb = measures(ea), measures(eb)
        if not ma or not mb:
            return None
        ma["sequential"], mb["sequential"] = sequential(ea), sequential(eb)
        tol = dict(TOL["one group"])
        seq_group = min(ma["sequential"], mb["sequential"]) >= SEQ_GROUP
        if seq_group:
            tol["hot"] = 1.0
        ok, d = compare(ma, mb, region, tol)
        d["hot_judged"] = not seq_group
        d["sequential"] = abs(ma["sequential"] - mb["sequential"])
        ok = ok and d["sequential"] <= SEQ_TOL
        if not ok and aa:
            ok = within(d, widened(tol, aa["groups"][i][1])) and \
                d["sequential"] <= max(SEQ_TOL, 1.5 * aa["groups"][i][1]["sequential"])
            d["by_aa"] = ok
        per.append((ok, d, ma, mb))
    d = {k: max(g[1][k] for g in per) for k in ("read_share", "size_split", "depth",
                                                  "depth_rel", "sequential")}
    d["hot"] = max([g[1]["hot"] for g in per if g[1]["hot_judged"]] or [0.0])
    d["groups"] = per
    d["by_aa"] = any(g[1].get("by_aa") for g in per)
    return all(g[0] for g in per), d


class Device:
    """A loop device over a sparse file in a directory of /dev/shm of our own."""

    def __init__(self, size):
        self.size = size
        self.dir = tempfile.mkdtemp(prefix="blockeq-", dir="/dev/shm")
        self.back = os.path.join(self.dir, "back")
        with open(self.back, "wb") as f:
            f.truncate(size)
        p = subprocess.run(["losetup", "--find", "--show", self.back], capture_output=True,
                           text=True)
        self.dev = p.stdout.strip() if p.returncode == 0 else None
        self.why = p.stderr.strip()

    def discard(self):
        subprocess.run(["blkdiscard", self.dev], capture_output=True)

    def close(self):
        if self.dev:
            subprocess.run(["losetup", "--detach", self.dev], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


def captured(a, dev, tmp, tag, cmd, timeout):
    """Capture the requests while cmd runs: (figures or None, first line of a failure)."""
    trace = os.path.join(tmp, tag + ".trace")
    rc, line = run([a.ptsbench, "trace", "capture", "--target", dev.dev, "-o", trace,
                    "--quiet", "--"] + cmd, tmp, timeout)
    dev.discard()
    if rc != 0:
        return None, line or "exit %s" % rc
    ev = parse_trace(trace)
    m = measures(ev)
    if m:
        m["_ev"] = ev
    return m, "" if m else "no request in the trace"


def one_file(a, dev, name, tmp):
    """Every run of one example and its comparisons."""
    copy = os.path.join(tmp, name)
    job_copy(os.path.join(a.dir, name), copy, dev.dev, a.seconds)
    limit = 60 + 20 * a.seconds
    res = {"file": name, "runs": {}, "compared": {}, "refused": {},
           "region": region(os.path.join(a.dir, name), dev.size),
           "groups": groups(os.path.join(a.dir, name))}
    fio, why = captured(a, dev, tmp, "fio", [a.fio, "--output-format=terse", copy], limit)
    if not fio:
        res["error"] = "fio: " + why
        return res
    res["runs"]["fio"] = fio
    n = n_groups(os.path.join(a.dir, name)) if res["groups"] == "several groups" else 1

    def versus(tag, m, aa=None):
        """Group by group where both traces split into the file's groups, else as one trace."""
        if n > 1:
            by = compare_groups(fio, m, n, a.seconds, res["region"], aa)
            if by:
                return by
            res.setdefault("unsplit", []).append(tag)
        return compare(fio, m, res["region"], TOL[res["groups"]])
    if a.aa:
        fio2, why = captured(a, dev, tmp, "fio-aa", [a.fio, "--output-format=terse", copy], limit)
        if fio2:
            res["runs"]["fio-aa"] = fio2
            res["compared"]["fio-aa"] = versus("fio-aa", fio2)
    for eng in a.engines:
        if eng.startswith("fio-"):   # fio itself under another engine: printed, never failed
            other = os.path.join(tmp, eng + "-" + name)
            engine_copy(copy, other, eng[4:])
            m, why = captured(a, dev, tmp, eng, [a.fio, "--output-format=terse", other], limit)
            if m:
                res["runs"][eng] = m
                res["compared"][eng] = versus(eng, m)
            else:
                res["refused"][eng] = why.replace(tmp + "/", "")
            continue
        out = os.path.join(tmp, "out-" + eng)
        cmd = [a.ptsbench, "run", "--target", dev.dev, "--workload", copy, "--engine", eng,
               "--rounds", "1", "--round-time", str(a.seconds), "--destructive", "--quiet",
               "-o", out]
        m, why = captured(a, dev, tmp, "pts-" + eng, cmd, limit)
        tag = "pts-" + eng
        if m:
            res["runs"][tag] = m
            aa = res["compared"].get("fio-aa", (None, None))[1]
            ok, d = versus(tag, m, aa if aa and "groups" in aa else None)
            if not ok and aa and "groups" not in d and "groups" not in aa:
                ok = within(d, widened(TOL[res["groups"]], aa))   # fio's own repeatability?
                d["by_aa"] = ok
            res["compared"][tag] = (ok, d)
        else:
            res["refused"][tag] = why.replace(tmp + "/", "")
    return res


def pct(x):
    return "%.1f%%" % (100 * x)


def print_file(r):
    print("== %s (%s)" % (r["file"], r["groups"]))
    if "error" in r:
        print("   FAILED %s" % r["error"])
        return
    for tag, m in r["runs"].items():
        print("   %-12s %7d requests  reads %6s (of the time %6s)  depth %5.1f  sizes %s" % (
            tag, m["requests"], pct(m["read_share"]), pct(m["read_time_share"]), m["depth"],
            " ".join("%s:%s" % (k, pct(v)) for k, v in
                     sorted(m["size_split"].items(), key=lambda kv: -kv[1])[:6])))
    for tag, (ok, d) in r["compared"].items():
        verdict = ("ok (within fio's own A/A spread) " if d.get("by_aa") else "ok  ") if ok \
            else "OUT "
        if (r["file"], tag) in KNOWN:
            verdict = "ok (a known row: drop it if it stays within) " if ok else "known OUT "
        if "groups" in d:
            print("   %-12s vs fio: %s group by group (%d groups, one-group tolerances): "
                  "largest differences read share %s, size split %s, hottest %s (judged), sequential %s, "
                  "depth %.2f (%s)%s" % (tag, verdict, len(d["groups"]), pct(d["read_share"]),
                              pct(d["size_split"]), pct(d["hot"]), pct(d["sequential"]),
                              d["depth"],
                              pct(d["depth_rel"]), "" if JUDGE_DEPTH else " not judged"))
            for i, (gok, gd, ma, mb) in enumerate(d["groups"]):
                print("     group %d: %s %d/%d requests, reads %s/%s; read share %s, size split "
                      "%s, hottest %s%s (fio %s, %s %s), sequential %s/%s, depth %.1f/%.1f" % (
                          i + 1, "ok " if gok else "OUT", ma["requests"], mb["requests"],
                          pct(ma["read_share"]), pct(mb["read_share"]), pct(gd["read_share"]),
                          pct(gd["size_split"]), pct(gd["hot"]),
                          "" if gd["hot_judged"] else " not judged: sequential",
                          "/".join(pct(v) for v in gd["hot_a"].values()), tag,
                          "/".join(pct(v) for v in gd["hot_b"].values()),
                          pct(ma["sequential"]), pct(mb["sequential"]), ma["depth"],
                          mb["depth"]))
            continue
        print("   %-12s vs fio: %s  read share %s, size split %s, hottest %s (fio %s, %s %s), "
              "depth %.2f (%s)%s%s" % (
                  tag, verdict, pct(d["read_share"]), pct(d["size_split"]),
                  pct(d["hot"]), "/".join(pct(v) for v in d["hot_a"].values()), tag,
                  "/".join(pct(v) for v in d["hot_b"].values()), d["depth"],
                  pct(d["depth_rel"]), "" if JUDGE_DEPTH else " not judged",
                  " (as one trace: not split into its groups)" if tag in r.get("unsplit", [])
                  else ""))
    for tag, why in r["refused"].items():
        print("   %-12s not compared: %s" % (tag, why))
    for (f, tag), why in KNOWN.items():
        if f == r["file"] and tag in r["compared"] and not r["compared"][tag][0]:
            print("   %-12s known: %s" % (tag, why))


def self_test():
    """Checks of the group split on made-up traces (no device, no root): 0 when they hold."""
    def trace(groups, probe):
        ev, t = [], 0.0
        for i in range(probe):      # a set-up probe a second before the first group
            ev += [(t, "D", "R", i * 8, 8), (t + 1e-4, "C", "R", i * 8, 8)]
            t += 2e-4
        t += 1.0
        for g, (d, seq) in enumerate(groups):
            for i in range(5000):   # 1 s of requests, idle 50 us between them
                sector = i * 8 if seq else (i * 7919 % 5000) * 64
                ev += [(t, "D", d, sector, 8), (t + 1e-4, "C", d, sector, 8)]
                t += 2e-4 + (5e-5 if i % 2 else 0)
            t += 0.01               # the pause between groups
        return ev
    kinds = [("R", True), ("R", False), ("W", True), ("W", False)]
    fails = []
    cut = split_groups(trace(kinds, 48), 4, 2)
    if not cut or [len(g) for g in cut] != [10096, 10000, 10000, 10000]:
        fails.append("ssd-test-like trace not cut into its 4 groups: %s" %
                     (cut and [len(g) for g in cut]))
    elif [round(sequential(g), 2) for g in cut] != [1.0, 0.0, 1.0, 0.0]:
        fails.append("sequential shares %s" % [sequential(g) for g in cut])
    stalled = trace(kinds, 0)
    mid = len(stalled) - 5000   # a 50 ms stall half-way through the last group
    stalled = stalled[:mid] + [(t + 0.05, k, d, s_, c) for t, k, d, s_, c in stalled[mid:]]
    cut = split_groups(stalled, 4, 1)
    if not cut or [len(g) for g in cut] != [10000] * 4:
        fails.append("a stall inside a group taken for a pause between groups: %s" %
                     (cut and [len(g) for g in cut]))
    if split_groups(trace(kinds[:2], 0), 4, 2) is not None:
        fails.append("a trace of 2 groups cut into 4")
    for name, n in (("ssd-test.fio", 4), ("tiobench-example.fio", 4), ("butterfly.fio", 1),
                    ("fio-seq-read.fio", 1)):
        got = n_groups(os.path.join(FIXTURES, name))
        if got != n:
            fails.append("%s: %d groups, not %d" % (name, got, n))
    a = {"_ev": trace(kinds, 0)}
    b = {"_ev": trace([kinds[0], kinds[3], kinds[2], kinds[1]], 48)}
    by = compare_groups(a, a, 4, 2, 5000 * 64 * 512)
    if not by or not by[0]:
        fails.append("a trace against itself not within")
    by = compare_groups(a, b, 4, 2, 5000 * 64 * 512)
    if not by or by[0] or [g[0] for g in by[1]["groups"]] != [True, False, True, False]:
        fails.append("groups 2 and 4 swapped (read and write) not found out")
    for f in fails:
        print("blockeq self-test: FAIL %s" % f)
    print("blockeq self-test: %s" % ("ok" if not fails else "%d failed" % len(fails)))
    return 1 if fails else 0


def skip_reason(a):
    if os.geteuid() != 0:
        return "not root (the capture and the loop device need it)"
    for tool in (a.fio, "losetup", "blkdiscard"):
        if not shutil.which(tool):
            return "%s is not installed" % tool
    if not os.access(a.ptsbench, os.X_OK):
        return "no ptsbench at %s" % a.ptsbench
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", default=EXAMPLES)
    ap.add_argument("--dir", default=FIXTURES)
    ap.add_argument("--ptsbench", default=os.path.join(ROOT, "build/ptsbench"))
    ap.add_argument("--fio", default=shutil.which("fio") or "fio")
    ap.add_argument("--seconds", type=int, default=2, help="runtime of each job (group)")
    ap.add_argument("--engines", default="io_uring,libaio,fio",
                    help="ptsbench's engines; fio-ENGINE: fio itself with ioengine=ENGINE "
                    "(printed against fio's run, never failed)")
    ap.add_argument("--aa", action="store_true", help="also fio against fio (the A/A pair)")
    ap.add_argument("--strict", action="store_true", help="a file ptsbench refuses fails")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--judge-depth", action="store_true",
                    help="fail on the depth too (noise decides it on a loop device over tmpfs)")
    ap.add_argument("--known", default=os.path.join(FIXTURES, "blockeq-known.tsv"),
                    help="differences known and explained (file, run, why): printed, not failed")
    ap.add_argument("--self-test", action="store_true",
                    help="check the group split on made-up traces and exit (no root)")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    global JUDGE_DEPTH
    JUDGE_DEPTH = a.judge_depth
    KNOWN.update(load_known(a.known))
    a.engines = [e for e in a.engines.split(",") if e]
    a.ptsbench = os.path.abspath(a.ptsbench)
    if a.seconds < 1 or any(not os.path.isfile(os.path.join(a.dir, f)) for f in a.files):
        print("blockeq.py: --seconds at least 1 and files of %s" % a.dir, file=sys.stderr)
        return 2
    why = skip_reason(a)
    if why:
        print("SKIP: blockeq: %s" % why)
        return 0
    dev = Device(16 << 30)
    if not dev.dev:
        dev.close()
        print("SKIP: blockeq: no loop device (%s)" % dev.why)
        return 0
    with tempfile.TemporaryDirectory(prefix="blockeq-probe-") as tmp:
        rc, line = run([a.ptsbench, "trace", "capture", "--target", dev.dev, "--duration", "1s",
                        "-o", os.path.join(tmp, "probe.trace"), "--quiet"], tmp, 60)
    if rc != 0:
        dev.close()
        print("SKIP: blockeq: the block tracepoints cannot be captured here (%s)" % line)
        return 0
    results = []
    try:
        for name in a.files:
            with tempfile.TemporaryDirectory(prefix="blockeq-run-") as tmp:
                results.append(one_file(a, dev, name, tmp))
            if not a.json:
                print_file(results[-1])
                sys.stdout.flush()
    finally:
        dev.close()
    bad = [r["file"] for r in results if "error" in r or
           any(not ok and (r["file"], t) not in KNOWN
               for t, (ok, _) in r["compared"].items() if not t.startswith("fio-")) or
           (a.strict and r["refused"])]
    made = sum(len([t for t in r["compared"] if not t.startswith("fio-")]) for r in results)
    refused = sum(len(r["refused"]) for r in results)
    if a.json:
        for r in results:
            for m in r["runs"].values():
                m.pop("_issues", None)
                m.pop("_ev", None)
            for _, d in r["compared"].values():
                for g in d.get("groups", []):
                    g[1].pop("_issues", None)
                if "groups" in d:
                    d["groups"] = [{"ok": g[0], "differences": g[1]} for g in d["groups"]]
        json.dump({"tolerances": TOL, "files": results}, sys.stdout, indent=1)
        print()
    print("blockeq: %d files, %d comparisons with fio made, %d outside the tolerances and not "
          "known (files: %s); %d runs ptsbench refused%s" % (
              len(results), made, sum(1 for r in results for t, (ok, _) in
                                      r["compared"].items() if not t.startswith("fio-") and not ok
                                      and (r["file"], t) not in KNOWN),
              ", ".join(bad) or "none", refused, " (--strict: failures)" if a.strict else ""),
          file=sys.stderr if a.json else sys.stdout)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
