package pmlogger

import (
	"github.com/gopcp/gopcp/derive"
	"github.com/gopcp/gopcp/pcp"
)

// derivedLogged is the cluster bit pmlogger sets in a derived metric's
// PMID before it goes into an archive, so that the archive's metric no
// longer looks derived: a client replaying the archive with the same
// definitions loaded sees the logged values rather than computing them
// again.
const derivedLogged = 2048

// loggedPMID is pmid as an archive records it.
func loggedPMID(pmid pcp.PMID) pcp.PMID {
	if !derive.IsDerived(pmid) || pmid.Cluster()&derivedLogged != 0 {
		return pmid
	}
	return pcp.NewPMID(pmid.Domain(), pmid.Cluster()|derivedLogged, pmid.Item())
}
