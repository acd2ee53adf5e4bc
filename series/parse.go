package series

import (
	"strconv"
	"time"
)

// Query is a vector's match: a metric name (perhaps a glob) and label and
// name filters, all of which a series must pass (ParseExpr reads queries).
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
