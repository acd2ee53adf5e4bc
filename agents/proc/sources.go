package proc

import (
	"github.com/gopcp/gopcp/agents/proc/acct"
	"github.com/gopcp/gopcp/agents/proc/cgroup"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pmda"
)

// The agent serves cgroup.* and acct.* (the same domain in PCP's
// pmdaproc) from packages agents/proc/cgroup and agents/proc/acct,
// routing their clusters and instance domains to them. Their tables are
// in domain 3; PMIDs and instance domains are mapped when the agent
// runs in another.

// inCgroup is id in the cgroup package's domain.
func inCgroup(id pcp.PMID) pcp.PMID { return pcp.NewPMID(cgroup.Domain, id.Cluster(), id.Item()) }

// sourceRefresh notes the cgroup metrics a fetch asks for, which the
// fetch's first FetchSet, knowing the client and so its container, has
// the cgroup source read.
func (p *Proc) sourceRefresh(pmids []pcp.PMID) {
	p.cgNeed = p.cgNeed[:0]
	for _, id := range pmids {
		if id.Domain() == p.domain && cgroup.HasCluster(id.Cluster()) {
			p.cgNeed = append(p.cgNeed, inCgroup(id))
		}
	}
}

// acctAllowed is whether acct's records are read for client cs: with
// -A, or for a client whose user pmcd passed on, as in PCP's agent.
func (p *Proc) acctAllowed(cs *clientState) bool {
	return p.allAccess || (cs != nil && cs.hasUID)
}

// sourceFetchSet answers a cgroup or acct metric; handled is false for
// the agent's own.
func (p *Proc) sourceFetchSet(c pmda.Client, pmid pcp.PMID, pv pmda.ProfileView, add func(int32, pcp.Type, *pcp.Atom) error) (handled bool, err error) {
	switch {
	case cgroup.HasCluster(pmid.Cluster()):
		return true, p.cg.FetchSet(inCgroup(pmid), pv, add)
	case pmid.Cluster() == acct.Cluster:
	default:
		return false, nil
	}
	m := p.acctMetrics[pmid.Item()]
	if m == nil {
		return true, pcp.ErrPMID
	}
	// The agent's atom and list, under the p.state Refresh took: a local
	// atom escapes through add, an allocation per value.
	a := &p.atom
	if m.Desc.InDom == pcp.InDomNull {
		v, err := p.ac.Fetch(m, pcp.InstNull)
		if err != nil {
			return true, err
		}
		*a = v
		return true, add(pcp.InstNull, m.Desc.Type, a)
	}
	indom := pcp.NewInDom(p.domain, acct.InDomSerial)
	var last error
	n := 0
	p.acctInsts = p.ac.AppendInstances(p.acctInsts[:0])
	for _, in := range p.acctInsts {
		if !pv.Selects(indom, in.ID) {
			continue
		}
		v, err := p.ac.Fetch(m, in.ID)
		last = err
		if err != nil {
			continue
		}
		*a = v
		if err := add(in.ID, m.Desc.Type, a); err != nil {
			return true, err
		}
		n++
	}
	if n > 0 || last == nil {
		return true, nil
	}
	return true, last
}

// sourceInstances answers instance requests for the sources' domains,
// refreshing first as PCP's agent does for an instance request.
func (p *Proc) sourceInstances(c pmda.Client, indom pcp.InDom) (insts []pmda.Instance, handled bool, err error) {
	switch s := indom.Serial(); {
	case cgroup.HasInDom(s):
		in := pcp.NewInDom(cgroup.Domain, s)
		p.cg.RefreshInDomContainer(in, p.container.cgroup)
		insts, err = p.cg.Instances(in)
		return insts, true, err
	case s == acct.InDomSerial:
		if p.acctAllowed(p.client(c)) {
			p.ac.Refresh()
		}
		return p.ac.Instances(), true, nil
	}
	return nil, false, nil
}

// sourceStore stores into acct's controls, for root clients only.
func (p *Proc) sourceStore(cs *clientState, set *pcp.ValueSet) (handled bool, err error) {
	if set.PMID.Cluster() != acct.Cluster {
		return false, nil
	}
	if cs == nil || !cs.hasUID || cs.uid != 0 {
		return true, pcp.ErrPermission
	}
	s := *set
	s.PMID = pcp.NewPMID(acct.Domain, set.PMID.Cluster(), set.PMID.Item())
	return true, p.ac.Store(&s)
}
