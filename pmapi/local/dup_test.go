package local

import (
	"context"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmapi"
)

func TestDupAndZone(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestLocal(t)
	colour, err := c.LookupName(ctx, "cube.colour")
	if err != nil {
		t.Fatal(err)
	}
	indom := pcp.NewInDom(42, 0)
	if err := c.DelProfile(indom, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.AddProfile(indom, []int32{1}); err != nil {
		t.Fatal(err)
	}
	d, err := pmapi.Dup(ctx, pmapi.WithAnonMetrics(c))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// the copy has the profile; changing the original leaves it alone
	if err := c.AddProfile(pcp.InDomNull, nil); err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	if _, err := d.Fetch(ctx, []pcp.PMID{colour}, &r); err != nil || r.Sets[0].NumVal != 1 || r.Sets[0].Values[0].Inst != 1 {
		t.Errorf("Fetch on the duplicate = %+v, %v", r.Sets, err)
	}
	if _, err := c.Fetch(ctx, []pcp.PMID{colour}, &r); err != nil || r.Sets[0].NumVal != 3 {
		t.Errorf("Fetch on the original = %+v, %v", r.Sets, err)
	}
	if tz, err := c.TimeZone(ctx); err != nil || tz == "" {
		t.Errorf("TimeZone = %q, %v", tz, err)
	}
}
