#!/usr/bin/env python3
"""How the page cache holds a file: small pages or large folios.

    bench/replay_folios.py FILE...

maps each FILE, reads a byte of every page (bringing it into the page
cache if it was not), and prints how many of its pages are small (4 KB
folios) and how many are the heads and tails of large folios, from
/proc/self/pagemap and /proc/kpageflags (root only; nothing is printed
without them). A volume pmlogger wrote is held in small pages, one read
back from disk in large folios, and reading the latter costs about half
(docs/bench.md, "Replay: the cost of reading 100 MB").
"""
import ctypes
import mmap
import os
import struct
import sys

COMPOUND_HEAD, COMPOUND_TAIL = 1 << 15, 1 << 16
for name in sys.argv[1:]:
    try:
        pm = open("/proc/self/pagemap", "rb", buffering=0)
        kf = open("/proc/kpageflags", "rb", buffering=0)
    except OSError:
        sys.exit(0)
    with open(name, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        m = mmap.mmap(f.fileno(), size, access=mmap.ACCESS_COPY)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    counts = {"small": 0, "head": 0, "tail": 0, "absent": 0}
    pages = (size + 4095) // 4096
    for i in range(pages):
        m[i * 4096]
    for i in range(pages):
        pm.seek((base // 4096 + i) * 8)
        entry = struct.unpack("<Q", pm.read(8))[0]
        if not entry >> 63 or not entry & ((1 << 55) - 1):
            counts["absent"] += 1
            continue
        kf.seek((entry & ((1 << 55) - 1)) * 8)
        flags = struct.unpack("<Q", kf.read(8))[0]
        counts["head" if flags & COMPOUND_HEAD else "tail" if flags & COMPOUND_TAIL else "small"] += 1
    print("%s: %d pages: %d small, large folios %d heads and %d tails, %d not read" % (
        name, pages, counts["small"], counts["head"], counts["tail"], counts["absent"]))
