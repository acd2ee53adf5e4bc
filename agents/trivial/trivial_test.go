package trivial

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

func TestFetch(t *testing.T) {
	at := time.Unix(1234567890, 999999999)
	f := clock(func() time.Time { return at })
	m := Metrics()[0]
	other := m
	other.Desc.PMID = pcp.NewPMID(Domain, 0, 1)
	cases := []struct {
		name string
		m    *pmda.Metric
		inst int32
		want uint64
		err  error
	}{
		{"time", &m, pcp.InstNull, 1234567890, nil},
		{"an instance", &m, 0, 0, pcp.ErrInst},
		{"another metric", &other, pcp.InstNull, 0, pcp.ErrPMID},
	}
	for _, c := range cases {
		got, err := f.Fetch(context.Background(), c.m, c.inst)
		if got.ULL != c.want || !errors.Is(err, c.err) || (c.err == nil && err != nil) {
			t.Errorf("%s: %d, %v; want %d, %v", c.name, got.ULL, err, c.want, c.err)
		}
	}
}

func TestAgent(t *testing.T) {
	a, err := New(Domain, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.Desc(context.Background(), 0, PMID)
	if err != nil || d.Type != pcp.TypeU64 || d.Sem != pcp.SemCounter || d.InDom != pcp.InDomNull {
		t.Errorf("Desc = %+v, %v", d, err)
	}
	res, err := a.Fetch(context.Background(), 0, []pcp.PMID{PMID})
	if err != nil || len(res.Sets) != 1 || res.Sets[0].NumVal != 1 {
		t.Fatalf("Fetch = %+v, %v", res, err)
	}
	if _, err := New(pcp.MaxDomain, nil); err == nil {
		t.Error("New accepted domain 511")
	}
}
