package pmns

import "github.com/gopcp/gopcp/pcp"

// dynamicDomain is DYNAMIC_PMID, the domain PCP reserves for the roots of
// dynamic subtrees (and for derived metrics, which are not ours).
const dynamicDomain = 511

// DynamicRoot is the PMID PCP gives a DOMAIN:*:* entry: domain 511 with the
// agent's domain in the cluster field and item 0. It is what a lookup of any
// name at or below that entry yields, and what pmcd takes as its cue to ask
// the agent.
func DynamicRoot(domain uint32) pcp.PMID { return pcp.NewPMID(dynamicDomain, domain, 0) }

// IsDynamicRoot reports whether pmid marks the root of a dynamic subtree
// (IS_DYNAMIC_ROOT in PCP).
func IsDynamicRoot(pmid pcp.PMID) bool {
	return pmid.Domain() == dynamicDomain && pmid.Item() == 0
}

// DynamicDomain returns the domain of the agent that owns the dynamic
// subtree pmid marks, and false when pmid is not a dynamic root.
func DynamicDomain(pmid pcp.PMID) (uint32, bool) {
	if !IsDynamicRoot(pmid) {
		return 0, false
	}
	return pmid.Cluster(), true
}
