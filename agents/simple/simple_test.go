package simple

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// testAgent builds the agent on a private configuration file.
func testAgent(t *testing.T, conf string) (*pmda.Agent, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "simple.conf")
	if conf != "" {
		writeConf(t, path, conf, time.Unix(1000, 0))
	}
	a, err := New(Domain, Options{Config: path})
	if err != nil {
		t.Fatal(err)
	}
	return a, path
}

// writeConf writes the configuration with a given modification time, so
// that the agent sees every change however quick the test.
func writeConf(t *testing.T, path, text string, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func fetch(t *testing.T, a *pmda.Agent, ids ...pcp.PMID) string {
	t.Helper()
	res, err := a.Fetch(context.Background(), 0, ids)
	if err != nil {
		t.Fatal(err)
	}
	s := ""
	for _, set := range res.Sets {
		s += fmt.Sprintf("%v:", set.PMID)
		if set.NumVal < 0 {
			s += fmt.Sprintf(" %v", pcp.Error(set.NumVal))
		}
		for _, v := range set.Values {
			s += fmt.Sprintf(" %d=%d", v.Inst, v.LVal)
		}
		s += ";"
	}
	return s
}

func TestFetchSequence(t *testing.T) {
	a, _ := testAgent(t, "sec,min,hour\n")
	want := []string{
		"253.0.0: -1=1;253.0.1: 0=1 1=101 2=201;",
		"253.0.0: -1=2;253.0.1: 0=2 1=102 2=202;",
	}
	for i, w := range want {
		if got := fetch(t, a, NumFetch, Color); got != w {
			t.Errorf("fetch %d: %s, want %s", i, got, w)
		}
	}
}

func store(a *pmda.Agent, id pcp.PMID, vals ...pcp.Value) error {
	r := &pcp.Result{Sets: []pcp.ValueSet{{PMID: id, NumVal: int32(len(vals)), ValFmt: pcp.ValInSitu, Values: vals}}}
	return a.Store(context.Background(), 0, r)
}

func TestStore(t *testing.T) {
	a, _ := testAgent(t, "sec\n")
	cases := []struct {
		name string
		id   pcp.PMID
		vals []pcp.Value
		err  error
		then string
	}{
		{"numfetch", NumFetch, []pcp.Value{{Inst: pcp.InstNull, LVal: 41}}, nil, "253.0.0: -1=42;"},
		{"numfetch negative", NumFetch, []pcp.Value{{Inst: pcp.InstNull, LVal: -5}}, pcp.ErrBadStore, "253.0.0: -1=1;"},
		{"colours", Color, []pcp.Value{{Inst: 0, LVal: 10}, {Inst: 2, LVal: 255}}, nil, "253.0.1: 0=11 1=101 2=0;"},
		{"colour too big", Color, []pcp.Value{{Inst: 1, LVal: 300}}, pcp.ErrBadStore, "253.0.1: 0=12 1=0 2=1;"},
		{"no such colour", Color, []pcp.Value{{Inst: 7, LVal: 3}}, pcp.ErrInst, ""},
		{"time", TimeUser, []pcp.Value{{Inst: pcp.InstNull, LVal: 3}}, pcp.ErrPermission, ""},
		{"now", Now, []pcp.Value{{Inst: 0, LVal: 3}}, pcp.ErrPermission, ""},
		{"unknown", pcp.NewPMID(Domain, 3, 9), []pcp.Value{{Inst: pcp.InstNull, LVal: 3}}, pcp.ErrPMID, ""},
	}
	for _, c := range cases {
		err := store(a, c.id, c.vals...)
		if !errors.Is(err, c.err) || (c.err == nil && err != nil) {
			t.Errorf("%s: store: %v, want %v", c.name, err, c.err)
		}
		if c.then != "" {
			if got := fetch(t, a, c.id); got != c.then {
				t.Errorf("%s: then %s, want %s", c.name, got, c.then)
			}
		}
	}
}

func instances(t *testing.T, a *pmda.Agent) string {
	t.Helper()
	res, err := a.Instance(context.Background(), 0, pcp.NewInDom(Domain, NowInDom), pcp.InstNull, "")
	if err != nil {
		return err.Error()
	}
	s := ""
	for _, e := range res.Entries {
		s += fmt.Sprintf("%d=%s ", e.Inst, e.Name)
	}
	return s
}

// TestConfigChanges follows the guide's walk through simple.now: the
// instance domain follows the configuration file, instances keep their
// numbers, unknown words are ignored and a missing file empties it.
func TestConfigChanges(t *testing.T) {
	a, path := testAgent(t, "sec,min,hour\n")
	steps := []struct{ conf, want string }{
		{"", "0=sec 1=min 2=hour "},
		{"hour,bogus\n", "2=hour "},
		{"min,,sec\nhour\n", "0=sec 1=min "},
		{"\n", ""},
		{"-", ""},
		{"hour,min,sec", "0=sec 1=min 2=hour "},
	}
	for i, s := range steps {
		switch s.conf {
		case "":
		case "-":
			os.Remove(path)
		default:
			writeConf(t, path, s.conf, time.Unix(int64(2000+i), 0))
		}
		if got := instances(t, a); got != s.want {
			t.Errorf("step %d (%q): instances %q, want %q", i, s.conf, got, s.want)
		}
	}
	got := fetch(t, a, Now)
	var set string
	now := time.Now()
	for inst, v := range []int{now.Second(), now.Minute(), now.Hour()} {
		set += fmt.Sprintf(" %d=%d", inst, v)
	}
	if got != "253.2.4:"+set+";" && now.Second() != 0 {
		t.Logf("simple.now %s, clock gives%s (a second may have passed)", got, set)
	}
	if n := len(got); n < len("253.2.4: 0=0 1=0 2=0;") {
		t.Errorf("simple.now: %s", got)
	}
}

func TestLabels(t *testing.T) {
	a, _ := testAgent(t, "min\n")
	ctx := context.Background()
	sets, err := a.Label(ctx, 0, uint32(pcp.NewInDom(Domain, NowInDom)), pcp.LabelInstances)
	if err != nil || len(sets) != 1 {
		t.Fatalf("instance labels: %v, %v", sets, err)
	}
	if got := fmt.Sprint(sets[0].Inst, " ", string(sets[0].JSON)); got != `0 {"units":"min"}` {
		t.Errorf("instance labels %s", got)
	}
	sets, err = a.Label(ctx, 0, Domain, pcp.LabelDomain)
	if err != nil || len(sets) != 1 || string(sets[0].JSON) != `{"role":"testing"}` {
		t.Errorf("domain labels %v %v", sets, err)
	}
}

func TestHelp(t *testing.T) {
	a, _ := testAgent(t, "sec\n")
	for _, m := range Metrics() {
		if _, err := a.Text(context.Background(), 0, uint32(m.Desc.PMID), pdu.TextOneLine|pdu.TextPMID); err != nil {
			t.Errorf("%s: no one-line help: %v", m.Name, err)
		}
	}
}
