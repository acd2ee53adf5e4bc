package pmda_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// loggerPMNS names pmdalogger's metrics for one log file called app, with
// the PMIDs pmdalogger gives them (its dynamic names numbered after the
// four fixed ones).
const loggerPMNS = `root { logger }
logger {
	numclients	106:0:0
	numlogfiles	106:0:1
	param_string	106:0:2
	maxmem		106:0:3
	perfile
}
logger.perfile { app }
logger.perfile.app {
	count		106:0:4
	bytes		106:0:5
	size		106:0:6
	path		106:0:7
	numclients	106:0:8
	records		106:0:9
	queuemem	106:0:10
}
`

// TestEventQueueEndToEnd serves a log file's lines as event records two
// ways: with PCP's pmdalogger (libpcp_pmda's queues) under PCP's pmcd, and
// with testdata/eventqueue_agent (pmda.EventQueues, the same names and
// descriptors) under our pmcd. Both agents read the same file while two
// pmval clients of each read logger.perfile.app.records, every 0.1 s and
// every second; lines are written once every client has made its first
// fetch.
// PCP's tools must print the same descriptors and statistics for both,
// the records must look the same (times masked), and each of our clients
// must get every line exactly once, in order. What PCP's clients got is
// logged beside ours: with two readers libpcp_pmda may repeat or lose
// lines (see docs/pmda-extras.md).
func TestEventQueueEndToEnd(t *testing.T) {
	testbed.Need(t)
	logger := "/var/lib/pcp/pmdas/logger/pmdalogger"
	if _, err := os.Stat(logger); err != nil {
		t.Skip("PCP's pmdalogger is not installed")
	}
	dir := t.TempDir()
	// pmdalogger runs as the -U user; let it read the file whoever that is
	for _, d := range []string{filepath.Dir(dir), dir} {
		os.Chmod(d, 0o755)
	}
	twin := pcptest.GoCommand(t, "./testdata/eventqueue_agent")
	logFile := filepath.Join(dir, "app.log")
	conf := filepath.Join(dir, "logger.conf")
	pmns := filepath.Join(dir, "root_logger")
	for name, body := range map[string]string{logFile: "", conf: "app n " + logFile + "\n", pmns: loggerPMNS} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// PCP's pmdalogger looks for new lines only when the file's mtime has
	// changed, compared in whole seconds: lines appended within the same
	// second as its last look are not read until the next change. The
	// log's mtime is set back an hour, so that the appends below always
	// change it, however fast this machine gets from here to them (an
	// idle CI machine did it inside one second, and PCP's readers got
	// nothing).
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(logFile, past, past); err != nil {
		t.Fatal(err)
	}
	me := "root"
	if u, err := user.Current(); err == nil {
		me = u.Username
	}
	const maxmem = "65536"
	theirs := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.PipeAgent("logger", 106, pmns, logger, "-d", "106", "-s", "0.1", "-m", maxmem, "-U", me, conf),
	}})
	ours := testbed.StartGoPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.PipeAgent("logger", 106, pmns, twin, "-s", "100ms", "-m", maxmem, "app", logFile),
	}})
	beds := map[string]*testbed.PMCD{"pcp": theirs, "ours": ours}

	// descriptors
	desc := map[string]string{}
	for name, bed := range beds {
		res := bed.Run("pminfo", "-h", bed.Host(), "-dm", "logger")
		if res.Err != nil {
			t.Fatalf("%s: %v", name, res.Err)
		}
		desc[name] = res.Stdout
	}
	if desc["pcp"] != desc["ours"] {
		t.Errorf("descriptors differ (- PCP, + ours):\n%s", diffLines(desc["pcp"], desc["ours"]))
	}

	// two readers per bed, at different rates, made ready before any line
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	type reader struct {
		bed  string
		out  strings.Builder
		done chan error
	}
	var readers []*reader
	for _, name := range []string{"pcp", "ours"} {
		// a fast and a slow reader: libpcp_pmda tends to give the fast
		// one each line twice and the slow one none
		for _, rate := range [][2]string{{"0.1", "60"}, {"1", "7"}} {
			bed := beds[name]
			cmd, err := bed.Command(ctx, "pmval", "-h", bed.Host(), "-t", rate[0], "-s", rate[1], "logger.perfile.app.records")
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := &reader{bed: name, done: make(chan error, 1)}
			readers = append(readers, r)
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					r.out.WriteString(sc.Text() + "\n")
				}
				r.done <- cmd.Wait()
			}()
		}
	}
	// pmval's output is buffered; the queue's count of readers says when
	// both clients have made their first fetch
	for name, bed := range beds {
		for {
			res := bed.Run("pmprobe", "-h", bed.Host(), "-v", "logger.perfile.app.numclients")
			if strings.HasSuffix(strings.TrimSpace(res.Stdout), " 1 2") {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("%s: the pmval clients never read the queue: %s", name, res.Stdout)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	var lines []string
	f, err := os.OpenFile(logFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		lines = append(lines, fmt.Sprintf("line %d of the application log", i+1))
		fmt.Fprintln(f, lines[i])
	}
	f.Close()
	for _, r := range readers {
		if err := <-r.done; err != nil {
			t.Fatalf("pmval on %s: %v\n%s", r.bed, err, r.out.String())
		}
	}

	shapes := map[string][]string{}
	for i, r := range readers {
		out := r.out.String()
		got := paramRE2.FindAllStringSubmatch(out, -1)
		var params []string
		for _, m := range got {
			params = append(params, m[1])
		}
		t.Logf("%s client %d got %q", r.bed, i%2+1, params)
		if r.bed == "ours" && !slices.Equal(params, lines) {
			t.Errorf("our client %d got %q, want each line once: %q\n%s", i%2+1, params, lines, out)
		}
		shapes[r.bed] = append(shapes[r.bed], recordShapes(out)...)
	}
	for _, name := range []string{"pcp", "ours"} {
		slices.Sort(shapes[name])
		shapes[name] = slices.Compact(shapes[name])
	}
	if !slices.Equal(shapes["pcp"], shapes["ours"]) {
		t.Errorf("records printed differently (times masked):\nPCP:  %q\nours: %q", shapes["pcp"], shapes["ours"])
	}

	// the queue's statistics once the readers are gone: the logger's
	// lines and bytes (each line with a NUL, as pmdalogger counts it), no
	// reader left, this pminfo the one client
	stats := map[string]string{}
	for name, bed := range beds {
		res := bed.Run("pminfo", "-h", bed.Host(), "-f",
			"logger.numclients", "logger.numlogfiles", "logger.maxmem",
			"logger.perfile.app.count", "logger.perfile.app.bytes", "logger.perfile.app.size",
			"logger.perfile.app.path", "logger.perfile.app.numclients")
		if res.Err != nil {
			t.Fatalf("%s: %v", name, res.Err)
		}
		stats[name] = res.Stdout
	}
	if stats["pcp"] != stats["ours"] {
		t.Errorf("statistics differ (- PCP, + ours):\n%s", diffLines(stats["pcp"], stats["ours"]))
	}
	if res := ours.Run("pminfo", "-h", ours.Host(), "-f", "logger.perfile.app.queuemem"); !strings.Contains(res.Stdout, "value 0\n") {
		t.Errorf("our queue holds memory after every reader read it: %s %v", res.Stdout, res.Err)
	}
}

var (
	// a pmval sample line: a time and a value or a count of records
	sampleRE = regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} `)
	paramRE2 = regexp.MustCompile(`logger\.param_string "([^"]*)"`)
	timeRE   = regexp.MustCompile(`\d\d:\d\d:\d\d\.\d+`)
	indexRE  = regexp.MustCompile(`\[\d+\]`)
)

// recordShapes are pmval's lines for event records with times and record
// numbers masked (how records group into samples depends on timing).
func recordShapes(out string) []string {
	var s []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "event record") && !sampleRE.MatchString(l) || strings.Contains(l, "logger.param_string") {
			s = append(s, indexRE.ReplaceAllString(timeRE.ReplaceAllString(l, "T"), "[N]"))
		}
	}
	return s
}

// diffLines shows the lines of want and got that differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "- %s\n+ %s\n", wl, gl)
		}
	}
	return b.String()
}
