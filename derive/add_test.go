package derive

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

// TestAddAgainstPCP adds per-context derived metrics as
// pmAddDerivedMetric does and compares the verdicts, PMIDs and
// descriptors with libpcp's (testdata/add.golden, and live).
func TestAddAgainstPCP(t *testing.T) {
	lines := readLines(t, "testdata/add.txt")
	p := testbed.StartPMCD(t, testbed.Options{})
	golden := "testdata/add.golden"
	bin := pcptest.Harness(t, "testdata/harness/add.c")
	cmd := exec.Command(bin, p.Host())
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("add harness: %v", err)
	}
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(out) {
		t.Errorf("libpcp's answers differ from %s: regenerate with UPDATE_GOLDEN=1", golden)
	}

	ctx := context.Background()
	pc, err := pmapi.NewHostContext(ctx, p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	dc := NewLayer(hostSource{pc}, NewRegistry())
	var b strings.Builder
	for _, line := range lines {
		name, expr, _ := strings.Cut(line, "\t")
		if err := dc.AddDerived(ctx, name, expr); err != nil {
			fmt.Fprintf(&b, "returns %d\n%s\n%%%%\n", pcp.ErrBadDerive.Code(), err)
			continue
		}
		pmids, err := dc.LookupNames(ctx, []string{name})
		switch {
		case err != nil:
			fmt.Fprintf(&b, "ok, pmLookupName: %s\n", errText(err))
		default:
			d, err := dc.LookupDesc(ctx, pmids[0])
			if err != nil {
				fmt.Fprintf(&b, "ok %s, pmLookupDesc: %s\n", pmids[0], errText(err))
			} else {
				fmt.Fprintf(&b, "ok %s type %d indom %s sem %d units %s\n", pmids[0], d.Type, d.InDom, d.Sem, d.Units)
			}
		}
		b.WriteString("%%\n")
	}
	if b.String() != string(want) {
		diffReport(t, nil, string(want), b.String())
	}
}
