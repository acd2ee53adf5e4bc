package fetchgroup

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/gopcp/gopcp/agents/all"
	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pmapi/local"
	"github.com/gopcp/gopcp/pmns"
)

// localCases are the scripts whose answers do not depend on time or on
// other clients: run on gopcp's sample agent in a local context, they
// must give what libpcp's fetchgroups give on PCP's sample agent.
var localCases = []string{"items of every type", "strings to numbers", "instances",
	"instance domain maximum", "lookup failures", "fetch failures"}

// TestLocalContext runs fetchgroups on a local context (PM_CONTEXT_LOCAL)
// holding gopcp's sample agent in this process, and compares them with
// libpcp's fetchgroups on PCP's pmcd and sample agent.
func TestLocalContext(t *testing.T) {
	bin := pcptest.Harness(t, "testdata/harness/fetchgroup.c")
	subtree := "/var/lib/pcp/pmdas/sample/pmns"
	if _, err := os.Stat(subtree); err != nil {
		pcptest.Missing(t, "PCP's sample agent namespace is not installed")
	}
	root := filepath.Join(t.TempDir(), "root")
	text := "root {\n\tsample\n}\n\n#define SAMPLE 29\n#include \"" + subtree + "\"\n"
	if err := os.WriteFile(root, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := pmns.LoadWith(root, pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	agents := local.NewTable()
	for _, spec := range []string{"clear", "add,29,/nowhere/pmda_sample.so,sample_init"} {
		if err := agents.Spec(spec); err != nil {
			t.Fatal(err)
		}
	}
	bed := testbed.StartPMCD(t, testbed.Options{})
	for _, c := range pcpCases {
		if !contains(localCases, c.name) {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			res := bed.RunInput([]byte(c.script), bin, "host", bed.Host())
			if res.Err != nil {
				t.Fatalf("harness: %v\n%s", res.Err, res.Stderr)
			}
			src, err := local.NewContext(context.Background(), local.WithTable(agents), local.WithNamespace(tree))
			if err != nil {
				t.Fatal(err)
			}
			g := New(src)
			defer g.Close()
			ours := runScript(t, g, c.script, func(string, string) { t.Fatal("no stores in local scripts") })
			if d := diffTranscripts(res.Stdout, ours, c.tol); d != "" {
				t.Errorf("%s\nlibpcp:\n%s\ngopcp:\n%s", d, res.Stdout, ours)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
