#!/usr/bin/env python3
# Parses host specifications with libpcp's own parser (through ctypes), for
# the pmapi package's tests: stdin is a JSON list of specifications, stdout
# a JSON list of answers: the status, libpcp's error message, and the
# specification as libpcp prints it back.
import ctypes as C
import json
import sys

pcp = C.CDLL("libpcp.so.3")
out = []
for spec in json.load(sys.stdin):
    hosts = C.c_void_p()
    count = C.c_int()
    attrs = C.create_string_buffer(256)  # a zeroed __pmHashCtl is an empty table
    errmsg = C.c_char_p()
    sts = pcp.__pmParseHostAttrsSpec(spec.encode(), C.byref(hosts), C.byref(count), attrs, C.byref(errmsg))
    ans = {"sts": sts, "errmsg": errmsg.value.decode() if errmsg.value else "", "count": count.value, "unparsed": ""}
    if sts >= 0 and count.value > 0:
        buf = C.create_string_buffer(4096)
        n = pcp.__pmUnparseHostAttrsSpec(hosts, count, attrs, buf, C.c_size_t(len(buf)))
        if n >= 0:
            ans["unparsed"] = buf.value.decode()
    out.append(ans)
print(json.dumps(out))
