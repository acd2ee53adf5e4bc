package pmcd

import (
	"context"
	"errors"
	"testing"

	pmcdagent "github.com/gopcp/gopcp/agents/pmcd"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmns"
)

// TestAgentNamespace builds a namespace from in-process agents: pmcd's
// own from its table, trivial (registered by TestMain) from the agent's
// metric names, one from a NameSource with a dynamic subtree; daemon lines
// bring none and an unknown entry point is an error.
func TestAgentNamespace(t *testing.T) {
	dyn := func(domain uint32) (*pmns.Tree, error) {
		tr := pmns.New()
		if err := tr.Add("dyn.fixed", pcp.NewPMID(domain, 0, 1)); err != nil {
			return nil, err
		}
		return tr, tr.Add("dyn.more", pmns.DynamicRoot(domain))
	}
	conf := &Conf{Agents: []AgentConf{
		{Name: "pmcd", Domain: 2, Kind: AgentDSO, Entry: pmcdEntry},
		{Name: "trivial", Domain: 250, Kind: AgentDSO, Entry: "trivial_init"},
		{Name: "dyn", Domain: 77, Kind: AgentDSO, Entry: "dyn_init"},
		{Name: "piped", Domain: 78, Kind: AgentPipe, Argv: []string{"/bin/false"}},
	}}
	tree, err := AgentNamespace(context.Background(), conf, map[string]NameSource{"dyn_init": dyn})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]pcp.PMID{
		"pmcd.version":       pcp.NewPMID(2, 0, 7),
		"pmcd.pdu_in.total":  pcp.NewPMID(2, 1, 16),
		"trivial.time":       pcp.NewPMID(250, 0, 0),
		"dyn.fixed":          pcp.NewPMID(77, 0, 1),
		"dyn.more":           pmns.DynamicRoot(77),
		"dyn.more.below.any": pmns.DynamicRoot(77),
	} {
		if got, err := tree.Lookup(name); err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v", name, got, err, want)
		}
	}
	all, _ := tree.Traverse("pmcd")
	if ms, _ := pmcdagent.Table(); len(all) != len(ms) {
		t.Errorf("%d pmcd names, want %d", len(all), len(ms))
	}
	_, err = AgentNamespace(context.Background(), &Conf{Agents: []AgentConf{{Name: "x", Domain: 9, Kind: AgentDSO, Entry: "nosuch_init"}}}, nil)
	if err == nil {
		t.Error("unknown entry point accepted")
	}
	clash := map[string]NameSource{"dyn_init": func(uint32) (*pmns.Tree, error) {
		tr := pmns.New()
		return tr, tr.Add("pmcd.version", pcp.NewPMID(77, 0, 1))
	}}
	_, err = AgentNamespace(context.Background(), conf, clash)
	if !errors.Is(err, pcp.ErrPMID) {
		t.Errorf("a name two agents claim: %v, want PM_ERR_PMID", err)
	}
}

// TestDefaultConf: the built-in agents at PCP's domains.
func TestDefaultConf(t *testing.T) {
	want := map[string]uint32{"pmcd_init": 2, "proc_init": 3, "linux_init": 60, "sample_init": 29, "mmv_init": 70}
	c := DefaultConf()
	if len(c.Agents) != len(want) || c.ACL == nil || len(c.Access) != 3 || len(c.Warnings) != 0 {
		t.Fatalf("%+v", c)
	}
	for _, a := range c.Agents {
		if a.Kind != AgentDSO || want[a.Entry] != a.Domain {
			t.Errorf("%+v", a)
		}
	}
}
