#!/usr/bin/env python3
"""Who first touches each 64 KB window of a program's own binary.

    bench/startup_faults.py BIN ARGS...

runs BIN under `perf record -e page-faults -c 1 -d -g` and prints, per
ELF section, each page fault on BIN's mapping with the innermost package
initialisation (pkg.init, pkg.init.N), runtime.schedinit or main.main on
its stack, and the function that faulted. The kernel maps up to 64 KB
around a faulting page of a file (fault-around), so one line is one
window of resident binary; a window first touched by an init function
that the run never needs again is what that package's initialisation
costs (docs/bench.md, "What runs before main"). Needs perf and readelf.
"""
import collections
import re
import subprocess
import sys
import tempfile

binp = sys.argv[1]
data = tempfile.mkdtemp() + "/pf.data"
subprocess.run(["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-g", "-o", data] + sys.argv[1:],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
out = subprocess.run(["perf", "script", "-i", data, "-F", "addr,ip,sym"], capture_output=True, text=True).stdout

secs = []
for l in subprocess.run(["readelf", "-SW", binp], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", l)
    if m and int(m.group(2), 16):
        secs.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16)))


def section(a):
    for n, s, z in secs:
        if s <= a < s + z:
            return n
    return None


count = collections.Counter()
who = collections.defaultdict(collections.Counter)
for blk in out.strip().split("\n\n"):
    ls = blk.strip().splitlines()
    if not ls:
        continue
    s = section(int(ls[0].split()[0], 16))
    if not s:
        continue
    frames = [l.split(None, 1)[1].split("+")[0] if len(l.split(None, 1)) > 1 else "?" for l in ls[1:]]
    cause = "?"
    for f in frames:
        if re.search(r"^[^()]*\.init(\.\d+)?$", f) or f in ("main.main", "runtime.schedinit", "runtime.main"):
            cause = f
            break
    if cause == "?" and frames:
        cause = "(under " + frames[-1] + ")"
    count[s] += 1
    who[s][(cause, frames[0] if frames else "?")] += 1
for s, n in count.most_common():
    print(s, n)
    for (c, f), k in who[s].most_common():
        print("   %3d %-45s %s" % (k, c, f))
