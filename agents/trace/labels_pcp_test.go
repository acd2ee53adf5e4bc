package trace_test

import (
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestLabelsAsPCP: PCP's pmdatrace is written to PMDA interface 2, older
// than labels, so as a daemon it answers label requests with none and its
// metrics have only the context's labels (no "agent" label); ours, each
// under a PCP pmcd of its own, alike.
func TestLabelsAsPCP(t *testing.T) {
	in := testbed.Need(t)
	root := pmnsRoot(t, in)
	ours := pcptest.GoCommand(t, "../../cmd/pmdatrace")
	theirs := filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace")
	args := []string{"-l", "trace.control.reset", "trace.point.count"}
	var outs [2]string
	for i, argv := range []string{theirs, ours} {
		bed, _ := bedWith(t, root, argv)
		r := bed.Run("pminfo", append([]string{"-h", bed.Host()}, args...)...)
		outs[i] = r.Stdout + r.Stderr
	}
	if outs[0] != outs[1] {
		t.Errorf("pminfo -l:\nours:\n%s\nPCP's:\n%s", outs[1], outs[0])
	}
}
