package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/mmvfile"
	"github.com/gopcp/gopcp/pcp"
)

// dump prints f in mmvdump's layout.
func dump(w io.Writer, path string, f *mmvfile.File) error {
	fmt.Fprintf(w, "MMV file   = %s\n", path)
	fmt.Fprintf(w, "Version    = %d\n", f.Version)
	fmt.Fprintf(w, "Generated  = %d\n", f.G1)
	fmt.Fprintf(w, "TOC count  = %d\n", len(f.TOC))
	fmt.Fprintf(w, "Cluster    = %d\n", f.Cluster)
	if f.Cluster > 1<<12-1 {
		return fmt.Errorf("Bad cluster: %d is not a valid cluster ID", int32(f.Cluster))
	}
	fmt.Fprintf(w, "Process    = %d\n", f.Process)
	fmt.Fprintf(w, "Flags      = 0x%x (%s)\n", uint32(f.Flags), flagString(f.Flags))
	metrics := map[uint64]mmvfile.Metric{}
	for _, m := range f.Metrics {
		metrics[uint64(m.Offset)] = m
	}
	next := map[int32]int{}
	bad := false
	for i, toc := range f.TOC {
		base := mmv.HeaderSize + i*mmv.TOCSize
		at := next[toc.Type]
		n := int(toc.Count)
		next[toc.Type] = at + n
		if toc.Count < 1 {
			fmt.Fprintf(w, "Bad TOC[%d]: invalid entry count %d\n", i, uint32(toc.Count))
			continue
		}
		var err error
		switch toc.Type {
		case mmv.TOCInDoms:
			fmt.Fprintf(w, "\nTOC[%d]: offset %d, indoms offset %d (%d entries)\n", i, base, toc.Offset, n)
			for _, d := range f.InDoms[at : at+n] {
				fmt.Fprintf(w, "  [%d/%d] %d instances, starting at offset %d\n", d.Serial, d.Offset, int32(d.Count), int64(d.First))
				if err = text(w, f, d.ShortText, "shorttext"); err == nil {
					err = text(w, f, d.HelpText, "helptext")
				}
			}
		case mmv.TOCInstances:
			fmt.Fprintf(w, "\nTOC[%d]: offset %d, instances offset %d (%d entries)\n", i, base, int64(toc.Offset), n)
			size := mmv.Instance1Size // mmvdump steps by the version 1 size here
			for k, in := range f.Instances[at : at+n] {
				fmt.Fprintf(w, "  [%d/%d] instance = [%d or \"%s\"]\n", serialAt(f, in.InDom), int(toc.Offset)+k*size, in.Internal, in.External)
			}
		case mmv.TOCMetrics:
			fmt.Fprintf(w, "\nTOC[%d]: toc offset %d, metrics offset %d (%d entries)\n", i, base, int64(toc.Offset), n)
			for _, m := range f.Metrics[at : at+n] {
				fmt.Fprintf(w, "  [%d/%d] %s\n", m.Item, m.Offset, m.Name)
				fmt.Fprintf(w, "       type=%s (0x%x), sem=%s (0x%x), pad=0x%x\n", typeName(m.Type), uint32(m.Type), semName(m.Sem), uint32(m.Sem), m.Pad)
				fmt.Fprintf(w, "       units=%s\n", pcp.UnpackUnits(m.Units).String())
				if m.InDom != 0 && m.InDom != 0xffffffff {
					fmt.Fprintf(w, "       indom=%d\n", int32(m.InDom))
				} else {
					fmt.Fprintf(w, "       (no indom)\n")
				}
				if err = text(w, f, m.ShortText, "shorttext"); err == nil {
					err = text(w, f, m.HelpText, "helptext")
				}
			}
		case mmv.TOCValues:
			fmt.Fprintf(w, "\nTOC[%d]: offset %d, values offset %d (%d entries)\n", i, base, toc.Offset, n)
			for k, v := range f.Values[at : at+n] {
				if err = value(w, f, metrics, v, i, at+k); err != nil {
					break
				}
			}
		case mmv.TOCStrings:
			fmt.Fprintf(w, "\nTOC[%d]: offset %d, string offset %d (%d entries)\n", i, base, toc.Offset, n)
			for k, s := range f.Strings[at : at+n] {
				fmt.Fprintf(w, "  [%d/%d] %s\n", k+1, s.Offset, s.Payload)
			}
		case mmv.TOCLabels:
			fmt.Fprintf(w, "\nTOC[%d]: offset %d, labels offset %d (%d entries)\n", i, base, int64(toc.Offset), n)
			for k, l := range f.Labels[at : at+n] {
				fmt.Fprintf(w, "  [%d/%d] %s\n", k+1, l.Offset, l.Payload)
				fmt.Fprintf(w, "        flags=0x%x, identity=0x%x\n", l.Flags, l.Identity)
				fmt.Fprintf(w, "        internal=0x%x\n", uint32(l.Internal))
			}
		default:
			fmt.Fprintf(w, "Unrecognised TOC[%d] type: 0x%x\n", i, uint32(toc.Type))
			bad = true
		}
		if err != nil {
			fmt.Fprintln(w, err)
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("")
	}
	return nil
}

// text prints a help string's line, or that there is none.
func text(w io.Writer, f *mmvfile.File, off uint64, what string) error {
	if off == 0 {
		fmt.Fprintf(w, "       (no %s)\n", what)
		return nil
	}
	s, err := f.String(off)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "       %s=%s\n", what, s)
	return nil
}

// serialAt is the serial of the instance domain record at off.
func serialAt(f *mmvfile.File, off uint64) uint32 {
	for _, d := range f.InDoms {
		if uint64(d.Offset) == off {
			return d.Serial
		}
	}
	// off comes from the file: compare without adding to it, which could
	// wrap past the end of uint64.
	if off <= uint64(len(f.B)) && uint64(len(f.B))-off >= 4 {
		b := f.B[off:]
		return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
	}
	return 0
}

// value prints one value with its metric and instance.
func value(w io.Writer, f *mmvfile.File, metrics map[uint64]mmvfile.Metric, v mmvfile.Value, toc, i int) error {
	m, ok := metrics[v.Metric]
	if !ok {
		return fmt.Errorf("Bad file size: toc[%d] value[%d] metric offset", toc, i)
	}
	fmt.Fprintf(w, "  [%d/%d] %s", m.Item, v.Offset, m.Name)
	if m.InDom != 0 && m.InDom != 0xffffffff {
		ins, err := f.InstancesAt(v.Instance, 1)
		if err != nil {
			fmt.Fprintln(w)
			return fmt.Errorf("Bad file size: toc[%d] value[%d] inst offset", toc, i)
		}
		fmt.Fprintf(w, "[%d or \"%s\"]", ins[0].Internal, ins[0].External)
	}
	bits, extra := f.Value(v)
	switch m.Type {
	case mmv.Int32:
		fmt.Fprintf(w, " = %d", int32(bits))
	case mmv.Uint32:
		fmt.Fprintf(w, " = %d", uint32(bits))
	case mmv.Int64:
		fmt.Fprintf(w, " = %d", int64(bits))
	case mmv.Uint64:
		fmt.Fprintf(w, " = %d", bits)
	case mmv.Float:
		fmt.Fprintf(w, " = %s", cFloat(float64(math.Float32frombits(uint32(bits)))))
	case mmv.Double:
		fmt.Fprintf(w, " = %s", cFloat(math.Float64frombits(bits)))
	case mmv.String:
		s, err := f.String(uint64(extra))
		if err != nil {
			fmt.Fprintf(w, " = ?\n")
			return fmt.Errorf("Bad file size: toc[%d] str value[%d] extra", toc, i)
		}
		fmt.Fprintf(w, " = \"%s\"", s)
	case mmv.Elapsed:
		t := int64(bits)
		if extra < 0 {
			now := time.Now()
			t += now.Unix()*1e6 + int64(now.Nanosecond()/1000) + extra
		}
		fmt.Fprintf(w, " = %d (value=%d/extra=%d)", t, int64(bits), extra)
		if extra > 0 {
			fmt.Fprintf(w, "\nBad (positive) ELAPSED 'extra' value found!")
		}
	default:
		fmt.Fprintf(w, "Unknown type %d", m.Type)
	}
	fmt.Fprintln(w)
	return nil
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
