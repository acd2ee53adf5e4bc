// Package trivial is the smallest useful agent, the one PCP's Programmer's
// Guide starts with: domain 250, one metric, trivial.time, the time in
// seconds since the epoch as a 64-bit unsigned counter.
//
// New's agent is safe for concurrent use; see package pmda.
package trivial

import (
	"context"
	"log"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// Domain is the trivial agent's domain number, TRIVIAL in PCP's domain.h.
const Domain = 250

// Name is the agent's name, as its daemon is called.
const Name = "pmdatrivial"

// PMID is trivial.time's PMID in domain 250: pcp.NewPMID(Domain, 0, 0)
// written as a constant (domain above 22 bits of cluster and item), so
// that this package, linked into every tool for local contexts, has no
// initialisation to run.
const PMID = pcp.PMID(Domain << 22)

// Metrics is the agent's metric table.
func Metrics() []pmda.Metric {
	return []pmda.Metric{{
		Name: "trivial.time",
		Desc: pcp.Desc{
			PMID:  PMID,
			Type:  pcp.TypeU64,
			InDom: pcp.InDomNull,
			Sem:   pcp.SemCounter,
			Units: pcp.Units{DimTime: 1, ScaleTime: pcp.TimeSec},
		},
		OneLine: "seconds since the Unix epoch",
		Help: "The current time as a count of whole seconds elapsed since\n" +
			"00:00:00 UTC on 1 January 1970, read from the host's clock at\n" +
			"each fetch.",
	}}
}

// clock reads the time; tests replace it.
type clock func() time.Time

// Fetch answers trivial.time and nothing else.
func (now clock) Fetch(_ context.Context, m *pmda.Metric, inst int32) (pcp.Atom, error) {
	if m.Desc.PMID.Cluster() != 0 || m.Desc.PMID.Item() != 0 {
		return pcp.Atom{}, pcp.ErrPMID
	}
	if inst != pcp.InstNull {
		return pcp.Atom{}, pcp.ErrInst
	}
	return pcp.Atom{ULL: uint64(now().Unix())}, nil
}

// New returns the trivial agent for domain (normally Domain), logging to
// logger (nil discards).
func New(domain uint32, logger *log.Logger) (*pmda.Agent, error) {
	return pmda.New(pmda.Config{
		Name:    Name,
		Domain:  domain,
		Metrics: Metrics(),
		Fetcher: clock(time.Now),
		Log:     logger,
		// as PCP's trivial agent, the oldest interface it still loads
		Interface: 2,
	})
}
