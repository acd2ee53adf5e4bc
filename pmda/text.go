package pmda

import (
	"context"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Text returns help text as a TEXT_REQ asks for it: typ combines
// pdu.TextOneLine or pdu.TextHelp with pdu.TextPMID or pdu.TextInDom,
// and ident is then a PMID or an InDom. Missing text, an unknown metric or
// domain included, is pcp.ErrText, as libpcp_pmda answers.
func (a *Agent) Text(ctx context.Context, c Client, ident uint32, typ int32) (string, error) {
	if err := a.begin(ctx, c, pdu.TypeTextReq, ident); err != nil {
		return "", err
	}
	if t, ok := a.fetcher.(Texter); ok {
		return t.Text(ctx, c, ident, typ)
	}
	var one, help string
	if typ&pdu.TextPMID != 0 {
		m := a.metrics.get(pcp.PMID(ident))
		if m == nil {
			return "", pcp.ErrText
		}
		one, help = m.OneLine, m.Help
	} else {
		d := a.indoms[pcp.InDom(ident)]
		if d == nil {
			return "", pcp.ErrText
		}
		one, help = d.OneLine, d.Help
	}
	s := help
	if typ&pdu.TextOneLine != 0 {
		s = one
	}
	if s == "" {
		return "", pcp.ErrText
	}
	return s, nil
}

// Texter is implemented by a Fetcher whose help text changes or comes
// from elsewhere than the tables: Text answers every text request, as
// Agent.Text does.
type Texter interface {
	Text(ctx context.Context, c Client, ident uint32, typ int32) (string, error)
}

// Desc returns the descriptor of pmid, or pcp.ErrPMID.
func (a *Agent) Desc(ctx context.Context, c Client, pmid pcp.PMID) (pcp.Desc, error) {
	if err := a.begin(ctx, c, pdu.TypeDescReq, uint32(pmid)); err != nil {
		return pcp.Desc{}, err
	}
	if d, ok := a.fetcher.(Describer); ok {
		return d.Desc(ctx, c, pmid)
	}
	if m := a.metrics.get(pmid); m != nil {
		return m.Desc, nil
	}
	return pcp.Desc{}, pcp.ErrPMID
}
