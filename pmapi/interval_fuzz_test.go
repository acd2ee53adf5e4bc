package pmapi

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// FuzzIntervalMatchesLibpcp reads fuzzed intervals with ParseInterval
// and with libpcp's pmParseHighResInterval (through a C harness that
// stays running): both accept the same ones with the same value to the
// nanosecond (libpcp's seconds and nanoseconds added up), and refuse the
// others with the same report. Where libpcp turns a NaN or 2^63 seconds
// into a negative time (C leaves the conversion undefined),
// ParseInterval refuses or gives its largest Duration, as it does for an
// interval longer than a Duration.
func FuzzIntervalMatchesLibpcp(f *testing.F) {
	for _, s := range []string{"1", "0.25", "2 secs", "1min 30s", "1 HOUR", "1.5e1", "3 2", "1d", "5usec", "1x", "-1", "abc",
		"1 sec foo", "", "1e400", "nan sec", "  5  ", "0x10", "0x1.8p1 min", "1 0X0", "0x", "inf", "1e-10", "99999999999999999999 days",
		".5", "5.", "1 msecs 2 usecs", "1\n2", "1000000.1", "123456789.123456789", "999999.7"} {
		f.Add(s)
	}
	bin := pcptest.Harness(f, "testdata/harness/interval.c")
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		f.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		f.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { stdin.Close(); cmd.Wait() })
	out := bufio.NewReader(stdout)
	libpcp := func(t *testing.T, spec string) string {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], uint32(len(spec)))
		if _, err := stdin.Write(append(b[:], spec...)); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("harness: %v", err)
			}
			if line == ".\n" {
				return strings.Join(lines, "")
			}
			lines = append(lines, line)
		}
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if strings.IndexByte(spec, 0) >= 0 || len(spec) > 4096 {
			return // a C string holds no NUL
		}
		want := libpcp(t, spec)
		d, err := ParseInterval(spec)
		var got string
		if err == nil {
			got = fmt.Sprintf("ok %d %d\n", d/1e9, d%1e9)
		} else {
			var ie *IntervalError
			if !errors.As(err, &ie) {
				t.Fatalf("ParseInterval(%q): %v is not an IntervalError", spec, err)
			}
			got = "err " + strings.ReplaceAll(ie.Report(), "\n", "\\n") + "\n"
		}
		var sec, nsec int64
		if n, _ := fmt.Sscanf(want, "ok %d %d", &sec, &nsec); n == 2 && (sec < 0 || sec >= math.MaxInt64/1000000000) {
			// libpcp converted a NaN or 2^63 seconds to a time
			// (undefined in C, the most negative time on this machine),
			// or more than a Duration holds: ParseInterval refuses or
			// gives its largest Duration.
			if err == nil && d != math.MaxInt64 {
				t.Fatalf("ParseInterval(%q) = %v; libpcp %s", spec, d, want)
			}
			return
		}
		if n, _ := fmt.Sscanf(want, "ok %d %d", &sec, &nsec); n == 2 {
			// libpcp may leave a whole second in tv_nsec (0.7 days:
			// 60479 s and 10^9 ns); the time is what counts.
			want = fmt.Sprintf("ok %d %d\n", (sec*1e9+nsec)/1e9, (sec*1e9+nsec)%1e9)
		}
		if got != want {
			t.Fatalf("ParseInterval(%q):\n%s libpcp:\n%s", spec, got, want)
		}
	})
}
