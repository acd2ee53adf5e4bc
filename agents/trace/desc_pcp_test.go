package trace_test

import (
	"path/filepath"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestDescriptorsAsPCP compares every descriptor and the control values
// of PCP's pmdatrace and ours started with the same -T, -N, -U and -V:
// pminfo -d of the whole trace tree, and -f of it (no program has sent
// anything: the metrics with instances have no values) but the port.
func TestDescriptorsAsPCP(t *testing.T) {
	_, ours, _ := programs(t)
	in := testbed.Need(t)
	root := pmnsRoot(t, in)
	theirs := filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace")
	for _, opts := range [][]string{
		nil,
		{"-T", "90", "-N", "7", "-U", "1,-1,0,2,3,0", "-V", "0,0,1,0,0,3"},
		{"-T", "2min", "-N", "1"},
		{"-T", "10.5", "-N", "4"},
		// Out of range and odd fields, as PCP's agent cuts and splits them.
		{"-U", "8,16,-1,-1,17,-9", "-V", ",,1,0,,0,0,0,7"},
	} {
		var outs [2]string
		for i, bin := range []string{theirs, ours} {
			bed, _ := bedWith(t, root, append([]string{bin}, opts...)...)
			r := bed.Run("pminfo", "-d", "trace")
			f := bed.Run("pminfo", "-f", "trace")
			if r.Err != nil || f.Err != nil {
				t.Fatalf("pminfo: %v %v\n%s%s%s", r.Err, f.Err, r.Stderr, f.Stdout, f.Stderr)
			}
			outs[i] = r.Stdout + controlLines.ReplaceAllString(f.Stdout, "")
		}
		if outs[0] != outs[1] {
			t.Errorf("options %v:\nPCP's pmdatrace:\n%s\ngopcp's:\n%s", opts, outs[0], outs[1])
		}
	}
}
