package proc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// TestPredicateLanguage: predicates parse as PCP's agent parses them and
// are written back as it writes them (hotproc.control.config).
func TestPredicateLanguage(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Version 1.0\n\nuname != \"root\" || cpuburn > 0.05\n", `((uname != "root") || (cpuburn > 0.050000))`},
		{"cpuburn > 0.5 && ! (uid == 0) || fname ~ /^sh/", `(((cpuburn > 0.500000) && (! (uid == 0))) || (fname ~ "^sh"))`},
		{"true", "(true)"},
		{"# a comment\n! false && residentsize >= 1024", "((! (false)) && (residentsize >= 1024))"},
		{"psargs !~ /x\\(y\\)*z/ && 1. < .5", `((psargs !~ "x\(y\)*z") && (1 < 0.500000))`},
		{"", ""},
	} {
		n, err := parsePredicate(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var b strings.Builder
		if n != nil {
			dumpPredicate(&b, n)
		}
		if b.String() != c.want {
			t.Errorf("%q: %s, want %s", c.in, b.String(), c.want)
		}
	}
	for _, bad := range []string{"Version 2.0 true", "uid == \"x\"", "uname > 3", "fname ~ \"x\"", "bogus == 1",
		"(true", "true true", "uid == 1 # no newline", "Version 1.0", strings.Repeat("(", 300) + "true" + strings.Repeat(")", 300)} {
		if _, err := parsePredicate(bad); !errors.Is(err, errPredicate) {
			t.Errorf("%q: %v, want a predicate error", bad, err)
		}
	}
	v := &predVars{uname: "alice", fname: "bash", uid: 1000, cpuburn: 0.3, psargs: "bash -l"}
	for _, c := range []struct {
		pred string
		want bool
	}{
		{`uname == "alice" && cpuburn > 0.2`, true}, {`uid < 1000`, false}, {`fname ~ /^ba.h$/`, true},
		{`psargs ~ /-l/`, true}, {`fname !~ /sh/`, false}, {`! uid == 1000 || false`, false},
		{`psargs ~ /(l)/`, false}, {`psargs ~ /l+/`, false},
	} {
		n, err := parsePredicate(c.pred)
		if err != nil {
			t.Fatalf("%q: %v", c.pred, err)
		}
		if got := evalPredicate(n, v); got != c.want {
			t.Errorf("%q: %v, want %v", c.pred, got, c.want)
		}
	}
}

func FuzzPredicate(f *testing.F) {
	f.Add("Version 1.0\nuname != \"root\" || cpuburn > 0.05\n")
	f.Add("fname ~ /a\\{1,2\\}[]x]/ && !(uid >= 3)")
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parsePredicate(s)
		if err != nil || n == nil {
			return
		}
		var b strings.Builder
		dumpPredicate(&b, n)
		evalPredicate(n, &predVars{})
	})
}

// TestHotprocFixture: with a predicate, after an interval the hot list
// holds the processes it selects, with their rates over the interval;
// the totals and control metrics follow.
func TestHotprocFixture(t *testing.T) {
	root := fixtureTree(t, 4)
	os.MkdirAll(filepath.Join(root, "proc"), 0o755)
	os.WriteFile(filepath.Join(root, "proc", "stat"), []byte("cpu  1 2 3 1000 5 6 7 0 0 0\ncpu0 1 2 3 4\ncpu1 1 2 3 4\n"), 0o644)
	a, p, err := newAgent(Domain, Options{StatsPath: root, AllAccess: true})
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(1000000, 0)
	p.hotproc.now = func() time.Time { return clock }
	a.Attribute(1, 12, []byte("0\x00"))
	a.Attribute(1, 11, []byte("0\x00"))
	store := func(name, v string) error {
		id := pmidOf(t, name)
		d := findDesc(id.Cluster(), id.Item())
		var set pcp.ValueSet
		set.PMID = id
		if d.Type == pcp.TypeString {
			set.ValFmt = pcp.ValDPtr
			set.Values = []pcp.Value{{Block: pcp.ValueBlock{Type: pcp.TypeString, Data: []byte(v)}}}
		} else {
			set.ValFmt = pcp.ValInSitu
			set.Values = []pcp.Value{{LVal: 0}}
		}
		set.NumVal = 1
		return a.Store(context.Background(), 1, &pcp.Result{Sets: []pcp.ValueSet{set}})
	}
	if err := store("hotproc.control.config", "fname == \"prog1001\" || uid == 2"); err != nil {
		t.Fatal(err)
	}
	if err := store("hotproc.control.config", "uid =="); !errors.Is(err, pcp.ErrBadStore) {
		t.Fatalf("bad predicate stored: %v", err)
	}
	v := fetchValues(t, a, "hotproc.nprocs", "hotproc.control.config", "hotproc.control.config_gen")
	if v[0][pcp.InstNull].UL != 0 || v[1][pcp.InstNull].CP != `((fname == "prog1001") || (uid == 2))` || v[2][pcp.InstNull].UL != 1 {
		t.Errorf("before an interval: %v", v)
	}
	clock = clock.Add(10 * time.Second)
	fetchValues(t, a, "hotproc.nprocs")
	// A second evaluation, after prog1001 used 2 seconds of CPU.
	stat := filepath.Join(root, "proc", "1001", "stat")
	b, _ := os.ReadFile(stat)
	os.WriteFile(stat, []byte(strings.Replace(string(b), " 5005 7007 ", " 5205 7007 ", 1)), 0o644)
	clock = clock.Add(10 * time.Second)
	v = fetchValues(t, a, "hotproc.nprocs", "hotproc.psinfo.pid", "hotproc.predicate.cpuburn", "hotproc.psinfo.cmd")
	if v[0][pcp.InstNull].UL != 2 {
		t.Errorf("hotproc.nprocs %d, want 2 (prog1001 and uid 2's 1002)", v[0][pcp.InstNull].UL)
	}
	if _, ok := v[1][1001]; !ok {
		t.Errorf("hot pids %v", v[1])
	}
	if got := v[2][1001].F; got != 0.2 {
		t.Errorf("cpuburn %v, want 0.2 (2 s in 10 s)", got)
	}
	if v[3][1002].CP != "prog1002" {
		t.Errorf("hot cmd %v", v[3])
	}
	if err := store("hotproc.control.config", ""); err != nil {
		t.Fatal(err)
	}
	v = fetchValues(t, a, "hotproc.nprocs", "hotproc.control.config_gen")
	if v[0][pcp.InstNull].UL != 0 || v[1][pcp.InstNull].UL != 0 {
		t.Errorf("after an empty predicate: %v", v)
	}
}

// TestHotprocTotals: hotproc.total.* are the shares of the last
// evaluation (transient, idle, active, inactive), each metric its own
// share or their sums, and zero before an evaluation has totals.
func TestHotprocTotals(t *testing.T) {
	_, p, err := newAgent(Domain, Options{StatsPath: t.TempDir(), AllAccess: true})
	if err != nil {
		t.Fatal(err)
	}
	h := &p.hotproc
	h.totals = [4]float64{0.125, 0.25, 0.375, 0.5}
	for _, c := range []struct {
		name string
		want float32
	}{
		{"hotproc.total.cpuidle", 0.25}, {"hotproc.total.cpuburn", 0.375},
		{"hotproc.total.cpuother.transient", 0.125}, {"hotproc.total.cpuother.not_cpuburn", 0.5},
		{"hotproc.total.cpuother.total", 0.625}, {"hotproc.total.cpuother.percent", float32(0.625 / (0.625 + 0.375) * 100)},
	} {
		id := pmidOf(t, c.name)
		for _, have := range []bool{true, false} {
			h.haveTotal = have
			a := pcp.Atom{F: -1}
			want := c.want
			if !have {
				want = 0
			}
			if sts := h.global(id.Item(), &a); sts != haveValue || a.F != want {
				t.Errorf("%s (totals %v): %v, %d; want %v", c.name, have, a.F, sts, want)
			}
		}
	}
}
