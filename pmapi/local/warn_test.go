package local

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
)

// specTable is a table made by -K specifications.
func specTable(t *testing.T, specs ...string) *Table {
	t.Helper()
	table := NewTable()
	for _, spec := range specs {
		if err := table.Spec(spec); err != nil {
			t.Fatalf("Spec(%q): %v", spec, err)
		}
	}
	return table
}

// parseTree is a namespace from its text.
func parseTree(t *testing.T, text string) *pmns.Tree {
	t.Helper()
	tree, err := pmns.Parse(strings.NewReader(text), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestLocalWarningsNotOnStderr makes a local context whose table names an
// agent nobody registered: the library must not write its warning to the
// program's stderr unless asked (WithWarnings), and the context still
// starts without the agent.
func TestLocalWarningsNotOnStderr(t *testing.T) {
	table := specTable(t, "clear", "add,44,/nowhere/pmda_x.so,no_such_init")
	tree := parseTree(t, "root {\n x 44:0:0\n}\n")
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

// TestDSOWarningsMatchPCP makes a local context from a private pmcd.conf
// naming agents that exist only as PCP's C shared objects, and compares
// the warnings with the standard error of PCP's pminfo -L on the same
// file: none for an object libpcp loads and runs (jbd2), libpcp's for a
// missing file, a relative name not under $PCP_PMDAS_DIR (and names
// found there, with and without .so), files dlopen refuses (not ELF,
// too short, empty, a directory) and an entry point the object lacks.
// (PCP's sample object is left out: it runs, and its own start-up writes
// a message of its own.)
func TestDSOWarningsMatchPCP(t *testing.T) {
	pminfo := pcptest.NeedTool(t, "pminfo")
	pmdas := "/var/lib/pcp/pmdas"
	for _, f := range []string{"jbd2/pmda_jbd2.so"} {
		if _, err := os.Stat(filepath.Join(pmdas, f)); err != nil {
			pcptest.Missing(t, "no "+f+" in "+pmdas)
		}
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notELF := write("notelf.so", strings.Repeat("not a shared object ", 8))
	short := write("short.so", "\x7fELF")
	empty := write("empty.so", "")
	if err := os.Mkdir(filepath.Join(dir, "dir.so"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := write("pmcd.conf", strings.Join([]string{
		"pmcd 2 dso pmcd_init " + pmdas + "/pmcd/pmda_pmcd.so",
		"jbd2 122 dso jbd2_init " + pmdas + "/jbd2/pmda_jbd2.so",
		"gone 123 dso gone_init /nowhere/pmda_gone.so",
		"rel 124 dso rel_init pmda_nowhere_rel",
		"under 126 dso under_init jbd2/pmda_jbd2.so",
		"undernoso 127 dso undernoso_init jbd2/pmda_jbd2",
		"noinit 125 dso noinit_init " + pmdas + "/jbd2/pmda_jbd2.so",
		"a 130 dso a_init " + notELF,
		"b 131 dso b_init " + short,
		"c 132 dso c_init " + empty,
		"d 133 dso d_init " + filepath.Join(dir, "dir.so"),
		"proc 3 pipe binary " + pmdas + "/proc/pmdaproc -d 3",
	}, "\n")+"\n")

	cmd := exec.Command(pminfo, "-L", "pmcd.version")
	cmd.Env = []string{"PCP_PMCDCONF_PATH=" + conf, "PCP_PMDAS_DIR=" + pmdas, "PATH=/usr/bin:/bin"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("PCP's pminfo -L: %v: %s", err, stderr.Bytes())
	}

	t.Setenv("PCP_PMCDCONF_PATH", conf)
	t.Setenv("PCP_PMDAS_DIR", pmdas)
	var warn bytes.Buffer
	c, err := NewContext(context.Background(), WithNamespace(parseTree(t, "root {\n pmcd\n}\npmcd {\n version 2:0:0\n}\n")), WithWarnings(&warn))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if warn.String() != stderr.String() {
		t.Errorf("warnings:\n%s\nPCP's pminfo -L:\n%s", warn.String(), stderr.String())
	}
	if stderr.Len() == 0 || strings.Contains(stderr.String(), "jbd2_init") {
		t.Errorf("PCP's warnings are not those the test is built on:\n%s", stderr.String())
	}
}

// TestAgentInitFailureWarning gives a Go agent that fails to start: the
// warning is libpcp's for a failed initialization routine, with the PCP
// error's text as pmErrStr gives it, and the domain is left out.
func TestAgentInitFailureWarning(t *testing.T) {
	pmda.Register("failing_test_init", func(uint32) (*pmda.Agent, error) { return nil, pcp.ErrPMID })
	t.Cleanup(func() { pmda.Register("failing_test_init", nil) })
	var warn bytes.Buffer
	c, err := NewContext(context.Background(), WithTable(specTable(t, "clear", "add,77,/nowhere/pmda_failing.so,failing_test_init")),
		WithNamespace(parseTree(t, "root {\n x 77:0:0\n}\n")), WithWarnings(&warn))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want := "__pmConnectLocal: Warning: initialization routine \"failing_test_init\" failed in DSO \"/nowhere/pmda_failing.so\": Unknown or illegal metric identifier\n"
	if warn.String() != want || len(c.Domains()) != 0 {
		t.Errorf("warnings %q, domains %v; want %q and none", warn.String(), c.Domains(), want)
	}
}
