#!/usr/bin/env python3
"""compare-results.py [--allow-new] A B: every field of every results.json under directory A
against the same file and field under B (a demo's results before and after a change to the code
that reads or writes them). Fields that record the machine rather than the drive (wall-clock
times, process ids, the output paths on the command line, the CPUs a worker ran on) are left
out and counted. Prints the fields that differ (at most 40; changed ones first) and one line:
files, fields, numeric, differ (changed: in both with another value; gone: in A only; new: in
B only). Exit 0 when nothing differs (with --allow-new: when nothing changed or went), 1
otherwise, 2 on bad arguments."""
import glob
import json
import os
import re
import sys

# What the machine and the clock decide, not the drive: ISO times, wall seconds, pids, the
# output directory given on the command line, the CPUs a worker was scheduled on.
MACHINE = re.compile(r"(\.(taken|started|updated|wall_s|seconds|pid|ran_on)$)|(\.command(_line)?\[\d+\]$)")


def flat(x, path, out):
    if isinstance(x, dict):
        for k, v in x.items():
            flat(v, path + "." + k, out)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            flat(v, "%s[%d]" % (path, i), out)
    else:
        out[path] = x


def load(root):
    out, files = {}, 0
    for f in sorted(glob.glob(os.path.join(root, "**", "results.json"), recursive=True)):
        files += 1
        with open(f) as fh:
            flat(json.load(fh), os.path.relpath(f, root), out)
    return out, files


def main():
    args = sys.argv[1:]
    allow_new = bool(args) and args[0] == "--allow-new"
    args = args[1:] if allow_new else args
    if len(args) != 2 or not all(os.path.isdir(d) for d in args):
        print("usage: compare-results.py [--allow-new] DIR_BEFORE DIR_AFTER", file=sys.stderr)
        return 2
    a, fa = load(args[0])
    b, fb = load(args[1])
    keys = sorted(set(a) | set(b))
    machine = [k for k in keys if MACHINE.search(k)]
    keys = [k for k in keys if not MACHINE.search(k)]
    numeric = sum(1 for k in keys if isinstance(a.get(k), (int, float)) and not isinstance(a.get(k), bool))
    changed = [k for k in keys if k in a and k in b and a[k] != b[k]]
    gone = [k for k in keys if k not in b]
    new = [k for k in keys if k not in a]
    for k in (changed + gone + new)[:40]:
        print("%s: %r -> %r" % (k, a.get(k, "<missing>"), b.get(k, "<missing>")))
    print("files %d/%d, fields %d (numeric %d; %d machine fields left out), differ %d "
          "(changed %d, gone %d, new %d)" % (fa, fb, len(keys), numeric, len(machine),
                                             len(changed) + len(gone) + len(new), len(changed),
                                             len(gone), len(new)))
    ok = not changed and not gone and (allow_new or not new)
    return 0 if ok and fa == fb else 1


if __name__ == "__main__":
    sys.exit(main())
