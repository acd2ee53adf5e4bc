package pmda

import (
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// TestDomainLabels: by default the agent label joins the agent's own; with
// OwnDomainLabels it is only the default for an agent with none, as in
// libpcp_pmda.
func TestDomainLabels(t *testing.T) {
	role := []Label{{Name: "role", Value: "testing"}}
	cases := []struct {
		name   string
		labels []Label
		own    bool
		want   string
	}{
		{"default, none", nil, false, `{"agent":"x"}`},
		{"default, own", role, false, `{"agent":"x","role":"testing"}`},
		{"own only, none", nil, true, `{"agent":"x"}`},
		{"own only", role, true, `{"role":"testing"}`},
		{"own only, agent given", append([]Label{{Name: "agent", Value: "y"}}, role...), true, `{"agent":"y","role":"testing"}`},
	}
	for _, c := range cases {
		a, err := New(Config{Name: "pmdax", Domain: 9, Fetcher: &testFetcher{}, Labels: c.labels, OwnDomainLabels: c.own})
		if err != nil {
			t.Fatal(err)
		}
		sets, err := a.Label(bg, 0, 9, pcp.LabelDomain)
		if err != nil || len(sets) != 1 || sets[0].JSON != c.want {
			t.Errorf("%s: %v %v, want %s", c.name, sets, err, c.want)
		}
	}
}

// TestLabelsBeforeInterface7: an agent of an older interface has no label
// callback in PCP, so it answers every level with no sets, whatever its
// tables hold; its loader names the domain (LoaderDomainLabels), the
// name cleaned as an agent's own is.
func TestLabelsBeforeInterface7(t *testing.T) {
	role := []Label{{Name: "role", Value: "testing"}}
	for _, iface := range []int{2, 4, 6, 7} {
		a, err := New(Config{Name: "pmdax", Domain: 9, Fetcher: &testFetcher{}, Labels: role, Interface: iface,
			InDoms: []InDom{{InDom: pcp.NewInDom(9, 1), Labels: role, Instances: []Instance{{ID: 1, Name: "one", Labels: role}}}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			ident uint32
			level uint8
		}{{9, pcp.LabelDomain}, {uint32(pcp.NewInDom(9, 1)), pcp.LabelInDom}, {uint32(pcp.NewInDom(9, 1)), pcp.LabelInstances}} {
			sets, err := a.Label(bg, 0, c.ident, c.level)
			if err != nil || (len(sets) == 0) != (iface < 7) || a.HasLabelCallback() != (iface >= 7) {
				t.Errorf("interface %d, level %#x: %v %v", iface, c.level, sets, err)
			}
		}
	}
	for name, want := range map[string]string{
		"jbd2":                                 `{"agent":"jbd2"}`,
		"pmdajbd2":                             `{"agent":"jbd2"}`,
		"trivial DSO":                          `{"agent":"trivial"}`,
		"/var/lib/pcp/pmdas/jbd2/pmda_jbd2.so": `{"agent":"/var/lib/pcp/pmdas/jbd2/pmda_jbd2.so"}`,
	} {
		sets, err := LoaderDomainLabels(name)
		if err != nil || len(sets) != 1 || sets[0].JSON != want || sets[0].Labels[0].Flags != pcp.LabelDomain {
			t.Errorf("LoaderDomainLabels(%q) = %v %v, want %s", name, sets, err, want)
		}
	}
}
