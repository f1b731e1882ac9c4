#!/usr/bin/env python3
"""tree-stats.py [ROOT [BUILD]]: the shape of src/ (issue 45's before/after table): lines per
folder and the largest folder's share, functions over 120 lines above the engine layer, the
longest opening comment of a source file, and the circles between object files (strongly
connected components of "uses a symbol defined in", from nm; needs ROOT/BUILD/src/*/*.o).
The rules are tests/unit/test_layers.c's: a function is the lines from its signature (the
line at column 0 before a "{" alone on its line) to the next "}" alone on its line."""
import collections
import glob
import os
import subprocess
import sys

EXEMPT = {"lib", "stats", "io", "sim", "device", "engine"}   # below and at the engine layer
LIMIT = 120


def functions(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    out = []
    for i, line in enumerate(lines):
        if line != "{":
            continue
        start = i - 1
        while start > 0 and (lines[start][:1] in (" ", "\t") or lines[start] == ""):
            start -= 1
        end = i + 1
        while end < len(lines) and lines[end] != "}":
            end += 1
        name = lines[start].split("(")[0].split()[-1].lstrip("*") if "(" in lines[start] else "?"
        out.append((end - start + 1, name))
    return out


def opening_comment(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    if not lines or not lines[0].startswith("/*"):
        return 0
    for i, line in enumerate(lines):
        if "*/" in line:
            return i + 1
    return len(lines)


def circles(objdir):
    objs = sorted(glob.glob(os.path.join(objdir, "*", "*.o")))
    if not objs:
        return None
    out = subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True, check=True).stdout
    defs, uses = {}, collections.defaultdict(set)
    for line in out.splitlines():
        obj, _, rest = line.partition(":")
        f = rest.split()
        if len(f) == 3 and f[1] in "TDBR":
            defs[f[2]] = obj
        elif len(f) == 2 and f[0] == "U":
            uses[obj].add(f[1])
    g = {o: {defs[s] for s in uses[o] if s in defs and defs[s] != o} for o in objs}
    index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(os.path.relpath(c, objdir)[:-2] for c in comp))

    for o in objs:
        if o not in index:
            visit(o)
    return comps


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    build = sys.argv[2] if len(sys.argv) > 2 else "build"
    src = os.path.join(root, "src")
    per = {}
    long_fns, worst_comment = [], (0, "")
    for d in sorted(os.listdir(src)):
        files = sorted(glob.glob(os.path.join(src, d, "*.[ch]")))
        per[d] = (sum(len(open(f, errors="replace").read().split("\n")) - 1 for f in files),
                  len(files))
        for f in files:
            c = opening_comment(f)
            if c > worst_comment[0]:
                worst_comment = (c, os.path.relpath(f, root))
            if f.endswith(".c") and d not in EXEMPT:
                long_fns += [(n, name, os.path.relpath(f, root)) for n, name in functions(f)
                             if n > LIMIT]
    total = sum(v[0] for v in per.values())
    big = max(per, key=lambda d: per[d][0])
    print("src/: %d lines in %d folders; largest: %s/ %d lines, %.0f%%"
          % (total, len(per), big, per[big][0], 100.0 * per[big][0] / total))
    print("lines per folder: " + ", ".join("%s %d" % (d, per[d][0]) for d in per))
    print("functions over %d lines outside %s: %d" % (LIMIT, " ".join(sorted(EXEMPT)),
                                                       len(long_fns)))
    for n, name, f in sorted(long_fns, reverse=True):
        print("  %d %s (%s)" % (n, name, f))
    print("longest opening comment: %d lines (%s)" % worst_comment)
    comps = circles(os.path.join(root, build, "src"))
    if comps is None:
        print("circles: not counted (no objects under %s/src: build first)" % build)
    else:
        print("circles between object files: %d" % len(comps))
        for c in comps:
            print("  " + " <-> ".join(c))


if __name__ == "__main__":
    main()
