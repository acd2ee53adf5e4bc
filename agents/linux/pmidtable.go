package linux

import "github.com/gopcp/gopcp/pcp"

// pmidTable finds a metric's binding by PMID with two slice indexes,
// cluster then item, where a map would hash each of the thousand and more
// PMIDs of a fetch twice (once to refresh, once to fetch). PCP numbers
// the agent's clusters and items densely enough that the table stays
// small; a PMID of another domain finds nothing.
type pmidTable struct {
	domain   uint32
	clusters [][]*binding
}

// reserve makes room for rows[c] items in cluster c, in one allocation.
func (t *pmidTable) reserve(rows []int) {
	total := 0
	for _, n := range rows {
		total += n
	}
	all := make([]*binding, total)
	t.clusters = make([][]*binding, len(rows))
	for c, n := range rows {
		t.clusters[c], all = all[:n:n], all[n:]
	}
}

// add files b under id.
func (t *pmidTable) add(id pcp.PMID, b *binding) {
	c, i := int(id.Cluster()), int(id.Item())
	for len(t.clusters) <= c {
		t.clusters = append(t.clusters, nil)
	}
	for len(t.clusters[c]) <= i {
		t.clusters[c] = append(t.clusters[c], nil)
	}
	t.clusters[c][i] = b
}

// get is id's binding, or nil.
func (t *pmidTable) get(id pcp.PMID) *binding {
	c, i := int(id.Cluster()), int(id.Item())
	if pcp.NewPMID(t.domain, uint32(c), uint32(i)) != id || c >= len(t.clusters) || i >= len(t.clusters[c]) {
		return nil
	}
	return t.clusters[c][i]
}
