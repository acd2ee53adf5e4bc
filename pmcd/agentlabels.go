package pmcd

import (
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// loaderLabels answers a domain-level LABEL_REQ for an in-process agent
// without a label callback (its PCP counterpart's interface is below 7)
// as PCP's pmcd does for such a shared object: pmcd names the domain
// after the agent's pmcd.conf name itself, and never asks the agent. ok
// is false for every other request, which goes to the agent (one without
// a callback answers the other levels with none).
func (a *agent) loaderLabels(m *pdu.LabelReq) (reply pdu.Message, ok bool, err error) {
	if uint8(m.Type) != pcp.LabelDomain {
		return nil, false, nil
	}
	a.mu.Lock()
	p, inproc := a.b.(*inProc)
	usable := inproc && !a.fenced.Load() && !a.notReady
	name := a.conf.Name
	a.mu.Unlock()
	if !usable || p.a.HasLabelCallback() {
		return nil, false, nil
	}
	sets, err := pmda.LoaderDomainLabels(name)
	if err != nil {
		return nil, true, err
	}
	return &pdu.Label{Ident: m.Ident, Type: m.Type, Sets: sets}, true, nil
}
