package ctime

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Strftime expands format at t as the C library's strftime(3) does in
// the C locale (glibc's conversions, flags '_' '-' '0' '^' '#', field
// widths and the E and O modifiers, an unknown conversion copied as
// written), into a buffer of size bytes. ok is false where strftime
// returns 0: the expansion (and its NUL) does not fit, or is empty.
// Nothing larger than the buffer is ever built, whatever width the
// format asks for.
func Strftime(format string, t time.Time, size int) (string, bool) {
	w := &strfWriter{max: size, tm: tmOf(t)}
	if !w.expand(format) || (len(w.out) == 0 && format != "") {
		return "", false
	}
	return string(w.out), true
}

// tmFields is a broken-down time as localtime(3) fills struct tm.
type tmFields struct {
	year, mon, mday, hour, min, sec int
	wday, yday                      int // yday from 0
	zone                            string
	gmtoff                          int
	unix                            int64
}

func tmOf(t time.Time) tmFields {
	zone, off := t.Zone()
	return tmFields{year: t.Year(), mon: int(t.Month()), mday: t.Day(), hour: t.Hour(), min: t.Minute(),
		sec: t.Second(), wday: int(t.Weekday()), yday: t.YearDay() - 1, zone: zone, gmtoff: off, unix: t.Unix()}
}

// strfWriter holds an expansion and the room it may take: len(out)
// stays below max, as strftime keeps room for the NUL.
type strfWriter struct {
	out []byte
	max int
	tm  tmFields
}

// field is the state of one conversion: its flags, width and case.
type field struct {
	pad          byte // '_', '-', '0' or 0
	width        int  // -1 when none is given
	upper, lower bool
}

// add appends s, first padded on the left to the field's width (with
// zeros for the '0' flag, else spaces); it fails when that does not fit.
func (w *strfWriter) add(s string, f *field) bool {
	n := len(s)
	fill := f.width - n
	incr := n + max(fill, 0)
	if incr >= w.max-len(w.out) {
		return false
	}
	if fill > 0 {
		c := byte(' ')
		if f.pad == '0' {
			c = '0'
		}
		for range fill {
			w.out = append(w.out, c)
		}
	}
	w.out = append(w.out, s...)
	return true
}

// cpy is add with the field's case conversion, lower winning over upper.
func (w *strfWriter) cpy(s string, f *field) bool {
	switch {
	case f.lower:
		s = asciiCase(s, false)
	case f.upper:
		s = asciiCase(s, true)
	}
	return w.add(s, f)
}

// sub expands a fixed format (%c, %D, %T...) as one field: its width
// pads the whole, and '^' upper-cases it.
func (w *strfWriter) sub(format string, f *field) bool {
	inner := &strfWriter{max: math.MaxInt, tm: w.tm}
	inner.expand(format)
	s := string(inner.out)
	if f.upper {
		s = asciiCase(s, true)
	}
	return w.add(s, f)
}

// number writes v with at least digits digits (or the width, if more):
// zero padded, or space padded for the '_' flag, or not padded for '-'.
func (w *strfWriter) number(digits int, v int64, f *field) bool {
	digits = max(digits, f.width)
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	s := strconv.FormatUint(u, 10)
	if neg {
		s = "-" + s
	}
	return w.signed(digits, s, neg, f)
}

// signed pads the decimal text s (with its sign) to digits and writes it.
func (w *strfWriter) signed(digits int, s string, neg bool, f *field) bool {
	if f.pad != '-' {
		if padding := digits - len(s); padding > 0 {
			if f.pad == '_' {
				if padding >= w.max-len(w.out) {
					return false
				}
				w.out = append(w.out, strings.Repeat(" ", padding)...)
				f.width = max(f.width-padding, 0)
			} else {
				if digits >= w.max-len(w.out) {
					return false
				}
				if neg {
					s = s[1:]
					w.out = append(w.out, '-')
				}
				w.out = append(w.out, strings.Repeat("0", padding)...)
				f.width = 0
			}
		}
	}
	return w.add(s, f)
}

// spacePad is number for the conversions padded with spaces unless the
// '0' or '-' flag says otherwise (%e, %k, %l).
func (w *strfWriter) spacePad(digits int, v int64, f *field) bool {
	if f.pad != '0' && f.pad != '-' {
		f.pad = '_'
	}
	return w.number(digits, v, f)
}

var (
	weekdayNames = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	monthNames   = [...]string{"January", "February", "March", "April", "May", "June", "July", "August",
		"September", "October", "November", "December"}
)

// isoWeekDays is the number of days from the first day of the first ISO
// week of the year to year day yday falling on week day wday.
func isoWeekDays(yday, wday int) int {
	const big = (366/7 + 2) * 7 // makes the dividend non-negative
	return yday - (yday-wday+4+big)%7 + 3
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// expand appends the expansion of format; false means it did not fit.
func (w *strfWriter) expand(format string) bool {
	tm := &w.tm
	at := func(i int) byte { // the format is a C string: NUL after its end
		if i < len(format) {
			return format[i]
		}
		return 0
	}
	hour12 := tm.hour
	if hour12 > 12 {
		hour12 -= 12
	} else if hour12 == 0 {
		hour12 = 12
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			if !w.add(format[i:i+1], &field{width: -1}) {
				return false
			}
			continue
		}
		f := field{width: -1}
		change := false
	flags:
		for {
			i++
			switch at(i) {
			case '_', '-', '0':
				f.pad = at(i)
			case '^':
				f.upper = true
			case '#':
				change = true
			default:
				break flags
			}
		}
		if c := at(i); c >= '0' && c <= '9' {
			f.width = 0
			for ; at(i) >= '0' && at(i) <= '9'; i++ {
				d := int(at(i) - '0')
				if f.width > math.MaxInt32/10 || f.width == math.MaxInt32/10 && d > math.MaxInt32%10 {
					f.width = math.MaxInt32
				} else {
					f.width = f.width*10 + d
				}
			}
		}
		var mod byte
		if c := at(i); c == 'E' || c == 'O' {
			mod = c
			i++
		}
		// bad copies the conversion as written, from its last '%'.
		bad := func() bool {
			j := min(i, len(format)-1)
			k := j
			for format[k] != '%' {
				k--
			}
			i = j
			return w.cpy(format[k:j+1], &f)
		}
		upperText := func() {
			if change {
				f.upper, f.lower = true, false
			}
		}
		lowerText := func() {
			if change {
				f.upper, f.lower = false, true
			}
		}
		var ok bool
		switch at(i) {
		case '%':
			if mod != 0 {
				ok = bad()
				break
			}
			ok = w.add("%", &f)
		case 'a', 'A':
			if mod != 0 {
				ok = bad()
				break
			}
			upperText()
			name := weekdayNames[tm.wday]
			if at(i) == 'a' {
				name = name[:3]
			}
			ok = w.cpy(name, &f)
		case 'b', 'h', 'B':
			upperText()
			if mod == 'E' {
				ok = bad()
				break
			}
			name := monthNames[tm.mon-1]
			if at(i) != 'B' {
				name = name[:3]
			}
			ok = w.cpy(name, &f)
		case 'c':
			if mod == 'O' {
				ok = bad()
				break
			}
			ok = w.sub("%a %b %e %H:%M:%S %Y", &f)
		case 'C':
			ok = w.number(1, int64(tm.year/100-b2i(tm.year%100 < 0)), &f)
		case 'x', 'D':
			if mod == 'O' || at(i) == 'D' && mod != 0 {
				ok = bad()
				break
			}
			ok = w.sub("%m/%d/%y", &f)
		case 'F':
			if mod != 0 {
				ok = bad()
				break
			}
			ok = w.sub("%Y-%m-%d", &f)
		case 'R':
			ok = w.sub("%H:%M", &f)
		case 'r':
			ok = w.sub("%I:%M:%S %p", &f)
		case 'X', 'T':
			if at(i) == 'X' && mod == 'O' {
				ok = bad()
				break
			}
			ok = w.sub("%H:%M:%S", &f)
		case 'n':
			ok = w.add("\n", &f)
		case 't':
			ok = w.add("\t", &f)
		case 'P', 'p':
			if at(i) == 'P' {
				f.lower = true
			}
			lowerText()
			s := "AM"
			if tm.hour > 11 {
				s = "PM"
			}
			ok = w.cpy(s, &f)
		case 's':
			neg := tm.unix < 0
			s := strconv.FormatInt(tm.unix, 10)
			ok = w.signed(1, s, neg, &f)
		case 'u':
			ok = w.number(1, int64((tm.wday-1+7)%7+1), &f)
		case 'Y':
			if mod == 'O' {
				ok = bad()
				break
			}
			ok = w.number(1, int64(tm.year), &f)
		case 'y':
			ok = w.number(2, int64(((tm.year-1900)%100+100)%100), &f)
		case 'Z':
			lowerText()
			ok = w.cpy(tm.zone, &f)
		case 'z':
			diff := tm.gmtoff
			sign := "+"
			if diff < 0 {
				sign, diff = "-", -diff
			}
			if !w.add(sign, &f) {
				return false
			}
			diff /= 60
			ok = w.number(4, int64(diff/60*100+diff%60), &f)
		case 'd', 'e', 'H', 'I', 'k', 'l', 'j', 'M', 'm', 'S', 'U', 'V', 'g', 'G', 'W', 'w':
			if mod == 'E' {
				ok = bad()
				break
			}
			switch at(i) {
			case 'd':
				ok = w.number(2, int64(tm.mday), &f)
			case 'e':
				ok = w.spacePad(2, int64(tm.mday), &f)
			case 'H':
				ok = w.number(2, int64(tm.hour), &f)
			case 'I':
				ok = w.number(2, int64(hour12), &f)
			case 'k':
				ok = w.spacePad(2, int64(tm.hour), &f)
			case 'l':
				ok = w.spacePad(2, int64(hour12), &f)
			case 'j':
				ok = w.number(3, int64(tm.yday+1), &f)
			case 'M':
				ok = w.number(2, int64(tm.min), &f)
			case 'm':
				ok = w.number(2, int64(tm.mon), &f)
			case 'S':
				ok = w.number(2, int64(tm.sec), &f)
			case 'U':
				ok = w.number(2, int64((tm.yday-tm.wday+7)/7), &f)
			case 'W':
				ok = w.number(2, int64((tm.yday-(tm.wday-1+7)%7+7)/7), &f)
			case 'w':
				ok = w.number(1, int64(tm.wday), &f)
			default: // the ISO 8601 week and its year
				year := tm.year
				days := isoWeekDays(tm.yday, tm.wday)
				if days < 0 {
					year--
					days = isoWeekDays(tm.yday+365+b2i(isLeap(year)), tm.wday)
				} else if d := isoWeekDays(tm.yday-(365+b2i(isLeap(year))), tm.wday); d >= 0 {
					year++
					days = d
				}
				switch at(i) {
				case 'g':
					ok = w.number(2, int64((year%100+100)%100), &f)
				case 'G':
					ok = w.number(1, int64(year), &f)
				default:
					ok = w.number(2, int64(days/7+1), &f)
				}
			}
		default: // unknown, or '%' ending the format
			ok = bad()
		}
		if !ok {
			return false
		}
	}
	return true
}

// asciiCase is the C locale's toupper (or tolower) over s: ASCII
// letters change, every other byte stays.
func asciiCase(s string, upper bool) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case upper && c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !upper && c >= 'A' && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
