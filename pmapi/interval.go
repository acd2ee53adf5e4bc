package pmapi

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// intervalUnits are the scale words pmParseInterval knows, with their
// length in seconds; a trailing "s" of a word longer than one letter is
// ignored and case does not matter.
var intervalUnits = []struct {
	name  string
	scale float64
}{
	{"nanosecond", 1e-9}, {"microsecond", 1e-6}, {"millisecond", 1e-3},
	{"second", 1}, {"minute", 60}, {"hour", 3600}, {"day", 86400},
	{"msec", 1e-3}, {"usec", 1e-6}, {"nsec", 1e-9}, {"sec", 1},
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
	if ns := math.Round(sec * 1e9); ns < math.MaxInt64 {
		return time.Duration(ns), nil
	}
	return time.Duration(math.MaxInt64), nil
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
	for i < len(spec) {
		j := i
		for j < len(spec) && isSpace(spec[j]) {
			j++
		}
		d, n := strtodPrefix(spec[j:])
		if n == 0 || d < 0 || d > maxTimeT || math.IsNaN(d) {
			i = j
			break
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
		sec += d * scale
		i = k
	}
	if i < len(spec) {
		return 0, &IntervalError{Spec: spec, Point: i, Msg: "unexpected value"}
	}
	return sec, nil
}

func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// strtodPrefix reads the longest decimal floating-point number (or inf,
// infinity, nan) at the start of s as strtod does, returning the bytes
// it took; 0 bytes means there was none.
func strtodPrefix(s string) (float64, int) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for _, word := range []string{"infinity", "inf", "nan"} {
		if len(s) >= i+len(word) && strings.EqualFold(s[i:i+len(word)], word) {
			v, _ := strconv.ParseFloat(s[:i+len(word)], 64)
			return v, i + len(word)
		}
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, 0
	}
	return v, i
}
