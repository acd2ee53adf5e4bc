// Command sampletwin serves a few of PCP's sample agent's metrics (domain
// 29) with the same names, descriptors, values and labels, written with
// package pmda, so that tests can compare it with PCP's own pmdasample
// under PCP's pmcd. Its help text is its own.
package main

import (
	"context"
	"os"
	"strconv"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

const domain = 29

var binInDom = pcp.NewInDom(domain, 2)

// metric is one metric of the twin and how it fetches.
type metric struct {
	name  string
	item  uint32
	typ   pcp.Type
	indom pcp.InDom
	atom  func(inst int32) (pcp.Atom, error)
}

func constant(a pcp.Atom) func(int32) (pcp.Atom, error) {
	return func(int32) (pcp.Atom, error) { return a, nil }
}

var metrics = []metric{
	{"sample.long.one", 10, pcp.Type32, pcp.InDomNull, constant(pcp.Atom{L: 1})},
	{"sample.ulong.hundred", 95, pcp.TypeU32, pcp.InDomNull, constant(pcp.Atom{UL: 100})},
	{"sample.longlong.million", 23, pcp.Type64, pcp.InDomNull, constant(pcp.Atom{LL: 1000000})},
	{"sample.ulonglong.ten", 99, pcp.TypeU64, pcp.InDomNull, constant(pcp.Atom{ULL: 10})},
	{"sample.float.one", 15, pcp.TypeFloat, pcp.InDomNull, constant(pcp.Atom{F: 1})},
	{"sample.double.ten", 26, pcp.TypeDouble, pcp.InDomNull, constant(pcp.Atom{D: 10})},
	{"sample.string.hullo", 31, pcp.TypeString, pcp.InDomNull, constant(pcp.Atom{CP: "hullo world!"})},
	{"sample.aggregate.hullo", 34, pcp.TypeAggregate, pcp.InDomNull,
		constant(pcp.Atom{VBP: &pcp.ValueBlock{Type: pcp.TypeAggregate, Data: []byte("hullo world!")}})},
	{"sample.bin", 6, pcp.Type32, binInDom, func(inst int32) (pcp.Atom, error) { return pcp.Atom{L: inst}, nil }},
	{"sample.bad.novalues", 138, pcp.Type32, pcp.InDomNull, func(int32) (pcp.Atom, error) { return pcp.Atom{}, pmda.ErrNoValue }},
	{"sample.noinst", 9, pcp.Type32, pcp.InDomNull, func(int32) (pcp.Atom, error) { return pcp.Atom{}, pmda.ErrNoValue }},
	{"sample.bad.nosupport", 55, pcp.TypeNoSupport, pcp.InDomNull, func(int32) (pcp.Atom, error) { return pcp.Atom{}, pcp.ErrAppVersion }},
}

func main() {
	var table []pmda.Metric
	byItem := map[uint32]metric{}
	for _, m := range metrics {
		sem := pcp.SemInstant
		if m.typ == pcp.TypeNoSupport {
			sem = 0 // as PCP's sample agent has it
		}
		table = append(table, pmda.Metric{
			Name:    m.name,
			Desc:    pcp.Desc{PMID: pcp.NewPMID(domain, 0, m.item), Type: m.typ, InDom: m.indom, Sem: sem},
			OneLine: "twin of " + m.name,
		})
		byItem[m.item] = m
	}
	var bins []pmda.Instance
	for i := int32(100); i <= 900; i += 100 {
		bins = append(bins, pmda.Instance{ID: i, Name: "bin-" + strconv.Itoa(int(i)), Labels: []pmda.Label{{Name: "bin", Value: i}}})
	}
	fetch := pmda.FetchFunc(func(_ context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
		if t, ok := byItem[m.Desc.PMID.Item()]; ok {
			return t.atom(inst)
		}
		return pcp.Atom{}, pcp.ErrPMID
	})
	agent, err := pmda.New(pmda.Config{
		Name:          "pmdasample",
		Domain:        domain,
		Metrics:       table,
		InDoms:        []pmda.InDom{{InDom: binInDom, Instances: bins}},
		Labels:        []pmda.Label{{Name: "role", Value: "testing"}},
		ClusterLabels: map[uint32][]pmda.Label{0: {{Name: "cluster", Value: "zero"}}},
		Fetcher:       fetch,
	})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	if err := agent.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
}
