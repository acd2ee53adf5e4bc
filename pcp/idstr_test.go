package pcp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// idStrInputs are the idstr harness's cases: PMIDs and InDoms over every
// field's edges, with and without the flag bit, and the enumerations over
// their whole range and beyond (type and sem share this harness).
func idStrInputs() []string {
	var in []string
	domains := []uint32{0, 1, 2, 29, 60, 255, 510, 511}
	for _, flag := range []uint32{0, 1 << 31} {
		for _, d := range domains {
			for _, c := range []uint32{0, 1, 2, 100, 2047, 2048, 4095} {
				for _, i := range []uint32{0, 1, 2, 511, 1023} {
					in = append(in, fmt.Sprintf("pmid 0x%08x", flag|uint32(NewPMID(d, c, i))))
				}
			}
			for _, s := range []uint32{0, 1, 2, 1000, 1 << 21, MaxSerial} {
				in = append(in, fmt.Sprintf("indom 0x%08x", flag|uint32(NewInDom(d, s))))
			}
		}
	}
	for _, v := range []uint32{0xffffffff, 0xfffffffe, 0x7fffffff, 0x7ffffc00, 0xffbffc00, 0xff800000} {
		in = append(in, fmt.Sprintf("pmid 0x%08x", v), fmt.Sprintf("indom 0x%08x", v))
	}
	for _, kind := range []string{"type", "sem"} {
		for v := -3; v <= 12; v++ {
			in = append(in, fmt.Sprintf("%s %d", kind, v))
		}
		for _, v := range []int{254, 255, 256, math.MaxInt32, math.MinInt32} {
			in = append(in, fmt.Sprintf("%s %d", kind, v))
		}
	}
	return in
}

// renderIDStr answers one idstr harness line with our String methods.
func renderIDStr(line string) string {
	kind, num, _ := strings.Cut(line, " ")
	var s string
	switch kind {
	case "pmid", "indom":
		v, _ := strconv.ParseUint(num, 0, 32)
		if kind == "pmid" {
			s = PMID(v).String()
		} else {
			s = InDom(v).String()
		}
	case "type", "sem":
		v, _ := strconv.ParseInt(num, 0, 32)
		if kind == "type" {
			s = Type(v).String()
		} else {
			s = Sem(v).String()
		}
	}
	return line + "\t" + s
}

func TestIDStrMatchesLibpcp(t *testing.T) {
	strCheckGolden(t, "idstr", idStrInputs(), renderIDStr)
}

func TestPMIDString(t *testing.T) {
	for _, tc := range []struct {
		p    PMID
		want string
	}{
		{NewPMID(29, 0, 1), "29.0.1"},
		{NewPMID(0, 0, 0), "0.0.0"},
		{NewPMID(MaxDomain, MaxCluster, MaxItem), "511.4095.1023"},
		{NewPMID(511, 60, 0), "60.*.*"},
		{NewPMID(29, 0, 1) | 1<<31, "29.0.1"},
		{PMIDNull, "PM_ID_NULL"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("PMID(%#x).String() = %q, want %q", uint32(tc.p), got, tc.want)
		}
	}
}

func TestInDomString(t *testing.T) {
	for _, tc := range []struct {
		i    InDom
		want string
	}{
		{NewInDom(60, 1), "60.1"},
		{NewInDom(MaxDomain, MaxSerial), "511.4194303"},
		{NewInDom(2, 3) | 1<<31, "2.3"},
		{InDomNull, "PM_INDOM_NULL"},
	} {
		if got := tc.i.String(); got != tc.want {
			t.Errorf("InDom(%#x).String() = %q, want %q", uint32(tc.i), got, tc.want)
		}
	}
}

func TestParsePMID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want PMID
		ok   bool
	}{
		{"29.0.1", NewPMID(29, 0, 1), true},
		{"511.4095.1023", NewPMID(511, 4095, 1023), true},
		{"029.00.01", NewPMID(29, 0, 1), true},
		{"60.*.*", NewPMID(511, 60, 0), true},
		{"4095.*.*", NewPMID(511, 4095, 0), true},
		{"PM_ID_NULL", PMIDNull, true},
		{"512.0.0", 0, false},
		{"1.4096.0", 0, false},
		{"1.0.1024", 0, false},
		{"4096.*.*", 0, false},
		{"1.*.2", 0, false},
		{"*.*.*", 0, false},
		{"1.2", 0, false},
		{"1.2.3.4", 0, false},
		{"-1.0.0", 0, false},
		{"+1.0.0", 0, false},
		{" 1.0.0", 0, false},
		{"1.0.0 ", 0, false},
		{"0x1.0.0", 0, false},
		{"1..0", 0, false},
		{"", 0, false},
		{"99999999999.0.0", 0, false},
		{"pm_id_null", 0, false},
	} {
		got, err := ParsePMID(tc.in)
		switch {
		case tc.ok && (err != nil || got != tc.want):
			t.Errorf("ParsePMID(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		case !tc.ok && (err == nil || !errors.Is(err, ErrPMID) || got != PMIDNull):
			t.Errorf("ParsePMID(%q) = %v, %v; want PM_ID_NULL and ErrPMID", tc.in, got, err)
		}
	}
}

func TestParseInDom(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want InDom
		ok   bool
	}{
		{"60.1", NewInDom(60, 1), true},
		{"511.4194303", NewInDom(511, MaxSerial), true},
		{"PM_INDOM_NULL", InDomNull, true},
		{"512.0", 0, false},
		{"1.4194304", 0, false},
		{"1.2.3", 0, false},
		{"1", 0, false},
		{".1", 0, false},
		{"1.", 0, false},
		{"1.-1", 0, false},
		{"", 0, false},
	} {
		got, err := ParseInDom(tc.in)
		switch {
		case tc.ok && (err != nil || got != tc.want):
			t.Errorf("ParseInDom(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		case !tc.ok && (err == nil || !errors.Is(err, ErrInDom) || got != InDomNull):
			t.Errorf("ParseInDom(%q) = %v, %v; want PM_INDOM_NULL and ErrInDom", tc.in, got, err)
		}
	}
}

// Every string libpcp prints for a PMID or InDom without the flag bit
// parses back to it.
func TestIDStrRoundTrip(t *testing.T) {
	for _, line := range strGoldenLines(t, "idstr") {
		in, s, _ := strings.Cut(line, "\t")
		kind, num, _ := strings.Cut(in, " ")
		v, _ := strconv.ParseUint(num, 0, 32)
		if v>>31 != 0 && v != 0xffffffff {
			continue
		}
		switch kind {
		case "pmid":
			if got, err := ParsePMID(s); err != nil || got != PMID(v) {
				t.Errorf("ParsePMID(%q) = %v, %v; want %#x", s, got, err, v)
			}
		case "indom":
			if got, err := ParseInDom(s); err != nil || got != InDom(v) {
				t.Errorf("ParseInDom(%q) = %v, %v; want %#x", s, got, err, v)
			}
		}
	}
}

func FuzzParsePMID(f *testing.F) {
	for _, s := range []string{"29.0.1", "60.*.*", "PM_ID_NULL", "511.4095.1023", "1.2", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePMID(s)
		if err != nil {
			return
		}
		if q, err := ParsePMID(p.String()); err != nil || q != p {
			t.Errorf("%q -> %#x -> %q -> %#x, %v", s, uint32(p), p.String(), uint32(q), err)
		}
	})
}

func FuzzParseInDom(f *testing.F) {
	for _, s := range []string{"60.1", "PM_INDOM_NULL", "511.4194303", "1", "x.y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, err := ParseInDom(s)
		if err != nil {
			return
		}
		if j, err := ParseInDom(i.String()); err != nil || j != i {
			t.Errorf("%q -> %#x -> %q -> %#x, %v", s, uint32(i), i.String(), uint32(j), err)
		}
	})
}
