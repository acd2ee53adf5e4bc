package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
)

// walker walks the table of contents as PCP's mmvdump does, straight
// from the file's bytes: each entry's records in turn, each checked
// against the file's size before it is printed, so a damaged file gets
// everything up to the fault and a line naming it, and the walk goes
// on with the next entry. Where PCP's checks wrap or it reads past
// what it checked, the read is bounded here and the same kind of line
// printed instead.
type walker struct {
	w       io.Writer
	m       *image
	version int32
}

// printf writes to the dump; like PCP's, its write errors are not looked at.
func (d *walker) printf(format string, args ...any) { fmt.Fprintf(d.w, format, args...) }

// fail prints a fault and reports a bad section.
func (d *walker) fail(format string, args ...any) bool {
	d.printf(format+"\n", args...)
	return true
}

// str is the %s text at off, and whether it ended within the mapping.
func (d *walker) str(off uint64) (string, bool) {
	s, ok := d.m.cstr(off)
	if !ok {
		d.printf("%s\nBad file: string at offset %d runs past the end of the file\n", s, off)
	}
	return s, ok
}

// walk dumps every table of contents entry of a file whose header
// passed badHeader, and returns the exit status.
func (d *walker) walk(tocs int32) int {
	status := 0
	for i := range int(tocs) {
		base := uint64(mmv.HeaderSize + i*mmv.TOCSize)
		typ, _ := d.m.u32(base)
		c, _ := d.m.u32(base + 4)
		off, _ := d.m.u64(base + 8)
		// PCP 6.0.3 refuses only an empty entry; a negative count
		// prints the entry's line and no records
		if c == 0 {
			d.printf("Bad TOC[%d]: invalid entry count 0\n", i)
			continue
		}
		count := int32(c)
		var bad bool
		switch typ {
		case mmv.TOCInDoms:
			bad = d.indoms(i, base, off, count)
		case mmv.TOCInstances:
			bad = d.instances(i, base, off, count)
		case mmv.TOCMetrics:
			bad = d.metrics(i, base, off, count)
		case mmv.TOCValues:
			bad = d.values(i, base, off, count)
		case mmv.TOCStrings:
			bad = d.strings(i, base, off, count)
		case mmv.TOCLabels:
			bad = d.labels(i, base, off, count)
		default:
			bad = d.fail("Unrecognised TOC[%d] type: 0x%x", i, typ)
		}
		if bad {
			status = 1
		}
	}
	return status
}

// record is the offset of the k'th record of size n from off, wrapping
// as PCP's does, and whether it passes PCP's check.
func (d *walker) record(off uint64, k int, n uint64) (uint64, bool) {
	at := off + uint64(k)*n
	return at, d.m.fits(at, n)
}

// text prints an indom's or metric's help text line at off.
func (d *walker) text(off uint64, what, fault string, i, k int, kind string) bool {
	if off == 0 {
		d.printf("       (no %s)\n", what)
		return false
	}
	if !d.m.fits(off, mmv.StringSize) {
		return d.fail("Bad file size: too small for toc[%d] %s[%d] %s", i, kind, k, fault)
	}
	d.printf("       %s=%s\n", what, d.m.field(off, mmv.StringSize))
	return false
}

func (d *walker) indoms(i int, base, off uint64, count int32) bool {
	d.printf("\nTOC[%d]: offset %d, indoms offset %d (%d entries)\n", i, base, off, count)
	for k := range int(count) {
		at, ok := d.record(off, k, mmv.InDomSize)
		if !ok {
			return d.fail("Bad file size: too small for toc[%d] indom[%d]", i, k)
		}
		serial, _ := d.m.u32(at)
		n, _ := d.m.u32(at + 4)
		first, _ := d.m.u64(at + 8)
		short, _ := d.m.u64(at + 16)
		help, _ := d.m.u64(at + 24)
		d.printf("  [%d/%d] %d instances, starting at offset %d\n", serial, int64(at), int32(n), int64(first))
		if d.text(short, "shorttext", "oneline", i, k, "indom") || d.text(help, "helptext", "help", i, k, "indom") {
			return true
		}
	}
	return false
}

func (d *walker) instances(i int, base, off uint64, count int32) bool {
	d.printf("\nTOC[%d]: offset %d, instances offset %d (%d entries)\n", i, base, int64(off), count)
	for k := range int(count) {
		at, ok := d.record(off, k, d.instanceSize())
		if !ok {
			return d.fail("\nBad file size: too small for toc[%d] inst[%d]", i, k)
		}
		indom, _ := d.m.u64(at)
		internal, _ := d.m.u32(at + 12)
		if !d.m.fits(indom, mmv.InDomSize) {
			if d.version == mmv.Version1 {
				return d.fail("\nBad file size: too small for toc[%d] indom[%d]", i, k)
			}
			return d.fail("\nBad file size: too small for toc[%d] inst[%d] indom", i, k)
		}
		serial, _ := d.m.u32(indom)
		var name string
		if d.version == mmv.Version1 {
			var ok bool
			if name, ok = d.str(at + 16); !ok {
				return true
			}
		} else {
			ext, _ := d.m.u64(at + 16)
			if !d.m.fits(ext, mmv.StringSize) {
				return d.fail("\nBad file size: too small for toc[%d] inst[%d] name", i, k)
			}
			if ext == 0 {
				return d.fail("\nBad file: invalid offset for toc[%d] inst[%d] name", i, k)
			}
			name = d.m.field(ext, mmv.StringSize)
		}
		// PCP prints the offset stepped by the version 1 record's size
		d.printf("  [%d/%d] instance = [%d or \"%s\"]\n", serial, int64(off+uint64(k)*mmv.Instance1Size), int32(internal), name)
	}
	return false
}

// metric is a metric record's fields as mmvdump prints them.
type metric struct {
	name                         string
	item, typ, sem, units, indom uint32
	pad                          uint32
	short, help                  uint64
}

// readMetric reads the metric record at at, whose fixed part has been
// checked to lie within the file, with its name (a version 2 name's
// fault called what names says); false when the name is not there.
func (d *walker) readMetric(at uint64, names string) (metric, bool) {
	var mt metric
	var ok bool
	fixed := at + 8
	if d.version == mmv.Version1 {
		mt.name, ok = d.str(at)
		fixed = at + 64
	} else {
		mt.name, ok = d.name2(at, names)
	}
	if !ok {
		return mt, false
	}
	mt.item, _ = d.m.u32(fixed)
	mt.typ, _ = d.m.u32(fixed + 4)
	mt.sem, _ = d.m.u32(fixed + 8)
	mt.units, _ = d.m.u32(fixed + 12)
	mt.indom, _ = d.m.u32(fixed + 16)
	mt.pad, _ = d.m.u32(fixed + 20)
	mt.short, _ = d.m.u64(fixed + 24)
	mt.help, _ = d.m.u64(fixed + 32)
	return mt, true
}

// name2 is a version 2 record's name read from the string at its
// first word; false when it is not there, fault saying what it is.
func (d *walker) name2(at uint64, fault string) (string, bool) {
	off, _ := d.m.u64(at)
	if !d.m.fits(off, mmv.StringSize) {
		return "", !d.fail("Bad file size: too small for %s", fault)
	}
	if off == 0 {
		return "", !d.fail("Bad file: invalid offset for %s", fault)
	}
	return d.m.field(off, mmv.StringSize), true
}

func (d *walker) metricSize() uint64 {
	if d.version == mmv.Version1 {
		return mmv.Metric1Size
	}
	return mmv.Metric2Size
}

func (d *walker) instanceSize() uint64 {
	if d.version == mmv.Version1 {
		return mmv.Instance1Size
	}
	return mmv.Instance2Size
}

func (d *walker) metrics(i int, base, off uint64, count int32) bool {
	d.printf("\nTOC[%d]: toc offset %d, metrics offset %d (%d entries)\n", i, base, int64(off), count)
	for k := range int(count) {
		at, ok := d.record(off, k, d.metricSize())
		if !ok {
			return d.fail("Bad file size: too small for toc[%d] metric[%d]", i, k)
		}
		mt, ok := d.readMetric(at, fmt.Sprintf("toc[%d] metric[%d] name", i, k))
		if !ok {
			return true
		}
		d.printf("  [%d/%d] %s\n", mt.item, int64(at), mt.name)
		d.printf("       type=%s (0x%x), sem=%s (0x%x), pad=0x%x\n", typeName(mmv.Type(mt.typ)), mt.typ, semName(mmv.Semantics(mt.sem)), mt.sem, mt.pad)
		d.printf("       units=%s\n", pcp.UnpackUnits(mt.units).String())
		if mt.indom != 0 && mt.indom != 0xffffffff {
			d.printf("       indom=%d\n", int32(mt.indom))
		} else {
			d.printf("       (no indom)\n")
		}
		if d.text(mt.short, "shorttext", "oneline", i, k, "metric") || d.text(mt.help, "helptext", "help", i, k, "metric") {
			return true
		}
	}
	return false
}

func (d *walker) values(i int, base, off uint64, count int32) bool {
	d.printf("\nTOC[%d]: offset %d, values offset %d (%d entries)\n", i, base, off, count)
	for k := range int(count) {
		at, ok := d.record(off, k, mmv.ValueSize)
		if !ok {
			return d.fail("Bad file size: too small for toc[%d] value[%d]", i, k)
		}
		moff, _ := d.m.u64(at + 16)
		if !d.m.fits(moff, d.metricSize()) {
			return d.fail("Bad file size: toc[%d] value[%d] metric offset", i, k)
		}
		mt, ok := d.readMetric(moff, fmt.Sprintf("toc[%d] value[%d] mname", i, k))
		if !ok {
			return true
		}
		d.printf("  [%d/%d] %s", mt.item, at, mt.name)
		if mt.indom != 0 && mt.indom != 0xffffffff {
			if d.instance(at, i, k) {
				return true
			}
		}
		d.value(at, i, k, mmv.Type(mt.typ))
	}
	return false
}

// instance prints the instance of the value at at.
func (d *walker) instance(at uint64, i, k int) bool {
	ioff, _ := d.m.u64(at + 24)
	if !d.m.fits(ioff, d.instanceSize()) {
		return d.fail("\nBad file size: toc[%d] value[%d] inst offset", i, k)
	}
	internal, _ := d.m.u32(ioff + 12)
	nameAt := ioff + 16
	if d.version != mmv.Version1 {
		nameAt, _ = d.m.u64(ioff + 16)
		if !d.m.fits(nameAt, mmv.StringSize) {
			return d.fail("Bad file size: too small for toc[%d] value[%d] iname", i, k)
		}
		if nameAt == 0 {
			// sic: PCP calls the value a metric here
			return d.fail("Bad file: invalid offset for toc[%d] metric[%d] iname", i, k)
		}
	}
	var name string
	if d.version == mmv.Version1 {
		var ok bool
		if name, ok = d.str(nameAt); !ok {
			return true
		}
	} else {
		name = d.m.field(nameAt, mmv.StringSize)
	}
	d.printf("[%d or \"%s\"]", int32(internal), name)
	return false
}

// value prints the value record at at as metric type typ. A string
// that is not there is reported, but as in PCP does not fail the entry.
func (d *walker) value(at uint64, i, k int, typ mmv.Type) {
	bits, _ := d.m.u64(at)
	e, _ := d.m.u64(at + 8)
	extra := int64(e)
	switch typ {
	case mmv.Int32:
		d.printf(" = %d", int32(bits))
	case mmv.Uint32:
		d.printf(" = %d", uint32(bits))
	case mmv.Int64:
		d.printf(" = %d", int64(bits))
	case mmv.Uint64:
		d.printf(" = %d", bits)
	case mmv.Float:
		d.printf(" = %s", cFloat(float64(math.Float32frombits(uint32(bits)))))
	case mmv.Double:
		d.printf(" = %s", cFloat(math.Float64frombits(bits)))
	case mmv.String:
		if !d.m.fits(uint64(extra), mmv.StringSize) {
			d.printf(" = ?\nBad file size: toc[%d] str value[%d] extra\n", i, k)
			return
		}
		s, ok := d.str(uint64(extra))
		if !ok {
			return
		}
		d.printf(" = \"%s\"", s)
	case mmv.Elapsed:
		t := int64(bits)
		if extra < 0 {
			now := time.Now()
			t += now.Unix()*1e6 + int64(now.Nanosecond()/1000) + extra
		}
		d.printf(" = %d (value=%d/extra=%d)", t, int64(bits), extra)
		if extra > 0 {
			d.printf("\nBad (positive) ELAPSED 'extra' value found!")
		}
	default:
		d.printf("Unknown type %d", int32(typ))
	}
	d.printf("\n")
}

func (d *walker) strings(i int, base, off uint64, count int32) bool {
	d.printf("\nTOC[%d]: offset %d, string offset %d (%d entries)\n", i, base, off, count)
	for k := range int(count) {
		// PCP checks each string's room stepping by a value record's
		// size but reads it stepping by a string's
		checked, ok := d.record(off, k, mmv.ValueSize)
		if !ok || !d.m.fits(checked, mmv.StringSize) {
			return d.fail("Bad file size: toc[%d] string[%d]", i, k)
		}
		at := off + uint64(k)*mmv.StringSize
		s, ok := d.str(at)
		if !ok {
			return true
		}
		d.printf("  [%d/%d] %s\n", k+1, at, s)
	}
	return false
}

func (d *walker) labels(i int, base, off uint64, count int32) bool {
	d.printf("\nTOC[%d]: offset %d, labels offset %d (%d entries)\n", i, base, int64(off), count)
	for k := range int(count) {
		at, ok := d.record(off, k, mmv.LabelSize)
		if !ok {
			// sic: PCP calls a label a metric here
			return d.fail("Bad file size: too small for toc[%d] metric[%d]", i, k)
		}
		flags, _ := d.m.u32(at)
		identity, _ := d.m.u32(at + 4)
		internal, _ := d.m.u32(at + 8)
		s, ok := d.str(at + 12)
		if !ok {
			return true
		}
		d.printf("  [%d/%d] %s\n", k+1, at, s)
		d.printf("        flags=0x%x, identity=0x%x\n", flags, identity)
		d.printf("        internal=0x%x\n", internal)
	}
	return false
}

func typeName(t mmv.Type) string {
	switch t {
	case mmv.Int32:
		return "32-bit int"
	case mmv.Uint32:
		return "32-bit unsigned int"
	case mmv.Int64:
		return "64-bit int"
	case mmv.Uint64:
		return "64-bit unsigned int"
	case mmv.Float:
		return "float"
	case mmv.Double:
		return "double"
	case mmv.String:
		return "string"
	case mmv.Elapsed:
		return "elapsed"
	}
	return "?"
}

func semName(s mmv.Semantics) string {
	switch s {
	case mmv.SemCounter:
		return "counter"
	case mmv.SemInstant:
		return "instant"
	case mmv.SemDiscrete:
		return "discrete"
	}
	return "?"
}

// flagString names the flags as mmvdump does.
func flagString(fl mmv.Flags) string {
	if fl == 0 {
		return "none"
	}
	var parts []string
	for _, f := range []struct {
		bit  mmv.Flags
		name string
	}{{mmv.NoPrefix, "noprefix"}, {mmv.Process, "process"}, {mmv.Sentinel, "sentinel"}} {
		if fl&f.bit != 0 {
			parts = append(parts, f.name)
		}
	}
	rest := fl &^ (mmv.NoPrefix | mmv.Process | mmv.Sentinel)
	if rest != 0 {
		parts = append(parts, fmt.Sprintf("unknown=%x", uint32(rest)))
	}
	return strings.Join(parts, ", ")
}

// cFloat formats f as C's printf %f does, NaN and infinities with their
// sign ("-nan", "inf").
func cFloat(f float64) string {
	sign := ""
	if math.Signbit(f) {
		sign = "-"
	}
	switch {
	case math.IsNaN(f):
		return sign + "nan"
	case math.IsInf(f, 0):
		return sign + "inf"
	}
	return fmt.Sprintf("%f", f)
}
