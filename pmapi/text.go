package pmapi

import (
	"context"
	"fmt"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// TextLevel says which help text to look up, PM_TEXT_* in PCP.
type TextLevel int32

const (
	// TextOneLine is the one-line summary.
	TextOneLine TextLevel = pdu.TextOneLine
	// TextHelp is the full help text; where a metric or instance
	// domain has none, the one-line text is returned instead, as libpcp
	// does, unless TextDirect is also given.
	TextHelp TextLevel = pdu.TextHelp
	// TextDirect, added to another level, turns off the fallback from
	// full to one-line text.
	TextDirect TextLevel = pdu.TextDirect
)

// LookupText returns a metric's help text, as pmLookupText does; a metric
// without that text is pcp.ErrText.
func (c *HostContext) LookupText(ctx context.Context, pmid pcp.PMID, level TextLevel) (string, error) {
	text, err := c.lookupText(ctx, uint32(pmid), int32(level)|pdu.TextPMID)
	if err != nil {
		return "", fmt.Errorf("pmapi: LookupText %s: %w", pmid, err)
	}
	return text, nil
}

// LookupInDomText returns an instance domain's help text, as
// pmLookupInDomText does.
func (c *HostContext) LookupInDomText(ctx context.Context, indom pcp.InDom, level TextLevel) (string, error) {
	text, err := c.lookupText(ctx, uint32(indom), int32(level)|pdu.TextInDom)
	if err != nil {
		return "", fmt.Errorf("pmapi: LookupInDomText %s: %w", indom, err)
	}
	return text, nil
}

func (c *HostContext) lookupText(ctx context.Context, ident uint32, typ int32) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		var reply pdu.Text
		err := c.call(ctx, &pdu.TextReq{Ident: ident, Type: typ}, &reply)
		if err == nil && reply.Text != "" {
			return reply.Text, nil
		}
		fallback := typ&pdu.TextHelp != 0 && typ&pdu.TextDirect == 0 && c.conn != nil
		if !fallback {
			return reply.Text, err
		}
		typ = typ&^pdu.TextHelp | pdu.TextOneLine
	}
}
