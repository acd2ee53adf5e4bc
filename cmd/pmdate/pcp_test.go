package main

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// fixedNow runs pmdate at the present $GOPCP_FAKE_NOW, which the preload
// library gives PCP's pmdate as time(2)'s answer.
func fixedNow(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	now, err := strconv.ParseInt(os.Getenv("GOPCP_FAKE_NOW"), 10, 64)
	if err != nil {
		panic(err)
	}
	saved := clock
	clock = func() time.Time { return time.Unix(now, 0) }
	defer func() { clock = saved }()
	return run(ctx, argv, stdout, stderr)
}

// utc is a present given as a UTC reading.
func utc(year int, mon time.Month, day, hour, min int) int64 {
	return time.Date(year, mon, day, hour, min, 0, 0, time.UTC).Unix()
}

// TestAgainstPCP compares pmdate with PCP's at fixed presents: offsets of
// every scale, months and years across daylight changes (into the hour
// skipped and the hour repeated, from either side), ends of months and
// leap days, C's int wrapping, glibc's strftime conversions, flags and
// widths, the buffer's limit, messages and usage; then seeded random
// offsets and presents in several zones.
func TestAgainstPCP(t *testing.T) {
	shim := pcptest.HarnessWith(t, "testdata/harness/faketime.c", "-shared", "-fPIC", "-O1")
	type run struct {
		name string
		now  int64
		tz   string
		args []string
	}
	summer := utc(2026, time.July, 15, 11, 30)
	runs := []run{
		{"usage", summer, "UTC", nil},
		{"help", summer, "UTC", []string{"-?"}},
		{"help long", summer, "UTC", []string{"--help", "%Y"}},
		{"format only", summer, "UTC", []string{"%c"}},
		{"literal", summer, "UTC", []string{"+1d"}},
		{"empty", summer, "UTC", []string{""}},
		{"empty expansion", summer, "UTC", []string{"%p", "%Z"}[1:]},
		{"week ago", summer, "UTC", []string{"-7d", "%d%m%Y"}},
		{"each scale", summer, "UTC", []string{"+1S", "-2M", "+3H", "-4d", "+5m", "-6y", "%c"}},
		{"no sign", summer, "UTC", []string{"1d", "%Y"}},
		{"no scale", summer, "UTC", []string{"+1", "%Y"}},
		{"bad scale", summer, "UTC", []string{"+1x", "%Y"}},
		{"no value", summer, "UTC", []string{"+d", "%c"}},
		{"blank value", summer, "UTC", []string{"+ 3d", "%c"}},
		{"question", summer, "UTC", []string{"+?", "%c"}},
		{"sign twice", summer, "UTC", []string{"+-3d", "%c"}},
		{"int cut", summer, "UTC", []string{"+4294967297S", "%c"}},
		{"long saturated", summer, "UTC", []string{"+99999999999999999999S", "%c"}},
		{"many days", summer, "UTC", []string{"+2147483647d", "%c %G %V"}},
		{"years wrap", summer, "UTC", []string{"+2147483647y", "+2147483647y", "%Y"}},
		{"years huge", summer, "UTC", []string{"+2147483647y", "%Y"}},
		{"months many back", summer, "UTC", []string{"-21474836m", "%Y %m"}},
		{"months many", summer, "UTC", []string{"+21474836m", "+3y", "%Y %m"}},
		{"epoch minus one", utc(1970, time.January, 1, 0, 0), "UTC", []string{"-1S", "%c"}},
		{"month end", utc(2026, time.January, 31, 12, 0), "UTC", []string{"+1m", "%F"}},
		{"month twelve", utc(2026, time.January, 31, 12, 0), "UTC", []string{"+12m", "%F"}},
		{"month back", utc(2026, time.March, 31, 12, 0), "UTC", []string{"-13m", "%F"}},
		{"leap day", utc(2024, time.February, 29, 12, 0), "UTC", []string{"+1y", "%F"}},
		{"conversions", summer, "Australia/Melbourne", []string{"%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %Z %+ %%"}},
		{"flags", summer, "America/New_York", []string{"%-d %_H %010Y %^a %#Z %#p %Ey %Od %-5m %^B %q %"}},
		{"too long", summer, "UTC", []string{"%c%c%c%c%c%c%c%c%c%c%c%c"}},
		{"just fits", summer, "UTC", []string{"%257Y"}},
		{"just too wide", summer, "UTC", []string{"%258Y"}},
		{"summer less six months", summer, "Europe/London", []string{"-6m", "%c %Z %z"}},
		{"winter plus six months", utc(2026, time.January, 15, 11, 30), "Europe/London", []string{"+6m", "%c %Z %z"}},
		{"south", summer, "Australia/Sydney", []string{"+5m", "%c %Z"}},
		{"into the gap", utc(2024, time.March, 30, 1, 30), "Europe/London", []string{"+1y", "%c %Z"}},
		{"into the gap summer", utc(2024, time.March, 31, 0, 30), "Europe/London", []string{"-1y", "+2H", "%c %Z"}},
		{"repeated from summer", utc(2024, time.October, 26, 0, 30), "Europe/London", []string{"+1y", "%c %Z %s"}},
		{"repeated from winter", utc(2026, time.October, 26, 1, 30), "Europe/London", []string{"-1y", "%c %Z %s"}},
		{"posix zone", summer, "EST5EDT,M3.2.0,M11.1.0", []string{"-6m", "%c %Z %z"}},
		{"posix plain", summer, "AEST-10", []string{"+1y", "%c %Z %z"}},
		{"zone unset", summer, "", []string{"%c %Z"}},
	}
	zones := []string{"UTC", "Europe/London", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/St_Johns"}
	scales := "SMHdmy"
	rng := rand.New(rand.NewPCG(18, 2))
	for i := range 48 {
		r := run{name: "random " + strconv.Itoa(i), now: rng.Int64N(utc(2040, 1, 1, 0, 0)), tz: zones[rng.IntN(len(zones))]}
		for range rng.IntN(4) {
			sign := "+"
			if rng.IntN(2) == 0 {
				sign = "-"
			}
			r.args = append(r.args, sign+strconv.Itoa(rng.IntN(400))+scales[rng.IntN(len(scales)):][:1])
		}
		r.args = append(r.args, "%c %Z %z %s %G-%V-%u %j")
		runs = append(runs, r)
	}
	var cases []clitest.Case
	for _, r := range runs {
		cases = append(cases, clitest.Case{Name: r.name, Args: r.args,
			Env: []string{"LD_PRELOAD=" + shim, "GOPCP_FAKE_NOW=" + strconv.FormatInt(r.now, 10), "TZ=" + r.tz}})
	}
	clitest.CompareLocal(t, "pmdate", fixedNow, cases)
}
