package pmns

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/pcp"
)

// update rewrites the golden files from real PCP's answers.
var update = flag.Bool("update", false, "rewrite golden files from real PCP")

// The hermetic tests give pmcpp this $PCP_VAR_DIR, so <stdpmid> and
// friends come from testdata rather than from the machine.
const (
	testVarDir = "testdata/var"
	testSysDir = testVarDir + "/pmns"
)

// harness runs testdata/harness (libpcp) and returns its standard output
// and standard error.
func harness(t testing.TB, env []string, args ...string) (string, string) {
	t.Helper()
	return harnessIn(t, "", env, args...)
}

// harnessIn runs the harness in directory dir.
func harnessIn(t testing.TB, dir string, env []string, args ...string) (string, string) {
	t.Helper()
	bin := pcptest.Harness(t, "testdata/harness/harness.c")
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("harness %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// hermeticEnv points libpcp's pmcpp at testdata's system directory.
var hermeticEnv = []string{"PCP_VAR_DIR=" + testVarDir}

// errCode is the PCP error code inside err.
func errCode(err error) int32 {
	var e pcp.Error
	if errors.As(err, &e) {
		return int32(e)
	}
	return 1 // not a PCP error: never what the harness prints
}

// The functions below print a Tree's answers in the harness's formats.

// ours answers a harness command from a loaded tree (or its load error).
func ours(tree *Tree, err error, cmd string, args ...string) string {
	if err != nil {
		return fmt.Sprintf("load: %d\n", errCode(err))
	}
	var b strings.Builder
	switch cmd {
	case "load":
		b.WriteString("ok\n")
	case "dump":
		for _, name := range leafNames(tree) {
			if pmid, err := tree.Lookup(name); err != nil {
				fmt.Fprintf(&b, "%s error %d\n", name, errCode(err))
			} else {
				fmt.Fprintf(&b, "%s %s\n", name, pmid.String())
			}
		}
	case "names":
		seen := map[pcp.PMID]bool{}
		for _, name := range leafNames(tree) {
			pmid, err := tree.Lookup(name)
			if err != nil || pmid == pcp.PMIDNull || seen[pmid] {
				continue
			}
			seen[pmid] = true
			writeNames(&b, tree, pmid)
		}
	case "nameid":
		for _, a := range args {
			var d, c, i uint32
			fmt.Sscanf(a, "%d.%d.%d", &d, &c, &i)
			writeNames(&b, tree, pcp.NewPMID(d, c, i))
		}
	case "children":
		if len(args) == 0 {
			writeChildren(&b, tree, "", true)
		}
		for _, a := range args {
			writeChildren(&b, tree, a, false)
		}
	case "traverse":
		for _, a := range args {
			names, err := tree.Traverse(a)
			if err != nil {
				fmt.Fprintf(&b, "%s %d\n", a, errCode(err))
				continue
			}
			names = dropEmpty(names)
			fmt.Fprintf(&b, "%s %d\n", a, len(names))
			for _, n := range names {
				fmt.Fprintf(&b, "  %s\n", n)
			}
		}
	case "lookup":
		for _, a := range args {
			if pmid, err := tree.Lookup(a); err != nil {
				fmt.Fprintf(&b, "%s error %d\n", a, errCode(err))
			} else {
				fmt.Fprintf(&b, "%s %s\n", a, pmid.String())
			}
		}
	default:
		panic("unknown command " + cmd)
	}
	return b.String()
}

// leafNames is the whole traversal. libpcp always has derived metrics
// below its root, so it never reports an empty root as a leaf named "".
func leafNames(tree *Tree) []string {
	names, _ := tree.Traverse("")
	return dropEmpty(names)
}

func dropEmpty(names []string) []string {
	out := names[:0:0]
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

func writeNames(b *strings.Builder, tree *Tree, pmid pcp.PMID) {
	b.WriteString(pmid.String())
	if name, err := tree.NameID(pmid); err != nil {
		fmt.Fprintf(b, " error %d", errCode(err))
	} else {
		fmt.Fprintf(b, " %s", name)
	}
	if names, err := tree.NameAll(pmid); err != nil {
		fmt.Fprintf(b, " | error %d", errCode(err))
	} else {
		b.WriteString(" |")
		for _, n := range names {
			b.WriteString(" " + n)
		}
	}
	b.WriteString("\n")
}

func writeChildren(b *strings.Builder, tree *Tree, name string, recurse bool) {
	kids, err := tree.Children(name)
	if err != nil {
		fmt.Fprintf(b, "%s error %d\n", name, errCode(err))
		return
	}
	if len(kids) == 0 {
		if !recurse {
			fmt.Fprintf(b, "%s leaf\n", name)
		}
		return
	}
	b.WriteString(name)
	for _, k := range kids {
		status := 1
		if k.Leaf {
			status = 0
		}
		fmt.Fprintf(b, " %s:%d", k.Name, status)
	}
	b.WriteString("\n")
	if recurse {
		for _, k := range kids {
			if !k.Leaf {
				writeChildren(b, tree, joinPath(name, k.Name), true)
			}
		}
	}
}

// golden compares got with a golden file, rewriting the file from want
// (real PCP's answer) under -update.
func golden(t *testing.T, path, got string, want func() string) {
	t.Helper()
	if *update {
		w := want()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(w), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update and real PCP to create it)", err)
	}
	if got != string(data) {
		t.Errorf("%s differs from PCP's answer:\n%s", path, diff(string(data), got))
	}
}

// diff shows the first few lines where want and got part.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  PCP: %q\n  us:  %q\n", i+1, wl, gl)
			if shown++; shown == 5 {
				break
			}
		}
	}
	return b.String()
}
