package pmns

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// fuzzFiles stand in for the file system: the fuzzer's input may include
// them, and nothing else.
var fuzzFiles = map[string]string{
	"inc":              "#define X 1\n#define Y 2\n",
	"self":             "#include \"self\"\n",
	"pmns":             "sample {\n a SAMPLE:0:1\n}\n",
	"var/pmns/stdpmid": "#define SAMPLE 29\n",
}

func fuzzOpen(path string) (io.Reader, error) {
	if text, ok := fuzzFiles[strings.TrimPrefix(path, "./")]; ok {
		return strings.NewReader(text), nil
	}
	return nil, os.ErrNotExist
}

func FuzzParse(f *testing.F) {
	for _, c := range pmnsCases {
		f.Add([]byte(c.text), c.mode == "nocpp")
	}
	paths, _ := filepath.Glob("testdata/agents/*/*")
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data, false)
		}
	}
	if data, err := os.ReadFile(systemRoot); err == nil {
		// The start of the system PMNS: big enough to be real, small
		// enough to mutate quickly.
		f.Add(data[:4096], true)
	}
	f.Fuzz(func(t *testing.T, data []byte, nocpp bool) {
		opts := Options{Name: "x.pmns", NoCPP: nocpp, SystemDir: "var/pmns", open: fuzzOpen}
		tree, err := Parse(bytes.NewReader(data), opts)
		if err != nil {
			var perr *ParseError
			if !errors.As(err, &perr) || !errors.Is(err, pcp.ErrPMNS) || perr.Report() == "" {
				t.Fatalf("refusal without PCP's form: %v", err)
			}
			return
		}
		checkTree(t, tree)
	})
}

// checkTree asks a parsed tree everything and checks the answers agree.
func checkTree(t *testing.T, tree *Tree) {
	names, err := tree.Traverse("")
	if err != nil {
		t.Fatalf("Traverse: %v", err)
	}
	for _, name := range names {
		if name == "" {
			continue // the empty root
		}
		pmid, err := tree.Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%q) of a traversed name: %v", name, err)
		}
		if IsDynamicRoot(pmid) {
			if _, err := tree.NameAll(pmid); !errors.Is(err, pcp.ErrPMID) {
				t.Fatalf("NameAll of dynamic root %q: %v", name, err)
			}
			continue
		}
		all, err := tree.NameAll(pmid)
		if err != nil || !slices.Contains(all, name) {
			t.Fatalf("NameAll(%s) = %q, %v; lacks %q", pmid.String(), all, err, name)
		}
		if id, err := tree.NameID(pmid); err != nil || id != all[0] {
			t.Fatalf("NameID(%s) = %q, %v; want %q", pmid.String(), id, err, all[0])
		}
		if kids, err := tree.Children(name); err != nil || len(kids) != 0 {
			t.Fatalf("Children of leaf %q = %v, %v", name, kids, err)
		}
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			if _, err := tree.Children(name[:i]); err != nil {
				t.Fatalf("Children of %q's parent: %v", name, err)
			}
		}
	}
}
