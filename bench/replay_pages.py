#!/usr/bin/env python3
"""Which pages of a program's own binary are resident when it exits.

    bench/replay_pages.py BIN ARGS...
    bench/replay_pages.py --pid PID BIN

runs BIN under gdb, stops it at exit_group (or, with --pid, looks at
the running process PID of BIN as it is now), reads /proc/PID/pagemap for
the mappings of BIN and prints, per ELF section, the resident KB against
the section's size, then the bytes of each package's symbols that lie on
resident pages (TOP=n packages, 40 by default). The kernel maps a file
64 KB around each page a program touches (fault-around), so resident
is not the same as used: docs/bench.md, "Replay: peak memory, sixth
pass", says how this was read. Needs gdb, readelf and go.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

live = sys.argv[1] == "--pid"
binp = sys.argv[3] if live else sys.argv[1]
tmp = tempfile.mkdtemp()
dump = tmp + "/dump.py"
with open(dump, "w") as f:
    f.write(f'''
import struct
out = open("{tmp}/pages", "w")
for line in open("/proc/%d/maps" % pid):
    fld = line.split()
    if len(fld) < 6 or not fld[5].endswith("{os.path.basename(binp)}"):
        continue
    a, b = [int(x, 16) for x in fld[0].split("-")]
    pm = open("/proc/%d/pagemap" % pid, "rb")
    pm.seek(a // 4096 * 8)
    data = pm.read((b - a) // 4096 * 8)
    for i in range((b - a) // 4096):
        if struct.unpack_from("<Q", data, i * 8)[0] >> 63:
            out.write("%x\\n" % (a + i * 4096))
out.close()
''')
gdb = ["gdb", "-q", "-batch", "-ex", "set pagination off",
       "-ex", "catch syscall exit_group", "-ex", "run",
       "-ex", f'python import gdb; pid = gdb.selected_inferior().pid; exec(open("{dump}").read())',
       "-ex", "kill", "--args"] + sys.argv[1:]
if live:
    pid = int(sys.argv[2])
    exec(open(dump).read())
else:
    subprocess.run(gdb, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
pages = set(int(l, 16) for l in open(tmp + "/pages"))

for l in subprocess.run(["readelf", "-SW", binp], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", l)
    if not m or int(m.group(2), 16) == 0:
        continue
    name, a, s = m.group(1), int(m.group(2), 16), int(m.group(3), 16)
    r = sum(1 for p in range(a // 4096 * 4096, a + s, 4096) if p in pages)
    print("%-14s %6d KB of %6d KB resident" % (name, r * 4, (s + 4095) // 4096 * 4))
print("total resident %d KB" % (len(pages) * 4))

res, size = collections.Counter(), collections.Counter()
nm = subprocess.run(["go", "tool", "nm", "-size", "-sort", "address", binp], capture_output=True, text=True).stdout
for l in nm.splitlines():
    f = l.split(None, 3)
    if len(f) < 4 or int(f[1]) == 0:
        continue
    a, sz, t, name = int(f[0], 16), int(f[1]), f[2], f[3]
    i = name.rfind("/")
    j = name.find(".", i + 1)
    pkg = name[:j] if j > 0 else name
    kind = "T" if t in "Tt" else ("R" if t in "Rr" else "D")
    size[(pkg, kind)] += sz
    p = a // 4096 * 4096
    while p < a + sz:
        if p in pages:
            res[(pkg, kind)] += min(p + 4096, a + sz) - max(p, a)
        p += 4096
bypkg, sizes = collections.Counter(), collections.Counter()
for (pkg, _), v in res.items():
    bypkg[pkg] += v
for (pkg, _), v in size.items():
    sizes[pkg] += v
for pkg, v in bypkg.most_common(int(os.environ.get("TOP", "40"))):
    kinds = " ".join("%s=%d/%d" % (k, res[(pkg, k)], size[(pkg, k)]) for k in "TRD" if size[(pkg, k)])
    print("%8d resident of %8d  %s  (%s)" % (v, sizes[pkg], pkg, kinds))
