package pmapi

import (
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestLocalZone(t *testing.T) {
	if tz := LocalZone("EST-10"); tz != "EST-10" {
		t.Errorf("LocalZone with TZ = %q", tz)
	}
	if tz := LocalZone(""); tz == "" {
		t.Error("LocalZone without TZ is empty")
	}
	// a file name is the system's zone, by /etc/localtime
	if tz := LocalZone(":/nonexistent"); tz != LocalZone("") {
		t.Errorf("LocalZone with a file name = %q", tz)
	}
}

func TestHostDupAndZone(t *testing.T) {
	t.Parallel()
	bed := startBed(t)
	c := dial(t, bed)
	ctx := testContext(t)
	tz, err := c.TimeZone(ctx)
	if err != nil || tz == "" {
		t.Fatalf("TimeZone = %q, %v", tz, err)
	}
	want := bed.Run("pmprobe", "-v", "-h", bed.Host(), "pmcd.zoneinfo", "pmcd.timezone").Stdout
	if !strings.Contains(want, `"`+tz+`"`) {
		t.Errorf("TimeZone = %q; pmprobe says %q", tz, want)
	}
	colour, err := c.LookupName(ctx, "sample.colour")
	if err != nil {
		t.Fatal(err)
	}
	d0, _ := c.LookupDesc(ctx, colour)
	c.DelProfile(d0.InDom, nil)
	c.AddProfile(d0.InDom, []int32{2})
	d, err := c.Dup(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c.AddProfile(pcp.InDomNull, nil)
	var r pcp.Result
	if _, err := d.Fetch(ctx, []pcp.PMID{colour}, &r); err != nil || r.Sets[0].NumVal != 1 || r.Sets[0].Values[0].Inst != 2 {
		t.Errorf("Fetch on the duplicate = %+v, %v", r.Sets, err)
	}
	if _, err := c.Fetch(ctx, []pcp.PMID{colour}, &r); err != nil || r.Sets[0].NumVal != 3 {
		t.Errorf("Fetch on the original = %+v, %v", r.Sets, err)
	}
}
