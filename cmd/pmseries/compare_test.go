package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/archive"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

const qaArchives = "/var/lib/pcp/testsuite/archives"

func writeConf(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "pmseries.conf")
	if err := writeFile(p, "[pmseries]\nenabled = true\n"); err != nil {
		t.Fatal(err)
	}
	return p
}

// The tests' process reads its clock in UTC, as runPCP's PCP pmseries
// does, set once before any test's goroutine runs: time.Now reads
// time.Local, so writing it in a test while another goroutine takes the
// time would be a data race.
func init() { time.Local = time.UTC }

// runPCP runs PCP's pmseries on the server at port, in UTC.
func runPCP(t *testing.T, bin, conf string, port int, args ...string) string {
	cmd := exec.Command(bin, append([]string{"-c", conf, "-p", strconv.Itoa(port)}, args...)...)
	cmd.Env = append(cmd.Environ(), "TZ=UTC")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run()
	return out.String()
}

// runOurs runs ours in this process (its clock in UTC, as PCP's).
func runOurs(conf string, port int, args ...string) string {
	var out bytes.Buffer
	run(context.Background(), append([]string{"pmseries", "-c", conf, "-p", strconv.Itoa(port)}, args...), &out, &out)
	return out.String()
}

// queriesFor makes the queries and reports to ask of an archive: for a
// few of its metrics the name, a glob of its parent, values of the last
// samples, thinned by an interval and in a start-finish window, and each
// metadata report of its series.
func queriesFor(t *testing.T, path string, pcpAnswer func(args ...string) string) [][]string {
	a, err := archive.Open(path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	names, err := a.Meta.Traverse("")
	if err != nil {
		t.Fatal(err)
	}
	step := max(1, len(names)/6)
	qs := [][]string{{"-m"}, {"-i"}, {"-l"}, {"-S"}, {"-v", "hostname"}, {"-v", "agent,role"}}
	for i := 0; i < len(names); i += step {
		n := names[i]
		qs = append(qs, []string{n}, []string{n + "[samples:3]"}, []string{n + "[interval:2,samples:4]"},
			[]string{n + "[start:" + strconv.FormatInt(a.Label.Start.Sec+1, 10) + ",finish:" + strconv.FormatInt(a.Label.Start.Sec+40, 10) + "]"})
		if j := strings.LastIndexByte(n, '.'); j > 0 {
			qs = append(qs, []string{n[:j] + ".*"})
		}
		qs = append(qs, []string{n + `{hostname=="` + a.Label.Hostname + `"}`})
		for _, sid := range strings.Fields(pcpAnswer(n)) {
			if !isSID(sid) {
				continue
			}
			for _, o := range []string{"-a", "-d", "-i", "-l", "-m", "-s"} {
				qs = append(qs, []string{o, sid})
			}
			break
		}
	}
	return qs
}

// TestQueriesMatchPCP loads QA archives with PCP's pmseries into a
// private Redis and asks PCP's pmseries and ours the same queries and
// reports there (ours reads what PCP's writes); then loads them with ours
// into another and asks PCP's pmseries the metadata queries of both (PCP
// reads what ours writes).
func TestQueriesMatchPCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	archives := []string{"omnibus_v3", "sample-labels", "daily_report", "20041125", "mirage-3", "20071023-08-06-36"}
	total, fromOurs, moreInsts, listings, repeats := 0, 0, 0, 0, 0
	for _, name := range archives {
		path := filepath.Join(qaArchives, name)
		pcpSrv, ourSrv := redistest.Start(t), redistest.Start(t)
		loadPCP(t, bin, conf, pcpSrv.Port, path)
		if out := runOurs(conf, ourSrv.Port, "--load", path); !strings.Contains(out, "processed") {
			t.Fatalf("our load of %s: %s", name, out)
		}
		// PCP's answers on its load, each asked once: queriesFor asks
		// some of the same (a metric's name, for its series) and the
		// server's content is not changed until the archive's end
		asked := map[string]string{}
		pcpOnItsLoad := func(args ...string) string {
			k := strings.Join(args, "\x00")
			if out, ok := asked[k]; ok {
				return out
			}
			out := runPCP(t, bin, conf, pcpSrv.Port, args...)
			asked[k] = out
			return out
		}
		qs := queriesFor(t, path, pcpOnItsLoad)
		compared := map[string]bool{}
		for _, q := range qs {
			// a query made twice (the glob of two sampled names'
			// parent, say) is compared once
			k := strings.Join(q, "\x00")
			if compared[k] {
				repeats++
				continue
			}
			compared[k] = true
			want := pcpOnItsLoad(q...)
			got := runOurs(conf, pcpSrv.Port, q...)
			total++
			if got != want {
				t.Errorf("%s: pmseries %q on PCP's load:\nPCP's:\n%s\nours:\n%s", name, q, want, got)
			}
			if strings.Contains(q[0], "[") {
				continue // values: PCP's loader repeats stale ones (docs/series.md)
			}
			fromOurs++
			o := runPCP(t, bin, conf, ourSrv.Port, q...)
			switch {
			case o == want:
			case isListing(q) && sameLines(o, want):
				// listings follow a hash's order, which follows the
				// order strings were added in
				listings++
			case moreInstances(want, o):
				moreInsts++
			default:
				t.Errorf("%s: PCP's pmseries %q on our load:\n%s\non PCP's load:\n%s", name, q, o, want)
			}
		}
	}
	t.Logf("%d queries answered alike by PCP's pmseries and ours over %d archives loaded by PCP; "+
		"%d asked of PCP's pmseries over both loads alike, %d of them but for instances PCP's loader leaves out, %d listings in another order; "+
		"%d repeated queries asked once",
		total, len(archives), fromOurs, moreInsts, listings, repeats)
}

// moreInstances accepts a report on our load that is the report on PCP's
// with more instance lines: the instances libpcp_web leaves out of a
// metric's set when another metric of its domain saw them first.
func moreInstances(pcps, ours string) bool {
	p, o := strings.Split(pcps, "\n"), strings.Split(ours, "\n")
	i := 0
	for _, line := range o {
		if i < len(p) && line == p[i] {
			i++
			continue
		}
		if !strings.HasPrefix(line, "    inst [") {
			return false
		}
	}
	return i == len(p)
}

// isListing is a report of every name of a kind (no series given).
func isListing(q []string) bool {
	return strings.HasPrefix(q[0], "-") && (len(q) == 1 || q[0] == "-v")
}

// sameLines is equality of the lines in any order.
func sameLines(a, b string) bool {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// loadPCP loads an archive into the server at port with PCP's pmseries
// and ends the test if it did not ("processed" is its last line).
// PCP 6.0.3's pmseries once printed nothing at all on a loaded machine
// (CI, load 40), too rare to reproduce here; how it ended is reported,
// and a load that died of a signal (the reference crashing, not ours)
// is run once more, so that the comparisons after it still run.
func loadPCP(t *testing.T, bin, conf string, port int, path string) {
	t.Helper()
	for try := 1; ; try++ {
		cmd := exec.Command(bin, "-c", conf, "-p", strconv.Itoa(port), "--load", path)
		cmd.Env = append(cmd.Environ(), "TZ=UTC")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if strings.Contains(out.String(), "processed") {
			return
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) && err != nil {
			t.Fatalf("PCP's load of %s: %v", path, err)
		}
		how := pcptest.HowEnded(cmd.ProcessState)
		if try == 1 && strings.HasPrefix(how, "killed by") {
			t.Logf("PCP's pmseries --load %s was %s, output %q: loading again", path, how, out.String())
			continue
		}
		t.Fatalf("PCP's load of %s: %s, output %q", path, how, out.String())
	}
}
