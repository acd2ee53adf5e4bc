package pmapi

import (
	"sort"

	"github.com/gopcp/gopcp/pcp"
)

// interpDamage is where reading an archive forwards broke: libpcp's
// interpolation reads records lazily, so it fails only on the fetches
// whose search for a bound runs into the damage, and answers the others
// from the records before it.
type interpDamage struct {
	err error   // the reader's error, pcp.ErrLogRec for a damaged record
	t   float64 // the time of the last record read before it
}

// pastDamage reports whether a fetch at t must read past the damage: an
// instance it asks for has no value or <mark> at or after t before the
// damage, so libpcp's forward search for its next bound reaches the
// broken record. Instances the metadata says are not alive at t are not
// searched for.
func (ip *interpolator) pastDamage(pmids []pcp.PMID, t float64) bool {
	if ip.damage == nil {
		return false
	}
	if i := sort.SearchFloat64s(ip.marks, t); i < len(ip.marks) {
		return false // every search stops at the <mark>
	}
	for _, id := range pmids {
		m := ip.metrics[id]
		if id == pcp.PMIDNull || m == nil || m.err != 0 {
			continue
		}
		for _, inst := range m.order {
			if m.desc.InDom != pcp.InDomNull && !ip.c.profile.admits(m.desc.InDom, inst) {
				continue
			}
			if life, ok := m.alive[inst]; ok && (life[0] > t || (life[1] >= 0 && t > life[1])) {
				continue
			}
			is := m.insts[inst]
			if i := sort.SearchFloat64s(is.times, t); i == len(is.times) {
				return true
			}
		}
	}
	return false
}
