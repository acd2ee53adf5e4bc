package pmns

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

// TestSystemPMNSMatchesPMInfo loads the system namespace and checks every
// name PCP's own `pminfo -m` lists from a pmcd serving that namespace: the
// same names, each with the same PMID. pminfo shows the roots of dynamic
// subtrees, whose agents are absent here, as PM_ID_NULL; those must be
// dynamic roots with us.
func TestSystemPMNSMatchesPMInfo(t *testing.T) {
	root := DefaultPath(os.Getenv("PMNS_DEFAULT"))
	bed := testbed.StartPMCD(t, testbed.Options{
		Agents: []testbed.Agent{testbed.PMCDAgent()},
		Args:   []string{"-n", root},
	})
	res := bed.Run("pminfo", "-h", bed.Host(), "-m")
	if res.Err != nil {
		t.Fatalf("pminfo -m: %v\n%s", res.Err, res.Stderr)
	}
	tree, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}

	var theirs []string
	for _, line := range strings.Split(strings.TrimSpace(res.Stdout), "\n") {
		name, id, ok := strings.Cut(line, " PMID: ")
		if !ok {
			t.Fatalf("unexpected pminfo line %q", line)
		}
		if want, err := pcp.ParsePMID(id); err == nil && want != pcp.PMIDNull && want.Domain() == pcp.MaxDomain {
			// Domain 511 belongs to derived metrics, which libpcp adds to
			// every context (event.flags and event.missed at least); they
			// are the derive package's business, not the namespace's.
			continue
		}
		theirs = append(theirs, name)
		got, err := tree.Lookup(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if id == "PM_ID_NULL" {
			if !IsDynamicRoot(got) {
				t.Errorf("%s: pminfo has no PMID, we have %v", name, got)
			}
			continue
		}
		if want, err := pcp.ParsePMID(id); err != nil || got != want {
			t.Errorf("%s: PMID %v, pminfo says %s", name, got, id)
		}
	}

	ours, err := tree.Traverse("")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(theirs)
	sort.Strings(ours)
	if strings.Join(theirs, "\n") != strings.Join(ours, "\n") {
		t.Errorf("name sets differ: pminfo lists %d names, our traversal %d\npminfo's stderr:\n%s", len(theirs), len(ours), res.Stderr)
	}
	if len(theirs) < 1000 {
		t.Errorf("pminfo listed only %d names from the system namespace", len(theirs))
	}
	t.Logf("%d names checked against pminfo -m", len(theirs))
}
