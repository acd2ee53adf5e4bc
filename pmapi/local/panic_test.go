package local

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
)

// panicky is an agent whose every callback panics.
type panicky struct{}

func (panicky) Fetch(context.Context, *pmda.Metric, int32) (pcp.Atom, error) { panic("fetch broke") }

func (panicky) Desc(context.Context, pmda.Client, pcp.PMID) (pcp.Desc, error) { panic("desc broke") }

func (panicky) Store(context.Context, pmda.Client, *pcp.ValueSet) error { panic("store broke") }

func (panicky) EndContext(pmda.Client) { panic("end broke") }

// TestAgentPanics: a local context's agent that panics fails the request
// with PM_ERR_IPC (a fetch's value set holds it), and the program goes on,
// closing the context included.
func TestAgentPanics(t *testing.T) {
	const domain = 45
	id := pcp.NewPMID(domain, 0, 0)
	pmda.Register("panicky_test_init", func(d uint32) (*pmda.Agent, error) {
		return pmda.New(pmda.Config{Name: "pmdapanicky", Domain: d, Fetcher: panicky{},
			Metrics: []pmda.Metric{{Desc: pcp.Desc{PMID: id, Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant}}}})
	})
	t.Cleanup(func() { pmda.Register("panicky_test_init", nil) })
	tree, err := pmns.Parse(strings.NewReader("root {\n panicky 45:0:0\n}\n"), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	table := NewTable()
	for _, spec := range []string{"clear", "add,45,/nowhere/pmda_panicky.so,panicky_test_init"} {
		if err := table.Spec(spec); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	c, err := NewContext(ctx, WithTable(table), WithNamespace(tree))
	if err != nil {
		t.Fatal(err)
	}
	var r pcp.Result
	if _, err := c.Fetch(ctx, []pcp.PMID{id}, &r); err != nil || len(r.Sets) != 1 || r.Sets[0].NumVal != int32(pcp.ErrIPC) {
		t.Errorf("fetch: %+v, %v; want a set of PM_ERR_IPC", r.Sets, err)
	}
	if _, err := c.LookupDesc(ctx, id); !errors.Is(err, pcp.ErrIPC) {
		t.Errorf("LookupDesc: %v, want PM_ERR_IPC", err)
	}
	store := &pcp.Result{Sets: []pcp.ValueSet{{PMID: id, NumVal: 1, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 1}}}}}
	if err := c.Store(ctx, store); !errors.Is(err, pcp.ErrIPC) {
		t.Errorf("Store: %v, want PM_ERR_IPC", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
