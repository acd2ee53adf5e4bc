"""Drive PMAPI calls that no PCP command line tool makes in 6.0.3.

Used by scripts/capture-golden.sh so that PMNS_CHILD (pmGetChildren,
pmGetChildrenStatus) and DESC_IDS/DESCS (pmLookupDescs) traffic can be
captured. Runs with the system python3 and PCP's own python bindings.

usage: pmapi_calls.py HOST children NAME...
       pmapi_calls.py HOST children-status NAME...
       pmapi_calls.py HOST descs NAME...
"""

import sys

from pcp import pmapi
import cpmapi as c_api


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    host, call, names = argv[1], argv[2], argv[3:]
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_HOST, host)
    if call == "children":
        for name in names:
            print(name, ctx.pmGetChildren(name))
    elif call == "children-status":
        for name in names:
            print(name, ctx.pmGetChildrenStatus(name))
    elif call == "descs":
        pmids = ctx.pmLookupName(names)
        descs = ctx.pmLookupDescs(pmids)
        for name, desc in zip(names, descs):
            print(name, ctx.pmTypeStr(desc.contents.type))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
