#!/usr/bin/env python3
# Answers PMAPI questions with PCP's own libpcp (through ctypes), for the
# pmapi package's interop tests: argv[1] is a host specification, stdin a
# JSON list of requests, stdout a JSON list of answers in the same order.
# An optional argv[2] is a namespace file to load (as -n does). An
# "open" request moves the rest to another context.
import ctypes as C
import json
import sys

pcp = C.CDLL("libpcp.so.3")


class Desc(C.Structure):
    _fields_ = [("pmid", C.c_uint), ("type", C.c_int), ("indom", C.c_uint),
                ("sem", C.c_int), ("units", C.c_uint)]


class Label(C.Structure):
    _fields_ = [("name", C.c_uint, 16), ("namelen", C.c_uint, 8),
                ("flags", C.c_uint, 8), ("value", C.c_uint, 16),
                ("valuelen", C.c_uint, 16)]


class LabelSet(C.Structure):
    _fields_ = [("inst", C.c_uint), ("nlabels", C.c_int), ("json", C.c_char_p),
                ("jsonlen", C.c_uint, 16), ("padding", C.c_uint, 15),
                ("compound", C.c_uint, 1), ("labels", C.POINTER(Label)),
                ("hash", C.c_void_p)]


class ValueBlock(C.Structure):
    _fields_ = [("vhdr", C.c_uint), ("vbuf", C.c_char * 1)]


class ValueU(C.Union):
    _fields_ = [("pval", C.POINTER(ValueBlock)), ("lval", C.c_int)]


class Value(C.Structure):
    _fields_ = [("inst", C.c_int), ("value", ValueU)]


class ValueSet(C.Structure):
    _fields_ = [("pmid", C.c_uint), ("numval", C.c_int), ("valfmt", C.c_int),
                ("vlist", Value * 1)]


class Result(C.Structure):
    _fields_ = [("sec", C.c_long), ("usec", C.c_long), ("numpmid", C.c_int),
                ("vset", C.POINTER(ValueSet) * 1)]


pcp.pmGetContextHostName.restype = C.c_char_p
pcp.pmErrStr.restype = C.c_char_p
TRAVERSE_CB = C.CFUNCTYPE(None, C.c_char_p, C.c_void_p)


def strlist(p, n):
    return [p[i].decode() for i in range(n)]


def lookup(req):
    names = req["names"]
    arr = (C.c_char_p * len(names))(*[n.encode() for n in names])
    pmids = (C.c_uint * len(names))()
    sts = pcp.pmLookupName(len(names), arr, pmids)
    return {"sts": sts, "pmids": list(pmids)}


def nameid(req):
    p = C.c_char_p()
    sts = pcp.pmNameID(req["pmid"], C.byref(p))
    return {"sts": sts, "name": p.value.decode() if sts >= 0 else None}


def nameall(req):
    p = C.POINTER(C.c_char_p)()
    sts = pcp.pmNameAll(req["pmid"], C.byref(p))
    return {"sts": sts, "names": strlist(p, sts) if sts > 0 else []}


def children(req):
    p = C.POINTER(C.c_char_p)()
    st = C.POINTER(C.c_int)()
    sts = pcp.pmGetChildrenStatus(req["name"].encode(), C.byref(p), C.byref(st))
    out = {"sts": sts, "names": [], "status": []}
    if sts > 0:
        out["names"] = strlist(p, sts)
        out["status"] = [st[i] for i in range(sts)]
    return out


def traverse(req):
    got = []

    def cb(name, _):
        got.append(name.decode())
    f = TRAVERSE_CB(cb)
    sts = pcp.pmTraversePMNS_r(req["name"].encode(), f, None)
    return {"sts": sts, "names": got}


def descfields(d):
    return {"pmid": d.pmid, "type": d.type, "indom": d.indom, "sem": d.sem, "units": d.units}


def desc(req):
    d = Desc()
    sts = pcp.pmLookupDesc(req["pmid"], C.byref(d))
    return {"sts": sts, "desc": descfields(d) if sts >= 0 else None}


def descs(req):
    ids = req["pmids"]
    arr = (C.c_uint * len(ids))(*ids)
    out = (Desc * len(ids))()
    sts = pcp.pmLookupDescs(len(ids), arr, out)
    return {"sts": sts, "descs": [descfields(d) for d in out] if sts >= 0 else None}


def getindom(req):
    insts = C.POINTER(C.c_int)()
    names = C.POINTER(C.c_char_p)()
    sts = pcp.pmGetInDom(req["indom"], C.byref(insts), C.byref(names))
    out = {"sts": sts, "insts": [], "names": []}
    if sts > 0:
        out["insts"] = [insts[i] for i in range(sts)]
        out["names"] = strlist(names, sts)
    return out


def lookupindom(req):
    return {"sts": pcp.pmLookupInDom(req["indom"], req["name"].encode())}


def nameindom(req):
    p = C.c_char_p()
    sts = pcp.pmNameInDom(req["indom"], req["inst"], C.byref(p))
    return {"sts": sts, "name": p.value.decode() if sts >= 0 else None}


def text(req):
    p = C.c_char_p()
    fn = pcp.pmLookupInDomText if req.get("indom") else pcp.pmLookupText
    sts = fn(req["ident"], req["level"], C.byref(p))
    return {"sts": sts, "text": p.value.decode() if sts >= 0 else None}


LABEL_CALLS = {
    "context": lambda ident, p: pcp.pmGetContextLabels(p),
    "domain": pcp.pmGetDomainLabels,
    "indom": pcp.pmGetInDomLabels,
    "cluster": pcp.pmGetClusterLabels,
    "item": pcp.pmGetItemLabels,
    "instances": pcp.pmGetInstancesLabels,
}


def labels(req):
    p = C.POINTER(LabelSet)()
    sts = LABEL_CALLS[req["level"]](C.c_uint(req["ident"]), C.byref(p))
    sets = []
    for i in range(max(sts, 0)):
        s = p[i]
        labs = []
        for j in range(max(s.nlabels, 0)):
            l = s.labels[j]
            labs.append([l.name, l.namelen, l.flags, l.value, l.valuelen])
        sets.append({"inst": C.c_int(s.inst).value, "nlabels": s.nlabels,
                     "json": (s.json or b"").decode(), "labels": labs})
    return {"sts": sts, "sets": sets}


def profile(req):
    insts = req.get("insts")
    arr = (C.c_int * len(insts))(*insts) if insts else None
    fn = pcp.pmAddProfile if req["op"] == "addprofile" else pcp.pmDelProfile
    return {"sts": fn(C.c_uint(req["indom"]), len(insts) if insts else 0, arr)}


def fetch(req):
    ids = req["pmids"]
    arr = (C.c_uint * len(ids))(*ids)
    rp = C.POINTER(Result)()
    sts = pcp.pmFetch(len(ids), arr, C.byref(rp))
    out = {"sts": sts, "sets": []}
    if sts >= 0:
        vsets = C.cast(C.addressof(rp.contents.vset), C.POINTER(C.POINTER(ValueSet)))
        for i in range(rp.contents.numpmid):
            vs = vsets[i].contents
            vals = C.cast(C.addressof(vs.vlist), C.POINTER(Value))
            out["sets"].append({"pmid": vs.pmid, "numval": vs.numval,
                                "insts": [vals[j].inst for j in range(max(vs.numval, 0))]})
        pcp.pmFreeResult(rp)
    return out


def hostname(req):
    return {"sts": 0, "name": pcp.pmGetContextHostName(ctx).decode()}


def open_context(req):
    # Later requests go to the new context (pmNewContext makes it
    # current): one harness answers for several archives, each process
    # loading libpcp costing the tests more than their questions.
    global ctx
    kind, spec = context_kind(req["spec"])
    sts = pcp.pmNewContext(kind, spec.encode())
    if sts >= 0:
        ctx = sts
    return {"sts": sts}


def context_kind(spec):
    # "archive:PATH" is an archive context (PM_CONTEXT_ARCHIVE), anything
    # else a host context.
    if spec.startswith("archive:"):
        return 2, spec[len("archive:"):]
    return 1, spec


OPS = {"lookup": lookup, "nameid": nameid, "nameall": nameall,
       "children": children, "traverse": traverse, "desc": desc,
       "descs": descs, "getindom": getindom, "lookupindom": lookupindom,
       "nameindom": nameindom, "text": text, "labels": labels,
       "addprofile": profile, "delprofile": profile, "fetch": fetch,
       "hostname": hostname, "open": open_context}

if len(sys.argv) > 2:
    sts = pcp.pmLoadASCIINameSpace(sys.argv[2].encode(), 1)
    if sts < 0:
        sys.exit("pmLoadASCIINameSpace: " + pcp.pmErrStr(sts).decode())
kind, spec = context_kind(sys.argv[1])
ctx = pcp.pmNewContext(kind, spec.encode())
if ctx < 0:
    print(json.dumps({"context": ctx}))
    sys.exit(0)
reqs = json.load(sys.stdin)
print(json.dumps([OPS[r["op"]](r) for r in reqs]))
