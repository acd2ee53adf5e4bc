package main

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

func unixIn(sec int64, nsec int64, loc *time.Location) time.Time {
	return time.Unix(sec, nsec).In(loc)
}

// recordSize is the size of the record a result came from, do_size.
func (d *dumper) recordSize(r *pcp.Result) int {
	n := 4 + 8 + 4
	if d.version == archive.Version3 {
		n = 4 + 12 + 4
	}
	n += 4
	for i := range r.Sets {
		s := &r.Sets[i]
		n += 8
		if s.NumVal > 0 {
			n += 4
			for j := range s.Values {
				n += 8
				if s.ValFmt != pcp.ValInSitu {
					n += (s.Values[j].Block.Len() + 3) &^ 3
				}
			}
		}
	}
	return n
}

func (d *dumper) dumpResult(r *pcp.Result) {
	w := d.out
	if d.f.sizes {
		fmt.Fprintf(w, "[%d bytes]\n", d.recordSize(r))
	}
	w.WriteString(d.stamp(r.Timestamp))
	if len(r.Sets) == 0 {
		w.WriteString("  <mark>\n")
		return
	}
	w.WriteByte(' ')
	d.scratch = strconv.AppendInt(d.scratch[:0], int64(len(r.Sets)), 10)
	w.Write(d.scratch)
	w.WriteString(" metric")
	if len(r.Sets) > 1 {
		w.WriteByte('s')
	}
	w.WriteByte('\n')
	for i := range r.Sets {
		s := &r.Sets[i]
		m := d.metric(s.PMID)
		if s.NumVal == 0 {
			w.WriteString(m.head)
			w.WriteString(": No values returned!\n")
			continue
		}
		if s.NumVal < 0 {
			w.WriteString(m.head)
			w.WriteString(": ")
			w.WriteString(pcp.Error(s.NumVal).Error())
			w.WriteByte('\n')
			continue
		}
		desc := m.desc
		if !m.hasDesc {
			desc.InDom = pcp.InDom(0xffffffff)
			if s.ValFmt == pcp.ValInSitu {
				desc.Type = pcp.Type32
			} else {
				desc.Type = pcp.TypeAggregate
			}
		}
		var id *archive.InDom
		if desc.InDom != pcp.InDom(0xffffffff) {
			id, _ = d.a.Meta.InDomAt(desc.InDom, r.Timestamp)
		}
		for j := range s.Values {
			if desc.Type == pcp.TypeEvent || desc.Type == pcp.TypeHighResEvent {
				d.dumpEvent(m.names, s, j, desc, r.Timestamp)
				continue
			}
			v := &s.Values[j]
			if j == 0 {
				w.WriteString(m.head)
				w.WriteByte(':')
				if s.NumVal > 1 {
					w.WriteString("\n       ")
				}
			} else {
				w.WriteString("       ")
			}
			if desc.InDom != pcp.InDom(0xffffffff) {
				w.WriteString(" inst [")
				d.writeInst(id, v.Inst)
				w.WriteByte(']')
			}
			w.WriteString(" value ")
			d.writeValue(s.ValFmt, desc.Type, v)
			w.WriteByte('\n')
		}
	}
}

// metricInfo is what printing a metric's values needs, kept per PMID.
type metricInfo struct {
	head    string // "    PMID (names)"
	names   string
	desc    pcp.Desc
	hasDesc bool
}

func (d *dumper) metric(pmid pcp.PMID) *metricInfo {
	if m, ok := d.metrics[pmid]; ok {
		return m
	}
	names := d.metricNames(pmid)
	m := &metricInfo{head: fmt.Sprintf("    %s (%s)", pmid, names), names: names}
	if desc, err := d.a.Meta.Desc(pmid); err == nil {
		m.desc, m.hasDesc = desc, true
	}
	if d.metrics == nil {
		d.metrics = map[pcp.PMID]*metricInfo{}
	}
	d.metrics[pmid] = m
	return m
}

// writeInst writes "inst or "name"" with the instance's name in id, or
// "inst or ???".
func (d *dumper) writeInst(id *archive.InDom, inst int32) {
	w := d.out
	d.scratch = strconv.AppendInt(d.scratch[:0], int64(inst), 10)
	w.Write(d.scratch)
	if id != nil {
		if i, ok := id.Find(inst); ok {
			w.WriteString(" or \"")
			w.WriteString(id.Names[i])
			w.WriteByte('"')
			return
		}
	}
	w.WriteString(" or ???")
}

// writeValue is pmPrintValue with width 1; integers, the common case, are
// written without building a string.
func (d *dumper) writeValue(valfmt pcp.ValFmt, t pcp.Type, v *pcp.Value) {
	if valfmt == pcp.ValInSitu {
		switch t {
		case pcp.Type32:
			d.scratch = strconv.AppendInt(d.scratch[:0], int64(v.LVal), 10)
			d.out.Write(d.scratch)
			return
		case pcp.TypeU32:
			d.scratch = strconv.AppendUint(d.scratch[:0], uint64(uint32(v.LVal)), 10)
			d.out.Write(d.scratch)
			return
		}
	}
	if t == pcp.Type64 || t == pcp.TypeU64 {
		// 64-bit values in their blocks, as FormatValue prints them but
		// without a string per value.
		if a, err := pcp.ExtractValue(valfmt, v, t, t); err == nil {
			if t == pcp.Type64 {
				d.scratch = strconv.AppendInt(d.scratch[:0], a.LL, 10)
			} else {
				d.scratch = strconv.AppendUint(d.scratch[:0], a.ULL, 10)
			}
			d.out.Write(d.scratch)
			return
		}
	}
	if t == pcp.TypeFloat || t == pcp.TypeDouble {
		// as FormatValue prints them (%.8g, %.16g), without a string
		// per value: the 100 MB replay's largest allocation
		if a, err := pcp.ExtractValue(valfmt, v, t, t); err == nil {
			x, prec := a.D, 16
			if t == pcp.TypeFloat {
				x, prec = float64(a.F), 8
			}
			if !math.IsInf(x, 0) && !math.IsNaN(x) {
				d.scratch = strconv.AppendFloat(d.scratch[:0], x, 'g', prec, 64)
				d.out.Write(d.scratch)
				return
			}
		}
	}
	if t == pcp.TypeString && valfmt != pcp.ValInSitu && (v.Block.Type == t || v.Block.Type == 0) {
		// A string as FormatValue quotes it (up to its first NUL),
		// written from the block: two strings per value were most of
		// what replaying an archive of process names allocated.
		s := v.Block.Data
		if i := bytes.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		d.out.WriteByte('"')
		d.out.Write(s)
		d.out.WriteByte('"')
		return
	}
	d.out.WriteString(pcp.FormatValue(valfmt, t, v, 1))
}

func (d *dumper) instName(indom pcp.InDom, inst int32, t pcp.Timestamp) string {
	name, err := d.a.Meta.NameInDom(indom, inst, t)
	if err != nil {
		return fmt.Sprintf("%d or ???", inst)
	}
	return fmt.Sprintf("%d or \"%s\"", inst, name)
}

// dumpEvent prints an event array value record by record, dump_event.
func (d *dumper) dumpEvent(names string, s *pcp.ValueSet, j int, desc pcp.Desc, t pcp.Timestamp) {
	w := d.out
	v := &s.Values[j]
	fmt.Fprintf(w, "    %s (%s", s.PMID, names)
	if desc.InDom != pcp.InDom(0xffffffff) {
		fmt.Fprintf(w, "[%s])", d.instName(desc.InDom, v.Inst, t))
	} else {
		w.WriteString(")")
	}
	w.WriteString(": ")
	highres := desc.Type == pcp.TypeHighResEvent
	if s.ValFmt == pcp.ValInSitu {
		return
	}
	recs, err := pcp.UnpackEvents(v.Block.Data, highres)
	if err != nil {
		return
	}
	if len(recs) == 0 {
		w.WriteString("No event records\n")
		return
	}
	missed := 0
	for _, r := range recs {
		if len(r.Params) == 2 && r.Params[0].PMID == pcp.PMIDEventFlags && len(r.Params[0].Values) > 0 &&
			uint32(r.Params[0].Values[0].LVal)&pcp.EventFlagMissed != 0 && r.Params[1].PMID == pcp.PMIDEventMissed && len(r.Params[1].Values) > 0 {
			missed += int(r.Params[1].Values[0].LVal)
		}
	}
	fmt.Fprintf(w, "%d", len(recs))
	if missed > 0 {
		fmt.Fprintf(w, " (and %d missed)", missed)
	}
	if len(recs)+missed == 1 {
		w.WriteString(" event record\n")
	} else {
		w.WriteString(" event records\n")
	}
	for ri, r := range recs {
		lt := r.Time.In(d.loc)
		if highres {
			fmt.Fprintf(w, "        --- event record [%d] timestamp %02d:%02d:%02d.%09d", ri, lt.Hour(), lt.Minute(), lt.Second(), r.Time.Nanosecond())
		} else {
			fmt.Fprintf(w, "        --- event record [%d] timestamp ", ri)
			if d.f.x > 0 {
				ct := d.ctime(r.Time.Unix())
				fmt.Fprintf(w, "%s ", ct[:10])
			}
			fmt.Fprintf(w, "%02d:%02d:%02d.%06d", lt.Hour(), lt.Minute(), lt.Second(), r.Time.Nanosecond()/1000)
			if d.f.x > 0 {
				fmt.Fprintf(w, " %s", year(d.ctime(r.Time.Unix())))
			}
			if d.f.x >= 2 {
				st := pcp.Timestamp{Sec: d.label.Start.Sec, Nsec: d.label.Start.Nsec / 1000 * 1000}
				fmt.Fprintf(w, " (%.6f)", pcp.TimestampOf(r.Time).Sub(st))
			}
		}
		if len(r.Params) == 0 {
			w.WriteString(" ---\n")
			w.WriteString("\t          No parameters\n")
			continue
		}
		flags := uint32(0)
		for p := range r.Params {
			d.dumpParam(&r.Params[p], p, &flags)
		}
	}
}

func (d *dumper) dumpParam(ps *pcp.ValueSet, index int, flags *uint32) {
	w := d.out
	names, nerr := d.paramNames(ps.PMID)
	if nerr == nil {
		if index == 0 {
			if ps.PMID == pcp.PMIDEventFlags {
				*flags = uint32(ps.Values[0].LVal)
				fmt.Fprintf(w, " flags 0x%x", *flags)
				fmt.Fprintf(w, " (%s) ---\n", pcp.EventFlagsStr(*flags))
				return
			}
			w.WriteString(" ---\n")
		}
		if *flags&pcp.EventFlagMissed != 0 && index == 1 && ps.PMID == pcp.PMIDEventMissed {
			fmt.Fprintf(w, "        ==> %d missed event records\n", ps.Values[0].LVal)
			return
		}
		fmt.Fprintf(w, "        %s (%s):", ps.PMID, names)
	} else {
		fmt.Fprintf(w, "        PMID: %s:", ps.PMID)
	}
	desc, err := d.paramDesc(ps.PMID)
	if err != nil {
		fmt.Fprintf(w, " pmLookupDesc: %s\n", archive.Code(err).Error())
		return
	}
	w.WriteString(" value ")
	w.WriteString(pcp.FormatValue(ps.ValFmt, desc.Type, &ps.Values[0], 1))
	w.WriteByte('\n')
}

// paramNames and paramDesc know the anonymous event metrics libpcp
// defines in every context as well as the archive's own.
func (d *dumper) paramNames(pmid pcp.PMID) (string, error) {
	switch pmid {
	case pcp.PMIDEventFlags:
		return "event.flags", nil
	case pcp.PMIDEventMissed:
		return "event.missed", nil
	}
	names, err := d.ns.Names(pmid)
	if err != nil {
		return "", err
	}
	return joinOr(names), nil
}

func (d *dumper) paramDesc(pmid pcp.PMID) (pcp.Desc, error) {
	switch pmid {
	case pcp.PMIDEventFlags, pcp.PMIDEventMissed:
		return pcp.Desc{PMID: pmid, Type: pcp.TypeU32, InDom: pcp.InDom(0xffffffff), Sem: pcp.SemDiscrete}, nil
	}
	return d.a.Meta.Desc(pmid)
}

func joinOr(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += " or "
		}
		s += n
	}
	return s
}
