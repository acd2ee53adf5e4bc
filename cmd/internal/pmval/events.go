package pmval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// paramDesc is what pmval keeps about an event parameter's metric.
type paramDesc struct {
	name string
	desc pcp.Desc
}

// printEvents is pmval's printevents: each value's event records, one
// parameter a line.
func (v *valuer) printEvents(ctx context.Context, vs *pcp.ValueSet) {
	highres := v.desc.Type != pcp.TypeEvent
	for i := range vs.Values {
		inst := vs.Values[i].Inst
		if inst == pcp.InstNull {
			fmt.Fprintf(v.out, "%s:", v.metric)
		} else {
			var iname string
			found := false
			if !v.iall && len(v.iids) > 0 {
				for k, id := range v.iids {
					if id == inst {
						iname, found = v.inames[k], true
						break
					}
				}
			} else {
				if v.nameCache == nil {
					v.nameCache = map[int32]string{}
				}
				name, ok := v.nameCache[inst]
				if !ok {
					var err error
					if name, err = v.src.NameInDom(ctx, v.desc.InDom, inst); err != nil {
						fmt.Fprintf(v.errw, "%s: pmNameInDom: %s[%d]: %s\n", v.prog, v.metric, uint32(inst), pcp.TextOf(err))
						v.out.Flush()
						os.Exit(1)
					}
					v.nameCache[inst] = name
				}
				iname, found = name, true
			}
			if !found {
				continue
			}
			fmt.Fprintf(v.out, "%s[%s]:", v.metric, iname)
		}
		v.eventDump(ctx, vs, i, highres)
	}
}

func (v *valuer) eventDump(ctx context.Context, vs *pcp.ValueSet, idx int, highres bool) {
	val := &vs.Values[idx]
	if vs.ValFmt == pcp.ValInSitu {
		fmt.Fprintf(v.out, " pmUnpackEventRecords: %s\n", pcp.ErrorText(int32(pcp.ErrConv)))
		return
	}
	recs, err := pcp.UnpackEvents(val.Block.Data, highres)
	if err != nil {
		fmt.Fprintf(v.out, " pmUnpackEventRecords: %s\n", pcp.TextOf(err))
		return
	}
	fmt.Fprintf(v.out, " %d event records\n", len(recs))
	for r, rec := range recs {
		fmt.Fprintf(v.out, "  %s --- event record [%d]", pcp.FormatStamp(v.inZone(rec.Time), highres), r)
		if len(rec.Params) == 0 {
			v.out.WriteString(" ---\n    ==> No parameters\n")
			continue
		}
		var flags uint32
		for p := range rec.Params {
			v.paramDump(ctx, &rec.Params[p], p, &flags)
		}
	}
}

// paramDump is pmval's myvaluesetdump: one parameter of a record.
func (v *valuer) paramDump(ctx context.Context, ps *pcp.ValueSet, idx int, flags *uint32) {
	if v.descCache == nil {
		v.descCache = map[pcp.PMID]*paramDesc{}
	}
	pd := v.descCache[ps.PMID]
	if pd == nil {
		name, err := v.src.NameID(ctx, ps.PMID)
		if err != nil {
			fmt.Fprintf(v.out, "\t%s: pmNameID: %s\n", ps.PMID, pcp.TextOf(err))
			return
		}
		pd = &paramDesc{name: name}
		if ps.PMID != pcp.PMIDEventFlags && ps.PMID != pcp.PMIDEventMissed {
			if pd.desc, err = v.src.LookupDesc(ctx, ps.PMID); err != nil {
				fmt.Fprintf(v.out, "\t%s: pmLookupDesc: %s\n", name, pcp.TextOf(err))
				return
			}
		}
		v.descCache[ps.PMID] = pd
	}
	if idx == 0 {
		if ps.PMID == pcp.PMIDEventFlags {
			*flags = uint32(ps.Values[0].LVal)
			fmt.Fprintf(v.out, " flags 0x%x (%s) ---\n", *flags, pcp.EventFlagsStr(*flags))
			return
		}
		v.out.WriteString(" ---\n")
	}
	if *flags&pcp.EventFlagMissed != 0 && idx == 1 && ps.PMID == pcp.PMIDEventMissed {
		fmt.Fprintf(v.out, "    ==> %d missed event records\n", ps.Values[0].LVal)
		return
	}
	v.paramValues(ctx, pd, ps)
}

// paramValues is pmval's mydump: a parameter's values.
func (v *valuer) paramValues(ctx context.Context, pd *paramDesc, ps *pcp.ValueSet) {
	switch {
	case ps.NumVal == 0:
		if v.f.verbose {
			fmt.Fprintf(v.out, "%s: No value(s) available!\n", pd.name)
		}
		return
	case ps.NumVal < 0:
		fmt.Fprintf(v.out, "%s: Error: %s\n", pd.name, pcp.ErrorText(ps.NumVal))
		return
	}
	fmt.Fprintf(v.out, "    %s", pd.name)
	for j := range ps.Values {
		pv := &ps.Values[j]
		if pd.desc.InDom != pcp.InDomNull {
			if ps.NumVal > 1 {
				v.out.WriteString("\n        ")
			}
			if name, ok := v.paramInst(ctx, pd.desc.InDom, pv.Inst); ok {
				fmt.Fprintf(v.out, "[\"%s\"]", name)
			} else {
				fmt.Fprintf(v.out, "[%d]", pv.Inst)
			}
		}
		v.out.WriteByte(' ')
		switch pd.desc.Type {
		case pcp.TypeAggregate, pcp.TypeAggregateStatic:
			fmt.Fprintf(v.out, "[%x]\n", pv.Block.Data)
		case pcp.TypeEvent, pcp.TypeHighResEvent:
			v.eventDump(ctx, ps, j, pd.desc.Type != pcp.TypeEvent)
		default:
			v.out.WriteString(pcp.FormatValue(ps.ValFmt, pd.desc.Type, pv, 1))
			v.out.WriteByte('\n')
		}
	}
}

// paramInst names an instance of a parameter's instance domain.
func (v *valuer) paramInst(ctx context.Context, indom pcp.InDom, inst int32) (string, bool) {
	insts, err := v.src.GetInDom(ctx, indom)
	if err != nil {
		return "", false
	}
	for _, in := range insts {
		if in.Inst == inst {
			return in.Name, true
		}
	}
	return "", false
}

func isRange(err error) bool { return errors.Is(err, pcp.Error(-int32(syscall.ERANGE))) }

// inZone gives t's wall clock in the reporting zone (-z, -Z) as a
// local time, since pcp.FormatStamp prints local wall clocks.
func (v *valuer) inZone(t time.Time) time.Time {
	if v.times == nil || v.times.Zone == nil {
		return t
	}
	w := t.In(v.times.Zone)
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), time.Local)
}
