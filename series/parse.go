package series

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Query is a parsed series query: a metric name (perhaps a glob), label
// and name filters, and an optional time window.
type Query struct {
	Name    string
	Filters []Filter
	Window  *Window
}

// Filter is one {name op value} term: ops ==, !=, ~~ (glob), =~ and !~
// (regular expressions). Quoted says the value was a quoted string.
type Filter struct {
	Name, Op, Value string
	Quoted          bool
}

// JSON is the filter's value as label values are kept: a quoted string's
// JSON text, anything else as written (a number, true, false, null).
func (f Filter) JSON() string {
	if f.Quoted {
		return strconv.Quote(f.Value)
	}
	switch f.Value {
	case "true", "false", "null":
		return f.Value
	}
	if _, err := strconv.ParseFloat(f.Value, 64); err == nil {
		return f.Value
	}
	return strconv.Quote(f.Value)
}

// Window is a [..] time window: samples (count), start, finish, interval;
// align, offset and timezone are read and checked as libpcp_web 6.0.3
// reads them, and like it applied to nothing but the reading of the
// times after a timezone.
type Window struct {
	Samples       int
	Start, Finish time.Time // zero when not given
	Interval      time.Duration
	Align         time.Time
	Offset        int
	Zone          string
	Range         string // a relative range ("10min"): from that long ago
}

// MaxQueryLen bounds a query's text.
const MaxQueryLen = 64 << 10

// ParseQuery parses PCP's series query language, as far as this package
// evaluates it.
func ParseQuery(expr string) (*Query, error) {
	return parseQueryAt(expr, time.Now())
}

func parseQueryAt(expr string, now time.Time) (*Query, error) {
	if len(expr) > MaxQueryLen {
		return nil, fmt.Errorf("query too long (%d bytes, at most %d)", len(expr), MaxQueryLen)
	}
	p := &qparser{s: expr}
	q := &Query{}
	p.space()
	if c := p.peek(); c != 0 && c != '{' && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
		return nil, p.errorf("cannot parse given string")
	}
	q.Name = p.name()
	p.space()
	if p.peek() == '{' {
		p.i++
		for {
			p.space()
			if p.peek() == '}' {
				p.i++
				break
			}
			f, err := p.filter()
			if err != nil {
				return nil, err
			}
			q.Filters = append(q.Filters, f)
			p.space()
			switch p.peek() {
			case ',':
				p.i++
			case '}':
			default:
				return nil, p.errorf("expected ',' or '}'")
			}
		}
	}
	p.space()
	if p.peek() == '[' {
		p.i++
		w, err := p.window(now)
		if err != nil {
			return nil, err
		}
		q.Window = w
	}
	p.space()
	if p.i < len(p.s) {
		return nil, p.errorf("unexpected text")
	}
	if q.Name == "" && len(q.Filters) == 0 {
		return nil, p.errorf("no metric name or filter")
	}
	return q, nil
}

type qparser struct {
	s string
	i int
}

func (p *qparser) errorf(format string, a ...any) error {
	return fmt.Errorf("series query syntax error at offset %d: %s", p.i, fmt.Sprintf(format, a...))
}

func (p *qparser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *qparser) space() {
	for p.i < len(p.s) && unicode.IsSpace(rune(p.s[p.i])) {
		p.i++
	}
}

func nameByte(c byte) bool {
	return c == '.' || c == '_' || c == '*' || c == '?' || c == '-' ||
		c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *qparser) name() string {
	start := p.i
	for p.i < len(p.s) && nameByte(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *qparser) filter() (Filter, error) {
	var f Filter
	f.Name = p.name()
	if f.Name == "" {
		return f, p.errorf("expected a label name")
	}
	p.space()
	for _, op := range []string{"==", "!=", "~~", "=~", "!~"} {
		if strings.HasPrefix(p.s[p.i:], op) {
			f.Op = op
			p.i += 2
			break
		}
	}
	if f.Op == "" {
		return f, p.errorf("expected one of == != ~~ =~ !~")
	}
	p.space()
	if c := p.peek(); c == '"' || c == '\'' {
		end := strings.IndexByte(p.s[p.i+1:], c)
		if end < 0 {
			return f, p.errorf("unterminated string")
		}
		f.Value, f.Quoted = p.s[p.i+1:p.i+1+end], true
		p.i += end + 2
		return f, nil
	}
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != '}' && !unicode.IsSpace(rune(p.s[p.i])) {
		p.i++
	}
	if p.i == start {
		return f, p.errorf("expected a value")
	}
	f.Value = p.s[start:p.i]
	return f, nil
}

func (p *qparser) window(now time.Time) (*Window, error) {
	w := &Window{}
	for {
		p.space()
		if p.peek() == ']' {
			p.i++
			return w, nil
		}
		key := p.name()
		p.space()
		if p.peek() != ':' {
			return nil, p.errorf("expected ':' after %q", key)
		}
		p.i++
		p.space()
		start := p.i
		for p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != ']' {
			p.i++
		}
		val := strings.TrimSpace(strings.Trim(strings.TrimSpace(p.s[start:p.i]), `"'`))
		var err error
		switch key {
		case "samples", "count":
			w.Samples, err = strconv.Atoi(val)
			if err == nil && w.Samples < 0 {
				err = fmt.Errorf("negative")
			}
		case "start", "begin":
			w.Start, err = parseWhen(val, now)
		case "finish", "end":
			w.Finish, err = parseWhen(val, now)
		case "interval", "delta":
			w.Interval, err = parseInterval(val)
		case "align", "offset", "timezone", "zone":
			// accepted; not applied
		default:
			return nil, p.errorf("unknown time window keyword %q", key)
		}
		if err != nil {
			return nil, p.errorf("invalid %s %q: %v", key, val, err)
		}
		if p.peek() == ',' {
			p.i++
		}
	}
}

// parseInterval reads a duration: a number with an optional unit (PCP's
// words or Go's).
func parseInterval(s string) (time.Duration, error) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, err
	}
	unit := strings.ToLower(strings.TrimSpace(s[i:]))
	var u time.Duration
	switch unit {
	case "", "s", "sec", "secs", "second", "seconds":
		u = time.Second
	case "ms", "msec", "msecs", "millisecond", "milliseconds":
		u = time.Millisecond
	case "us", "usec", "usecs", "microsecond", "microseconds":
		u = time.Microsecond
	case "ns", "nsec", "nsecs", "nanosecond", "nanoseconds":
		u = time.Nanosecond
	case "m", "min", "mins", "minute", "minutes":
		u = time.Minute
	case "h", "hr", "hrs", "hour", "hours":
		u = time.Hour
	case "d", "day", "days":
		u = 24 * time.Hour
	default:
		return 0, fmt.Errorf("unknown unit %q", unit)
	}
	if n*float64(u) > float64(1<<62) {
		return 0, fmt.Errorf("too long")
	}
	return time.Duration(n * float64(u)), nil
}

// parseWhen reads a time: -interval before now, seconds since the epoch,
// or RFC 3339.
func parseWhen(s string, now time.Time) (time.Time, error) {
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		d, err := parseInterval(rest)
		if err != nil {
			return time.Time{}, err
		}
		return now.Add(-d), nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		// Seconds a time can hold: NaN, infinities and 1e300 are no
		// times, and int64 of them means nothing.
		if !(f > -1e15 && f < 1e15) {
			return time.Time{}, fmt.Errorf("time %q out of range", s)
		}
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)), nil
	}
	return time.Parse(time.RFC3339Nano, s)
}
