package timewindow

import (
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/getdate"
	"github.com/gopcp/gopcp/pcp"
)

// relativeUnits are the words after which libpcp takes a free-form date
// as relative to the window rather than to the present. Each is looked
// for after a space, anywhere in the string and in any case, so " min"
// also finds " minutes" and " month" and " day" finds " days".
var relativeUnits = []string{" year", " month", " fortnight", " week", " day", " hour", " minute", " min", " second", " sec"}

// dateBase says which time a free-form date counts from: the window's
// end for past relative times ("last", "ago" anywhere, or a leading
// "-"), its start for other relative times, the present otherwise.
func dateBase(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	lower := asciiLower(s)
	for _, u := range relativeUnits {
		if strings.Contains(lower, u) {
			if strings.Contains(lower, "last") || strings.Contains(lower, "ago") || strings.HasPrefix(s, "-") {
				return negOffset
			}
			return plusOffset
		}
	}
	return noOffset
}

// asciiLower lowers ASCII letters only, byte for byte, as the C
// library's case-blind search does in the C locale.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// freeDate reads s as a free-form date (package getdate) from the base
// dateBase picks; the result has no fraction of a second.
func freeDate(s string, start, end pcp.Timestamp, loc *time.Location, now func() time.Time) (pcp.Timestamp, bool) {
	var base int64
	switch dateBase(s) {
	case noOffset:
		base = now().Unix()
	case negOffset:
		if end.Sec < MaxTime {
			base = end.Sec
		} else {
			base = start.Sec
		}
	default:
		base = start.Sec
	}
	t, err := getdate.Parse(s, base, loc)
	if err != nil {
		return pcp.Timestamp{}, false
	}
	return pcp.Timestamp{Sec: t}, true
}
