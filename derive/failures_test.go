package derive

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestPCPFailures covers definitions on which PCP 6.0.3 crashes, hangs
// or returns garbage (the '!' lines of testdata/cases.txt and a few
// more), where gopcp does the sane thing documented in docs/derive.md.
func TestPCPFailures(t *testing.T) {
	src := newFake()
	reg := NewRegistry()
	defs := []struct{ name, expr string }{
		{"f.paren", "(m.ctr * 2)[inst2]"},                // PCP: uninitialised regex, hangs
		{"f.scalar", "scalar(matchinst(/none/, m.ctr))"}, // PCP: reads an empty list, crashes
		{"f.not", "!m.val"},                              // PCP: 0/1 stored as an int in a double
		{"f.self", "f.self + 1"},                         // PCP: endless recursion
		{"f.loop1", "f.loop2 + 1"},
		{"f.loop2", "f.loop1 + 1"},
	}
	for _, d := range defs {
		if err := reg.Register(d.name, d.expr); err != nil {
			t.Fatal(err)
		}
	}
	c := NewLayer(src, reg)
	res := fetchAll(t, c, []string{"f.paren", "f.scalar", "f.not"})
	if g := res[0]; g.n != 1 || g.vals[2] != 40 {
		t.Errorf("(m.ctr * 2)[inst2] = %v, want inst 2's value, 40", g)
	}
	if g := res[1]; g.n != 0 {
		t.Errorf("scalar of no values = %v, want no values", g)
	}
	if g := res[2]; g.n != 1 || g.vals[-1] != 0 {
		t.Errorf("!m.val with m.val 5 = %v, want 0", g)
	}
	ctx := context.Background()
	for _, name := range []string{"f.self", "f.loop1", "f.loop2"} {
		pmids, err := c.LookupNames(ctx, []string{name})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.LookupDesc(ctx, pmids[0]); !errors.Is(err, pcp.ErrBadDerive) {
			t.Errorf("%s: LookupDesc error %v, want PM_ERR_BADDERIVE", name, err)
		}
	}
}

// TestLimitsAndRebind checks the limits on the number of definitions and
// that Rebind checks definitions afresh.
func TestLimitsAndRebind(t *testing.T) {
	ctx := context.Background()
	reg := NewRegistry()
	reg.SetLimit(1)
	if err := reg.Register("l.a", "m.val"); err != nil {
		t.Fatal(err)
	}
	err := reg.Register("l.b", "m.val")
	if !errors.Is(err, pcp.ErrBadDerive) || !strings.Contains(err.Error(), "Too many global derived metrics") {
		t.Errorf("second global over a limit of 1: %v", err)
	}
	src := newFake()
	c := NewLayer(src, reg)
	c.SetLimit(1)
	if err := c.AddDerived(ctx, "l.c", "m.val * 2"); err != nil {
		t.Fatal(err)
	}
	err = c.AddDerived(ctx, "l.d", "m.val")
	if !errors.Is(err, pcp.ErrBadDerive) || !strings.Contains(err.Error(), "Too many per-context derived metrics") {
		t.Errorf("second per-context over a limit of 1: %v", err)
	}
	if err := c.AddDerived(ctx, "l.e", "defined(m.new)"); err == nil {
		t.Errorf("a third definition passed the limit")
	}
	c.SetLimit(-1)
	if err := c.AddDerived(ctx, "l.e", "defined(m.new)"); err != nil {
		t.Fatal(err)
	}
	if res := fetchAll(t, c, []string{"l.e"}); res[0].vals[-1] != 0 {
		t.Errorf("defined(m.new) before m.new exists = %v", res[0].vals)
	}
	src.descs["m.new"] = pcp.Desc{PMID: pcp.NewPMID(1, 0, 9), Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant}
	if res := fetchAll(t, c, []string{"l.e"}); res[0].vals[-1] != 0 {
		t.Errorf("defined(m.new) changed before Rebind: %v", res[0].vals)
	}
	c.Rebind()
	if res := fetchAll(t, c, []string{"l.e"}); res[0].vals[-1] != 1 {
		t.Errorf("defined(m.new) after Rebind = %v, want 1", res[0].vals)
	}
}

// TestPackageFunctions checks the functions named after libpcp's calls,
// which work on the process's registry.
func TestPackageFunctions(t *testing.T) {
	t.Setenv("PCP_DERIVED_CONFIG", "")
	if err := RegisterDerived("pkg.a", "sample.long.one + 1"); err != nil {
		t.Fatal(err)
	}
	msg, err := RegisterDerivedMetric("pkg.b", "sample.long.one +")
	want := "Error: pmRegisterDerivedMetric(\"pkg.b\", ...)\nsample.long.one +\n                ^\nArithmetic expression expected to follow PLUS\n"
	if err == nil || msg != want {
		t.Errorf("RegisterDerivedMetric message %q, want %q", msg, want)
	}
	if msg, err := RegisterDerivedMetric("pkg.a", "1"); err == nil || !strings.Contains(msg, "Duplicate global derived metric name") {
		t.Errorf("duplicate: %q %v", msg, err)
	}
	if _, err := LoadDerivedConfig("testdata/no-such-file.conf"); err == nil {
		t.Errorf("LoadDerivedConfig of a missing file succeeded")
	}
}
