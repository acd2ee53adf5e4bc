package local

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pmns"
)

// TestLocalWarningsNotOnStderr makes a local context whose table names an
// agent nobody registered: the library must not write its warning to the
// program's stderr unless asked (WithWarnings), and the context still
// starts without the agent.
func TestLocalWarningsNotOnStderr(t *testing.T) {
	table := NewTable()
	for _, spec := range []string{"clear", "add,44,/nowhere/pmda_x.so,no_such_init"} {
		if err := table.Spec(spec); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := pmns.Parse(strings.NewReader("root {\n x 44:0:0\n}\n"), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = f
	c, err := NewContext(context.Background(), WithTable(table), WithNamespace(tree))
	os.Stderr = saved
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if d := c.Domains(); len(d) != 0 {
		t.Errorf("domains %v, want none", d)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 0 {
		t.Errorf("written to stderr: %q", b)
	}
}
