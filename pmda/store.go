package pmda

import (
	"context"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Store applies a store request. Without a Storer every store is refused
// with pcp.ErrPermission, as libpcp_pmda's default does; a PMID not in the
// table is pcp.ErrPMID before the Storer sees it, unless the Fetcher is a
// Describer, whose metrics are its own to judge. Sets are handed to the Storer in
// order and the first error ends the request.
func (a *Agent) Store(ctx context.Context, c Client, r *pcp.Result) error {
	if err := a.begin(ctx, c, pdu.TypeResult, 0); err != nil {
		return err
	}
	s, ok := a.fetcher.(Storer)
	if !ok {
		return pcp.ErrPermission
	}
	_, dynamic := a.fetcher.(Describer)
	for i := range r.Sets {
		if !dynamic && a.metrics.get(r.Sets[i].PMID) == nil {
			return pcp.ErrPMID
		}
		if err := s.Store(ctx, c, &r.Sets[i]); err != nil {
			return err
		}
	}
	return nil
}

// EndContext tells the agent that client c has gone, reaching a
// ContextEnder if the Fetcher is one.
func (a *Agent) EndContext(c Client) {
	if e, ok := a.fetcher.(ContextEnder); ok {
		e.EndContext(c)
	}
}

// Attribute hands a client attribute to an Attributer; other agents ignore
// attributes.
func (a *Agent) Attribute(c Client, key pdu.AttrKey, value []byte) error {
	if at, ok := a.fetcher.(Attributer); ok {
		return at.Attribute(c, key, value)
	}
	return nil
}
