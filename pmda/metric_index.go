package pmda

import "github.com/gopcp/gopcp/pcp"

// metricIndex finds a metric of the table by PMID. Agents number their
// clusters and items densely, so the index is usually a table by cluster
// then item, two slice lookups and 4 bytes a slot, where a map cost the
// linux agent, whose 1,340 metrics are built at every start of a tool
// with a local context, about 40 kB of fresh pages. A table of PMIDs too
// sparse for that (more than sparseSlots slots a metric) gets a map.
type metricIndex struct {
	domain uint32
	ms     []Metric  // the table, in the agent's order
	dense  [][]int32 // by cluster, then item: the position in ms plus one; 0 for none
	sparse map[pcp.PMID]int32
}

// sparseSlots is how many slots of the dense table a metric may cost
// before the index is a map instead.
const sparseSlots = 4

// build indexes ms, whose PMIDs are all in domain. It reports the first
// PMID found twice.
func (x *metricIndex) build(domain uint32, ms []Metric) (pcp.PMID, bool) {
	x.domain, x.ms = domain, ms
	var rows []int // the slots each cluster needs
	for i := range ms {
		c, it := int(ms[i].Desc.PMID.Cluster()), int(ms[i].Desc.PMID.Item())
		for len(rows) <= c {
			rows = append(rows, 0)
		}
		rows[c] = max(rows[c], it+1)
	}
	slots := 0
	for _, n := range rows {
		slots += n
	}
	if slots > sparseSlots*len(ms)+64 {
		x.sparse = make(map[pcp.PMID]int32, len(ms))
		for i := range ms {
			id := ms[i].Desc.PMID
			if _, dup := x.sparse[id]; dup {
				return id, false
			}
			x.sparse[id] = int32(i)
		}
		return 0, true
	}
	// One allocation for every cluster's row.
	all := make([]int32, slots)
	x.dense = make([][]int32, len(rows))
	for c, n := range rows {
		x.dense[c], all = all[:n:n], all[n:]
	}
	for i := range ms {
		id := ms[i].Desc.PMID
		slot := &x.dense[id.Cluster()][id.Item()]
		if *slot != 0 {
			return id, false
		}
		*slot = int32(i) + 1
	}
	return 0, true
}

// get is the metric of id, or nil.
func (x *metricIndex) get(id pcp.PMID) *Metric {
	if x.sparse != nil {
		if i, ok := x.sparse[id]; ok {
			return &x.ms[i]
		}
		return nil
	}
	c, it := int(id.Cluster()), int(id.Item())
	if pcp.NewPMID(x.domain, uint32(c), uint32(it)) != id || c >= len(x.dense) || it >= len(x.dense[c]) {
		return nil
	}
	if i := x.dense[c][it]; i > 0 {
		return &x.ms[i-1]
	}
	return nil
}
