package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/pcp"
)

// ctime is pmCtime: asctime's text of a time in the reporting zone.
func (d *dumper) ctime(sec int64) string {
	return unixIn(sec, 0, d.loc).Format("Mon Jan _2 15:04:05 2006") + "\n"
}

// clock is the time of day, with microseconds for version 2 archives and
// nanoseconds for version 3, as pmdumplog's myPrintTimestamp.
func (d *dumper) clock(t pcp.Timestamp) string {
	lt := unixIn(t.Sec, 0, d.loc)
	if d.version == archive.Version3 {
		return fmt.Sprintf("%02d:%02d:%02d.%09d", lt.Hour(), lt.Minute(), lt.Second(), t.Nsec)
	}
	return fmt.Sprintf("%02d:%02d:%02d.%06d", lt.Hour(), lt.Minute(), lt.Second(), t.Nsec/1000)
}

// stamp is dump_pmTimestamp: the clock, with -x the date and year, -xx
// the offset from the archive's start, -xxx the seconds since the Epoch.
func (d *dumper) stamp(t pcp.Timestamp) string {
	var b strings.Builder
	var ct string
	if d.f.x > 0 {
		ct = d.ctime(t.Sec)
		b.WriteString(ct[:10])
		b.WriteByte(' ')
	}
	b.WriteString(d.clock(t))
	if d.f.x > 0 {
		b.WriteByte(' ')
		b.WriteString(year(ct))
	}
	if d.f.x >= 2 {
		diff := t.Sub(d.label.Start)
		if d.version == archive.Version3 {
			fmt.Fprintf(&b, " (%.9f)", diff)
		} else {
			fmt.Fprintf(&b, " (%.6f)", diff)
		}
	}
	if d.f.x >= 3 {
		fmt.Fprintf(&b, " %d", uint64(t.Sec))
	}
	return b.String()
}

// year is "%4.4s" of asctime's text from its 21st character.
func year(ct string) string {
	if len(ct) <= 20 {
		return ""
	}
	y := ct[20:]
	if len(y) > 4 {
		y = y[:4]
	}
	return y
}

func (d *dumper) dumpLabel() {
	w := d.out
	fmt.Fprintf(w, "Log Label (Log Format Version %d)\n", d.version)
	fmt.Fprintf(w, "Performance metrics from host %s\n", d.label.Hostname)
	ct := d.ctime(d.label.Start.Sec)
	fmt.Fprintf(w, "    commencing %s %s %s", ct[:10], d.clock(d.label.Start), year(ct))
	if d.f.x >= 3 {
		fmt.Fprintf(w, " %d", uint64(d.label.Start.Sec))
	}
	w.WriteByte('\n')
	if end, err := d.a.End(); err != nil {
		w.WriteString("    ending     UNKNOWN\n")
	} else {
		ct := d.ctime(end.Sec)
		fmt.Fprintf(w, "    ending     %s %s %s", ct[:10], d.clock(end), year(ct))
		if d.f.x >= 3 {
			fmt.Fprintf(w, " %d", uint64(end.Sec))
		}
		w.WriteByte('\n')
	}
	if !d.f.verboseLabel {
		return
	}
	if d.label.Timezone != "" {
		fmt.Fprintf(w, "Archive timezone: %s\n", d.label.Timezone)
	}
	if d.label.Zoneinfo != "" {
		fmt.Fprintf(w, "Archive zoneinfo: %s\n", d.label.Zoneinfo)
	}
	if d.label.Features != 0 {
		fmt.Fprintf(w, "Archive features: 0x%x", d.label.Features)
		if unknown := d.label.Features &^ archive.KnownFeatures; unknown != 0 {
			fmt.Fprintf(w, " [unknown: %s]", featuresStr(unknown))
		}
		w.WriteByte('\n')
	}
	fmt.Fprintf(w, "PID for pmlogger: %d\n", d.label.PID)
}

// featuresStr names feature bits from the highest down, as
// __pmLogFeaturesStr does.
func featuresStr(f uint32) string {
	var parts []string
	for pos := 31; pos >= 0; pos-- {
		if f&(1<<uint(pos)) == 0 {
			continue
		}
		if pos == 31 {
			parts = append(parts, "QA")
		} else {
			parts = append(parts, fmt.Sprintf("bit_%02d", pos))
		}
	}
	return strings.Join(parts, " ")
}

// metricNames is __pmPrintMetricNames with " or " between names.
func (d *dumper) metricNames(pmid pcp.PMID) string {
	names, err := d.ns.Names(pmid)
	if err != nil || len(names) == 0 {
		return "<nonames>"
	}
	return strings.Join(names, " or ")
}

func (d *dumper) dumpDesc() {
	w := d.out
	w.WriteString("\nDescriptions for Metrics in the Log ...\n")
	// Each descriptor is written through d.scratch: a formatted string
	// and a joined name list for each was most of the garbage of the
	// descriptors' part of pmdumplog -a (200 KB of 3.5 MB allocated over
	// 20180127.08.40), and garbage is peak memory in a run too short for
	// the collector to start.
	d.a.Meta.EachDesc(func(desc pcp.Desc) {
		b := append(d.scratch[:0], "PMID: "...)
		b = append(b, desc.PMID.String()...)
		b = append(b, " ("...)
		if names, err := d.ns.Names(desc.PMID); err != nil {
			b = append(b, "<noname>"...)
		} else {
			for i, n := range names {
				if i > 0 {
					b = append(b, " or "...)
				}
				b = append(b, n...)
			}
		}
		b = append(b, ")\n"...)
		d.scratch = pcp.DescFormat{}.Append(b, desc)
		w.Write(d.scratch)
	})
}

func (d *dumper) dumpInDom() {
	w := d.out
	w.WriteString("\nInstance Domains in the Log ...\n")
	d.a.Meta.EachInDom(func(indom pcp.InDom, history []*archive.InDom) {
		fmt.Fprintf(w, "InDom: %s\n", indom)
		for _, id := range history {
			fmt.Fprintf(w, "%s %d instances\n", d.stamp(id.Stamp), len(id.Insts))
			// Appended by hand, not Fprintf: boxing each number and name
			// was a third of what pmdumplog -a allocated on a QA archive
			// of 1,576 instance domain records, enough garbage to start
			// the collector and raise the peak memory.
			for i, inst := range id.Insts {
				name := id.Names[i]
				if id.Deleted != nil && id.Deleted[i] {
					name = "(null)"
				}
				b := append(d.scratch[:0], "   "...)
				b = strconv.AppendInt(b, int64(inst), 10)
				b = append(b, " or \""...)
				b = append(b, name...)
				d.scratch = append(b, "\"\n"...)
				w.Write(d.scratch)
			}
		}
	})
}

func (d *dumper) dumpDiskInDom() int {
	w := d.out
	w.WriteString("\nInstance Domains on-disk ...\n")
	err := d.a.EachDiskInDom(func(typ int, indom pcp.InDom, id *archive.InDom, n int32) {
		fmt.Fprintf(w, "%s InDom: %s", d.stamp(id.Stamp), indom)
		if typ == archive.TypeInDomDelta {
			w.WriteString(" delta")
		}
		fmt.Fprintf(w, " %d instances\n", n)
		for i, inst := range id.Insts {
			if typ == archive.TypeInDomDelta {
				if id.Deleted[i] {
					fmt.Fprintf(w, "   del %d\n", inst)
				} else {
					fmt.Fprintf(w, "   add %d or \"%s\"\n", inst, id.Names[i])
				}
				continue
			}
			fmt.Fprintf(w, "   %d or \"%s\"\n", inst, id.Names[i])
		}
	})
	if err != nil {
		w.Flush()
		fmt.Fprintf(d.errw, "dumpDiskInDom: __pmLogLoadInDom failed: %s\n", archive.Code(err).Error())
		return 1
	}
	return 0
}

var labelLevels = map[uint32]string{1: "Context", 2: "Domain", 4: "InDom", 8: "Cluster", 16: "PMID", 32: "InDom"}

// labelIdent is __pmLabelIdentString.
func labelIdent(typ, ident uint32) string {
	switch typ {
	case 2:
		return fmt.Sprintf("Domain %d", ident)
	case 4, 32:
		return "InDom " + pcp.InDom(ident).String()
	case 8:
		s := pcp.PMID(ident).String()
		return "Cluster " + s[:strings.LastIndexByte(s, '.')]
	case 16:
		return "PMID " + pcp.PMID(ident).String()
	case 1:
		return "Context"
	}
	return ""
}

// labelFlags is __pmLabelFlagString.
func labelFlags(f uint8) string {
	var s string
	switch f &^ (pcp.LabelCompound | pcp.LabelOptional) {
	case pcp.LabelContext:
		s = "context"
	case pcp.LabelDomain:
		s = "domain"
	case pcp.LabelInDom:
		s = "indom"
	case pcp.LabelCluster:
		s = "cluster"
	case pcp.LabelItem:
		s = "pmid"
	case pcp.LabelInstances:
		s = "instances"
	default:
		s = "?"
	}
	if f&pcp.LabelCompound != 0 {
		s += ",compound"
	}
	if f&pcp.LabelOptional != 0 {
		s += ",optional"
	}
	return s
}

func (d *dumper) dumpLabelSets() {
	w := d.out
	w.WriteString("\nMetric Labels in the Log ...\n")
	for _, lt := range d.a.Meta.LabelHistory() {
		fmt.Fprintf(w, "%s\n", d.stamp(lt.Stamp))
		for _, g := range lt.Groups {
			id := labelIdent(g.Type, g.Ident)
			for _, s := range g.Sets {
				if g.Type&uint32(pcp.LabelInstances) != 0 {
					fmt.Fprintf(w, "    %s[%d] labels (%d bytes): %s\n", id, uint32(s.Inst), len(s.JSON), s.JSON)
				} else {
					fmt.Fprintf(w, "    %s labels (%d bytes): %s\n", id, len(s.JSON), s.JSON)
				}
				for i := 0; i < int(s.NLabels) && i < len(s.Labels); i++ {
					l := s.Labels[i]
					fmt.Fprintf(w, "        [%d] name(%d,%d) : value(%d,%d) [%s]\n", i, l.Name, l.NameLen, l.Value, l.ValueLen, labelFlags(l.Flags))
				}
			}
		}
	}
}

func (d *dumper) dumpHelp() {
	w := d.out
	w.WriteString("\nMetric Help Text in the Log ...\n")
	for _, h := range d.a.Meta.HelpTexts() {
		if h.Kind == archive.TextPMID {
			fmt.Fprintf(w, "PMID: %s", pcp.PMID(h.Ident))
		} else {
			fmt.Fprintf(w, "InDom: %s", pcp.InDom(h.Ident))
		}
		if h.Class == archive.TextOneLine {
			fmt.Fprintf(w, " [%s]", h.Text)
		} else {
			fmt.Fprintf(w, "\n%s", h.Text)
		}
		w.WriteByte('\n')
	}
}

func (d *dumper) dumpIndex() {
	w := d.out
	w.WriteString("\nTemporal Index\n")
	if d.f.x > 0 {
		w.WriteString("\t\t")
	}
	if d.f.x >= 2 {
		w.WriteString("\t\t")
	}
	if d.version == archive.Version3 {
		w.WriteByte('\t')
	}
	w.WriteString("\t\tLog Vol    end(meta)     end(log)\n")
	var metaSize, logSize int64 = -1, -1
	var last *archive.IndexEntry
	for i := range d.a.Index {
		e := &d.a.Index[i]
		fmt.Fprintf(w, "%s\t  %5d  %11d  %11d\n", d.stamp(e.Stamp), e.Vol, e.MetaOffset, e.DataOffset)
		if i == 0 {
			metaSize, _ = archive.StatSize(d.a.Base + ".meta")
		}
		if last == nil || e.Vol != last.Vol {
			var ok bool
			logSize, ok = archive.StatSize(d.a.Base + "." + fmt.Sprint(e.Vol))
			if !ok {
				fmt.Fprintf(w, "\t\tWarning: file missing for log volume %d\n", e.Vol)
			}
		}
		if e.Stamp.Sec < 0 || e.Stamp.Nsec < 0 || e.Stamp.Nsec > 999999999 {
			fmt.Fprintf(w, "\t\tError: illegal timestamp value (%d sec, %d nsec)\n", e.Stamp.Sec, e.Stamp.Nsec)
		}
		if metaSize != -1 && e.MetaOffset > metaSize {
			fmt.Fprintf(w, "\t\tError: offset to meta file past end of file (%d)\n", metaSize)
		}
		if logSize != -1 && e.DataOffset > logSize {
			fmt.Fprintf(w, "\t\tError: offset to log file past end of file (%d)\n", logSize)
		}
		if i > 0 {
			if e.Stamp.Compare(last.Stamp) < 0 {
				fmt.Fprintf(w, "\t\tError: timestamp went backwards in time %s -> %s\n", d.clock(last.Stamp), d.clock(e.Stamp))
			}
			if e.Vol < last.Vol {
				w.WriteString("\t\tError: volume number decreased\n")
			}
			if e.Vol == last.Vol && e.MetaOffset < last.MetaOffset {
				w.WriteString("\t\tError: offset to meta file decreased\n")
			}
			if e.Vol == last.Vol && e.DataOffset < last.DataOffset {
				w.WriteString("\t\tError: offset to log file decreased\n")
			}
		}
		last = e
	}
}
