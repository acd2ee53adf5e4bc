package mmv_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	gommv "github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// fetchOne is one client's fetch: its name and what it saw.
type fetchOne func(t *testing.T) (name, line string)

// startGoFetcher is a client of package pmapi, which reports the state
// changes as Fetch's StateChange: "G" prints what libpcp's clients print.
func startGoFetcher(t *testing.T, bed *testbed.PMCD, metric string) fetchOne {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	c, err := pmapi.NewHostContext(ctx, bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	id, err := c.LookupName(ctx, metric)
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	return func(t *testing.T) (string, string) {
		sc, err := c.Fetch(ctx, []pcp.PMID{id}, &r)
		if err != nil {
			return "G", "fetch: " + err.Error()
		}
		line := fmt.Sprintf("fetch %d names %d labels %d numval %d", sc, b2i(sc&pmapi.NamesChange != 0), b2i(sc&pmapi.LabelChange != 0), r.Sets[0].NumVal)
		if r.Sets[0].NumVal > 0 {
			line += fmt.Sprintf(" value %d", r.Sets[0].Values[0].LVal)
		}
		return "G", line
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// namesChangeScript drives three clients of bed through the rescans of
// pmdammv (a file added, a reload stored, a file rewritten with a new
// metric, a file removed, and a fetch with nothing changed) and returns
// what each of their fetches returned, one line per fetch.
func namesChangeScript(t *testing.T, bed *testbed.PMCD, dir string) string {
	t.Helper()
	var log strings.Builder
	a := pcptest.StartFetchClient(t, bed.Host(), bed.Env(), true, "mmv.control.files")
	// B asks pmcd's agent too, so its fetches take pmcd's path for
	// requests spanning domains.
	b := pcptest.StartFetchClient(t, bed.Host(), bed.Env(), true, "mmv.control.files", "pmcd.numagents")
	g := startGoFetcher(t, bed, "mmv.control.files")
	step := func(what string, fs ...fetchOne) {
		for _, f := range fs {
			name, line := f(t)
			fmt.Fprintf(&log, "%s: %s: %s\n", what, name, line)
		}
	}
	A := func(t *testing.T) (string, string) { return "A", a.Fetch(t) }
	B := func(t *testing.T) (string, string) { return "B", b.Fetch(t) }
	step("start", A, B, A, g)

	// A change of the directory is seen by its mtime, which two changes
	// within one tick of the kernel's clock would share: each change
	// sets a new one of its own, an hour apart.
	mark := time.Now().Add(-24 * time.Hour)
	touch := func() {
		mark = mark.Add(time.Hour)
		if err := os.Chtimes(dir, mark, mark); err != nil {
			t.Fatal(err)
		}
	}
	reg, err := gommv.New("app", gommv.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Counter("requests", gommv.MetricOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	touch()
	step("file added", A, B, A, B, g, g)

	if r := bed.Run("pmstore", "mmv.control.reload", "1"); r.Err != nil {
		t.Fatalf("pmstore: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	step("reload stored", A, B, A, g)

	if _, err := reg.Counter("more", gommv.MetricOptions{}); err != nil { // a rewrite: new generation
		t.Fatal(err)
	}
	touch()
	step("metric added", B, A, B, g)

	if err := os.Remove(reg.Path()); err != nil {
		t.Fatal(err)
	}
	touch()
	step("file removed", A, B, A, B, g)
	step("nothing changed", A, B, g)
	return log.String()
}

// TestNamesChangeLikePMDAMMV: after each rescan pmdammv tells pmcd the
// names changed, and pmcd tells every client with its next fetch
// (pmFetch returns PMCD_NAMES_CHANGE). Two libpcp clients see the same
// sequence of fetch returns from PCP's pmcd with PCP's pmda_mmv.so as
// from our pmcd with this agent in-process, and a client of package
// pmapi beside them sees the same.
func TestNamesChangeLikePMDAMMV(t *testing.T) {
	pcptest.NeedCompiler(t)
	pcpBed, goBed, pcpDir, goDir := beds(t)
	want := namesChangeScript(t, pcpBed, pcpDir)
	got := namesChangeScript(t, goBed, goDir)
	if got != want {
		t.Errorf("fetch returns differ:\n%s", lineDiff(want, got))
	}
	if !strings.Contains(want, "names 1") {
		t.Errorf("PCP's pmcd never reported a names change:\n%s", want)
	}
	t.Logf("PCP's pmcd and pmda_mmv.so, and ours, %d fetches alike:\n%s", strings.Count(want, "\n"), want)
}

// TestMain removes the programs built for the tests.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// TestNamesChangeDaemons is TestNamesChangeLikePMDAMMV with the agent as
// a daemon on pipes, where the change travels in the RESULT PDU: PCP's
// pmdammv and cmd/pmdammv each under PCP's pmcd and under ours, all four
// alike.
func TestNamesChangeDaemons(t *testing.T) {
	pcptest.NeedCompiler(t)
	in := testbed.Need(t)
	pcpDaemon := filepath.Join(in.Var("PCP_PMDAS_DIR"), "mmv", "pmdammv")
	if _, err := os.Stat(pcpDaemon); err != nil {
		pcptest.Missing(t, "PCP's pmdammv is not installed")
	}
	dir, err := os.MkdirTemp("", "gopcp-mmv-daemon-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755) // pmcd's agents may run as another user
	ourDaemon := pcptest.GoCommand(t, "../../cmd/pmdammv")
	root := filepath.Join(dir, "root")
	if err := os.WriteFile(root, []byte("root {\n\tmmv\t70:*:*\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var want string
	for _, c := range []struct {
		name   string
		start  func(testing.TB, testbed.Options) *testbed.PMCD
		daemon string
	}{
		{"PCP pmcd, PCP pmdammv", testbed.StartPMCD, pcpDaemon},
		{"PCP pmcd, cmd/pmdammv", testbed.StartPMCD, ourDaemon},
		{"our pmcd, PCP pmdammv", testbed.StartGoPMCD, pcpDaemon},
		{"our pmcd, cmd/pmdammv", testbed.StartGoPMCD, ourDaemon},
	} {
		bed := c.start(t, testbed.Options{Agents: []testbed.Agent{
			testbed.PMCDAgent(),
			testbed.PipeAgent("mmv", 70, root, c.daemon, "-d", "70"),
		}})
		mdir := filepath.Join(bed.Dir(), "tmp", "mmv")
		if err := os.MkdirAll(mdir, 0o755); err != nil {
			t.Fatal(err)
		}
		got := namesChangeScript(t, bed, mdir)
		if want == "" {
			want = got
			if !strings.Contains(want, "names 1") {
				t.Fatalf("%s: no names change reported:\n%s", c.name, want)
			}
			continue
		}
		if got != want {
			t.Errorf("%s: fetch returns differ from PCP's:\n%s", c.name, lineDiff(want, got))
		} else {
			t.Logf("%s: %d fetches as PCP's", c.name, strings.Count(got, "\n"))
		}
	}
}
