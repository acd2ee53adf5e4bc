package pmlogger

import (
	"bufio"
	"encoding/binary"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// harnessBuffer is the size of the strftime harness's buffer.
const harnessBuffer = 65536

// FuzzArchiveName expands fuzzed archive names with strftime and with
// the C library's, which PCP's pmlogger calls, at times that give fields
// one and two digits, negative years' edges and ISO weeks of the year
// before and after, in a zone with daylight time; the two must agree,
// both failing alike when the expansion does not fit. ArchiveName fails
// exactly when the expansion does not fit in MAXPATHLEN.
func FuzzArchiveName(f *testing.F) {
	for _, s := range []string{"%Y%m%d.%H.%M", "%Y%m%d.%H.%M.%S", "archive-%F_%T", "%y%C%e%I%p%j%a%A%b%h%B%u%w%s%D%z%Z%n%t%%",
		"%c %x %X %r %R %k %l %P %U %W %V %G %g", "%-d %_H %010Y %^a %#Z %Ey %Od %5", "%", "100%", "%q%!%"} {
		f.Add(s)
	}
	bin := pcptest.Harness(f, "testdata/harness/strftime.c")
	zone, loc := "Australia/Melbourne", time.UTC // a zone with daylight time and an offset
	if l, err := time.LoadLocation(zone); err == nil {
		loc = l
	} else {
		zone = "UTC"
	}
	times := []time.Time{time.Date(2026, 3, 5, 7, 8, 9, 0, loc), time.Date(1999, 12, 31, 23, 59, 59, 0, loc),
		time.Date(1, 1, 1, 0, 0, 0, 0, loc), time.Date(2027, 1, 3, 12, 0, 0, 0, loc), time.Date(2020, 12, 31, 13, 1, 2, 0, loc)}
	args := make([]string, len(times))
	for i, t := range times {
		args[i] = strconv.FormatInt(t.Unix(), 10)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"TZ=" + zone}
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
	// libc answers the C library's expansions, "" and false where it
	// gives none.
	libc := func(t *testing.T, pattern string) ([]string, []bool) {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], uint32(len(pattern)))
		if _, err := stdin.Write(append(b[:], pattern...)); err != nil {
			t.Fatal(err)
		}
		res, fits := make([]string, len(times)), make([]bool, len(times))
		for i := range res {
			if _, err := io.ReadFull(out, b[:]); err != nil {
				t.Fatal(err)
			}
			n := binary.BigEndian.Uint32(b[:])
			if n == 0xffffffff {
				continue
			}
			fits[i] = true
			s := make([]byte, n)
			if _, err := io.ReadFull(out, s); err != nil {
				t.Fatal(err)
			}
			res[i] = string(s)
		}
		return res, fits
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		if strings.IndexByte(pattern, 0) >= 0 || len(pattern) > 1024 {
			return // a command-line argument holds no NUL
		}
		want, fits := libc(t, pattern)
		for i, tm := range times {
			got, ok := strftime(pattern, tm, harnessBuffer)
			if !fits[i] {
				if ok {
					t.Fatalf("strftime(%q, %s) = %q, the C library's does not fit", pattern, tm, got)
				}
			} else if !ok || got != want[i] {
				t.Fatalf("strftime(%q, %s) = %q, %v; the C library's %q", pattern, tm, got, ok, want[i])
			}
			name, expanded, err := ArchiveName(pattern, tm)
			if expanded != strings.Contains(pattern, "%") || len(name) >= maxPathLen || (err == nil) != (len(got) < maxPathLen && ok || !expanded) {
				t.Fatalf("ArchiveName(%q) = %d bytes, %v, %v", pattern, len(name), expanded, err)
			}
		}
	})
}
