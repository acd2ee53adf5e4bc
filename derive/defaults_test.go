package derive

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/pcpconf"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi"
)

// defaultNames are the subtrees PCP's default definitions fill that the
// Linux agent supplies operands for.
var defaultNames = []string{"kernel.cpu.util", "disk.dev", "disk.dm", "disk.md", "disk.wwid"}

// derivedReport prints pminfo -m -d for names through derive with reg.
func derivedReport(t *testing.T, host string, reg *Registry, pmid bool) (string, string) {
	t.Helper()
	ctx := context.Background()
	var out, errb strings.Builder
	reg.Warn = func(m string) { errb.WriteString(m) }
	pc, err := pmapi.NewHostContext(ctx, host)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	dc := NewLayer(hostSource{pc}, reg)
	for _, arg := range defaultNames {
		leaves, err := dc.Traverse(ctx, arg)
		if err != nil {
			fmt.Fprintf(&errb, "Error: %s: %s\n", arg, errText(err))
			continue
		}
		for _, name := range leaves {
			pmids, err := dc.LookupNames(ctx, []string{name})
			if err != nil {
				t.Fatal(err)
			}
			d, err := dc.LookupDesc(ctx, pmids[0])
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if pmid {
				fmt.Fprintf(&out, "\n%s PMID: %s\n", name, pmids[0])
			} else {
				fmt.Fprintf(&out, "\n%s\n", name)
			}
			printDesc(&out, d)
		}
	}
	return out.String(), errb.String()
}

// TestDefaultsAgainstPCP checks that with PCP_DERIVED_CONFIG unset PCP's
// default definitions load as libpcp loads them (same names, PMIDs and
// descriptors from the Linux agent's metrics), and that gopcp's own
// definitions of the same metrics give the same descriptors.
func TestDefaultsAgainstPCP(t *testing.T) {
	dir, ok := pcpconf.Get("PCP_VAR_DIR")
	if _, err := os.Stat(dir + "/config/derived"); !ok || err != nil {
		t.Skip("PCP's default derived metrics are not installed")
	}
	t.Setenv("PCP_DERIVED_CONFIG", "") // restored when the test ends
	os.Unsetenv("PCP_DERIVED_CONFIG")
	p := testbed.StartPMCD(t, testbed.Options{Agents: []testbed.Agent{testbed.PMCDAgent(), testbed.LinuxAgent()}})
	cmd, err := p.Command(context.Background(), "pminfo", append([]string{"-b", "1", "-h", p.Host(), "-m", "-d"}, defaultNames...)...)
	if err != nil {
		t.Fatal(err)
	}
	var pout, perr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &pout, &perr
	_ = cmd.Run()

	reg := NewRegistry()
	reg.LoadDefaults("", false)
	out, errs := derivedReport(t, p.Host(), reg, true)
	if out != pout.String() || errs != perr.String() {
		diffReport(t, nil, pout.String()+"==== stderr\n"+perr.String(), out+"==== stderr\n"+errs)
	}

	ours := NewRegistry()
	if n := ours.loadEmbedded(); n == 0 {
		t.Fatal("no embedded definitions")
	}
	theirs, _ := derivedReport(t, p.Host(), reg, false)
	mine, warnings := derivedReport(t, p.Host(), ours, false)
	if warnings != "" {
		t.Errorf("gopcp's defaults: %s", warnings)
	}
	if mine != theirs {
		diffReport(t, nil, theirs, mine)
	}
	if n := strings.Count(out, "PMID: 511."); n < 40 {
		t.Errorf("only %d default derived metrics compared", n)
	}
	t.Logf("%d default derived metrics compared", strings.Count(out, "PMID:"))
}
