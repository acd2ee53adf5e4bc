package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/mmv"
)

// TestMain removes the commands built for the tests.
func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// TestUnderPCP runs this daemon as a pipe agent of PCP's pmcd and reads a
// Go program's metrics through it, control metrics included.
func TestUnderPCP(t *testing.T) {
	testbed.Need(t)
	dir, err := os.MkdirTemp("", "gopcp-pmdammv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	bin := pcptest.GoCommand(t, ".")
	root := filepath.Join(dir, "root")
	if err := os.WriteFile(root, []byte("root {\n\tmmv\t70:*:*\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bed := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{
		testbed.PMCDAgent(),
		testbed.PipeAgent("mmv", 70, root, bin, "-d", "70"),
	}})
	mdir := filepath.Join(bed.Dir(), "tmp", "mmv")
	if err := os.MkdirAll(mdir, 0o755); err != nil {
		t.Fatal(err)
	}
	reg, err := mmv.New("app", mmv.Options{Dir: mdir})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := reg.Counter("requests", mmv.MetricOptions{ShortHelp: "requests served"})
	if err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	c.Add(7)
	r := bed.Run("pminfo", "-fT", "mmv")
	if r.Err != nil {
		t.Fatalf("pminfo: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	for _, want := range []string{"mmv.app.requests\nHelp:\nrequests served\n    value 7\n", "mmv.control.files\nHelp:\nHow many memory-mapped value files the agent maps and serves now.\n    value 1\n"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("pminfo -fT mmv lacks %q:\n%s", want, r.Stdout)
		}
	}
}

func TestPrefixFromName(t *testing.T) {
	for name, want := range map[string]string{"pmdammv": "mmv", "pmdapmproxy": "pmproxy", "pmda": "mmv", "other": "mmv"} {
		if prefix := prefixOf(name); prefix != want {
			t.Errorf("%s: %s, want %s", name, prefixOf(name), want)
		}
	}
}
