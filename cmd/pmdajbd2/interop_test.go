package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// fixtures is the agent package's fixture tree.
var fixtures = filepath.Join("..", "..", "agents", "jbd2", "testdata")

// journalsDir is a directory everyone can read (PCP's agent runs as
// user pcp), under which the test lays out the journals' directory.
func journalsDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gopcp-jbd2-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "jbd2")
}

// copyJournal copies fixture journal src (a directory holding info) to
// dir/name.
func copyJournal(t *testing.T, src, dir, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, src, "info"))
	if err != nil {
		t.Fatal(err)
	}
	mkdir(t, filepath.Join(dir, name))
	info := filepath.Join(dir, name, "info")
	if err := os.WriteFile(info, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(info, 0o644); err != nil {
		t.Fatal(err)
	}
}

// mkdir makes a directory PCP's agent, as user pcp, can read whatever
// the umask.
func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// steps change the journals' directory one after the other; after each,
// both agents are asked the same questions.
var steps = []struct {
	name string
	do   func(t *testing.T, dir string)
}{
	{"no directory", func(t *testing.T, dir string) {}},
	{"empty directory", func(t *testing.T, dir string) { mkdir(t, dir) }},
	{"older format", func(t *testing.T, dir string) { copyJournal(t, "v2/sda1-8", dir, "sda1-8") }},
	{"newer format", func(t *testing.T, dir string) {
		os.RemoveAll(filepath.Join(dir, "sda1-8"))
		copyJournal(t, "v3/dm-1-8", dir, "dm-1-8")
	}},
	{"many journals", func(t *testing.T, dir string) {
		ents, err := os.ReadDir(filepath.Join(fixtures, "many"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() {
				copyJournal(t, filepath.Join("many", e.Name()), dir, e.Name())
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "plainfile"), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "dirinfo-8", "info"), 0o755); err != nil {
			t.Fatal(err)
		}
		copyJournal(t, "v2/sda1-8", dir, "sda1-8")
	}},
	{"journals vanish", func(t *testing.T, dir string) {
		os.RemoveAll(filepath.Join(dir, "sda2-8"))
		os.RemoveAll(filepath.Join(dir, "dm-1-8"))
		if err := os.WriteFile(filepath.Join(dir, "sdb1-8", "info"), []byte("12 transactions (3\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	{"journals return", func(t *testing.T, dir string) {
		copyJournal(t, "v3/dm-1-8", dir, "sda2-8")
		copyJournal(t, "many/sdb1-8", dir, "sdb1-8")
		copyJournal(t, "v2/sda1-8", dir, "new-8")
	}},
	{"directory gone", func(t *testing.T, dir string) { os.RemoveAll(dir) }},
}

// questions are asked of each bed after each step (PCP's tools): every
// descriptor, value and instance. Help and labels are left out: the help
// is our own words, and PCP's agent, of PMDA interface 4, answers label
// requests with none where ours gives its domain label.
var questions = [][]string{
	{"pminfo", "-dfm", "jbd2"},
	{"pmprobe", "-v", "jbd2"},
	{"pmprobe", "-I", "jbd2.transaction.count", "jbd2.transaction.requested"},
	{"pmprobe", "-f", "-i", "jbd2.transaction.count"},
	{"pminfo", "-f", "jbd2.transaction.requested", "jbd2.transaction.average.time.request_delay", "jbd2.nosuch"},
}

func ask(t *testing.T, bed *testbed.PMCD) []string {
	t.Helper()
	var out []string
	for _, q := range questions {
		r := bed.Run(q[0], append([]string{"-h", bed.Host()}, q[1:]...)...)
		out = append(out, r.Stdout+r.Stderr)
	}
	return out
}

// TestAgainstPCPDaemon runs PCP's pmdajbd2 and ours, each with -j on the
// same directory and under a PCP pmcd of its own, through the steps, and
// compares every answer of PCP's tools: descriptors, instance names and
// numbers (numbered by each agent's instance cache as journals come, go
// and return), values, the metrics without values for the older format,
// and the journals left out.
func TestAgainstPCPDaemon(t *testing.T) {
	theirs, pmns := pcpJBD2(t, testbed.Need(t), "pmdajbd2")
	ours := pcptest.GoCommand(t, ".")
	dir := journalsDir(t)
	bed := func(argv ...string) *testbed.PMCD {
		return testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
			testbed.PMCDAgent(), testbed.PipeAgent("jbd2", 122, pmns, append(argv, "-d", "122", "-j", dir)...)}})
	}
	pcpBed, ourBed := bed(theirs), bed(ours)
	for _, s := range steps {
		s.do(t, dir)
		want, got := ask(t, pcpBed), ask(t, ourBed)
		for i, q := range questions {
			if got[i] != want[i] {
				t.Errorf("%s: %s:\nours:\n%s\nPCP's:\n%s", s.name, strings.Join(q, " "), got[i], want[i])
			}
		}
		if os.Getenv("JBD2_SHOW") != "" {
			t.Logf("%s:\n%s", s.name, strings.Join(want, ""))
		}
		if s.name == "many journals" && !strings.Contains(want[2], `"sdf1-8"`) {
			t.Fatalf("%s: PCP's agent did not answer as expected:\n%s", s.name, want[2])
		}
	}
}
