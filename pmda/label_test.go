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
