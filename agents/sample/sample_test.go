package sample

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// The generators' first values, printed by the same arithmetic in C
// (glibc's lrand48 unseeded, and PCP's agent's own two).
func TestGenerators(t *testing.T) {
	r := newRand48()
	for i, want := range []int64{0, 2116118, 89401895, 379337186, 782977366} {
		if got := r.next(); got != want {
			t.Errorf("lrand48 #%d = %d, want %d", i, got, want)
		}
	}
	s := scrambler{seed: 44321}
	for i, want := range []int32{2106586438, 1294660359, 801098804, 1763310173} {
		if got := s.next(); got != want {
			t.Errorf("scrambler #%d = %d, want %d", i, got, want)
		}
	}
	p := procRand{seed: 1}
	for i, want := range []float64{0.51387007837829646, 0.17574130332830423, 0.30865151635774019, 0.53453388695350568} {
		if got := p.next(); math.Abs(got-want) > 1e-15 {
			t.Errorf("proc rand #%d = %.17g, want %.17g", i, got, want)
		}
	}
}

// newTest builds an agent whose clock stands still, with an empty
// PCP_PMDAS_DIR.
func newTest(t *testing.T) *pmda.Agent {
	t.Helper()
	at := time.Unix(1700000000, 0)
	a, err := New(Domain, Options{PMDAsDir: t.TempDir(), Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func pmid(item uint32) pcp.PMID { return pcp.NewPMID(Domain, 0, item) }

// fetchOne fetches one metric and returns its value set.
func fetchOne(t *testing.T, a *pmda.Agent, item uint32) pcp.ValueSet {
	t.Helper()
	res, err := a.Fetch(context.Background(), 0, []pcp.PMID{pmid(item)})
	if err != nil {
		t.Fatalf("fetch %d: %v", item, err)
	}
	return res.Sets[0]
}

func TestFetch(t *testing.T) {
	a := newTest(t)
	for _, c := range []struct {
		item   uint32
		numval int32
		values []int32 // insitu values, in order
	}{
		{4, 1, []int32{42}},
		{5, 3, []int32{101, 202, 303}},
		{5, 3, []int32{104, 205, 306}},
		{9, 0, nil},
		{92, 0, nil},
		{54, int32(pcp.ErrPMID), nil},
		{55, int32(pcp.ErrAppVersion), nil},
		{154, int32(pcp.ErrAgain), nil},
		{1009, int32(pcp.ErrPMID), nil},
		{49, int32(pcp.ErrProfile), nil},
		{50, 5, []int32{100, 300, 500, 700, 900}},
		{51, 9, []int32{100, 250, 300, 450, 500, 650, 700, 850, 900}},
		{7, 1, []int32{200}},
		{80, 5, []int32{0, 1, 2, 3, 4}},
		{1023, 1, []int32{4194303}},
		{155, 1, []int32{10000}},
	} {
		set := fetchOne(t, a, c.item)
		if set.NumVal != c.numval {
			t.Errorf("item %d: numval %d, want %d", c.item, set.NumVal, c.numval)
			continue
		}
		var got []int32
		for _, v := range set.Values {
			if c.item == 51 {
				// bogus_bin's value tells the instance it claims.
				got = append(got, v.Inst)
				continue
			}
			got = append(got, v.LVal)
		}
		if c.values != nil && !slices.Equal(got, c.values) {
			t.Errorf("item %d: values %v, want %v", c.item, got, c.values)
		}
	}
}

func TestDesc(t *testing.T) {
	a := newTest(t)
	ctx := context.Background()
	for _, c := range []struct {
		item uint32
		err  error
		typ  pcp.Type
	}{
		{10, nil, pcp.Type32},
		{54, pcp.ErrPMID, 0},
		{1009, pcp.ErrPMID, 0},
		{86, nil, pcp.Type32},
		{139, nil, pcp.TypeHighResEvent},
		{500, pcp.ErrPMID, 0},
	} {
		d, err := a.Desc(ctx, 0, pmid(c.item))
		if !errors.Is(err, c.err) || (err == nil && d.Type != c.typ) {
			t.Errorf("desc %d: %v %v, want %v %v", c.item, d.Type, err, c.typ, c.err)
		}
	}
}

// store stores one 32-bit value, insitu.
func store(a *pmda.Agent, item uint32, v int32) error {
	return a.Store(context.Background(), 0, &pcp.Result{Sets: []pcp.ValueSet{{
		PMID: pmid(item), NumVal: 1, ValFmt: pcp.ValInSitu,
		Values: []pcp.Value{{Inst: pcp.InstNull, LVal: v}},
	}}})
}

func TestStore(t *testing.T) {
	a := newTest(t)
	for _, c := range []struct {
		item uint32
		v    int32
		err  error
	}{
		{10, 1, pcp.ErrPermission},
		{24, 1, pcp.ErrBadStore}, // a 64-bit value must come in a block
		{14, 77, nil},
		{165, -1, pcp.ErrSign},
		{1008, 2, nil},
		{79, 2, nil},
		{74, int32(pcp.ErrNoAgent), nil},
	} {
		if err := store(a, c.item, c.v); !errors.Is(err, c.err) {
			t.Errorf("store %d=%d: %v, want %v", c.item, c.v, err, c.err)
		}
	}
	if set := fetchOne(t, a, 14); set.Values[0].LVal != 77 {
		t.Errorf("long.write_me after the store: %d", set.Values[0].LVal)
	}
	if set := fetchOne(t, a, 1010); set.NumVal != 2 {
		t.Errorf("two ghosts visible, karma has %d values", set.NumVal)
	}
	if set := fetchOne(t, a, 80); set.NumVal != 2 {
		t.Errorf("many.count 2, many.int has %d values", set.NumVal)
	}
	if _, err := a.Fetch(context.Background(), 0, []pcp.PMID{pmid(75)}); !errors.Is(err, pcp.ErrNoAgent) {
		t.Errorf("error_check armed: fetch %v, want PM_ERR_NOAGENT", err)
	}
	if _, err := a.Text(context.Background(), 0, uint32(pmid(75)), pdu.TextPMID|pdu.TextOneLine); !errors.Is(err, pcp.ErrNoAgent) {
		t.Errorf("error_check armed: text %v, want PM_ERR_NOAGENT", err)
	}
	// Bins: only the nine exist.
	err := a.Store(context.Background(), 0, &pcp.Result{Sets: []pcp.ValueSet{{
		PMID: pmid(6), NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: 150, LVal: 1}},
	}}})
	if !errors.Is(err, pcp.ErrInst) {
		t.Errorf("store into bin 150: %v", err)
	}
}

func TestNames(t *testing.T) {
	a := newTest(t)
	ctx := context.Background()
	if id, err := a.LookupName(ctx, 0, "sample.secret.foo.bar.max.redirect"); err != nil || id != pcp.NewPMID(2, 4, 1) {
		t.Errorf("redirect: %v %v", id, err)
	}
	if _, err := a.LookupName(ctx, 0, "sample.ghosts.origin"); !errors.Is(err, pcp.ErrName) {
		t.Errorf("hidden ghost name: %v", err)
	}
	names, status, err := a.Children(ctx, 0, "sample.secret.foo")
	if err != nil || !slices.Equal(names, []string{"bar", "one", "two"}) ||
		!slices.Equal(status, []int32{pdu.PMNSNonLeafStatus, pdu.PMNSLeafStatus, pdu.PMNSLeafStatus}) {
		t.Errorf("children of sample.secret.foo: %v %v %v", names, status, err)
	}
	all, err := a.Traverse(ctx, 0, "sample.ghosts")
	if err != nil || !slices.Equal(all, []string{"sample.ghosts.visible"}) {
		t.Errorf("traverse sample.ghosts: %v %v", all, err)
	}
	if err := store(a, 1008, 0); err != nil {
		t.Fatal(err)
	}
	if all, _ = a.Traverse(ctx, 0, "sample.ghosts"); len(all) != 4 {
		t.Errorf("ghosts made visible, traverse: %v", all)
	}
	if names, err := a.Names(ctx, 0, pmid(1007)); err != nil || names[0] != "sample.secret.foo.bar.grunt.snort.huff.puff.seven" {
		t.Errorf("names of 29.0.1007: %v %v", names, err)
	}
}

func TestLabels(t *testing.T) {
	a := newTest(t)
	ctx := context.Background()
	changed := func() string {
		sets, err := a.Label(ctx, 0, uint32(pmid(14)), pcp.LabelItem)
		if err != nil || len(sets) != 1 {
			t.Fatalf("item labels: %v %v", sets, err)
		}
		if sets[0].Labels[0].Flags&pcp.LabelOptional == 0 {
			t.Errorf("changed is not optional: %+v", sets[0].Labels[0])
		}
		return sets[0].JSON
	}
	if got := changed(); got != `{"changed":false}` {
		t.Errorf("before a store: %s", got)
	}
	if err := store(a, 14, 1); err != nil {
		t.Fatal(err)
	}
	if got := changed(); got != `{"changed":true}` {
		t.Errorf("after a store: %s", got)
	}
	sets, err := a.Label(ctx, 0, uint32(pcp.NewInDom(Domain, binInDom)), pcp.LabelInstances)
	if err != nil || len(sets) != 9 || sets[2].JSON != `{"bin":300}` {
		t.Errorf("bin instance labels: %+v %v", sets, err)
	}
	if _, err := a.Label(ctx, 0, uint32(pcp.NewInDom(Domain, 99)), pcp.LabelInstances); !errors.Is(err, pcp.ErrInDom) {
		t.Errorf("labels of an unknown domain: %v", err)
	}
}

func TestReadDynamic(t *testing.T) {
	for _, c := range []struct {
		text string
		ids  []int32
		ok   bool
	}{
		{"", nil, true},
		{"1 one\n2 two\n", []int32{1, 2}, true},
		{"  7\tseven  8 eight", []int32{7, 8}, true},
		{"12abc\n", []int32{12}, true}, // scanf stops at the letters
		{"1\none\n", nil, false},
		{"x y\n", nil, false},
		{"-1 neg\n", nil, false},
		{"4194304 big\n", nil, false},
		{"3", nil, false},
	} {
		path := filepath.Join(t.TempDir(), "dynamic.indom")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		insts, err := readDynamic(path)
		var ids []int32
		for _, in := range insts {
			ids = append(ids, in.ID)
		}
		if (err == nil) != c.ok || !slices.Equal(ids, c.ids) {
			t.Errorf("%q: %v %v, want %v ok=%v", c.text, ids, err, c.ids, c.ok)
		}
	}
}

func FuzzReadDynamic(f *testing.F) {
	f.Add([]byte("1 one\n3 three\n"))
	f.Add([]byte("+5 x\n-0 y"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "dynamic.indom")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		insts, err := readDynamic(path)
		if err != nil && insts != nil {
			t.Fatalf("error %v with instances %v", err, insts)
		}
		for _, in := range insts {
			if in.ID < 0 || in.ID >= 1<<22 || in.Name == "" {
				t.Fatalf("bad instance %+v", in)
			}
		}
	})
}

func TestGhostState(t *testing.T) {
	// Ghost N+1 is the opposite of ghost N for the pairs; 8 is off.
	for state := int32(0); state < 24; state++ {
		for inst := int32(1); inst <= 5; inst += 2 {
			if ghostState(inst, state) == ghostState(inst+1, state) {
				t.Errorf("state %d: ghosts %d and %d agree", state, inst, inst+1)
			}
		}
		if ghostState(8, state) != 0 {
			t.Errorf("state %d: ghost 8 is on", state)
		}
	}
	if ghostState(7, 3) != 1 || ghostState(7, 4) != 0 {
		t.Error("ghost 7 does not turn every four states")
	}
}

func TestEvents(t *testing.T) {
	a := newTest(t)
	counts := []int{0, 1, 2, 5, 0}
	for i, want := range counts {
		set := fetchOne(t, a, 136)
		if set.NumVal != 2 {
			t.Fatalf("fetch %d: numval %d", i, set.NumVal)
		}
		recs, err := pcp.UnpackEvents(set.Values[0].Block.Data, false)
		if err != nil || len(recs) != want {
			t.Errorf("fetch %d: fungus has %d records (%v), want %d", i, len(recs), err, want)
		}
	}
}

func TestInstanceLookup(t *testing.T) {
	a := newTest(t)
	ctx := context.Background()
	family := pcp.NewInDom(Domain, familyInDom)
	for _, c := range []struct {
		name string
		want int32
	}{
		{"fat", 4},
		{"fat bald", 4}, // PCP's agent compares first words only
		{"colleen xyz", 0},
		{"emma", 2},
	} {
		res, err := a.Instance(ctx, 0, family, pcp.InstNull, c.name)
		if err != nil || res.Entries[0].Inst != c.want {
			t.Errorf("%q: %+v %v, want %d", c.name, res, err, c.want)
		}
	}
	if _, err := a.Instance(ctx, 0, family, pcp.InstNull, "fa"); !errors.Is(err, pcp.ErrInst) {
		t.Errorf("a prefix of a word matched: %v", err)
	}
	// Every ghost has a name, visible or not.
	ghosts := pcp.NewInDom(Domain, ghostInDom)
	res, err := a.Instance(ctx, 0, ghosts, 5, "")
	if err != nil || res.Entries[0].Name != "Hitodama" {
		t.Errorf("ghost 5: %+v %v", res, err)
	}
	if res, err := a.Instance(ctx, 0, ghosts, pcp.InstNull, ""); err != nil || len(res.Entries) != 0 {
		t.Errorf("no ghosts visible, but the domain lists %+v %v", res, err)
	}
}

// TestConcurrent exercises the agent from several goroutines at once, as
// pmcd's clients do to an in-process agent; run with -race.
func TestConcurrent(t *testing.T) {
	a := newTest(t)
	ctx := context.Background()
	var all []pcp.PMID
	for _, d := range defs {
		all = append(all, pmid(d.item))
	}
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 20 {
				c := pmda.Client(g)
				if _, err := a.Fetch(ctx, c, all); err != nil {
					t.Error(err)
				}
				a.Instance(ctx, c, pcp.NewInDom(Domain, mirageInDom), pcp.InstNull, "")
				a.Label(ctx, c, uint32(pcp.NewInDom(Domain, binInDom)), pcp.LabelInstances)
				a.Desc(ctx, c, pmid(86))
				a.Traverse(ctx, c, "sample.secret")
				store(a, 79, int32(i%7)+1)
				store(a, 37, int32(i))
				store(a, 1008, int32(i%9)-1)
				a.EndContext(c)
			}
		}()
	}
	for range 4 {
		<-done
	}
}
