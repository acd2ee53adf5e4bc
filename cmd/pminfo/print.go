package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// report prints the queued metrics, pminfo's report().
func (r *reporter) report(ctx context.Context) {
	names := r.pending
	r.pending = nil
	if len(names) == 0 {
		return
	}
	defer func() {
		if r.host {
			r.pdusize = 5 * pduUnit
		}
	}()
	f := r.f
	pmids := make([]pcp.PMID, len(names))
	if f.needPMID {
		ids, err := r.names.LookupNames(ctx, names)
		if err != nil {
			kept := names[:0:0]
			var keptIDs []pcp.PMID
			for i, n := range names {
				if i >= len(ids) || ids[i] == pcp.PMIDNull {
					fmt.Fprintf(r.out, "%s: pmLookupName: %s\n", n, pcp.TextOf(err))
					continue
				}
				kept = append(kept, n)
				keptIDs = append(keptIDs, ids[i])
			}
			names, ids = kept, keptIDs
		}
		pmids = ids
	}
	// the reporter's result, reused from batch to batch (a fresh one
	// grew its value slices again at every fetch)
	res := &r.res
	if f.value || f.label || f.verify {
		if err := r.fetch(ctx, pmids, res); err != nil {
			for _, n := range names {
				fmt.Fprintf(r.out, "%s: pmFetch: %s\n", n, pcp.TextOf(err))
			}
			return
		}
	}
	for i, name := range names {
		var desc pcp.Desc
		if f.desc || f.value || f.label || f.series || f.verify {
			d, err := r.c.LookupDesc(ctx, pmids[i])
			if err != nil {
				fmt.Fprintf(r.out, "%s: pmLookupDesc: %s\n", name, pcp.TextOf(err))
				continue
			}
			desc = d
		}
		if f.desc || f.help || f.value || f.label {
			r.out.WriteByte('\n')
		}
		var vs *pcp.ValueSet
		if f.value || f.verify {
			vs = &res.Sets[i]
			if f.force && vs.NumVal == int32(pcp.ErrProfile) {
				var ok bool
				if vs, ok = r.forceFetch(ctx, name, pmids[i], desc.InDom); !ok {
					continue
				}
			}
		}
		if f.verify {
			switch {
			case desc.Type == pcp.TypeNoSupport:
				fmt.Fprintf(r.out, "%s: Not Supported\n", name)
			case vs.NumVal < 0:
				fmt.Fprintf(r.out, "%s: %s\n", name, pcp.ErrorText(vs.NumVal))
			case vs.NumVal == 0:
				fmt.Fprintf(r.out, "%s: No value(s) available\n", name)
			}
			continue
		}
		r.out.WriteString(name)
		if f.mid {
			fmt.Fprintf(r.out, " PMID: %s", pmids[i])
		}
		if f.fullMid {
			fmt.Fprintf(r.out, " = %d = 0x%x", uint32(pmids[i]), uint32(pmids[i]))
		}
		if f.oneline {
			r.oneline(ctx, func(l pmapi.TextLevel) (string, error) { return r.c.LookupText(ctx, pmids[i], l) }, f.fullMid)
		}
		r.out.WriteByte('\n')
		if f.desc {
			r.out.Write(pcp.DescFormat{Full: true, InDomNumber: r.f.fullIID}.Append(nil, desc))
		}
		if f.series {
			r.metricSeries(ctx, name, desc)
		}
		if f.label {
			r.metricLabels(ctx, desc)
		}
		if f.help {
			r.helpText(func(l pmapi.TextLevel) (string, error) { return r.c.LookupText(ctx, pmids[i], l) })
		}
		if f.value {
			r.dump(ctx, desc, vs)
		}
		if f.series {
			r.instSeries(ctx, desc.InDom)
		}
		if f.label {
			r.instLabels(ctx, desc)
		}
	}
}

// forceFetch is -F's second try for a metric whose instance domain cannot
// be enumerated by a fetch: every instance is named in the profile.
func (r *reporter) forceFetch(ctx context.Context, name string, pmid pcp.PMID, indom pcp.InDom) (*pcp.ValueSet, bool) {
	insts, err := r.c.GetInDom(ctx, indom)
	if err != nil {
		fmt.Fprintf(r.out, "%s: pmGetIndom: %s\n", name, pcp.TextOf(err))
		return nil, false
	}
	if len(insts) == 0 {
		fmt.Fprintf(r.out, "%s: pmGetIndom: No instances?\n", name)
		return nil, false
	}
	ids := make([]int32, len(insts))
	for i, in := range insts {
		ids[i] = in.Inst
	}
	_ = r.c.DelProfile(indom, nil)
	_ = r.c.AddProfile(indom, ids)
	var res pcp.Result
	err = r.fetch(ctx, []pcp.PMID{pmid}, &res)
	_ = r.c.DelProfile(indom, nil)
	_ = r.c.AddProfile(indom, nil)
	if err != nil {
		fmt.Fprintf(r.out, "%s: pmFetch: %s\n", name, pcp.TextOf(err))
		return nil, false
	}
	return &res.Sets[0], true
}

func (r *reporter) indom(ctx context.Context, indom pcp.InDom) {
	f := r.f
	if f.verify {
		return
	}
	fmt.Fprintf(r.out, "\nInDom: %s", indom)
	if f.fullIID {
		fmt.Fprintf(r.out, " = %d =", uint32(indom))
	}
	fmt.Fprintf(r.out, " 0x%x", uint32(indom))
	if f.oneline {
		r.oneline(ctx, func(l pmapi.TextLevel) (string, error) { return r.c.LookupInDomText(ctx, indom, l) }, f.fullIID)
	}
	r.out.WriteByte('\n')
	if f.label {
		r.indomLabelLine(ctx, indom)
	}
	if f.help {
		r.helpText(func(l pmapi.TextLevel) (string, error) { return r.c.LookupInDomText(ctx, indom, l) })
	}
}

func (r *reporter) oneline(_ context.Context, get func(pmapi.TextLevel) (string, error), full bool) {
	text, err := get(pmapi.TextOneLine)
	if err != nil {
		fmt.Fprintf(r.out, " One-line Help: Error: %s", pcp.TextOf(err))
		return
	}
	if full {
		r.out.WriteString("\n    ")
	} else {
		r.out.WriteByte(' ')
	}
	fmt.Fprintf(r.out, "[%s]", text)
}

func (r *reporter) helpText(get func(pmapi.TextLevel) (string, error)) {
	text, err := get(pmapi.TextHelp)
	if err != nil {
		fmt.Fprintf(r.out, "Full Help: Error: %s\n", pcp.TextOf(err))
		return
	}
	text = strings.TrimRight(text, "\n")
	if text == "" {
		r.out.WriteString("Help: <empty entry>\n")
		return
	}
	fmt.Fprintf(r.out, "Help:\n%s\n", text)
}

// instName is the name of an instance from a cache of the last instance
// domain asked about, as pminfo keeps one.
func (r *reporter) instName(ctx context.Context, indom pcp.InDom, inst int32) (string, bool) {
	if indom != r.icacheInDom {
		r.icache, r.icacheErr = r.c.GetInDom(ctx, indom)
		r.icacheInDom = indom
	}
	for _, in := range r.icache {
		if in.Inst == inst {
			return in.Name, true
		}
	}
	return "", false
}

// dump prints a metric's values, pminfo's mydump.
func (r *reporter) dump(ctx context.Context, d pcp.Desc, vs *pcp.ValueSet) {
	r.dumpValues(ctx, d, vs, r.f.events)
}

func (r *reporter) dumpValues(ctx context.Context, d pcp.Desc, vs *pcp.ValueSet, events bool) {
	if vs.NumVal == 0 {
		r.out.WriteString("No value(s) available!\n")
		return
	}
	if vs.NumVal < 0 {
		fmt.Fprintf(r.out, "Error: %s\n", pcp.ErrorText(vs.NumVal))
		return
	}
	for j := range vs.Values {
		v := &vs.Values[j]
		if d.InDom != pcp.InDomNull {
			name, ok := r.instName(ctx, d.InDom, v.Inst)
			switch {
			case ok:
				// appended, not Fprintf: boxing the number and name was
				// a tenth of what pminfo -a -f allocated
				b := append(r.scratch[:0], "    inst ["...)
				b = strconv.AppendInt(b, int64(v.Inst), 10)
				b = append(b, " or \""...)
				b = append(b, name...)
				r.scratch = append(b, "\"]"...)
				r.out.Write(r.scratch)
			case r.f.force:
				fmt.Fprintf(r.out, "    inst [%d \"%s\"]\n", v.Inst, "DISAPPEARED")
				continue
			default:
				fmt.Fprintf(r.out, "pmNameIndom: indom=%s inst=%d: %s\n", d.InDom, v.Inst, pcp.ErrorText(int32(pcp.ErrInst)))
				fmt.Fprintf(r.out, "    inst [%d]", v.Inst)
			}
		} else {
			r.out.WriteString("   ")
		}
		r.out.WriteString(" value ")
		// written in place: a string a value would be garbage the
		// replay never collects (a heap under 4 MB)
		_ = pcp.WriteValue(r.out, vs.ValFmt, d.Type, v, 1)
		r.out.WriteByte('\n')
		if events && vs.ValFmt != pcp.ValInSitu && (d.Type == pcp.TypeEvent || d.Type == pcp.TypeHighResEvent) {
			r.eventDump(ctx, v, d.Type == pcp.TypeHighResEvent)
		}
	}
}
