package pcpdesc

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

func TestDesc(t *testing.T) {
	for _, c := range []struct {
		row    Row
		domain uint32
		want   pcp.Desc
	}{
		{Row{"kernel.all.load", 2, 0, pcp.TypeFloat, 5, pcp.SemInstant, 0}, 60,
			pcp.Desc{PMID: pcp.NewPMID(60, 2, 0), Type: pcp.TypeFloat, InDom: pcp.NewInDom(60, 5), Sem: pcp.SemInstant}},
		{Row{"disk.all.read", 0, 24, pcp.TypeU64, -1, pcp.SemCounter, 0x00100000}, 60,
			pcp.Desc{PMID: pcp.NewPMID(60, 0, 24), Type: pcp.TypeU64, InDom: pcp.InDomNull, Sem: pcp.SemCounter,
				Units: pcp.Units{DimCount: 1}}},
		{Row{"proc.psinfo.utime", 8, 13, pcp.TypeU64, 9, pcp.SemCounter, 0x01002000}, 3,
			pcp.Desc{PMID: pcp.NewPMID(3, 8, 13), Type: pcp.TypeU64, InDom: pcp.NewInDom(3, 9), Sem: pcp.SemCounter,
				Units: pcp.Units{DimTime: 1, ScaleTime: 2}}},
	} {
		if got := c.row.Desc(c.domain); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.row.Name, got, c.want)
		}
		if got := c.row.PMID(c.domain); got != c.want.PMID {
			t.Errorf("%s: PMID %v, want %v", c.row.Name, got, c.want.PMID)
		}
	}
}
