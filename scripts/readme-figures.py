#!/usr/bin/env python3
"""The figures README.md quotes from `make demo`, taken from a demo's results, never typed.

    scripts/readme-figures.py --check DEMO_DIR   compare README.md's figures with DEMO_DIR's
    scripts/readme-figures.py --write DEMO_DIR   rewrite them from DEMO_DIR

DEMO_DIR is a demo's output folder (demo-results/<timestamp>, holding wsat-0pct/, wsat-90pct/,
pts-iops/, profiles/ ...). Each figure below names the sentence of the README it sits in (a
regular expression whose group `v` is the figure) and how it is computed from the results. The
simulated drive runs in virtual time with fixed seeds, so the figures are the same on every
machine; `make demo` ends with --check, and exits 1 when the README says something the demo
did not measure. --check exits 0 when every figure agrees, 1 when one differs or its sentence is
not found exactly once in the README, 2 on bad arguments or unreadable results.
"""
import argparse
import json
import os
import re
import sys


def kilo(x):
    """A figure in thousands, three significant digits: 62.4K, 168K, 350K (the README's prose)."""
    k = x / 1000.0
    if k >= 100:
        return "%.0fK" % k
    if k >= 10:
        return "%.1fK" % k
    return "%.2fK" % k


def grouped(x):
    """An integer figure with thousands separators, as ptsbench prints it: 65,720."""
    return "{:,}".format(int(round(x)))


def load(demo, sub):
    path = os.path.join(demo, sub, "results.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def wsat(demo, sub, key):
    return load(demo, sub)[key]["window"]["average"]


def pts_iops_row(demo, read_pct, bs):
    for test in load(demo, "pts-iops")["tests"]:
        for sub in test.get("subtests", []):
            for row in sub["table"]["rows"]:
                if row["rwmix_read"] == read_pct and row["bs"] == bs:
                    return row["total"]["iops"]
    raise KeyError("pts-iops: no row %d%% read, %d B" % (read_pct, bs))


def pts_iops_steady_round(demo):
    for test in load(demo, "pts-iops")["tests"]:
        for sub in test.get("subtests", []):
            ss = sub["steady_state"]
            if ss.get("reached"):
                return ss["round"]
    raise KeyError("pts-iops: steady state not reached")


def burst_minutes(demo, sub):
    """How long the burst lasted: the minutes of the rounds from the first on whose IOPS stay
    within 10% of the burst window's average (the run's rounds are one minute long)."""
    d = load(demo, sub)
    burst = d["steady_state"]["window"]["average"]
    n = 0
    for r in d["rounds"]:
        if r["total"]["iops"] < 0.9 * burst:
            break
        n += 1
    return n * d["rounds"][0]["elapsed_s"] / 60.0


def profile_iops(demo, profile, workers, compress):
    for pt in load(demo, "profiles")["points"]:
        if (pt["profile"] == profile and pt["workers"] == workers
                and pt["compress_pct"] == compress):
            return pt["result"]["total"]["iops"]
    raise KeyError("profiles: no point %s %d workers %d%%" % (profile, workers, compress))


def sentence(words):
    """A README sentence as a pattern: the words in order, any white space (line breaks
    included) between them; {v} is where the figure stands."""
    parts = [re.escape(w) for w in words.split()]
    return r"\s+".join(parts).replace(re.escape("{v}"), "(?P<v>[0-9][0-9.,]*K?)")


# (name, the README sentence with the figure as {v}, the figure from a demo folder)
FIGURES = [
    ("WSAT burst plateau",
     sentence("writes from its spare area at {v} IOPS"),
     lambda d: kilo(wsat(d, "wsat-0pct", "steady_state"))),
    ("WSAT burst length",
     sentence("IOPS for {v} minutes, five flat rounds"),
     lambda d: "%.0f" % burst_minutes(d, "wsat-0pct")),
    ("WSAT saturated level",
     sentence("its level after four virtual hours is {v}."),
     lambda d: kilo(wsat(d, "wsat-0pct", "last_window"))),
    ("database profile, 4 workers, 0% compressible",
     sentence("at 4 workers gives about {v} IOPS with incompressible data"),
     lambda d: kilo(profile_iops(d, "database", 4, 0))),
    ("database profile, 4 workers, 90% compressible",
     sentence("incompressible data and {v} with 90% compressible data"),
     lambda d: kilo(profile_iops(d, "database", 4, 90))),
    ("PTS IOPS steady round",
     sentence('"steady state reached at round {v} ...;'),
     lambda d: "%d" % pts_iops_steady_round(d)),
    ("PTS IOPS 4 KiB random write",
     sentence('4 KiB random write {v} IOPS"),'),
     lambda d: grouped(pts_iops_row(d, 0, 4096))),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="compare (exit 1 on a difference)")
    mode.add_argument("--write", action="store_true", help="rewrite README.md's figures")
    ap.add_argument("--readme", default=os.path.join(os.path.dirname(__file__), "..", "README.md"))
    ap.add_argument("demo", help="a demo's output folder (demo-results/<timestamp>)")
    a = ap.parse_args()
    if not os.path.isdir(a.demo):
        print("readme-figures: %s: not a folder" % a.demo, file=sys.stderr)
        return 2
    with open(a.readme, encoding="utf-8") as f:
        text = f.read()
    bad = 0
    for name, pattern, compute in FIGURES:
        try:
            want = compute(a.demo)
        except (OSError, KeyError, ValueError) as e:
            print("readme-figures: %s: %s" % (name, e), file=sys.stderr)
            return 2
        found = list(re.finditer(pattern, text))
        if len(found) != 1:
            print("README: %s: its sentence is found %d times (pattern %r)"
                  % (name, len(found), pattern))
            bad += 1
            continue
        m = found[0]
        if m.group("v") == want:
            continue
        if a.write:
            text = text[:m.start("v")] + want + text[m.end("v"):]
            print("README: %s: %s -> %s" % (name, m.group("v"), want))
        else:
            print("README: %s says %s, the demo measured %s" % (name, m.group("v"), want))
            bad += 1
    if a.write:
        tmp = a.readme + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, a.readme)
    elif bad == 0:
        print("README figures: %d checked against this demo's results, all agree" % len(FIGURES))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
