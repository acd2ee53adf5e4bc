package pmapi

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// intervalUnits are the scale words pmParseInterval knows, with their
// length in seconds as libpcp applies it: a multiplier, or (negative) a
// divisor, since d/1000 and d*0.001 differ in their last bits. A
// trailing "s" of a word longer than one letter is ignored and case does
// not matter.
var intervalUnits = []struct {
	name  string
	scale float64
}{
	{"nanosecond", -1e9}, {"microsecond", -1e6}, {"millisecond", -1e3},
	{"second", 1}, {"minute", 60}, {"hour", 3600}, {"day", 86400},
	{"msec", -1e3}, {"usec", -1e6}, {"nsec", -1e9}, {"sec", 1},
	{"min", 60}, {"hr", 3600}, {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400},
}

// maxTimeT is PM_MAX_TIME_T, the largest number of seconds an interval
// component may have.
const maxTimeT = math.MaxInt64

// IntervalError is a specification pmParseInterval refuses; Report is
// libpcp's message for it: the text, then a caret under the point where
// parsing stopped.
type IntervalError struct {
	Spec  string
	Point int
	Msg   string
}

func (e *IntervalError) Error() string { return "bad interval " + strconv.Quote(e.Spec) + ": " + e.Msg }

// Report is the two lines libpcp's parseError builds, each ending in a
// newline.
func (e *IntervalError) Report() string {
	var b strings.Builder
	b.WriteString(e.Spec + "\n")
	for i := 0; i < e.Point && i < len(e.Spec); i++ {
		c := e.Spec[i]
		if c > ' ' && c < 0x7f {
			b.WriteByte(' ')
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteString("^ -- " + e.Msg + "\n")
	return b.String()
}

// ParseInterval reads an interval as pmParseHighResInterval does (the -t option of PCP's tools): a sum
// of numbers each followed by an optional unit ("1.5", "2 sec", "1min
// 30s", "100 msec"), seconds when there is none.
func ParseInterval(spec string) (time.Duration, error) {
	sec, err := ParseIntervalSeconds(spec)
	if err != nil {
		return 0, err
	}
	if sec >= math.MaxInt64/1e9 {
		return time.Duration(math.MaxInt64), nil
	}
	s, ns := timespecFromReal(sec)
	if s > (math.MaxInt64-ns)/1e9 {
		return time.Duration(math.MaxInt64), nil
	}
	return time.Duration(s*1e9 + ns), nil
}

// timespecFromReal splits seconds into whole seconds and nanoseconds as
// libpcp 6.0.3's pmtimespecFromReal does: the fraction scaled in the
// x87's 64-bit-mantissa long double and rounded half up. secs is below
// 2^63.
func timespecFromReal(secs float64) (int64, int64) {
	s := int64(secs)
	x := new(big.Float).SetPrec(64).SetFloat64(secs - float64(s))
	x.Mul(x, new(big.Float).SetFloat64(1e9))
	x.Add(x, big.NewFloat(0.5))
	n, _ := x.Int64()
	return s, n
}

// ParseIntervalSeconds is ParseInterval's sum in seconds, unrounded, for
// callers that convert it as libpcp does (time windows keep intervals
// longer than a Duration holds).
func ParseIntervalSeconds(spec string) (float64, error) {
	if spec == "" {
		return 0, &IntervalError{Spec: "", Msg: "Null or empty specification"}
	}
	sec := 0.0
	i := 0
	nanAt := -1 // where the first NaN is
	for i < len(spec) {
		j := i
		for j < len(spec) && isSpace(spec[j]) {
			j++
		}
		d, n := strtodPrefix(spec[j:])
		if n == 0 || d < 0 || d > maxTimeT { // a NaN passes, as in C
			i = j
			break
		}
		if math.IsNaN(d) && nanAt < 0 {
			nanAt = j
		}
		i = j + n
		for i < len(spec) && isSpace(spec[i]) {
			i++
		}
		if i == len(spec) {
			sec += d
			break
		}
		k := i
		for k < len(spec) && isAlpha(spec[k]) {
			k++
		}
		word := spec[i:k]
		if word == "" {
			sec += d
			continue
		}
		if len(word) > 1 && (word[len(word)-1] == 's' || word[len(word)-1] == 'S') {
			word = word[:len(word)-1]
		}
		scale := 0.0
		for _, u := range intervalUnits {
			if strings.EqualFold(word, u.name) {
				scale = u.scale
				break
			}
		}
		if scale == 0 {
			break
		}
		if scale < 0 {
			sec += d / -scale
		} else {
			sec += d * scale
		}
		i = k
	}
	if i < len(spec) {
		return 0, &IntervalError{Spec: spec, Point: i, Msg: "unexpected value"}
	}
	if nanAt >= 0 {
		// libpcp makes an undefined time of it; refused here.
		return 0, &IntervalError{Spec: spec, Point: nanAt, Msg: "unexpected value"}
	}
	return sec, nil
}

func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// strtodPrefix reads the longest floating-point number at the start of s
// as glibc's strtod does (pcp.Strtod), returning the bytes it took; 0
// bytes means there was none.
func strtodPrefix(s string) (float64, int) {
	v, n, _ := pcp.Strtod(s)
	return v, n
}
