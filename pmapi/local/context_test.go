package local

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmda"
)

// localFetcher serves the local context test agent: cube.one is 1,
// cube.colour is 10 × the instance number, stores to cube.one are kept.
type localFetcher struct{ one int32 }

func (f *localFetcher) Fetch(_ context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	switch m.Desc.PMID.Item() {
	case 0:
		return pcp.Atom{L: f.one}, nil
	case 1:
		return pcp.Atom{L: 10 * inst}, nil
	}
	return pcp.Atom{CP: "hello"}, nil
}

func (f *localFetcher) Store(_ context.Context, _ pmda.Client, set *pcp.ValueSet) error {
	if set.PMID.Item() != 0 {
		return pcp.ErrPermission
	}
	f.one = set.Values[0].LVal
	return nil
}

const localTestDomain = 42

func newLocalTestAgent(domain uint32) (*pmda.Agent, error) {
	indom := pcp.NewInDom(domain, 0)
	return pmda.New(pmda.Config{
		Name:   "pmdacube",
		Domain: domain,
		Metrics: []pmda.Metric{
			{Name: "cube.one", Desc: pcp.Desc{PMID: pcp.NewPMID(domain, 0, 0), Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant}, OneLine: "one"},
			{Name: "cube.colour", Desc: pcp.Desc{PMID: pcp.NewPMID(domain, 0, 1), Type: pcp.Type32, InDom: indom, Sem: pcp.SemInstant}, OneLine: "colours", Help: "The colours of the cube."},
			{Name: "cube.name", Desc: pcp.Desc{PMID: pcp.NewPMID(domain, 0, 2), Type: pcp.TypeString, InDom: pcp.InDomNull, Sem: pcp.SemDiscrete}},
		},
		InDoms:  []pmda.InDom{{InDom: indom, OneLine: "faces", Instances: []pmda.Instance{{ID: 0, Name: "red"}, {ID: 1, Name: "green"}, {ID: 2, Name: "blue"}}}},
		Labels:  []pmda.Label{{Name: "shape", Value: "cube"}},
		Fetcher: &localFetcher{one: 1},
	})
}

func newTestLocal(t *testing.T) (*Context, *bytes.Buffer) {
	t.Helper()
	pmda.Register("cube_test_init", newLocalTestAgent)
	t.Cleanup(func() { pmda.Register("cube_test_init", nil) })
	tree := parseTree(t, "root {\n cube\n other 43:0:0\n}\ncube {\n one 42:0:0\n colour 42:0:1\n name 42:0:2\n}\n")
	table := specTable(t, "clear", "add,42,/nowhere/pmda_cube.so,cube_test_init", "add,44,/nowhere/pmda_x.so,no_such_init")
	var warn bytes.Buffer
	c, err := NewContext(context.Background(), WithTable(table), WithNamespace(tree), WithWarnings(&warn))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, &warn
}

func TestLocalContext(t *testing.T) {
	ctx := context.Background()
	c, warn := newTestLocal(t)
	if want := "__pmConnectLocal: Warning: cannot find DSO at \"/nowhere/pmda_x.so.so\" or \"/nowhere/pmda_x.so\"\n"; warn.String() != want {
		t.Errorf("warnings = %q, want %q (the cube agent needs no file)", warn, want)
	}
	var src pmapi.Source = c
	if src.Kind() != pmapi.KindLocal {
		t.Errorf("Kind = %v", src.Kind())
	}
	ids, err := c.LookupNames(ctx, []string{"cube.one", "nosuch", "cube.colour"})
	if err != nil || ids[0] != pcp.NewPMID(42, 0, 0) || ids[1] != pcp.PMIDNull || ids[2] != pcp.NewPMID(42, 0, 1) {
		t.Fatalf("LookupNames = %v, %v", ids, err)
	}
	if _, err := c.LookupName(ctx, "nosuch"); !errors.Is(err, pcp.ErrName) {
		t.Errorf("LookupName(nosuch) = %v", err)
	}
	if names, err := c.Traverse(ctx, "cube"); err != nil || len(names) != 3 {
		t.Errorf("Traverse = %v, %v", names, err)
	}
	d, err := c.LookupDesc(ctx, ids[2])
	if err != nil || d.InDom != pcp.NewInDom(42, 0) {
		t.Errorf("LookupDesc = %v, %v", d, err)
	}
	if _, err := c.LookupDesc(ctx, pcp.NewPMID(43, 0, 0)); !errors.Is(err, pcp.ErrNoAgent) {
		t.Errorf("LookupDesc(no agent) = %v", err)
	}
	insts, err := c.GetInDom(ctx, d.InDom)
	if err != nil || len(insts) != 3 || insts[2].Name != "blue" {
		t.Errorf("GetInDom = %v, %v", insts, err)
	}
	if n, err := c.LookupInDom(ctx, d.InDom, "green"); err != nil || n != 1 {
		t.Errorf("LookupInDom = %v, %v", n, err)
	}
	if _, err := c.NameInDom(ctx, d.InDom, 7); !errors.Is(err, pcp.ErrInst) {
		t.Errorf("NameInDom(7) = %v", err)
	}
	if s, err := c.LookupText(ctx, ids[0], pmapi.TextHelp); err != nil || s != "one" {
		t.Errorf("LookupText help falls back to one-line: %q, %v", s, err)
	}
	if s, err := c.LookupInDomText(ctx, d.InDom, pmapi.TextOneLine); err != nil || s != "faces" {
		t.Errorf("LookupInDomText = %q, %v", s, err)
	}
	sets, err := c.DomainLabels(ctx, 42)
	if err != nil || len(sets) != 1 || !strings.Contains(sets[0].JSON, `"shape":"cube"`) {
		t.Errorf("DomainLabels = %v, %v", sets, err)
	}
	sets, err = c.ContextLabels(ctx)
	if err != nil || len(sets) != 1 || !strings.Contains(sets[0].JSON, `"hostname":`) || !strings.Contains(sets[0].JSON, `"userid":`) {
		t.Errorf("ContextLabels = %v, %v", sets, err)
	}

	// fetch: request order across agents, no agent, the profile
	var r pcp.Result
	all := []pcp.PMID{ids[2], pcp.NewPMID(43, 0, 0), ids[0], pcp.NewPMID(42, 0, 2)}
	if _, err := c.Fetch(ctx, all, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Sets) != 4 || r.Sets[0].NumVal != 3 || r.Sets[1].NumVal != int32(pcp.ErrNoAgent) ||
		r.Sets[2].Values[0].LVal != 1 || string(r.Sets[3].Values[0].Block.Data) != "hello\x00" || r.Timestamp.Sec == 0 {
		t.Fatalf("Fetch = %+v", r)
	}
	if err := c.DelProfile(d.InDom, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.AddProfile(d.InDom, []int32{2}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fetch(ctx, ids[2:], &r); err != nil || r.Sets[0].NumVal != 1 || r.Sets[0].Values[0].LVal != 20 {
		t.Fatalf("Fetch with profile = %+v, %v", r, err)
	}
	if err := c.AddProfile(pcp.InDomNull, []int32{1}); !errors.Is(err, pcp.ErrProfileSpec) {
		t.Errorf("AddProfile(null, insts) = %v", err)
	}

	// store
	st := &pcp.Result{Sets: []pcp.ValueSet{{PMID: ids[0], NumVal: 1, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 77}}}}}
	if err := c.Store(ctx, st); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fetch(ctx, ids[:1], &r); err != nil || r.Sets[0].Values[0].LVal != 77 {
		t.Fatalf("Fetch after store = %+v, %v", r, err)
	}
	st.Sets[0].PMID = ids[2]
	if err := c.Store(ctx, st); !errors.Is(err, pcp.ErrPermission) {
		t.Errorf("refused store = %v", err)
	}
	st.Sets[0].PMID = pcp.NewPMID(43, 0, 0)
	if err := c.Store(ctx, st); !errors.Is(err, pcp.ErrNoAgent) {
		t.Errorf("store without agent = %v", err)
	}
	c.Close()
	if _, err := c.Fetch(ctx, ids[:1], &r); !errors.Is(err, pcp.ErrNoContext) {
		t.Errorf("Fetch after Close = %v", err)
	}
}

// TestLocalAgentsSpec checks pmSpecLocalPMDA's grammar and messages.
func TestLocalAgentsSpec(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "pmcd.conf")
	os.WriteFile(conf, []byte("# comment\npmcd\t2\tdso\tpmcd_init\t/x/pmda_pmcd.so\nlinux\t60\tpipe\tbinary\t/x/pmdalinux\n"+
		"sample\t29\tpipe\tbinary\t/x/pmdasample -d 29\nmmv\t70\tdso\tmmv_init\t/x/pmda_mmv.so\n[access]\nfoo 1 dso bar_init /x\n"), 0o644)
	t.Setenv("PCP_PMCDCONF_PATH", conf)
	tests := []struct {
		specs   []string
		wantErr string
		want    []Entry
	}{
		// as in PCP, any line of the file whose third word is "dso" counts
		{specs: nil, want: []Entry{{60, filepath.Join(pmdasDir(), "linux", "pmda_linux.so"), "linux_init"}, {70, "/x/pmda_mmv.so", "mmv_init"}, {1, "/x", "bar_init"}}},
		{specs: []string{"clear"}, want: nil},
		{specs: []string{"clear", "add,29,/p/s.so,sample_init"}, want: []Entry{{29, "/p/s.so", "sample_init"}}},
		{specs: []string{"del,70", "del,1"}, want: []Entry{{60, filepath.Join(pmdasDir(), "linux", "pmda_linux.so"), "linux_init"}}},
		{specs: []string{"del,,/x/pmda_mmv.so", "del,,/x"}, want: []Entry{{60, filepath.Join(pmdasDir(), "linux", "pmda_linux.so"), "linux_init"}}},
		{specs: []string{"del,99"}, wantErr: "__pmLocalPMDA: Unknown or illegal instance domain identifier"},
		{specs: []string{"bogus"}, wantErr: "bad op in spec"},
		{specs: []string{"clear,"}, wantErr: "unexpected text after clear op in spec"},
		{specs: []string{"add"}, wantErr: "expected , after op in spec"},
		{specs: []string{"add,"}, wantErr: "missing domain in spec"},
		{specs: []string{"add,,x"}, wantErr: "missing domain in spec"},
		{specs: []string{"add,511,x,y"}, wantErr: "bad domain in spec"},
		{specs: []string{"add,1x,x,y"}, wantErr: "bad domain in spec"},
		// the domain as libpcp 6.0.3's (int)strtol took it (checked
		// with __pmSpecLocalPMDA): white space before it, a long cut
		// to an int, LONG_MAX's cut -1 refused, nothing after it
		{specs: []string{"clear", "add, 29,/p/s.so,sample_init"}, want: []Entry{{29, "/p/s.so", "sample_init"}}},
		{specs: []string{"clear", "add,4294967325,/p/s.so,s_init"}, want: []Entry{{29, "/p/s.so", "s_init"}}},
		{specs: []string{"clear", "add,-9223372036854775809,/p,s"}, want: []Entry{{0, "/p", "s"}}},
		{specs: []string{"add,99999999999999999999,x,y"}, wantErr: "bad domain in spec"},
		{specs: []string{"add,5 ,x,y"}, wantErr: "bad domain in spec"},
		{specs: []string{"add,29"}, wantErr: "missing dso-path in spec"},
		{specs: []string{"add,29,/p"}, wantErr: "missing init-routine in spec"},
		{specs: []string{"add,29,/p,"}, wantErr: "missing init-routine in spec"},
		{specs: []string{"del,,"}, wantErr: "missing domain and dso-path in spec"},
	}
	for _, tc := range tests {
		table := NewTable()
		var err error
		for _, s := range tc.specs {
			if err = table.Spec(s); err != nil {
				break
			}
		}
		if tc.wantErr != "" {
			var se *SpecError
			if !errors.As(err, &se) || se.Error() != tc.wantErr {
				t.Errorf("%q: error %v, want %q", tc.specs, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.specs, err)
			continue
		}
		got, err := table.List()
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("%q: List = %v, %v; want %v", tc.specs, got, err, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: [%d] = %v, want %v", tc.specs, i, got[i], tc.want[i])
			}
		}
	}
}

func FuzzLocalAgentsSpec(f *testing.F) {
	for _, s := range []string{"clear", "add,29,/p/x.so,x_init", "del,29", "del,,/p", "add,", "add,-1,x,y", "add,2,,y", "del,1,2,3,4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		table := NewTable()
		table.Clear()
		err := table.Spec(spec)
		if err == nil {
			return
		}
		var se *SpecError
		if !errors.As(err, &se) || se.Error() == "" {
			t.Fatalf("%q: %T %v", spec, err, err)
		}
	})
}

// TestLocalConcurrent uses one local context from several goroutines, for
// the race detector: calls are served one at a time.
func TestLocalConcurrent(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestLocal(t)
	ids, err := c.LookupNames(ctx, []string{"cube.one", "cube.colour", "cube.name"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for g := range 4 {
		go func() {
			var r pcp.Result
			for i := range 50 {
				if _, err := c.Fetch(ctx, ids, &r); err != nil {
					done <- err
					return
				}
				if g%2 == 0 {
					c.AddProfile(pcp.NewInDom(42, 0), []int32{int32(i % 3)})
				} else if _, err := c.GetInDom(ctx, pcp.NewInDom(42, 0)); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
