package sample

import (
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// perContext counts the requests each client context makes of the agent
// and the answers sent back, for sample.percontext.* and sample.*pdu.
// A context becomes active with its first request and inactive when pmcd
// says it has ended; the counts of ended contexts are kept in the totals.
type perContext struct {
	tab        []ctxCount // by client number
	started    int32
	ended      int32
	recvClosed int32
	xmitClosed int32
}

type ctxCount struct {
	active     bool
	recv, xmit int32
}

// recv counts a request from c, making c active.
func (p *perContext) recv(c pmda.Client) {
	if c < 0 {
		return
	}
	for int(c) >= len(p.tab) {
		p.tab = append(p.tab, ctxCount{})
	}
	t := &p.tab[c]
	if !t.active {
		p.started++
		*t = ctxCount{active: true}
	}
	t.recv++
}

// xmit counts an answer to c.
func (p *perContext) xmit(c pmda.Client) {
	if c >= 0 && int(c) < len(p.tab) && p.tab[c].active {
		p.tab[c].xmit++
	}
}

func (p *perContext) end(c pmda.Client) {
	if c < 0 || int(c) >= len(p.tab) || !p.tab[c].active {
		return
	}
	t := &p.tab[c]
	p.ended++
	p.recvClosed += t.recv
	p.xmitClosed += t.xmit
	t.active = false
}

// totals are the counts over every context, ended ones included.
func (p *perContext) totals() (recv, xmit int32) {
	recv, xmit = p.recvClosed, p.xmitClosed
	for _, t := range p.tab {
		if t.active {
			recv += t.recv
			xmit += t.xmit
		}
	}
	return recv, xmit
}

// clear zeroes the totals, received or sent or both.
func (p *perContext) clear(recv, xmit bool) {
	for i := range p.tab {
		if p.tab[i].active {
			if recv {
				p.tab[i].recv = 0
			}
			if xmit {
				p.tab[i].xmit = 0
			}
		}
	}
	if recv {
		p.recvClosed = 0
	}
	if xmit {
		p.xmitClosed = 0
	}
}

// value is sample.percontext.* item for client c.
func (p *perContext) value(c pmda.Client, item uint32) (int32, error) {
	if c < 0 || int(c) >= len(p.tab) || !p.tab[c].active {
		return 0, pcp.ErrNoContext
	}
	t := p.tab[c]
	switch item {
	case itemPercontextPDU:
		return t.recv + t.xmit, nil
	case itemPercontextRecvPDU:
		return t.recv, nil
	case itemPercontextXmitPDU:
		return t.xmit, nil
	case itemPercontextControlCtx:
		return int32(len(p.tab)), nil
	case itemPercontextControlActive:
		var n int32
		for _, t := range p.tab {
			if t.active {
				n++
			}
		}
		return n, nil
	case itemPercontextControlStart:
		return p.started, nil
	case itemPercontextControlEnd:
		return p.ended, nil
	}
	return 0, pcp.ErrPMID
}
