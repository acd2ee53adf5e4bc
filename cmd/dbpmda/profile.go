package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// profile is the instance profile dbpmda sends before a fetch, changed by
// the profile command with libpcp's pmAddProfile and pmDelProfile rules.
type profile struct {
	state  int32
	indoms []pdu.InDomProfile // in the order they were first named
}

func (s *session) resetProfile() {
	s.profile = profile{state: pdu.ProfileInclude}
	s.profileChanged = true
}

func (p *profile) find(indom pcp.InDom) *pdu.InDomProfile {
	for i := range p.indoms {
		if p.indoms[i].InDom == indom {
			return &p.indoms[i]
		}
	}
	return nil
}

// change applies "profile INDOM all|none|add N|delete N".
func (p *profile) change(indom pcp.InDom, op string, inst int32) {
	add := op == "all" || op == "add"
	whole := op == "all" || op == "none"
	if indom == pcp.InDomNull && whole {
		p.indoms = nil
		p.state = pdu.ProfileExclude
		if add {
			p.state = pdu.ProfileInclude
		}
		return
	}
	e := p.find(indom)
	if e == nil {
		// a new entry starts out excluding everything but its list
		p.indoms = append(p.indoms, pdu.InDomProfile{InDom: indom, State: pdu.ProfileExclude})
		e = &p.indoms[len(p.indoms)-1]
	}
	if whole {
		e.Insts = nil
		e.State = pdu.ProfileExclude
		if add {
			e.State = pdu.ProfileInclude
		}
		return
	}
	// The list holds the exceptions to the entry's state.
	listed := slices.Contains(e.Insts, inst)
	grow := (add && e.State == pdu.ProfileExclude) || (!add && e.State == pdu.ProfileInclude)
	switch {
	case grow && !listed:
		e.Insts = append(e.Insts, inst)
	case !grow && listed:
		e.Insts = slices.DeleteFunc(e.Insts, func(x int32) bool { return x == inst })
	}
}

// pdu is the PROFILE PDU for the profile.
func (p *profile) pdu() *pdu.Profile {
	m := &pdu.Profile{State: p.state}
	for _, e := range p.indoms {
		m.InDoms = append(m.InDoms, pdu.InDomProfile{InDom: e.InDom, State: e.State, Insts: slices.Clone(e.Insts)})
	}
	return m
}

// dump is __pmDumpProfile's report.
func (p *profile) dump() string {
	var b strings.Builder
	state := func(s int32) string {
		if s == pdu.ProfileInclude {
			return "INCLUDE"
		}
		return "EXCLUDE"
	}
	fmt.Fprintf(&b, "Dump Instance Profile state=%s, %d profiles\n", state(p.state), len(p.indoms))
	for j, e := range p.indoms {
		fmt.Fprintf(&b, "\tProfile [%d] indom=%d [%s] state=%s %d instances\n",
			j, int32(e.InDom), e.InDom, state(e.State), len(e.Insts))
		if len(e.Insts) > 0 {
			b.WriteString("\t\tInstances:")
			for _, in := range e.Insts {
				fmt.Fprintf(&b, " [%d]", in)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
