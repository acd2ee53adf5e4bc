package mmv

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// A small reader of MMV files for the tests and examples: what a reader
// such as pmdammv takes from a file, decoded independently of the writer
// (offsets followed from the TOC, every one bounds-checked).

type decoded struct {
	Version int
	Flags   Flags
	Cluster uint32
	Gen     uint64
	Metrics []decodedMetric
	Labels  []string
}

type decodedMetric struct {
	Name      string
	Item      uint32
	Type      Type
	Sem       Semantics
	InDom     uint32
	ShortHelp string
	Values    []decodedValue // in file order
}

type decodedValue struct {
	Inst string // "" for a single value
	Atom uint64
	Str  string
}

var errInFlux = errors.New("generation in flux")

func decodeFile(b []byte) (*decoded, error) {
	if len(b) < HeaderSize || string(b[:4]) != Magic {
		return nil, errors.New("not an MMV file")
	}
	d := &decoded{Version: int(le.Uint32(b[hdrVersion:])), Flags: Flags(le.Uint32(b[hdrFlags:])),
		Cluster: le.Uint32(b[hdrCluster:]), Gen: le.Uint64(b[hdrG1:])}
	if d.Version < 1 || d.Version > 3 {
		return nil, fmt.Errorf("version %d", d.Version)
	}
	if d.Gen == 0 || d.Gen != le.Uint64(b[hdrG2:]) {
		return nil, errInFlux
	}
	tocs := int(le.Uint32(b[hdrTOCs:]))
	if tocs < 2 || tocs > 6 || HeaderSize+tocs*TOCSize > len(b) {
		return nil, fmt.Errorf("bad TOC count %d", tocs)
	}
	long := d.Version > 1
	sec := map[int][2]int{}
	for i := range tocs {
		t := b[HeaderSize+i*TOCSize:]
		sec[int(le.Uint32(t))] = [2]int{int(le.Uint32(t[4:])), int(le.Uint64(t[8:]))}
	}
	in := func(off, n int) error {
		if off < 0 || n < 0 || off+n > len(b) {
			return fmt.Errorf("offset %d+%d outside the file (%d bytes)", off, n, len(b))
		}
		return nil
	}
	cstr := func(off, max int) (string, error) {
		if err := in(off, max); err != nil {
			return "", err
		}
		s := b[off : off+max]
		if i := strings.IndexByte(string(s), 0); i >= 0 {
			s = s[:i]
		}
		return string(s), nil
	}
	msize := Metric1Size
	if long {
		msize = Metric2Size
	}
	m := sec[TOCMetrics]
	if err := in(m[1], m[0]*msize); err != nil {
		return nil, err
	}
	byOff := map[int]int{}
	for i := range m[0] {
		off := m[1] + i*msize
		e := b[off:]
		var dm decodedMetric
		o := 0
		var err error
		if long {
			o = 8 - NameMax
			dm.Name, err = cstr(int(le.Uint64(e)), StringSize)
		} else {
			dm.Name, err = cstr(off, NameMax)
		}
		if err != nil {
			return nil, err
		}
		dm.Item = le.Uint32(e[o+64:])
		dm.Type = Type(le.Uint32(e[o+68:]))
		dm.Sem = Semantics(le.Uint32(e[o+72:]))
		dm.InDom = le.Uint32(e[o+80:])
		if sh := int(le.Uint64(e[o+88:])); sh != 0 {
			if dm.ShortHelp, err = cstr(sh, StringSize); err != nil {
				return nil, err
			}
		}
		byOff[off] = len(d.Metrics)
		d.Metrics = append(d.Metrics, dm)
	}
	v := sec[TOCValues]
	if err := in(v[1], v[0]*ValueSize); err != nil {
		return nil, err
	}
	for i := range v[0] {
		e := b[v[1]+i*ValueSize:]
		k, ok := byOff[int(le.Uint64(e[16:]))]
		if !ok {
			return nil, fmt.Errorf("value %d: no metric at %d", i, le.Uint64(e[16:]))
		}
		dv := decodedValue{Atom: le.Uint64(e)}
		if io := int(le.Uint64(e[24:])); io != 0 {
			var err error
			if long {
				if err = in(io, Instance2Size); err == nil {
					dv.Inst, err = cstr(int(le.Uint64(b[io+16:])), StringSize)
				}
			} else {
				dv.Inst, err = cstr(io+16, NameMax)
			}
			if err != nil {
				return nil, err
			}
		}
		if d.Metrics[k].Type == String {
			var err error
			if dv.Str, err = cstr(int(le.Uint64(e[8:])), StringSize); err != nil {
				return nil, err
			}
		}
		d.Metrics[k].Values = append(d.Metrics[k].Values, dv)
	}
	if l, ok := sec[TOCLabels]; ok {
		for i := range l[0] {
			s, err := cstr(l[1]+i*LabelSize+12, LabelMax)
			if err != nil {
				return nil, err
			}
			d.Labels = append(d.Labels, s)
		}
	}
	return d, nil
}

// format prints a value as a reader of its type would.
func (v decodedValue) format(t Type, flags Flags) string {
	if flags&Sentinel != 0 && (t == String && v.Str == "" || t != String && v.Atom == allOnes) {
		return "(no value)"
	}
	switch t {
	case Int32:
		return fmt.Sprint(int32(v.Atom))
	case Uint32:
		return fmt.Sprint(uint32(v.Atom))
	case Int64, Elapsed:
		return fmt.Sprint(int64(v.Atom))
	case Float:
		return fmt.Sprint(math.Float32frombits(uint32(v.Atom)))
	case Double:
		return fmt.Sprint(math.Float64frombits(v.Atom))
	case String:
		return fmt.Sprintf("%q", v.Str)
	}
	return fmt.Sprint(v.Atom)
}

// print writes what a reader sees: each metric and its values, sorted by
// name.
func (d *decoded) print(prefix string) string {
	var b strings.Builder
	ms := append([]decodedMetric(nil), d.Metrics...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	for _, m := range ms {
		for _, v := range m.Values {
			name := prefix + m.Name
			if v.Inst != "" {
				name += "[" + v.Inst + "]"
			}
			fmt.Fprintf(&b, "%s = %s\n", name, v.format(m.Type, d.Flags))
		}
	}
	return b.String()
}
