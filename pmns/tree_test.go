package pmns

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// addLists are name spaces built with Add, as libpcp builds one for an
// archive: each line is "NAME D.C.I" or "NAME D.*.*".
var addLists = []struct{ name, list string }{
	{"conflicts", "a.b.c 1.0.1\na.b.d 1.0.2\na.x 1.0.1\nz 1.0.1\nq.r 3.*.*\na.b.c 1.0.3\na.b 1.0.4\na.b.c 1.0.1\n"},
	{"order", "m.c 2.0.3\nm.a 2.0.1\nk 2.0.9\nm.b 2.0.2\nm.d.e 2.0.4\nm.d.f 2.0.4\nb.x 2.0.4\nm.a 2.0.1\n"},
	{"dynamic", "dyn 40.*.*\nother.dyn 40.*.*\nreal.metric 40.0.1\n"},
}

// buildOurs adds a list's names to a new tree, reporting the ones refused
// as the harness does.
func buildOurs(t *testing.T, list string) (*Tree, string) {
	t.Helper()
	return addTo(t, New(), list)
}

// addTo adds a list's names to tree.
func addTo(t *testing.T, tree *Tree, list string) (*Tree, string) {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		name, id, _ := strings.Cut(line, " ")
		var d, c, i uint32
		var pmid pcp.PMID
		if n, _ := fmt.Sscanf(id, "%d.%d.%d", &d, &c, &i); n == 3 {
			pmid = pcp.NewPMID(d, c, i)
		} else if _, err := fmt.Sscanf(id, "%d.*.*", &d); err == nil {
			pmid = DynamicRoot(d)
		} else {
			t.Fatalf("bad PMID %q", id)
		}
		if err := tree.Add(name, pmid); err != nil {
			fmt.Fprintf(&b, "add %s error %d\n", name, errCode(err))
		}
	}
	return tree, b.String()
}

func addAnswersOurs(t *testing.T, list string) string {
	tree, refused := buildOurs(t, list)
	return refused + answersOf(tree, nil)
}

func addAnswersPCP(t *testing.T, list string) string {
	path := filepath.Join(t.TempDir(), "list")
	if err := os.WriteFile(path, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := harness(t, nil, "-a", path, "all")
	return out
}

func TestAddGolden(t *testing.T) {
	for _, l := range addLists {
		t.Run(l.name, func(t *testing.T) {
			golden(t, "testdata/golden/add/"+l.name+".golden", addAnswersOurs(t, l.list), func() string {
				return addAnswersPCP(t, l.list)
			})
		})
	}
}

func TestAddLive(t *testing.T) {
	for _, l := range addLists {
		t.Run(l.name, func(t *testing.T) {
			want := addAnswersPCP(t, l.list)
			if got := addAnswersOurs(t, l.list); got != want {
				t.Errorf("differs from libpcp:\n%s", diff(want, got))
			}
		})
	}
}

func TestAddErrors(t *testing.T) {
	tree := New()
	if err := tree.Add("a.b", pcp.NewPMID(1, 0, 1)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		pmid pcp.PMID
		want error
	}{
		{"", pcp.NewPMID(1, 0, 2), pcp.ErrName},
		{".a", pcp.NewPMID(1, 0, 2), pcp.ErrName},
		{"a.", pcp.NewPMID(1, 0, 2), pcp.ErrName},
		{"a..b", pcp.NewPMID(1, 0, 2), pcp.ErrName},
		{"c", pcp.PMIDNull, pcp.ErrPMID},
		{"a.b", pcp.NewPMID(1, 0, 2), pcp.ErrPMID},   // another PMID
		{"a", pcp.NewPMID(1, 0, 2), pcp.ErrPMID},     // a non-terminal
		{"a.b.c", pcp.NewPMID(1, 0, 2), pcp.ErrPMID}, // below a leaf
		{"a.b", pcp.NewPMID(1, 0, 1), nil},           // again, the same
		{"a.c", pcp.NewPMID(1, 0, 1), nil},           // a second name
	} {
		err := tree.Add(tc.name, tc.pmid)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("Add(%q, %s) = %v, want %v", tc.name, tc.pmid.String(), err, tc.want)
		}
	}
	// a.c went in front of a.b, and names come latest in the tree first.
	if names, _ := tree.NameAll(pcp.NewPMID(1, 0, 1)); strings.Join(names, " ") != "a.b a.c" {
		t.Errorf("NameAll = %q, want [a.b a.c]", names)
	}
}

func TestQueryErrors(t *testing.T) {
	tree := New()
	for _, n := range []string{"x.y.z", "x.w"} {
		if err := tree.Add(n, pcp.NewPMID(9, 1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tree.Add("x.dyn", DynamicRoot(42)); err != nil {
		t.Fatal(err)
	}
	check := func(what string, err, want error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Errorf("%s: error %v, want %v", what, err, want)
		}
	}
	_, err := tree.Lookup("x.y")
	check("Lookup non-leaf", err, pcp.ErrNonLeaf)
	_, err = tree.Lookup("x.q")
	check("Lookup unknown", err, pcp.ErrName)
	_, err = tree.NameID(pcp.NewPMID(9, 1, 2))
	check("NameID unknown", err, pcp.ErrPMID)
	_, err = tree.NameAll(DynamicRoot(42))
	check("NameAll dynamic root", err, pcp.ErrPMID)
	_, err = tree.Children("x.q")
	check("Children unknown", err, pcp.ErrName)
	_, err = tree.Traverse("x.dyn.a")
	check("Traverse below dynamic root", err, pcp.ErrName)

	pmid, err := tree.Lookup("x.dyn.some.name")
	if d, ok := DynamicDomain(pmid); err != nil || !ok || d != 42 {
		t.Errorf("Lookup below dynamic root = %s, %v; want domain 42", pmid.String(), err)
	}
	if tree.Len() != 3 {
		t.Errorf("Len = %d, want 3", tree.Len())
	}
}

func TestDynamicPMID(t *testing.T) {
	for _, tc := range []struct {
		pmid   pcp.PMID
		domain uint32
		ok     bool
		str    string
	}{
		{DynamicRoot(70), 70, true, "70.*.*"},
		{DynamicRoot(0), 0, true, "0.*.*"},
		{pcp.NewPMID(511, 3, 1), 0, false, "511.3.1"}, // a derived metric
		{pcp.NewPMID(70, 0, 0), 0, false, "70.0.0"},
		{pcp.PMIDNull, 0, false, "PM_ID_NULL"},
	} {
		d, ok := DynamicDomain(tc.pmid)
		if d != tc.domain || ok != tc.ok || IsDynamicRoot(tc.pmid) != tc.ok || tc.pmid.String() != tc.str {
			t.Errorf("%#x: DynamicDomain = %d, %v; string %q", uint32(tc.pmid), d, ok, tc.pmid.String())
		}
	}
	if DynamicRoot(70) != pcp.PMID(0x7fc11800) {
		t.Errorf("DynamicRoot(70) = %#x, want pmID_build(511, 70, 0)", uint32(DynamicRoot(70)))
	}
}

// TestAddIndexedFirst builds each list into a tree whose index of PMIDs
// was built before the first Add, which Add then keeps, and into one
// whose index is built at the first question, after every Add: the
// answers must be the same.
func TestAddIndexedFirst(t *testing.T) {
	for _, l := range addLists {
		t.Run(l.name, func(t *testing.T) {
			early := New()
			if n := early.Len(); n != 0 {
				t.Fatalf("empty tree: Len %d", n)
			}
			early, refusedEarly := addTo(t, early, l.list)
			late, refusedLate := buildOurs(t, l.list)
			want := refusedLate + answersOf(late, nil)
			if got := refusedEarly + answersOf(early, nil); got != want {
				t.Errorf("index kept by Add differs from one built later:\n%s", diff(want, got))
			}
		})
	}
}

// TestConcurrent has readers query while a writer adds; run with -race.
func TestConcurrent(t *testing.T) {
	tree, err := LoadWith(systemRoot, Options{NoCPP: true})
	if err != nil {
		t.Fatal(err)
	}
	names, _ := tree.Traverse("")
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, n := range names {
				pmid, err := tree.Lookup(n)
				if err != nil {
					t.Errorf("Lookup(%s): %v", n, err)
					return
				}
				if i%50 == 0 {
					tree.NameAll(pmid)
					tree.NameID(pmid)
					tree.Children("kernel.all")
					tree.Traverse("kernel.all.cpu")
				}
			}
		}()
	}
	for i := 0; i < 200; i++ {
		if err := tree.Add(fmt.Sprintf("added.m%d", i), pcp.NewPMID(300, 0, uint32(i))); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if kids, _ := tree.Children("added"); len(kids) != 200 || kids[0].Name != "m199" {
		t.Errorf("after adding: %d children, first %v", len(kids), kids[0])
	}
}

// TestLoadErrorsLive compares files libpcp cannot open with libpcp.
func TestLoadErrorsLive(t *testing.T) {
	for _, path := range []string{"testdata/nonexistent", "testdata"} {
		for _, mode := range []struct {
			flags []string
			opts  Options
		}{{nil, Options{}}, {[]string{"-c"}, Options{NoCPP: true}}} {
			t.Run(fmt.Sprint(path, mode.flags), func(t *testing.T) {
				want := answersPCP(t, nil, mode.flags, path)
				if got := answersOurs(path, mode.opts); got != want {
					t.Errorf("differs from libpcp:\n%s", diff(want, got))
				}
			})
		}
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load("testdata/nonexistent")
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, pcp.Error(-2)) {
		t.Errorf("Load of a missing file: %v", err)
	}
	_, err = Load("testdata/golden/cases/bad-domain.golden")
	if !errors.Is(err, pcp.ErrPMNS) {
		t.Errorf("Load of a malformed file: %v", err)
	}
}

// TestAnswersKeptByAdd asks every name and PMID after each Add, so that
// remembered answers meet later additions, and compares them with a tree
// built from the same names without being asked.
func TestAnswersKeptByAdd(t *testing.T) {
	asked := func(tree *Tree) string {
		var b strings.Builder
		for _, name := range leafNames(tree) {
			pmid, err := tree.Lookup(name)
			id, idErr := tree.NameID(pmid)
			fmt.Fprintf(&b, "%s %s %d %s %d\n", name, pmid.String(), errCode(err), id, errCode(idErr))
		}
		return b.String()
	}
	// In "later", a.z comes after b.y in the tree's order (its parent
	// came first), so it becomes 1.0.1's name.
	lists := append(slices.Clone(addLists), struct{ name, list string }{"later", "a.x 1.0.9\nb.y 1.0.1\na.z 1.0.1\n"})
	for _, l := range lists {
		t.Run(l.name, func(t *testing.T) {
			lines := strings.SplitAfter(strings.TrimSpace(l.list), "\n")
			tree := New()
			for i, line := range lines {
				addTo(t, tree, line)
				fresh, _ := buildOurs(t, strings.Join(lines[:i+1], ""))
				if got, want := asked(tree), asked(fresh); got != want {
					t.Errorf("after %q:\n%s", line, diff(want, got))
				}
			}
		})
	}
}
