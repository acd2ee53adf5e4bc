package pmns

import (
	"os"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
)

// The system PMNS as installed with PCP 6.0.3 on Debian, kept in testdata
// with libpcp's answers about it, so these tests run without PCP; with PCP
// present the live tests below ask libpcp about whatever is installed.
const systemRoot = "testdata/system/root"

// systemQueries are the harness commands the tests compare answers for.
var systemQueries = []struct {
	golden string
	cmd    string
	args   []string
}{
	{"dump", "dump", nil},
	{"names", "names", nil},
	{"children", "children", nil},
	{"traverse", "traverse", []string{"", "kernel", "kernel.all", "kernel.all.cpu", "kernel.all.load",
		"mmv", "mmv.x.y", "pmcd.pmlogger", "nosuch", "kernel.nosuch", "kernel.all.load.x"}},
	{"lookup", "lookup", []string{"kernel.all.load", "kernel", "kernel.all", "mmv", "mmv.anything.at.all",
		"mmv.", "pmproxy.x", "nosuch", "kernel.all.load.x", "", ".", "kernel..all", "kernel.all.",
		"hinv.ncpu", "proc.psinfo.pid", "containers.name"}},
	{"leafchildren", "children", []string{"kernel.all.load", "mmv", "mmv.x", "nosuch", "", "kernel.all"}},
	{"nameid", "nameid", []string{"511.70.0", "1.0.1", "60.0.1", "60.0.999", "0.0.0"}},
}

func TestSystemPMNSGolden(t *testing.T) {
	for _, mode := range []struct {
		name string
		opts Options
	}{{"cpp", Options{}}, {"nocpp", Options{NoCPP: true}}} {
		tree, err := LoadWith(systemRoot, mode.opts)
		if err != nil {
			t.Fatalf("%s: %v", mode.name, err)
		}
		for _, q := range systemQueries {
			t.Run(mode.name+"/"+q.golden, func(t *testing.T) {
				got := ours(tree, nil, q.cmd, q.args...)
				golden(t, "testdata/system/"+q.golden+".golden", got, func() string {
					out, _ := harness(t, nil, append([]string{systemRoot, q.cmd}, q.args...)...)
					return out
				})
			})
		}
	}
}

// TestSystemPMNSLive compares every answer about the installed system
// PMNS with libpcp's, read both through pmcpp and without it.
func TestSystemPMNSLive(t *testing.T) {
	path := DefaultPath(os.Getenv("PMNS_DEFAULT"))
	if _, err := os.Stat(path); err != nil {
		pcptest.Missing(t, "no system PMNS at "+path)
	}
	for _, mode := range []struct {
		name string
		flag []string
		opts Options
	}{{"cpp", nil, Options{}}, {"nocpp", []string{"-c"}, Options{NoCPP: true}}} {
		tree, err := LoadWith(path, mode.opts)
		for _, q := range systemQueries {
			t.Run(mode.name+"/"+q.golden, func(t *testing.T) {
				want, _ := harness(t, nil, append(append(mode.flag, path, q.cmd), q.args...)...)
				if got := ours(tree, err, q.cmd, q.args...); got != want {
					t.Errorf("%s %s differs from libpcp:\n%s", path, q.cmd, diff(want, got))
				}
			})
		}
	}
}

func TestLoadDefault(t *testing.T) {
	path := DefaultPath(os.Getenv("PMNS_DEFAULT"))
	if _, err := os.Stat(path); err != nil {
		pcptest.Missing(t, "no system PMNS at "+path)
	}
	tree, err := LoadDefault(os.Getenv("PMNS_DEFAULT"))
	if err != nil {
		t.Fatal(err)
	}
	if tree.Len() == 0 {
		t.Errorf("%s loaded with no metrics", path)
	}
}
