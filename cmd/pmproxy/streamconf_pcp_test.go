package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/series/resp"
)

// TestDiscoverConfLikePCP runs PCP's pmproxy and ours, each into a
// private Redis, with [discover] on over one directory where PCP's
// pmlogger then writes an archive, for pmproxy.conf settings a row: the
// [pmseries] stream.maxlen and stream.expire texts that PCP passes to
// Redis unread (XADD MAXLEN ~ <text>, EXPIRE <text>), and [pmsearch]
// without [pmseries]. What a user sees must be alike: which value
// streams Redis has, whether each holds entries and has a time to live,
// and the lines each pmproxy logs after its ports (times masked; Redis's
// refusals of a stream's entries once each, as PCP's follows from the
// archive's end and logs fewer). Every case's PCP's pmproxy is waited
// for until its Redis is as the case expects (values or none), and the
// cases without values wait as long as one with them took.
func TestDiscoverConfLikePCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	archDir := t.TempDir()
	type side struct {
		c   resp.Client
		log string
	}
	type run struct {
		name      string
		conf      string
		values    bool // PCP's writes entries into some stream
		pcp, ours side
	}
	series := "[pmseries]\nenabled = true\n"
	runs := []*run{
		{name: "defaults", conf: series, values: true},
		{name: "maxlen abc", conf: series + "stream.maxlen = abc\n"},
		{name: "maxlen -1", conf: series + "stream.maxlen = -1\n"},
		{name: "maxlen empty", conf: series + "stream.maxlen =\n"},
		{name: "maxlen 007", conf: series + "stream.maxlen = 007\n"},
		{name: "maxlen 1e3", conf: series + "stream.maxlen = 1e3\n"},
		{name: "maxlen huge", conf: series + "stream.maxlen = 99999999999999999999\n"},
		{name: "maxlen 0", conf: series + "stream.maxlen = 0\n"},
		{name: "maxlen 3", conf: series + "stream.maxlen = 3\n", values: true},
		{name: "expire abc", conf: series + "stream.expire = abc\n", values: true},
		{name: "expire empty", conf: series + "stream.expire =\n", values: true},
		{name: "expire -1", conf: series + "stream.expire = -1\n"},
		{name: "expire 0", conf: series + "stream.expire = 0\n"},
		{name: "expire max", conf: series + "stream.expire = 9223372036854775807\n", values: true},
		{name: "expire 600", conf: series + "stream.expire = 600\n", values: true},
		{name: "pmsearch only", conf: "[pmsearch]\nenabled = true\n"},
	}
	for _, r := range runs {
		for _, ours := range []bool{false, true} {
			srv := redistest.Start(t)
			conf := "[pmproxy]\npcp.enabled = false\n[redis]\nservers = " + srv.Addr() +
				"\n[discover]\nenabled = true\npath = " + archDir + "\n" + r.conf
			s := side{c: resp.NewPool(srv.Addr(), resp.Options{})}
			t.Cleanup(func() { s.c.Close() })
			if ours {
				dir := t.TempDir()
				// -D discovery: its first scan said, and waited for
				startOursAt(t, conf, t.TempDir(), dir, "-Ddiscovery")
				s.log = filepath.Join(dir, "pmproxy.log")
				r.ours = s
			} else {
				// PCP 6.0.3's pmproxy connects to its -h/-r server
				_, s.log = startPCPConf(t, conf, []string{"PCP_ARCHIVE_DIR=" + archDir},
					"-h", "127.0.0.1", "-r", strconv.Itoa(srv.Port))
				r.pcp = s
			}
		}
	}
	// PCP's set up their discovery once connected to Redis: their
	// line about it is the sign
	for _, r := range runs {
		waitLog(t, r.pcp.log, "Info: Redis slots")
		if strings.Contains(r.conf, "[pmseries]") { // ours discovers
			// ours must have scanned before the archive comes, or it
			// follows it from its end too, and may find none left
			waitLog(t, r.ours.log, "discover: first scan")
		}
	}
	start := time.Now()
	runPMLogger(t, bed, t.TempDir(), filepath.Join(archDir, "archive"), "sample.long.one sample.colour", 20)
	var took time.Duration
	for _, r := range runs {
		if !r.values {
			continue
		}
		for deadline := time.Now().Add(time.Minute); streamsWithEntries(t, r.pcp.c) == 0; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: PCP's pmproxy wrote no values", r.name)
			}
		}
		took = max(took, time.Since(start))
	}
	// the entries of the archive's last records come a poll later
	time.Sleep(took / 2)
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			want, got := streamShape(t, r.pcp.c), streamShape(t, r.ours.c)
			if kinds(want) != kinds(got) {
				t.Errorf("value streams: ours %q, PCP's %q", kinds(got), kinds(want))
			}
			if r.values != strings.Contains(kinds(want), "entries") {
				t.Errorf("PCP's value streams: %s", kinds(want))
			}
			wantLog, gotLog := logShape(t, r.pcp.log), logShape(t, r.ours.log)
			if wantLog != gotLog {
				t.Errorf("log: ours\n%s\nPCP's\n%s", gotLog, wantLog)
			}
		})
	}
}

// streamsWithEntries is how many value streams hold entries.
func streamsWithEntries(t *testing.T, c resp.Client) int {
	n := 0
	for _, k := range rdo(t, c, "KEYS", "pcp:values:series:*").Strings() {
		if rdo(t, c, "XLEN", k).Int > 0 {
			n++
		}
	}
	return n
}

// streamShape is a Redis's value streams: key to whether it holds
// entries and whether it has a time to live.
func streamShape(t *testing.T, c resp.Client) map[string]string {
	out := map[string]string{}
	for _, k := range rdo(t, c, "KEYS", "pcp:values:series:*").Strings() {
		l := "stream"
		if rdo(t, c, "XLEN", k).Int > 0 {
			l += " with entries"
		}
		if rdo(t, c, "TTL", k).Int > 0 {
			l += " with ttl"
		}
		out[k] = l
	}
	return out
}

// kinds is the kinds of stream a shape has. Ours loads an archive that
// appears from its start, PCP's from where it first finds its end, so
// ours has the streams of the metrics pmlogger logs once at its start
// too, and PCP's names series by the labels it has read by then
// (docs/series.md): the kinds are compared, not the keys.
func kinds(shape map[string]string) string {
	seen := map[string]bool{}
	for _, v := range shape {
		seen[v] = true
	}
	var out []string
	for v := range seen {
		out = append(out, v)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

var (
	logStamp = regexp.MustCompile(`^\[[^]]*\] pmproxy\(\d+\) `)
	atTime   = regexp.MustCompile(`stream [0-9a-f]{40} (.*) at time \d+-\d+$`)
)

// logShape is a log's lines after the port table, without their time and
// process and with a stream's series and time masked, each line once,
// in order; the notes of an archive opened too early are left out.
func logShape(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(b), "pmproxy request port(s):\n")
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "  ") || l == "" {
			continue // the table
		}
		if strings.HasPrefix(l, "discover: first scan") || strings.HasPrefix(l, "discover: following ") ||
			strings.HasPrefix(l, "pmproxy: discover: ") {
			continue // ours' -D discovery notes
		}
		if strings.Contains(l, "pmNewContext failed") || strings.HasPrefix(l, "discover: cannot open archive") {
			// PCP's opened the archive between pmlogger's creating
			// its files, now and then; ours says so when two polls
			// running found it so (a loaded machine)
			continue
		}
		l = atTime.ReplaceAllString(logStamp.ReplaceAllString(l, ""), "stream S $1 at time T")
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
