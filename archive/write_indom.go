package archive

import "sort"

// InDomChange is what a logger must write when an instance domain is
// fetched again: nothing, a full record, or a version 3 delta record.
type InDomChange int

// The kinds of InDomChange.
const (
	InDomSame InDomChange = iota
	InDomFull
	InDomDelta
)

// SortInDom orders an instance domain's instances by identifier, the
// order the metadata keeps.
func SortInDom(id *InDom) {
	sort.Sort(byInst{id})
}

type byInst struct{ id *InDom }

func (s byInst) Len() int           { return len(s.id.Insts) }
func (s byInst) Less(i, j int) bool { return s.id.Insts[i] < s.id.Insts[j] }
func (s byInst) Swap(i, j int) {
	s.id.Insts[i], s.id.Insts[j] = s.id.Insts[j], s.id.Insts[i]
	s.id.Names[i], s.id.Names[j] = s.id.Names[j], s.id.Names[i]
}

// CompareInDom decides how the instance domain now (sorted) is recorded
// after old (sorted; nil if never recorded), as PCP's pmlogger decides:
// a version 2 archive gets a full record whenever the instances or their
// names differ; a version 3 archive gets a delta record of the additions
// and removals (in instance order) when they are no more than the new
// domain's size and no instance changed its name, else a full record.
func CompareInDom(version int, old, now *InDom) (InDomChange, *InDom) {
	if old == nil {
		return InDomFull, nil
	}
	var d InDom
	i, j := 0, 0
	for i < len(old.Insts) || j < len(now.Insts) {
		switch {
		case j == len(now.Insts) || (i < len(old.Insts) && old.Insts[i] < now.Insts[j]):
			d.Insts = append(d.Insts, old.Insts[i])
			d.Names = append(d.Names, "")
			d.Deleted = append(d.Deleted, true)
			i++
		case i == len(old.Insts) || old.Insts[i] > now.Insts[j]:
			d.Insts = append(d.Insts, now.Insts[j])
			d.Names = append(d.Names, now.Names[j])
			d.Deleted = append(d.Deleted, false)
			j++
		default:
			if old.Names[i] != now.Names[j] {
				return InDomFull, nil
			}
			i++
			j++
		}
	}
	switch {
	case len(d.Insts) == 0:
		return InDomSame, nil
	case version == Version2 || len(d.Insts) > len(now.Insts):
		return InDomFull, nil
	}
	d.Stamp, d.Delta = now.Stamp, true
	return InDomDelta, &d
}
