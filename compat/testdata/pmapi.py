# What PCP's python PMAPI sees of the sample agent's metrics through a
# context: host HOST or archive PATH. Printed: the namespace, each
# metric's descriptor, labels, instances, whether it has help text, and
# per fetch the number of values and their format (PM_VAL_*); then, for
# a host, stores of the values just fetched. Values themselves are left
# out: the tests compare them elsewhere, with masks.
import ctypes
import sys

import cpmapi as c
from pcp import pmapi

# Metrics whose instances PCP's agent chooses at random.
VARYING = {"sample.mirage", "sample.mirage_longlong"}


def err(e):
    return "error " + str(e).split()[0]


def main(kind, src):
    if kind == "host":
        ctx = pmapi.pmContext(c.PM_CONTEXT_HOST, src)
    else:
        ctx = pmapi.pmContext(c.PM_CONTEXT_ARCHIVE, src)
        label = ctx.pmGetArchiveLabel()
        end = ctx.pmGetArchiveEnd()
        start = label.start
        print("archive", label.magic, label.hostname, "end after start",
              (end.tv_sec, end.tv_usec) >= (start.tv_sec, start.tv_usec))
    print("children", ctx.pmGetChildren("sample"))
    try:
        print("children status", ctx.pmGetChildrenStatus("sample.secret"))
    except pmapi.pmErr as e:
        print("children status", err(e))
    names = []
    ctx.pmTraversePMNS("sample", names.append)
    print("names", len(names))
    for name in names:
        pmid = ctx.pmLookupName([name])[0]
        out = [name, ctx.pmIDStr(pmid)]
        try:
            d = ctx.pmLookupDesc(pmid)
        except pmapi.pmErr as e:
            print(*out, "desc", err(e))
            continue
        out += [d.type, ctx.pmInDomStr(d), d.sem, ctx.pmUnitsStr(d.units)]
        try:
            out.append(ctx.pmLookupLabels(pmid))
        except pmapi.pmErr as e:
            out.append("labels " + err(e))
        if d.indom != c.PM_INDOM_NULL and name not in VARYING:
            try:
                inst, iname = ctx.pmGetInDom(d)
                out.append(list(zip(inst or [], iname or [])))
            except pmapi.pmErr as e:
                out.append("indom " + err(e))
        if kind == "host":
            try:
                out.append("text %s" % bool(ctx.pmLookupText(pmid)))
            except pmapi.pmErr as e:
                out.append("text " + err(e))
        try:
            if kind != "host":
                ctx.pmSetMode(c.PM_MODE_FORW, ctx.pmGetArchiveLabel().start, 0)
            r = ctx.pmFetch((ctypes.c_uint * 1)(pmid))
            n = r.contents.get_numval(0)
            if name in VARYING:
                n = n > 0
            # valfmt means nothing without values.
            out.append("numval %s valfmt %s" % (n, r.contents.get_valfmt(0) if n > 0 else "-"))
            ctx.pmFreeResult(r)
        except pmapi.pmErr as e:
            out.append("fetch " + err(e))
        print(*out)
    if kind == "host":
        for name in ["sample.write_me", "sample.long.one", "sample.string.write_me",
                     "sample.aggregate.write_me", "sample.bin"]:
            pmids = ctx.pmLookupName([name])
            r = ctx.pmFetch(pmids)
            try:
                ctx.pmStore(r)
                print("store", name, "ok")
            except pmapi.pmErr as e:
                print("store", name, err(e))
            ctx.pmFreeResult(r)


main(sys.argv[1], sys.argv[2])
