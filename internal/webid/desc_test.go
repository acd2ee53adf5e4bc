package webid

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// The type, units, indom and pmid fields PCP 6.0.3's pmseries --load wrote
// in pcp:desc:series:* for the QA archive 20041125, with the descriptors
// pminfo -d gives those metrics.
func TestDescNamesMatchPCP(t *testing.T) {
	cases := []struct {
		metric    string
		typ       pcp.Type
		units     pcp.Units
		indom     pcp.InDom
		pmid      pcp.PMID
		wantType  string
		wantUnits string
		wantInDom string
		wantPMID  string
	}{
		{"kernel.all.load", pcp.TypeFloat, pcp.Units{}, pcp.NewInDom(60, 2), pcp.NewPMID(60, 2, 0), "float", "none", "60.2", "60.2.0"},
		{"mem.physmem", pcp.TypeU64, pcp.Units{DimSpace: 1, ScaleSpace: pcp.SpaceKByte}, pcp.InDomNull, pcp.NewPMID(60, 1, 0), "u64", "Kbyte", "none", "60.1.0"},
		{"pmid 2.0.10", pcp.Type32, pcp.Units{}, pcp.InDomNull, pcp.NewPMID(2, 0, 10), "32", "none", "none", "2.0.10"},
		{"pmid 2.3.3", pcp.TypeString, pcp.Units{}, pcp.NewInDom(2, 1), pcp.NewPMID(2, 3, 3), "string", "none", "2.1", "2.3.3"},
		{"pmid 60.5.8", pcp.TypeDouble, pcp.Units{}, pcp.NewInDom(60, 5), pcp.NewPMID(60, 5, 8), "double", "none", "60.5", "60.5.8"},
		{"pmid 60.0.48", pcp.TypeU32, pcp.Units{DimTime: -1, DimCount: 1, ScaleTime: pcp.TimeSec}, pcp.InDomNull, pcp.NewPMID(60, 0, 48), "u32", "count / sec", "none", "60.0.48"},
		{"pmid 60.26.1", pcp.TypeU32, pcp.Units{DimTime: 1, DimCount: 1, ScaleTime: pcp.TimeSec}, pcp.InDomNull, pcp.NewPMID(60, 26, 1), "u32", "sec count", "none", "60.26.1"},
		// past PCP's table: libpcp_web's names for the rest
		{"aggregate", pcp.TypeAggregate, pcp.Units{}, pcp.InDomNull, pcp.PMIDNull, "aggregate", "none", "none", "none"},
		{"highres event", pcp.TypeHighResEvent, pcp.Units{}, pcp.InDomNull, pcp.PMIDNull, "highres_event", "none", "none", "none"},
		{"unsupported", pcp.TypeNoSupport, pcp.Units{}, pcp.InDomNull, pcp.PMIDNull, "unsupported", "none", "none", "none"},
		{"unknown", pcp.Type(42), pcp.Units{}, pcp.InDomNull, pcp.PMIDNull, "unknown", "none", "none", "none"},
	}
	for _, c := range cases {
		got := [4]string{TypeName(c.typ), UnitsName(c.units), InDomName(c.indom), PMIDName(c.pmid)}
		want := [4]string{c.wantType, c.wantUnits, c.wantInDom, c.wantPMID}
		if got != want {
			t.Errorf("%s: %q, PCP's %q", c.metric, got, want)
		}
	}
}
