package timewindow

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/pcptz"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

// timeStrings are time specifications in every form PCP reads and many
// it refuses: intervals, "-" offsets, ctime dates after "@", and the
// free-form dates of PCP's getdate grammar (package getdate) with and
// without "@".
var timeStrings = []string{
	// intervals and offsets
	"0", "30", "+30", "-30", "10min", "+1 hour", "-1h", "-2 days", "1.5s", "+ 90", "- 5m",
	"1 day 2 hours", "-1 day", "+1 day", "-  1 day", "2 minutes", "1d", "1e3", "+-", "-+1", "--1m",
	// ctime forms
	"@Thu Nov 25 00:30:00 2004", "@ Thu Nov 25 00:30:00.5 2004", "@00:30", "@0:30:15.25", "@ 00:30",
	"@Nov 25", "@Nov 25 00:20", "@25", "@25 00:20", "@2004", "@12:00am", "@12:30pm", "@1pm", "@ 5:20am",
	"@Nov", "@Mon", "@Mon Nov", "@Nov 99", "@23", "@24", "@00:61", "@00:30:61", "@Thu", "@Thu Nov 25",
	"@x", "@", "@ ", "@@yesterday", "@Dec 31 23:59:59.999999999 2004",
	// the words of getdate
	"yesterday", "today", "tomorrow", "now", "@yesterday", "@ today", "@tomorrow", "@now",
	"@ 10:30 tomorrow", "10:30 tomorrow", "tomorrow 10:30", "yesterday noon", "@yesterday 5pm",
	"today 00:00", "today 23:59:59", "tomorrow 12am", "yesterday 12pm",
	"last week", "last month", "last year", "last day", "last hour", "last minute", "last second",
	"next week", "next month", "next year", "next day", "next hour", "next minute", "next sec",
	"this week", "this day", "this month", "1 week ago", "2 weeks ago", "3 days ago", "1 fortnight ago",
	"2 fortnights", "1 year ago", "6 months ago", "1 month", "2 months", "-1 month", "-2 years",
	"1 hour ago", "30 minutes ago", "90 seconds ago", "5 mins ago", "5 secs ago", "10 sec", "1 min",
	"2 hours", "+2 hours", "-2 hours", "2 hours ago", "-2 hours ago", "+3 days", "3 days", "@3 days",
	"@-3 days", "@ 1 day ago", "1 day ago 10:30", "10:30 1 day ago", "1 day 1 hour ago", "1 day ago 1 hour",
	"day", "week", "hour ago", "month ago", "fortnight", "a week ago", "the day", "days",
	"Mon", "Monday", "monday", "MONDAY", "Tue", "Tues", "Tuesday", "Wed", "Wednes", "Wednesday", "Thu",
	"Thur", "Thurs", "Thursday", "Fri", "Friday", "Sat", "Saturday", "Sun", "Sunday", "Mon.", "@Mon.",
	"next Monday", "last Monday", "last fri", "first Tuesday", "third Sunday", "2 Monday", "Monday,",
	"Monday, 10:30", "Monday 10:30", "10:30 Monday", "next Friday 5pm", "Sunday midnight",
	"Monday Tuesday", "Monday next week", "Friday 1 week ago", "twelfth Thursday", "eleventh sat",
	// dates
	"25 Nov 2004", "@25 Nov 2004 05:30", "25 Nov 2004 00:30", "Nov 25 2004", "Nov 25, 2004",
	"November 25, 2004 00:30:00", "25 November", "25-Nov-2004", "25-nov-04", "2004-11-25",
	"2004-11-25 00:30", "2004-11-25 00:30:00", "11/25", "11/25/2004", "11/25/04", "2004/11/25",
	"11/25/2004 12:30am", "20041125", "20041125 0030", "2004 Nov 25", "Nov 25 00:30 2004",
	"00:30 Nov 25 2004", "Thu Nov 25 00:30:00 2004", "Thu, 25 Nov 2004 00:30:00", "Thursday, November 25, 2004",
	"Sept 1", "sept 1 2004", "Sep. 1", "Feb 29 2004", "Feb 29 2005", "Feb 30 2004", "Apr 31", "Dec 31 1969",
	"Jan 1 1970", "Jan 1 1970 00:00 UTC", "Jan 1 1970 00:00 JST", "1/1/70", "1/1/69", "1/1/68", "1/1/2100",
	"3/1/2100", "Mar 1 2101", "Jan 1 2038", "Jan 1 9999", "12/31/1999 23:59:59", "13/1/2004", "0/1/2004",
	"1/0/2004", "1/32/2004", "May", "may 5", "5 may", "June 2004", "2004",
	// times of day
	"10:30", "10:30:15", "10:30pm", "10:30 pm", "10:30 PM", "10:30 p.m.", "10:30 a.m.", "10pm", "10 pm",
	"12am", "12pm", "0am", "13pm", "12:00:00am", "1030", "10", "0", "23:59", "24:00", "23:60", "23:59:60",
	"10:30:15 am", "9:5", "09:05:07", "10:30 +0100", "10:30 -0530", "10:30:15 +0930", "10:30 -2 days",
	"10:30 +5", "10:30:00 -0800", "@02:30", "@2:30am", "@Mar 8 02:30 2026", "02:30", "2:30am today",
	"@Mar 29 02:30 2026", "@Oct 25 02:30 2026", "@Nov 1 01:30 2026", "Mar 8, 2026 02:30",
	// zones
	"10:30 UTC", "10:30 GMT", "10:30 EST", "10:30 EDT", "10:30 est dst", "10:30 CET", "10:30 CEST",
	"10:30 cet dst", "10:30 BST", "10:30 JST", "10:30 NZDT", "10:30 z", "10:30 a", "10:30 j", "10:30 Y",
	"10:30 e.s.t.", "10:30 E.S.T", "UTC", "EST", "UTC 10:30", "EST EST", "10:30 utc utc", "10:30 ut",
	"25 Nov 2004 00:30 UTC", "25 Nov 2004 00:30 PST", "25 Nov 2004 00:30 MDT", "yesterday UTC", "now UTC",
	"tomorrow EST",
	// oddities of the grammar
	"10 -2 days", "2004-11", "11/", "Nov", "Nov,", "Nov 25,", "25 Nov,", "(comment) yesterday",
	"yesterday (comment", "yes(ter)day", "((a)b) today", "today)", "now now", "today today",
	"yesterday tomorrow", "10:30 11:30", "Mon Tue", "Nov 25 Dec 26", "EST PST", "10:30 1030",
	"ago", "dst", "am", "pm", "10:30 dst", "5 ago", "5", "50", "500", "5000", "10000", "10001", "99999",
	"123456789", "99999999999999999999", "-99999999999999999999 days", "+ - 1 day", "- yesterday",
	"+yesterday", "+ yesterday", "-yesterday", "-1", "-1 sec", "1 second", "second", "@second",
	"last", "next", "first", "this", "last last", "next next week", "tomorrow tomorrow",
	"noon", "midnight", "fortnights", "yrs", "years ago", "Chicago 1 day", "1 day,", "1, day", "200411252004", "99999999999", "1e10", "2147483648", "4294967296.5",
	"9223372036854775807", "1e19",
	"yesterday\xe9junk", "\xe9", "today\tnow", " \t yesterday \n", "a.m.", "p.m. 10", "10 a.m.",
	"10 p.m.", "Monday.", "mon..", "wed.", "thurs.", "sat.", "sun 2", "2 sun", "last sun ago",
	"1 day ago ago", "ago 1 day", "1 ago day", "1 days ago 2 day ago", "@+1 day", "@-1 day",
	"abcdefghijklmnopqrstuvwxyz", "yesterdayyesterday", "MiNuTeS AgO 5",
}

// timeWords are the tokens random strings are built from.
var timeWords = []string{
	"@", "+", "-", "1", "2", "10", "25", "30", "59", "2004", "20041125", "10000", ":", "/", ",", ".",
	"(", ")", "am", "pm", "a.m.", "Nov", "November", "sept", "Mon", "Monday", "Thurs", "tues", "UTC",
	"EST", "edt", "dst", "z", "j", "year", "years", "month", "fortnight", "week", "weeks", "day", "days",
	"hour", "hours", "minute", "min", "mins", "second", "sec", "secs", "s", "m", "h", "d", "ago", "last",
	"next", "this", "first", "third", "now", "today", "tomorrow", "yesterday", "noon", "1.5", "0.25",
	"-0530", "+0100", "Thu Nov 25", "00:30:00", "x", " ", "  ",
}

func randomTimeString(r *rand.Rand) string {
	n := 1 + r.Intn(6)
	var b strings.Builder
	for i := 0; i < n; i++ {
		w := timeWords[r.Intn(len(timeWords))]
		if i > 0 && r.Intn(3) > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// windowCase is one call of pmParseHighResTimeWindow.
type windowCase struct {
	zone        string
	now         int64
	first, last pcp.Timestamp
	args        [4]*string // -S -T -A -O
}

func escapeField(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (c windowCase) line() string {
	f := []string{escapeField(c.zone), strconv.FormatInt(c.now, 10),
		strconv.FormatInt(c.first.Sec, 10), strconv.Itoa(int(c.first.Nsec)),
		strconv.FormatInt(c.last.Sec, 10), strconv.Itoa(int(c.last.Nsec))}
	for _, a := range c.args {
		if a == nil {
			f = append(f, "-")
		} else {
			f = append(f, "="+escapeField(*a))
		}
	}
	return strings.Join(f, "\t")
}

func (c windowCase) describe() string {
	var parts []string
	for i, a := range c.args {
		if a != nil {
			parts = append(parts, fmt.Sprintf("-%c %q", "STAO"[i], *a))
		}
	}
	return fmt.Sprintf("zone %s now %d bounds %v..%v %s", c.zone, c.now, c.first, c.last, strings.Join(parts, " "))
}

// ours is the harness's line for our parser: the status (1 ok, 0 a
// warning, -1 an error), the window, and the message for an error.
func (c windowCase) ours() string {
	now := func() time.Time { return time.Unix(c.now, 0) }
	args := Args{Start: c.args[0], Finish: c.args[1], Align: c.args[2], Origin: c.args[3]}
	w, warn, err := ParseWindow(args, c.first, c.last, pcptz.Load(c.zone), now)
	if err != nil {
		msg := err.Error()
		if te, ok := err.(*TimeError); ok {
			msg = te.Report()
		}
		return "-1 0 0 0 0 0 0 " + escapeField(msg)
	}
	sts := 1
	if warn != nil {
		sts = 0
	}
	return fmt.Sprintf("%d %d %d %d %d %d %d ", sts, w.Start.Sec, w.Start.Nsec, w.End.Sec, w.End.Nsec, w.Origin.Sec, w.Origin.Nsec)
}

// comparable drops what tools never show: a warning's message (libpcp
// clears it when a later switch is parsed; pmGetContextOptions ignores
// warnings).
func comparable(line string) string {
	if strings.HasPrefix(line, "0 ") {
		f := strings.SplitN(line, " ", 8)
		return strings.Join(f[:7], " ") + " "
	}
	return line
}

// TestTimeWindowAgainstLibpcp runs a table of time strings and random
// strings built from the grammar's words through libpcp's
// pmParseHighResTimeWindow (a C harness whose clock is fixed) and through
// ours, in several zones, at several present times, for archive bounds
// and an open-ended live window, and compares the windows and error
// messages.
func TestTimeWindowAgainstLibpcp(t *testing.T) {
	bin := pcptest.HarnessWith(t, "testdata/harness/timewindow.c", "-O1")
	zones := []string{"UTC", "EST-10", "EST5EDT", "CET-1CEST,M3.5.0,M10.5.0/3", "America/New_York", "Australia/Melbourne"}
	nows := []int64{
		1800000000, // Fri Jan 15 08:00:00 2027 UTC
		1784000000, // Tue Jul 14 03:33:20 2026 UTC, summer in the north
		1774746000, // Sun Mar 29 01:00:00 2026 UTC, Europe's change to summer time
		1101343000, // inside the archive's bounds below
		1793511000, // Sun Nov  1 05:30:00 2026 UTC, half an hour before America's return to standard time
		1792888200, // Sun Oct 25 00:30:00 2026 UTC, half an hour before Europe's
		1772953140, // Sun Mar  8 06:59:00 2026 UTC, a minute before America's change to summer time
	}
	archive := [2]pcp.Timestamp{{Sec: 1101340206, Nsec: 248424000}, {Sec: 1101343086, Nsec: 250880000}}
	var cases []windowCase
	add := func(zone string, now int64, live bool, args [4]*string) {
		c := windowCase{zone: zone, now: now, first: archive[0], last: archive[1], args: args}
		if live {
			c.first, c.last = pcp.Timestamp{Sec: now, Nsec: 123456000}, pcp.Timestamp{Sec: MaxTime}
		}
		cases = append(cases, c)
	}
	str := func(s string) *string { return &s }
	for i, s := range timeStrings {
		for zi, zone := range zones {
			for ni, now := range nows {
				// every string as -S in every setting; as -T and -O in a few
				live := (i+zi+ni)%2 == 0
				add(zone, now, live, [4]*string{str(s), nil, nil, nil})
				if (i+zi+ni)%5 == 0 {
					add(zone, now, !live, [4]*string{nil, str(s), nil, nil})
				}
				if (i+zi+ni)%7 == 0 {
					add(zone, now, live, [4]*string{str("@00:20"), str("+20min"), nil, str(s)})
				}
			}
		}
	}
	// GOPCP_TIME_RANDOM=count[,seed] runs more random strings, for
	// longer searches than CI's.
	count, seed := 4000, int64(5)
	if v := os.Getenv("GOPCP_TIME_RANDOM"); v != "" {
		c, sd, _ := strings.Cut(v, ",")
		count, _ = strconv.Atoi(c)
		if sd != "" {
			seed, _ = strconv.ParseInt(sd, 10, 64)
		}
	}
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < count; i++ {
		var args [4]*string
		args[0] = str(randomTimeString(r))
		if r.Intn(3) == 0 {
			args[1] = str(randomTimeString(r))
		}
		if r.Intn(6) == 0 {
			args[2] = str([]string{"1min", "10", "1h", "0", "x"}[r.Intn(5)])
		}
		if r.Intn(4) == 0 {
			args[3] = str(randomTimeString(r))
		}
		add(zones[r.Intn(len(zones))], nows[r.Intn(len(nows))], r.Intn(2) == 0, args)
	}

	n, accepted, failed := compareWindows(t, bin, cases)
	t.Logf("%d windows compared (%d accepted by libpcp), %d differ", n, accepted, failed)
}

// compareWindows gives cases to the C harness bin (libpcp's window
// parsing), one a line, and compares each answer with ours, reporting
// the first 40 differences. It returns how many cases were compared, how
// many windows libpcp accepted, and how many differ.
func compareWindows(t *testing.T, bin string, cases []windowCase) (n, accepted, failed int) {
	t.Helper()
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(c.line())
		in.WriteByte('\n')
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if n >= len(cases) {
			t.Fatalf("harness wrote more lines than cases")
		}
		c := cases[n]
		n++
		want, got := comparable(sc.Text()), comparable(c.ours())
		if !strings.HasPrefix(want, "-1 ") {
			accepted++
		}
		if got != want {
			failed++
			if failed <= 40 {
				t.Errorf("%s:\n libpcp %s\n gopcp  %s", c.describe(), want, got)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("harness output: %v", err)
	}
	if n != len(cases) {
		t.Fatalf("harness answered %d of %d cases", n, len(cases))
	}
	return n, accepted, failed
}
