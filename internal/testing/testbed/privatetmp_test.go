package testbed

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrivateTMPDIR runs TestStartPMCD again in a second test process
// whose $TMPDIR is private (mode 700, as mktemp -d makes it). As root,
// PCP's pmcd runs the bed's sample agent as user pcp, which must still
// read the help text the bed built for it and answer.
func TestPrivateTMPDIR(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only a root pmcd runs its agents as another user (pcp)")
	}
	Need(t)
	private := filepath.Join(t.TempDir(), "private")
	if err := os.Mkdir(private, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStartPMCD$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "TMPDIR="+private)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestStartPMCD") {
		t.Fatalf("TestStartPMCD with TMPDIR mode 700: %v\n%s", err, out)
	}
}
