package proc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/agents/proc/acct"
	"github.com/gopcp/gopcp/pcp"
)

// TestCloseTurnsAccountingOff: an agent that turned private accounting on
// (acct.control.enable_acct) turns it off and removes its file when it is
// closed, in-process or as a daemon: before, only cmd/pmdaproc did, and
// pmcd dropping proc_init left the kernel writing the file.
func TestCloseTurnsAccountingOff(t *testing.T) {
	a, p, err := newAgent(Domain, Options{StatsPath: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(t.TempDir(), "pacct")
	var calls []string
	p.ac = acct.New(acct.Options{
		PrivateFile: private,
		Acct: func(path string) error {
			calls = append(calls, path)
			if path != "" {
				// What the kernel's first record starts with: a
				// version 3 header byte.
				return os.WriteFile(path, []byte{0, 3}, 0o400)
			}
			return nil
		},
		Check: func(*os.File) bool { return true },
	})
	const itemEnable = 28
	set := pcp.ValueSet{PMID: pcp.NewPMID(acct.Domain, acct.Cluster, itemEnable), NumVal: 1,
		ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 1}}}
	if err := p.ac.Store(&set); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0] != private {
		t.Fatalf("enabling: acct calls %q, want [%q]", calls, private)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 || calls[1] != "" {
		t.Errorf("after Close: acct calls %q, want accounting turned off", calls)
	}
	if _, err := os.Stat(private); !os.IsNotExist(err) {
		t.Errorf("private accounting file left after Close: %v", err)
	}
}
