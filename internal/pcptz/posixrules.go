package pcptz

import (
	"encoding/binary"
	"os"
	"strings"
)

// A POSIX rule that names a daylight zone but gives no dates for it
// ("EST-10EDT") takes its dates from the zoneinfo file posixrules in
// glibc (__tzfile_default): that file's transitions, moved by the
// difference between its offsets and the rule's, and after its last
// transition the file's own footer rule. defaultRules builds the same
// as a TZif file for Go to read; ok is false when the rule has dates,
// names no daylight zone, or posixrules cannot be read.
func defaultRules(rule string) ([]byte, bool) {
	std, stdoff, dst, dstoff, ok := splitRule(rule)
	if !ok {
		return nil, false
	}
	b, err := os.ReadFile(zoneDir + "posixrules")
	if err != nil {
		return nil, false
	}
	z, ok := readTZif(b)
	if !ok {
		return nil, false
	}
	// The file's standard offset is that of its first transition to
	// standard time. Its daylight offset counts as 0: glibc moves the
	// ends of daylight time by the rule's daylight offset alone, as
	// date(1) shows (EST-10EDT ends 1997's at 17:00 UTC, EST-10EDT-12 at
	// 18:00, XST3XDT at 04:00, New York's being at 06:00).
	var ruleStd, ruleDst int32
	for _, ti := range z.idx {
		if t := z.types[ti]; !t.isdst {
			ruleStd = t.off
			break
		}
	}
	when := make([]int64, len(z.when))
	idx := make([]byte, len(z.idx))
	isdst := false
	for i, ti := range z.idx {
		t := z.types[ti]
		w := z.when[i]
		switch {
		case int(ti) < len(z.isut) && z.isut[ti]:
		case isdst && !(int(ti) < len(z.isstd) && z.isstd[ti]):
			w += int64(dstoff - ruleDst)
		default:
			w += int64(stdoff - ruleStd)
		}
		when[i] = w
		if t.isdst {
			idx[i] = 1
		}
		isdst = t.isdst
	}
	return writeTZif(when, idx, []zoneType{{off: stdoff, abbr: std}, {off: dstoff, isdst: true, abbr: dst}}, z.footer), true
}

const zoneDir = "/usr/share/zoneinfo/"

// splitRule reads "std offset dst [offset]" with nothing after it; the
// offsets are returned east of UTC as glibc keeps them.
func splitRule(s string) (std string, stdoff int32, dst string, dstoff int32, ok bool) {
	name := func() (string, bool) {
		if strings.HasPrefix(s, "<") {
			i := strings.IndexByte(s, '>')
			if i < 0 {
				return "", false
			}
			n := s[1:i]
			s = s[i+1:]
			return n, len(n) >= 3
		}
		i := 0
		for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			i++
		}
		n := s[:i]
		s = s[i:]
		return n, len(n) >= 3
	}
	offset := func() (int32, bool) {
		sign := int32(-1)
		if s != "" && (s[0] == '+' || s[0] == '-') {
			if s[0] == '-' {
				sign = 1
			}
			s = s[1:]
		}
		var parts [3]int32
		n := 0
		for n < 3 {
			j := 0
			var v int32
			for j < len(s) && s[j] >= '0' && s[j] <= '9' && j < 3 {
				v = v*10 + int32(s[j]-'0')
				j++
			}
			if j == 0 {
				break
			}
			parts[n] = v
			n++
			s = s[j:]
			if n < 3 && strings.HasPrefix(s, ":") {
				s = s[1:]
				continue
			}
			break
		}
		if n == 0 {
			return 0, false
		}
		return sign * (parts[0]*3600 + parts[1]*60 + parts[2]), true
	}
	if std, ok = name(); !ok {
		return
	}
	if stdoff, ok = offset(); !ok {
		return
	}
	if s == "" {
		return std, stdoff, "", 0, false
	}
	if dst, ok = name(); !ok {
		return
	}
	dstoff = stdoff + 3600
	if s != "" && s[0] != ',' {
		if dstoff, ok = offset(); !ok {
			return
		}
	}
	return std, stdoff, dst, dstoff, s == ""
}

type zoneType struct {
	off   int32
	isdst bool
	abbr  string
}

type tzif struct {
	when        []int64
	idx         []byte
	types       []zoneType
	isstd, isut []bool
	footer      string
}

// readTZif reads the 64-bit part of a version 2 or later TZif file.
func readTZif(b []byte) (tzif, bool) {
	var z tzif
	counts := func(b []byte) (c [6]int, ok bool) {
		if len(b) < 44 || string(b[:4]) != "TZif" {
			return c, false
		}
		for i := range c {
			c[i] = int(binary.BigEndian.Uint32(b[20+4*i:]))
		}
		return c, true
	}
	c, ok := counts(b)
	if !ok || b[4] < '2' {
		return z, false
	}
	// isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
	skip := 44 + c[3]*4 + c[3] + c[4]*6 + c[5] + c[2]*8 + c[1] + c[0]
	if skip > len(b) {
		return z, false
	}
	b = b[skip:]
	if c, ok = counts(b); !ok {
		return z, false
	}
	need := 44 + c[3]*8 + c[3] + c[4]*6 + c[5] + c[2]*12 + c[1] + c[0]
	if need > len(b) {
		return z, false
	}
	p := b[44:]
	for i := 0; i < c[3]; i++ {
		z.when = append(z.when, int64(binary.BigEndian.Uint64(p[8*i:])))
	}
	p = p[8*c[3]:]
	z.idx = append(z.idx, p[:c[3]]...)
	p = p[c[3]:]
	chars := p[6*c[4] : 6*c[4]+c[5]]
	for i := 0; i < c[4]; i++ {
		t := p[6*i:]
		a := int(t[5])
		abbr := ""
		if a < len(chars) {
			abbr = string(chars[a:])
			if j := strings.IndexByte(abbr, 0); j >= 0 {
				abbr = abbr[:j]
			}
		}
		z.types = append(z.types, zoneType{off: int32(binary.BigEndian.Uint32(t)), isdst: t[4] != 0, abbr: abbr})
	}
	p = p[6*c[4]+c[5]+12*c[2]:]
	for i := 0; i < c[1]; i++ {
		z.isstd = append(z.isstd, p[i] != 0)
	}
	p = p[c[1]:]
	for i := 0; i < c[0]; i++ {
		z.isut = append(z.isut, p[i] != 0)
	}
	p = p[c[0]:]
	for _, x := range z.idx {
		if int(x) >= len(z.types) {
			return z, false
		}
	}
	if len(p) > 1 && p[0] == '\n' {
		if j := strings.IndexByte(string(p[1:]), '\n'); j >= 0 {
			z.footer = string(p[1 : 1+j])
		}
	}
	return z, true
}

// writeTZif makes a version 2 TZif file with the given transitions.
func writeTZif(when []int64, idx []byte, types []zoneType, footer string) []byte {
	var chars []byte
	abbrIdx := make([]byte, len(types))
	for i, t := range types {
		abbrIdx[i] = byte(len(chars))
		chars = append(chars, t.abbr...)
		chars = append(chars, 0)
	}
	var b []byte
	header := func(timecnt int) {
		b = append(b, "TZif2"...)
		b = append(b, make([]byte, 15)...)
		for _, n := range []int{0, 0, 0, timecnt, len(types), len(chars)} {
			b = binary.BigEndian.AppendUint32(b, uint32(n))
		}
	}
	typesBlock := func() {
		for i, t := range types {
			b = binary.BigEndian.AppendUint32(b, uint32(t.off))
			d := byte(0)
			if t.isdst {
				d = 1
			}
			b = append(b, d, abbrIdx[i])
		}
		b = append(b, chars...)
	}
	header(0)
	typesBlock()
	header(len(when))
	for _, w := range when {
		b = binary.BigEndian.AppendUint64(b, uint64(w))
	}
	b = append(b, idx...)
	typesBlock()
	b = append(b, '\n')
	b = append(b, footer...)
	return append(b, '\n')
}
