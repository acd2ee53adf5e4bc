package derived_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/pmapi/derived"
)

// hostWith opens a host context on bed with the definitions of reg.
func hostWith(t *testing.T, bed *testbed.PMCD, reg *derive.Registry) *derived.Source {
	t.Helper()
	c, err := pmapi.NewHostContext(context.Background(), bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return derived.Wrap(c, reg)
}

func fetchOne(t *testing.T, c *derived.Source, pmid pcp.PMID) *pcp.ValueSet {
	t.Helper()
	var r pcp.Result
	if _, err := c.Fetch(context.Background(), []pcp.PMID{pmid}, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Sets) != 1 {
		t.Fatalf("fetch: %d value sets", len(r.Sets))
	}
	return &r.Sets[0]
}

// TestContextAPI exercises the Go API against a private pmcd with PCP's
// sample agent: global and per-context definitions, names, children,
// descriptors, help text, values, binding errors and rebinding.
func TestContextAPI(t *testing.T) {
	ctx := context.Background()
	bed := testbed.StartPMCD(t, testbed.Options{Env: []string{"PCP_DERIVED_CONFIG="}})
	reg := derive.NewRegistry()
	for _, d := range [][2]string{
		{"api.double", "sample.long.ten * 2"},
		{"api.sub.total", "sum(sample.bin)"},
		{"api.lost", "sample.no.such.metric + 1"},
	} {
		if err := reg.Register(d[0], d[1]); err != nil {
			t.Fatal(err)
		}
	}
	c := hostWith(t, bed, reg)
	if derived.Wrap(c, nil) != c {
		t.Error("Wrap of a wrapped context made another layer")
	}
	if _, ok := derived.Underlying(c).(*pmapi.HostContext); !ok {
		t.Errorf("Underlying: %T", derived.Underlying(c))
	}

	pmid, err := c.LookupName(ctx, "api.double")
	if err != nil || !derive.IsDerived(pmid) {
		t.Fatalf("LookupName api.double: %v %v", pmid, err)
	}
	if name, err := c.NameID(ctx, pmid); name != "api.double" || err != nil {
		t.Errorf("NameID: %q %v", name, err)
	}
	if all, err := c.NameAll(ctx, pmid); !slices.Equal(all, []string{"api.double"}) || err != nil {
		t.Errorf("NameAll: %q %v", all, err)
	}
	desc, err := c.LookupDesc(ctx, pmid)
	if err != nil || desc.PMID != pmid || desc.InDom != pcp.InDomNull {
		t.Errorf("LookupDesc: %+v %v", desc, err)
	}
	if vs := fetchOne(t, c, pmid); vs.NumVal != 1 || vs.Values[0].LVal != 20 {
		t.Errorf("api.double: %+v", vs)
	}
	// children are listed without binding, as in libpcp; a traversal
	// binds, and leaves out what cannot be bound, from then on
	kids, err := c.Children(ctx, "api")
	if err != nil || !slices.Equal(kids, []string{"double", "sub", "lost"}) {
		t.Errorf("Children api: %q %v", kids, err)
	}
	names, err := c.Traverse(ctx, "api")
	if err != nil || !slices.Equal(names, []string{"api.double", "api.sub.total"}) {
		t.Errorf("Traverse api: %q %v", names, err)
	}
	kids, err = c.Children(ctx, "api")
	if err != nil || !slices.Equal(kids, []string{"double", "sub"}) {
		t.Errorf("Children api after binding: %q %v", kids, err)
	}
	real, err := c.Traverse(ctx, "sample.long")
	if err != nil || len(real) != 7 || slices.ContainsFunc(real, func(n string) bool { return !strings.HasPrefix(n, "sample.long.") }) {
		t.Errorf("Traverse sample.long: %q %v", real, err)
	}

	lost, err := c.LookupName(ctx, "api.lost")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.LookupDesc(ctx, lost); !errors.Is(err, pcp.ErrBadDerive) {
		t.Errorf("LookupDesc api.lost: %v, want PM_ERR_BADDERIVE", err)
	}
	if err := c.BindError(ctx, lost); err == nil {
		t.Error("BindError api.lost: nil")
	}
	if _, err := c.LookupText(ctx, pmid, pmapi.TextOneLine); !errors.Is(err, pcp.ErrText) {
		t.Errorf("LookupText of a metric without text: %v", err)
	}
	flags, err := c.LookupName(ctx, "event.flags")
	if err != nil || flags != pcp.PMIDEventFlags {
		t.Fatalf("event.flags: %v %v", flags, err)
	}
	if text, err := c.LookupText(ctx, flags, pmapi.TextHelp); err != nil || text == "" {
		t.Errorf("event.flags help: %q %v", text, err)
	}

	// a per-context metric hides the global one of the same name
	if err := c.AddDerived(ctx, "api.double", "sample.long.ten * 3"); err != nil {
		t.Fatal(err)
	}
	pmid2, err := c.LookupName(ctx, "api.double")
	if err != nil || pmid2 == pmid {
		t.Fatalf("per-context api.double: %v %v", pmid2, err)
	}
	if vs := fetchOne(t, c, pmid2); vs.NumVal != 1 || vs.Values[0].LVal != 30 {
		t.Errorf("per-context api.double: %+v", vs)
	}
	other := hostWith(t, bed, reg)
	if p, _ := other.LookupName(ctx, "api.double"); p != pmid {
		t.Errorf("another context sees the per-context metric: %v", p)
	}
	msg, err := c.AddDerivedMetric(ctx, "api.bad", "sample.long.ten +")
	if !errors.Is(err, pcp.ErrBadDerive) || !strings.Contains(msg, "pmAddDerivedMetric") {
		t.Errorf("AddDerivedMetric syntax error: %q %v", msg, err)
	}

	// reconnecting forgets bindings and history; values come back
	if err := c.Reconnect(ctx); err != nil {
		t.Fatal(err)
	}
	if vs := fetchOne(t, c, pmid2); vs.NumVal != 1 || vs.Values[0].LVal != 30 {
		t.Errorf("after Reconnect: %+v", vs)
	}
	// a fetch of real metrics only goes straight to the context
	ten, err := c.LookupName(ctx, "sample.long.ten")
	if err != nil {
		t.Fatal(err)
	}
	if vs := fetchOne(t, c, ten); vs.NumVal != 1 || vs.Values[0].LVal != 10 {
		t.Errorf("sample.long.ten: %+v", vs)
	}
}

// TestRegisterErrors checks the process-wide calls' errors and
// pmDerivedErrStr.
func TestRegisterErrors(t *testing.T) {
	err := derived.RegisterDerived("apitest.ok", "sample.long.one + 1")
	if err != nil {
		t.Fatal(err)
	}
	if s := derived.DerivedErrStr(err); s != "" {
		t.Errorf("DerivedErrStr after success: %q", s)
	}
	err = derived.RegisterDerived("apitest.bad", "sample.long.one +")
	var se *derive.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, pcp.ErrBadDerive) {
		t.Fatalf("syntax error: %v", err)
	}
	if s := derived.DerivedErrStr(err); s == "" || s != se.Msg {
		t.Errorf("DerivedErrStr: %q, want %q", s, se.Msg)
	}
	msg, err := derived.RegisterDerivedMetric("apitest.ok", "sample.long.one")
	if err == nil || !strings.Contains(msg, "Duplicate") {
		t.Errorf("duplicate: %q %v", msg, err)
	}
	if _, err := derived.LoadDerivedConfig("/nonexistent/derived.conf"); !errors.Is(err, pcp.Error(-2)) {
		t.Errorf("LoadDerivedConfig of a missing file: %v, want ENOENT", err)
	}
}
