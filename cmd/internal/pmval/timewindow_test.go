package pmval

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/cli"
	"github.com/gopcp/gopcp/internal/testing/clitest"
)

// windowTimes are -S, -T and -O arguments in each of PCP's forms, chosen
// around archive 20041125 (Thu Nov 25 00:10:06 to 00:58:06 2004, CET-1)
// with the present faked to 00:30 CET that day.
var windowTimes = []string{
	// intervals and offsets
	"+30", "+5min", "-10min", "-1h", "90", "1.5 min",
	// ctime dates
	"@00:30", "@Thu Nov 25 00:40:00 2004", "@Nov 25 00:20", "@ 00:15:30.5", "@25", "@12:35am",
	// free-form dates from the present
	"now", "@now", "today", "today 00:40", "@ 00:40 today", "yesterday", "tomorrow", "@Thu", "Thursday 00:35",
	"Wed", "next Thursday", "last Thursday", "this minute", "now 1 min", "00:45", "12:45am", "0045",
	"00:45 CET", "23:35 UTC", "23:35 GMT", "18:35 EST", "01:40 eet", "00:40:30 +0100", "23:40 -0000",
	"25 Nov 2004 00:35", "@25 Nov 2004 00:35", "Nov 25, 2004 00:33:20", "2004-11-25 00:50",
	"11/25/2004 00:25", "25-Nov-2004", "20041125", "Nov 25 00:42 2004", "Thu, 25 Nov 2004 00:36:00",
	// free-form dates from the window's bounds
	"10 minutes ago", "@ 15 minutes ago", "last minute", "20 mins", "1 hour", "next minute", "30 seconds",
	"1 day ago", "2 days", "last week", "1 min 30 sec ago", "-5 minutes", "this hour",
	// refused
	"@garbage", "next blue moon", "@Nov 99", "10 -2 days", "Feb 30 2004", "25:00", "@Mon 23:",
	"+5 parsecs", "1 day 2 hours later",
}

// archiveWords are the pieces random times are made of.
var archiveWords = []string{
	"@", "+", "-", "00:30", "00:45:10", "0:20", "12:40am", "Thu", "Wednesday", "Nov", "25", "2004", "24",
	"min", "minutes", "hour", "sec", "day", "ago", "last", "next", "this", "now", "today", "yesterday",
	"CET", "UTC", "10", "5", "1.5", ",", "/", "11/25", "2004-11-25", "(x)",
}

// TestTimeWindowsAgainstPCP compares pmval's window (its start and end
// lines and the values in it) and its errors with PCP's pmval for time
// arguments in every form PCP reads, under the archive's zone (-z), a
// named one (-Z), $TZ, and with -A alignment.
func TestTimeWindowsAgainstPCP(t *testing.T) {
	archive := clitest.QAArchive(t, "20041125")
	const fakeNow = 1101339000 // Thu Nov 25 00:30:00 2004 CET
	env := clitest.FakeClock(t, fakeNow, &cli.Now)

	var cases []clitest.Case
	add := func(name string, caseEnv []string, args ...string) {
		args = append(append([]string{"-a", archive, "-t", "4m", "-s", "4"}, args...), "kernel.all.load")
		cases = append(cases, clitest.Case{Name: name, Args: args, Env: append(append([]string{}, env...), caseEnv...)})
	}
	// every time as -S, and as one other use in turn (the C harness in
	// internal/cli covers the combinations; this checks the tools' words)
	for i, s := range windowTimes {
		add("S "+s, nil, "-z", "-S", s)
		switch i % 8 {
		case 0:
			add("T "+s, nil, "-z", "-S", "@00:12", "-T", s)
		case 1:
			add("O "+s, nil, "-z", "-O", s)
		case 2:
			add("Z S "+s, nil, "-Z", "EST-10", "-S", s)
		case 3:
			add("TZ S "+s, []string{"TZ=America/New_York"}, "-S", s)
		case 4:
			add("A S "+s, nil, "-z", "-A", "5m", "-S", s)
		case 5:
			add("Z DST O "+s, nil, "-Z", "EST5EDT", "-S", "-40m", "-O", s)
		case 6:
			add("ST "+s, nil, "-z", "-S", s, "-T", s)
		case 7:
			add("A O "+s, nil, "-z", "-A", "2m", "-O", s)
		}
	}
	// random strings from the words of the grammar around the archive
	r := rand.New(rand.NewSource(25))
	for i := 0; i < 30; i++ {
		var b strings.Builder
		for n := 1 + r.Intn(4); n > 0; n-- {
			b.WriteString(archiveWords[r.Intn(len(archiveWords))])
			if r.Intn(4) > 0 {
				b.WriteByte(' ')
			}
		}
		s := strings.TrimSpace(b.String())
		if i%2 == 0 {
			add("random S "+s, nil, "-z", "-S", s)
		} else {
			add("random T "+s, nil, "-z", "-S", "@00:12", "-T", s)
		}
	}
	// the hour summer time skips and the hour it repeats, read by glibc's
	// mktime in PCP's pmval
	add("gap", nil, "-Z", "America/New_York", "-S", "@Mar 8 02:30 2026")
	add("repeated", nil, "-Z", "America/New_York", "-S", "@Nov 1 01:30 2026", "-T", "@Nov 1 01:45 2026")
	add("repeated then gap", nil, "-Z", "EST5EDT", "-S", "@Nov 1 01:30 2026", "-T", "@Mar 8 02:30 2027")
	add("gap then repeated", nil, "-Z", "EST5EDT", "-S", "@Mar 8 02:30 2026", "-T", "@Nov 1 01:30 2026")
	clitest.CompareLocal(t, "pmval", run, cases)
}
