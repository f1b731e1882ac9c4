#!/usr/bin/env python3
"""fio-examples.py [--json] [--ptsbench PATH] [--fio PATH] [--timeout S] [DIR]: what fio and
ptsbench each make of every fio job file in DIR (default tests/fixtures/fio-examples, fio's own
examples; issue 47).

For each FILE.fio, in name order:
  (a) fio: `fio --parse-only FILE` (exit status 0: parses; else the first line fio printed);
  (b) ptsbench: `ptsbench run --target sim:zdrive-6300-1.6t --workload FILE --rounds 1
      --round-time 2 --out TMP` (exit status and the first line of stderr), classified as
      runs (exit 0), refused: several jobs, refused: unknown key K, refused: engine E, or
      other (any other refusal, a crash, a timeout).
A file refused for its several jobs is tried again job by job (FILE:SECTION, every section
but [global], same-name sections once), to show what else stands in the way; those runs are
counted apart and do not change the file's outcome.
With --expected TSV (tests/fixtures/fio-examples/expected.tsv, the table of
tests/integration/test_fio_examples.c): each file of the table run as that test runs it
(`--rounds 1 --round-time 1 --quiet`), its outcome written as the test writes it ("runs",
"refused: WHY", "broken: WHY"), and the rows whose `today` column differs printed; --update
rewrites that column (what the lead does after a merge, to tighten the test).
Both run as argument vectors (no shell) in a scratch directory of their own, each under a
timeout. Prints a Markdown table, the counts, and the refusal reasons by frequency; with
--json the same as one JSON object. Exit 0 when every file was tried (whatever the outcomes),
2 on bad arguments; with --strict, 1 when any run (file or job) crashed, timed out or exited
other than 0 or 2 (what `make equivtest` runs)."""
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
TARGET = "sim:zdrive-6300-1.6t"

# ptsbench's refusals as main writes them today (src/profile, src/io): the first line of stderr.
RE_JOBS = re.compile(r"\d+ jobs \(sections .*\): fio runs them")
RE_KEY = re.compile(r"unknown key '([^']*)'")
RE_ENGINE = re.compile(r"ioengine '([^']*)' is not one ptsbench runs")


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def run(argv, cwd, timeout):
    """(exit status or None on timeout, first non-empty line of stderr, else of stdout)."""
    try:
        p = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %g s" % timeout
    return p.returncode, first_line(p.stderr) or first_line(p.stdout)


def fio_parse(fio, path, timeout):
    with tempfile.TemporaryDirectory(prefix="fioex-fio-") as tmp:
        rc, line = run([fio, "--parse-only", path], tmp, timeout)
    line = line.replace(path, os.path.basename(path))
    return {"exit": rc, "parses": rc == 0, "line": "" if rc == 0 else line}


def strip_place(line, path):
    """The refusal without its 'ptsbench run: FILE[:LINE]: ' prefix."""
    line = re.sub(r"^ptsbench run: ", "", line)
    if line.startswith(path):
        line = re.sub(r"^:\d+", "", line[len(path):])
        line = re.sub(r"^:\s*", "", line)
    return line


def classify(rc, line, path):
    """(outcome class, reason): the reason is what the refusal names, without file and line."""
    if rc == 0:
        return "runs", ""
    if rc is None:
        return "other", "timeout"
    if RE_JOBS.search(line):
        return "refused: several jobs", "several jobs"
    m = RE_KEY.search(line)
    if m:
        return "refused: unknown key", "unknown key '%s'" % m.group(1)
    m = RE_ENGINE.search(line)
    if m:
        return "refused: engine", "ioengine '%s'" % m.group(1)
    if rc < 0 or rc > 2:
        return "other", "exit %d" % rc
    body = strip_place(line, path)
    # "key=value: why: detail" -> "key=value: why"; a reason without a key stays whole.
    parts = body.split(": ")
    return "other", ": ".join(parts[:2]) if len(parts) > 2 else body


def sections(path):
    """The job sections of a job file in order: every [name] but [global], each name once."""
    names = []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*\[([^\]]+)\]\s*$", line)
            if m and m.group(1) != "global" and m.group(1) not in names:
                names.append(m.group(1))
    return names


def pts_run(ptsbench, path, timeout, section=None):
    spec = path if section is None else path + ":" + section
    with tempfile.TemporaryDirectory(prefix="fioex-pts-") as tmp:
        rc, line = run([ptsbench, "run", "--target", TARGET, "--workload", spec,
                        "--rounds", "1", "--round-time", "2", "--out", os.path.join(tmp, "out")],
                       tmp, timeout)
    line = line.replace(path, os.path.basename(path))   # no machine's path in the table
    kind, reason = classify(rc, line, os.path.basename(path))
    return {"exit": rc, "line": "" if rc == 0 else line, "outcome": kind, "reason": reason}


def test_outcome(ptsbench, d, name, timeout=60):
    """The outcome of FILE as tests/integration/test_fio_examples.c records it."""
    fix = os.path.abspath(d) + "/"
    with tempfile.TemporaryDirectory(prefix="fioex-exp-") as tmp:
        try:
            p = subprocess.run([ptsbench, "run", "--target", TARGET, "--workload", fix + name,
                                "--rounds", "1", "--round-time", "1", "--quiet",
                                "-o", os.path.join(tmp, "out")], cwd=tmp,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, errors="replace",
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return "broken: timed out after %d s" % timeout
    if p.returncode < 0:
        return "broken: signal %d" % -p.returncode
    if p.returncode == 0:
        return "runs"
    one = p.stderr.endswith("\n") and p.stderr.count("\n") == 1 and p.stderr != "\n"
    if p.returncode != 2 or not one:
        return "broken: exit %d, %s" % (p.returncode, "one line" if one else "not one line")
    text = p.stderr.rstrip("\n").replace(fix, "")
    at = text.find(name)
    if at >= 0:
        why = text[at + len(name):].lstrip(":0123456789").lstrip(" ")
    else:
        why = text
    return "refused: " + why.replace("\t", " ")


def expected(a):
    """--expected TSV [--update]: the table's today column against this ptsbench."""
    d = os.path.dirname(os.path.abspath(a.expected))
    with open(a.expected) as f:
        lines = f.read().split("\n")
    out, diff = [], 0
    for line in lines:
        cols = line.split("\t")
        if not line or line.startswith("#") or len(cols) != 4:
            out.append(line)
            continue
        now = test_outcome(os.path.abspath(a.ptsbench), d, cols[0])
        if now != cols[3]:
            diff += 1
            print("%s\n  today: %s\n  now:   %s" % (cols[0], cols[3], now))
            cols[3] = now
        out.append("\t".join(cols))
    print("%d row(s) differ%s" % (diff, "; table rewritten" if a.update and diff else ""))
    if a.update and diff:
        with open(a.expected, "w") as f:
            f.write("\n".join(out))
    return 0


def tool_version(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        return first_line(p.stdout) or first_line(p.stderr)
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(doc):
    out = []
    out.append("# fio's examples: fio --parse-only and ptsbench run, file by file\n")
    out.append("fio: `%s` (%s). ptsbench: `%s` (%s). Files: `%s`, %d.\n"
               % (doc["fio"], doc["fio_version"], doc["ptsbench"], doc["ptsbench_version"],
                  doc["dir"], len(doc["files"])))
    out.append("ptsbench command: `ptsbench run --target %s --workload FILE --rounds 1 "
               "--round-time 2 --out TMP`. fio command: `fio --parse-only FILE`.\n" % TARGET)
    out.append("| file | fio parses (else its first line) | ptsbench exit | outcome | ptsbench's first line (file and line cut) |")
    out.append("|---|---|---|---|---|")
    for f in doc["files"]:
        fio = "yes" if f["fio"]["parses"] else "no: " + f["fio"]["line"]
        p = f["ptsbench"]
        ex = "timeout" if p["exit"] is None else str(p["exit"])
        shown = strip_place(p["line"], f["name"]) if p["line"] else ""
        out.append("| %s | %s | %s | %s | %s |"
                   % (f["name"], fio, ex, cell(p["outcome"]), cell(shown)))
    c = doc["counts"]
    out.append("\n## Counts\n")
    out.append("| outcome | files | of which fio parses |")
    out.append("|---|---|---|")
    for kind, n in c["outcomes"].items():
        out.append("| %s | %d | %d |" % (kind, n, c["outcomes_fio_parses"].get(kind, 0)))
    out.append("| **all** | **%d** | **%d** |" % (c["files"], c["fio_parses"]))
    out.append("\nfio parses %d of %d; ptsbench runs %d of %d (%d of the %d that fio parses)."
               % (c["fio_parses"], c["files"], c["outcomes"].get("runs", 0), c["files"],
                  c["outcomes_fio_parses"].get("runs", 0), c["fio_parses"]))
    out.append("\n## Refusal reasons, most frequent first\n")
    out.append("| reason | files |")
    out.append("|---|---|")
    for reason, n in c["reasons"]:
        out.append("| %s | %d |" % (cell(reason), n))
    j = c["jobs"]
    out.append("\n## The several-job files, job by job\n")
    out.append("The %d files refused for their several jobs, each job run alone as FILE:SECTION "
               "(%d jobs): %d run, %d refused. What refuses them, most frequent first "
               "(jobs, and files with at least one such job):\n"
               % (j["files"], j["jobs"], j["runs"], j["jobs"] - j["runs"]))
    out.append("| reason | jobs | files |")
    out.append("|---|---|---|")
    for reason, n, nf in j["reasons"]:
        out.append("| %s | %d | %d |" % (cell(reason), n, nf))
    out.append("\n| file | jobs | run alone | refused alone: reasons |")
    out.append("|---|---|---|---|")
    for f in doc["files"]:
        if "jobs" not in f:
            continue
        ok = sum(1 for x in f["jobs"] if x["outcome"] == "runs")
        why = collections.Counter(x["reason"] for x in f["jobs"] if x["outcome"] != "runs")
        out.append("| %s | %d | %d | %s |" % (f["name"], len(f["jobs"]), ok, cell("; ".join(
            r if n == 1 else "%s (%d)" % (r, n) for r, n in sorted(why.items())))))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", default=os.path.join(ROOT, "tests/fixtures/fio-examples"))
    ap.add_argument("--ptsbench", default=os.path.join(ROOT, "build/ptsbench"))
    ap.add_argument("--fio", default=shutil.which("fio") or "fio")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per command")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--expected", metavar="TSV", help="check (or --update) a table's today column")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 when a run crashed, timed out or exited other than 0 or 2")
    a = ap.parse_args()
    if a.expected:
        if not os.path.isfile(a.expected) or not os.access(a.ptsbench, os.X_OK):
            print("fio-examples.py: need the table and an executable ptsbench", file=sys.stderr)
            return 2
        return expected(a)
    if not os.path.isdir(a.dir) or not os.access(a.ptsbench, os.X_OK):
        print("fio-examples.py: need a directory of .fio files and an executable ptsbench",
              file=sys.stderr)
        return 2
    names = sorted(n for n in os.listdir(a.dir) if n.endswith(".fio"))
    if not names:
        print("fio-examples.py: no .fio file in %s" % a.dir, file=sys.stderr)
        return 2
    files = []
    for n in names:
        path = os.path.abspath(os.path.join(a.dir, n))
        files.append({"name": n, "path": path, "fio": fio_parse(a.fio, path, a.timeout),
                      "ptsbench": pts_run(os.path.abspath(a.ptsbench), path, a.timeout)})
        if files[-1]["ptsbench"]["outcome"] == "refused: several jobs":
            files[-1]["jobs"] = []
            for sec in sections(path):
                r = pts_run(os.path.abspath(a.ptsbench), path, a.timeout, sec)
                r["section"] = sec
                files[-1]["jobs"].append(r)
    order = ["runs", "refused: several jobs", "refused: unknown key", "refused: engine", "other"]
    outcomes = collections.OrderedDict((k, 0) for k in order)
    parsed = collections.OrderedDict((k, 0) for k in order)
    reasons = collections.Counter()
    for f in files:
        k = f["ptsbench"]["outcome"]
        outcomes[k] += 1
        parsed[k] += f["fio"]["parses"]
        if k != "runs":
            reasons[f["ptsbench"]["reason"]] += 1
    jreasons, jfiles, jobs, jruns, jn = collections.Counter(), collections.Counter(), 0, 0, 0
    for f in files:
        if "jobs" not in f:
            continue
        jn += 1
        seen = set()
        for x in f["jobs"]:
            jobs += 1
            if x["outcome"] == "runs":
                jruns += 1
                continue
            jreasons[x["reason"]] += 1
            seen.add(x["reason"])
        for r in seen:
            jfiles[r] += 1
    jobcounts = {"files": jn, "jobs": jobs, "runs": jruns,
                 "reasons": [(r, n, jfiles[r]) for r, n in
                             sorted(jreasons.items(), key=lambda kv: (-kv[1], kv[0]))]}
    doc = {"dir": os.path.relpath(a.dir, ROOT) if a.dir.startswith(ROOT) else a.dir,
           "fio": a.fio, "fio_version": tool_version([a.fio, "--version"]),
           "ptsbench": os.path.relpath(os.path.abspath(a.ptsbench), ROOT),
           "ptsbench_version": tool_version([a.ptsbench, "--version"]),
           "files": files,
           "counts": {"files": len(files), "fio_parses": sum(f["fio"]["parses"] for f in files),
                      "outcomes": outcomes, "outcomes_fio_parses": parsed,
                      "reasons": sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])),
                      "jobs": jobcounts}}
    for f in files:
        f["path"] = os.path.relpath(f["path"], ROOT) if f["path"].startswith(ROOT) else f["path"]
    if a.strict:
        broken = ["%s%s: %s" % (f["name"], ":" + x["section"] if "section" in x else "",
                                x["line"] or "exit %s" % x["exit"])
                  for f in files for x in [f["ptsbench"]] + f.get("jobs", [])
                  if x["exit"] is None or x["exit"] not in (0, 2)]
        for b in broken:
            print("fio-examples.py: broken: %s" % b, file=sys.stderr)
        print("fio-examples.py: %d files, ptsbench runs %d; %d broken runs (crash, timeout, "
              "exit other than 0 or 2)" % (len(files), outcomes.get("runs", 0), len(broken)),
              file=sys.stderr)
    if a.json:
        json.dump(doc, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(markdown(doc))
    return 1 if a.strict and broken else 0


if __name__ == "__main__":
    sys.exit(main())
