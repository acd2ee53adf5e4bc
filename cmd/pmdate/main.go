// Command pmdate is PCP's pmdate(1): the present, moved by offsets of
// seconds, minutes, hours and days (+N or -N and S, M, H or d) and of
// months and years (m, y: the local reading's fields, read back by
// mktime with the daylight flag the present had, as PCP's does), printed
// in a strftime(3) format of glibc's in the C locale, with PCP 6.0.3's
// messages and exit statuses.
package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gopcp/gopcp/internal/ctime"
	"github.com/gopcp/gopcp/internal/getopt"
	"github.com/gopcp/gopcp/internal/pcptz"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// clock is the present; tests fix it.
var clock = time.Now

const usage = "Usage: pmdate { +valueS | -valueS } ... format\n" +
	"\n" +
	"where the scale \"S\" is one of: S (seconds), M (minutes), H (hours), \n" +
	"d (days), m (months) or y (years)\n"

// room is what PCP's pmdate adds to the format's length for the buffer it
// expands the format into.
const room = 256

func run(_ context.Context, argv []string, stdout, stderr io.Writer) int {
	prog := argv[0][strings.LastIndexByte(argv[0], '/')+1:]
	if len(argv) < 2 || argv[1] == "-?" || argv[1] == "--help" {
		fmt.Fprint(stderr, usage)
		return 1
	}
	now := clock().Unix()
	// months and years are counted in C ints, and wrap as they do there
	var months, years int32
	args := argv[1:]
	for ; len(args) > 1; args = args[1:] {
		a := args[0]
		var sign int64
		switch at(a, 0) {
		case '+':
			sign = 1
		case '-':
			sign = -1
		default:
			fmt.Fprintf(stderr, "%s: incorrect leading sign for offset (%s), must be \"+\" or \"-\"\n", prog, a)
			return 1
		}
		n, end, _ := getopt.CStrtol(a[1:], 10)
		v := sign * int64(int32(n)) // strtol's long, cut to an int
		switch at(a[1:], end) {
		case 'S':
			now += v
		case 'M':
			now += v * 60
		case 'H':
			now += v * 60 * 60
		case 'd':
			now += v * 24 * 60 * 60
		case 'm':
			months += int32(v)
		case 'y':
			years += int32(v)
		case 0:
			fmt.Fprintf(stderr, "%s: missing scale after offset (%s)\n", prog, a)
			return 1
		case '?':
			fmt.Fprint(stderr, usage)
			return 1
		default:
			fmt.Fprintf(stderr, "%s: unknown scale after offset (%s)\n", prog, a)
			return 1
		}
	}
	loc := pcptz.Local(os.LookupEnv("TZ"))
	t, ok := offset(now, months, years, loc)
	if !ok {
		fmt.Fprintf(stderr, "%s: impossible date conversion\n", prog)
		return 1
	}
	format := args[0]
	s, ok := ctime.Strftime(format, time.Unix(t, 0).In(loc), len(format)+room)
	if !ok || s == "" {
		fmt.Fprintf(stderr, "%s: format too long\n", prog)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", s)
	return 0
}

// offset moves the local reading of now by months and years in C's
// ints (tm_year from 1900, tm_mon from 0, the month brought back to 0-12
// a year at a time) and reads it back with mktime and the daylight flag
// now had. false is mktime's -1, an answer PCP's pmdate takes for a
// failure even where it is the time, and a year a struct tm cannot hold.
func offset(now int64, months, years int32, loc *time.Location) (int64, bool) {
	lt := time.Unix(now, 0).In(loc)
	year := int32(lt.Year()-1900) + years
	mon := int32(lt.Month()-1) + months
	if mon < 0 {
		k := (11 - int64(mon)) / 12
		mon += int32(12 * k)
		year = int32(int64(year) - k)
	} else if mon > 12 {
		k := (int64(mon) - 1) / 12
		mon -= int32(12 * k)
		year = int32(int64(year) + k)
	}
	isdst := 0
	if lt.IsDST() {
		isdst = 1
	}
	mk := ctime.Mktime{Loc: loc}
	t, ok := mk.Time(int64(year)+1900, int(mon), lt.Day(), lt.Hour(), lt.Minute(), lt.Second(), isdst)
	if !ok || t == -1 {
		return 0, false
	}
	if y := int64(time.Unix(t, 0).In(loc).Year()) - 1900; y < math.MinInt32 || y > math.MaxInt32 {
		return 0, false
	}
	return t, true
}

// at is s[i], or NUL past its end as in a C string.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}
