package series

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseWindow reads fuzzed pmseries -w windows ("[samples:2,
// interval:1]"): a refusal is a *WindowError with one of the two errno
// texts pmSeriesWindow gives, or the values window's own QueryError; a
// window accepted has no negative count, interval or offset.
func FuzzParseWindow(f *testing.F) {
	for _, s := range []string{"[samples:2]", "[samples:2,interval:1]", "[start:-1h,finish:now]",
		"[interval:10s, timezone:UTC]", "[range:10min]", "[align:1m,offset:3]", "[]", "",
		"[samples:-1]", "[interval:bogus]", "[start:yesterday]", "kernel.all.load[samples:1]",
		"[samples:1,samples:2]", "[start:@12:00,finish:@11:00]", "[samples:99999999999999999999]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		w, err := ParseWindow(text)
		if err != nil {
			var we *WindowError
			if !errors.As(err, &we) {
				// the values window's own refusals
				var qe *QueryError
				if !errors.As(err, &qe) {
					t.Fatalf("ParseWindow(%q): error %T %v", text, err, err)
				}
				return
			}
			if we.Errno != "Invalid argument" && we.Errno != "Operation not permitted" {
				t.Fatalf("ParseWindow(%q): errno %q", text, we.Errno)
			}
			if strings.TrimSpace(we.Error()) == "" {
				t.Fatalf("ParseWindow(%q): an empty message", text)
			}
			return
		}
		if w == nil {
			t.Fatalf("ParseWindow(%q): no window and no error", text)
		}
		if w.Samples < 0 || w.Interval < 0 || w.Offset < 0 {
			t.Fatalf("ParseWindow(%q) = %+v", text, w)
		}
	})
}

// FuzzStreamID reads fuzzed stream entry IDs, as Redis hands back what
// XADD was given or any client wrote: no ID may panic, every ID gives
// a time whose nanoseconds are under a second (whole microseconds unless
// they wrapped), and the ID written for it reads back to it. TestStreamIDSamplingAsPCP and
// TestParseStreamID compare the times with libpcp_web's.
func FuzzStreamID(f *testing.F) {
	for _, s := range []string{"1101337806251-219", "0-0", "1648968664731-688", "5-999999", "-", "1-", "-1",
		"18446744073709551615-18446744073709551615", "12", "1-2-3", "+1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		ts := parseStreamID(id)
		// A fraction whose nanoseconds pass 64 bits wraps, as in
		// libpcp_web: only then may the time have part of a microsecond.
		_, fracText, _ := strings.Cut(id, "-")
		frac, err := strconv.ParseUint(fracText, 10, 64)
		small := err == nil && frac < 1e15
		if ts.Nsec < 0 || ts.Nsec >= 1e9 || small && ts.Nsec%1000 != 0 {
			t.Fatalf("parseStreamID(%q) = %+v", id, ts)
		}
		if small && ts.Sec >= 0 && ts.Sec < 1<<53/1000 {
			if back := parseStreamID(streamID(ts)); back != ts {
				t.Fatalf("parseStreamID(%q) = %+v; written %q, read %+v", id, ts, streamID(ts), back)
			}
		}
	})
}
