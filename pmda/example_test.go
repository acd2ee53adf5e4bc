package pmda_test

import (
	"context"
	"fmt"
	"os"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// An agent with one metric per instance of a small instance domain, served
// on standard input and output as pmcd runs a pipe agent.
func Example() {
	const domain = 400
	colours := pcp.NewInDom(domain, 0)
	fetch := pmda.FetchFunc(func(_ context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
		if m.Desc.PMID.Item() != 0 {
			return pcp.Atom{}, pcp.ErrPMID
		}
		return pcp.Atom{L: 100 + inst}, nil
	})
	agent, err := pmda.New(pmda.Config{
		Name:   "pmdaexample",
		Domain: domain,
		Metrics: []pmda.Metric{{
			Name:    "example.colour",
			Desc:    pcp.Desc{PMID: pcp.NewPMID(domain, 0, 0), Type: pcp.Type32, InDom: colours, Sem: pcp.SemInstant},
			OneLine: "a number per colour",
			Labels:  []pmda.Label{{Name: "role", Value: "example"}},
		}},
		InDoms: []pmda.InDom{{
			InDom:     colours,
			Instances: []pmda.Instance{{ID: 0, Name: "red"}, {ID: 1, Name: "green"}},
		}},
		Fetcher: fetch,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _ := agent.Fetch(context.Background(), 0, []pcp.PMID{pcp.NewPMID(domain, 0, 0)})
	for _, v := range res.Sets[0].Values {
		fmt.Println(v.Inst, v.LVal)
	}
	if false { // under pmcd:
		_ = agent.Serve(context.Background(), os.Stdin, os.Stdout)
	}
	// Output:
	// 0 100
	// 1 101
}
