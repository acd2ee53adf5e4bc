package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// eventDump prints -x's unpacked event records of one value, pminfo's
// myeventdump.
func (r *reporter) eventDump(ctx context.Context, v *pcp.Value, highres bool) {
	recs, err := pcp.UnpackEvents(v.Block.Data, highres)
	if err != nil {
		call := "pmUnpackEventRecords"
		if highres {
			call = "pmUnpackHighResEventRecords"
		}
		fmt.Fprintf(r.errw, "%s: %s: %s\n", r.prog, call, pcp.TextOf(err))
		return
	}
	for i, rec := range recs {
		fmt.Fprintf(r.out, "    --- event record [%d] timestamp %s", i, pcp.FormatStamp(rec.Time, highres))
		if len(rec.Params) == 0 {
			r.out.WriteString(" ---\n\tNo parameters\n")
			continue
		}
		var flags uint32
		for p := range rec.Params {
			r.eventParam(ctx, &rec.Params[p], p, &flags)
		}
	}
}

func (r *reporter) eventParam(ctx context.Context, vs *pcp.ValueSet, index int, flags *uint32) {
	names, err := r.c.NameAll(ctx, vs.PMID)
	if err == nil {
		if index == 0 {
			if vs.PMID == pcp.PMIDEventFlags {
				*flags = uint32(vs.Values[0].LVal)
				fmt.Fprintf(r.out, " flags 0x%x (%s) ---\n", *flags, pcp.EventFlagsStr(*flags))
				return
			}
			r.out.WriteString(" ---\n")
		}
		if *flags&(1<<31) != 0 && index == 1 && vs.PMID == pcp.PMIDEventMissed {
			fmt.Fprintf(r.out, "        ==> %d missed event records\n", vs.Values[0].LVal)
			return
		}
		fmt.Fprintf(r.out, "    %s (%s)\n", strings.Join(names, " or "), vs.PMID)
	} else {
		fmt.Fprintf(r.out, "\tPMID: %s\n", vs.PMID)
	}
	d, err := r.c.LookupDesc(ctx, vs.PMID)
	if err != nil {
		fmt.Fprintf(r.out, "\tpmLookupDesc: %s\n", pcp.TextOf(err))
		return
	}
	r.out.WriteString("    ")
	r.dumpValues(ctx, d, vs, false)
}
