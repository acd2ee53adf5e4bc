package pmapi

import (
	"context"
	"errors"
	"testing"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/pcp"
)

// TestArchiveContextErrors checks the PCP error codes of the archive
// context's refusals and lookups.
func TestArchiveContextErrors(t *testing.T) {
	ctx := context.Background()
	name := clitest.QAArchive(t, "changeinst")
	src, err := NewContext(ctx, KindArchive, name)
	if err != nil {
		t.Fatal(err)
	}
	c := src.(*ArchiveContext)
	if src.Kind() != KindArchive {
		t.Errorf("kind %v", src.Kind())
	}
	if host, _ := c.HostName(ctx); host != c.Label().Hostname || host == "" {
		t.Errorf("host %q", host)
	}
	check := func(what string, err error, want pcp.Error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", what, err, want)
		}
	}
	check("Store", c.Store(ctx, &pcp.Result{}), pcp.ErrNotHost)
	check("SetMode", c.SetMode(Mode(0), c.Start(), 0), pcp.ErrMode)
	if err := c.SetMode(ModeInterp, c.Start(), 1e9); err != nil {
		t.Fatal(err)
	}
	check("FetchArchive interp", c.FetchArchive(ctx, &pcp.Result{}), pcp.ErrMode)
	_, err = c.LookupName(ctx, "no.such.metric")
	check("LookupName", err, pcp.ErrName)
	_, err = c.LookupDesc(ctx, pcp.PMID(0x7fffffff))
	check("LookupDesc", err, pcp.ErrPMIDLog)
	id, err := c.LookupName(ctx, "sample.bin")
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.LookupDesc(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	all, err := c.GetInDomArchive(d.InDom)
	if err != nil || len(all) == 0 {
		t.Fatalf("GetInDomArchive: %v %v", all, err)
	}
	inst, err := c.LookupInDomArchive(d.InDom, all[0].Name)
	if err != nil || inst != all[0].Inst {
		t.Errorf("LookupInDomArchive %q: %d %v", all[0].Name, inst, err)
	}
	_, err = c.LookupInDomArchive(d.InDom, "no such instance")
	check("LookupInDomArchive", err, pcp.ErrInstLog)
	_, err = c.GetInDomArchive(pcp.InDom(0x7ffffffe))
	check("GetInDomArchive", err, pcp.ErrInDomLog)
	_, err = c.GetInDom(ctx, pcp.InDomNull)
	check("GetInDom null", err, pcp.ErrInDom)
	// past the end, interpolation and records both end
	end, err := c.End()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetMode(ModeInterp, addNsec(end, 2e9), 1e9); err != nil {
		t.Fatal(err)
	}
	_, err = c.Fetch(ctx, []pcp.PMID{id}, &pcp.Result{})
	check("Fetch past the end", err, pcp.ErrEOL)
	if err := c.SetMode(ModeForw, addNsec(end, 1), 0); err != nil {
		t.Fatal(err)
	}
	check("FetchArchive past the end", c.FetchArchive(ctx, &pcp.Result{}), pcp.ErrEOL)
	_, err = c.Fetch(ctx, nil, &pcp.Result{})
	check("Fetch nothing", err, pcp.ErrTooSmall)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = c.Fetch(ctx, []pcp.PMID{id}, &pcp.Result{})
	check("Fetch closed", err, pcp.ErrNoContext)
	check("Close twice", c.Close(), pcp.ErrNoContext)

	_, err = NewArchiveContext(ctx, "/nonexistent/archive")
	if err == nil {
		t.Error("a missing archive opened")
	}
	_, err = NewArchiveContext(ctx, clitest.QAArchive(t, "changeinst")+","+clitest.QAArchive(t, "dyninsts"))
	check("two hosts", err, pcp.ErrLogHost)
}
