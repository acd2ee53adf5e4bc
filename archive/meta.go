package archive

import (
	"cmp"
	"slices"

	"github.com/gopcp/gopcp/pcp"
)

// Metadata record types, TYPE_* in libpcp.
const (
	TypeDesc       = 1
	TypeInDomV2    = 2
	TypeLabelV2    = 3
	TypeText       = 4
	TypeInDom      = 5
	TypeInDomDelta = 6
	TypeLabel      = 7
)

// Help text kinds, PM_TEXT_*.
const (
	TextOneLine = 1
	TextHelp    = 2
	TextPMID    = 4
	TextInDom   = 8
)

// InDom is an instance domain as the archive recorded it at one time:
// instances sorted by identifier. A record of a version 3 delta that
// could not be resolved against an earlier full record keeps Delta set,
// its deleted instances having Deleted set. Records loaded from an
// archive may share their slices with one another: they are read-only.
type InDom struct {
	Stamp   pcp.Timestamp
	Insts   []int32
	Names   []string
	Delta   bool
	Deleted []bool // for delta records only
}

// LabelRecord is one label metadata record as kept in memory.
type LabelRecord struct {
	Stamp pcp.Timestamp
	Type  uint32 // PM_LABEL_* with the record's flag bits
	Ident uint32
	Sets  []pcp.LabelSet
}

// Meta is an archive's metadata, loaded as __pmLogLoadMeta loads it.
type Meta struct {
	descs  htab[pcp.Desc]
	names  *nameTree
	indoms htab[[]*InDom]              // newest first
	labels htab[*htab[[]*LabelRecord]] // type, ident: newest first
	texts  htab[*htab[string]]         // type, ident: see textTable
	// pending holds the help text records until one is asked for
	pending *pendingTexts
	nDesc   int
	last    map[pcp.InDom]lastInDom // while loading: see repeatedInDom
}

func (m *Meta) addDesc(d *pcp.Desc) error {
	if n := m.descs.search(uint32(d.PMID)); n != nil {
		old := &n.data
		switch {
		case d.Type != old.Type:
			return &Error{Code: pcp.ErrLogChangeType}
		case d.Sem != old.Sem:
			return &Error{Code: pcp.ErrLogChangeSem}
		case d.InDom != old.InDom:
			return &Error{Code: pcp.ErrLogChangeInDom}
		case d.Units != old.Units:
			return &Error{Code: pcp.ErrLogChangeUnits}
		}
		return nil
	}
	m.descs.add(uint32(d.PMID), *d)
	return nil
}

// sortInsts orders the instances by identifier, keeping the record's
// order among equal ones as libpcp's stable insertion sort does. A
// stable merge sort gives the same order without insertion sort's
// quadratic time, which a damaged record of millions of instances
// would make unbounded in practice.
func sortInsts(id *InDom) {
	if slices.IsSorted(id.Insts) {
		return
	}
	perm := make([]int, len(id.Insts))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(id.Insts[a], id.Insts[b]) })
	insts := make([]int32, len(perm))
	names := make([]string, len(perm))
	var deleted []bool
	if id.Deleted != nil {
		deleted = make([]bool, len(perm))
	}
	for i, k := range perm {
		insts[i], names[i] = id.Insts[k], id.Names[k]
		if deleted != nil {
			deleted[i] = id.Deleted[k]
		}
	}
	id.Insts, id.Names, id.Deleted = insts, names, deleted
}

func sameInDom(a, b *InDom) bool {
	if len(a.Insts) != len(b.Insts) {
		return false
	}
	for i := range a.Insts {
		if a.Insts[i] != b.Insts[i] {
			return false
		}
		ad := a.Deleted != nil && a.Deleted[i]
		bd := b.Deleted != nil && b.Deleted[i]
		if ad != bd || (!ad && a.Names[i] != b.Names[i]) {
			return false
		}
	}
	return true
}

// addInDom files an instance domain into its chain, newest first, with a
// duplicate at the same time moved to the head of its time slot rather
// than added again, as addindom does.
func (m *Meta) addInDom(indom pcp.InDom, id *InDom) {
	n := m.indoms.search(uint32(indom))
	if n == nil {
		m.indoms.add(uint32(indom), []*InDom{id})
		return
	}
	chain := n.data
	i := 0
	for ; i < len(chain); i++ {
		c := chain[i].Stamp.Compare(id.Stamp)
		if c < 0 {
			break
		}
		if c == 0 {
			slot := i
			for j := i; j < len(chain) && chain[j].Stamp.Compare(id.Stamp) == 0; j++ {
				if sameInDom(chain[j], id) {
					if j == slot {
						return
					}
					dup := chain[j]
					copy(chain[slot+1:j+1], chain[slot:j])
					chain[slot] = dup
					return
				}
			}
			break
		}
	}
	chain = append(chain, nil)
	copy(chain[i+1:], chain[i:])
	chain[i] = id
	n.data = chain
}

// resolveDeltas rewrites each delta record as the full instance domain it
// makes of the one before it, as __pmLogUndeltaInDom does.
func (m *Meta) resolveDeltas() {
	m.indoms.each(func(n *hnode[[]*InDom]) {
		chain := n.data
		for i := len(chain) - 2; i >= 0; i-- {
			d := chain[i]
			if !d.Delta {
				continue
			}
			prev := chain[i+1]
			if prev.Delta {
				continue // no full record before it
			}
			undelta(prev, d)
		}
	})
}

func undelta(t, d *InDom) {
	insts := make([]int32, 0, len(t.Insts)+len(d.Insts))
	names := make([]string, 0, cap(insts))
	i, j := 0, 0
	for i < len(t.Insts) || j < len(d.Insts) {
		if i < len(t.Insts) && j < len(d.Insts) {
			if d.Deleted[j] && t.Insts[i] == d.Insts[j] {
				i++
				j++
				continue
			}
			if !d.Deleted[j] && t.Insts[i] > d.Insts[j] {
				insts = append(insts, d.Insts[j])
				names = append(names, d.Names[j])
				j++
				continue
			}
		}
		if i < len(t.Insts) {
			insts = append(insts, t.Insts[i])
			names = append(names, t.Names[i])
			i++
		} else {
			insts = append(insts, d.Insts[j])
			names = append(names, d.Names[j])
			j++
		}
	}
	d.Insts, d.Names, d.Delta, d.Deleted = insts, names, false, nil
}

// Label types, PM_LABEL_*.
const (
	labelContext   = 1 << 0
	labelDomain    = 1 << 1
	labelInDom     = 1 << 2
	labelCluster   = 1 << 3
	labelItem      = 1 << 4
	labelInstances = 1 << 5
	labelFlags     = 1<<6 | 1<<7
)

func labelKey(typ, ident uint32) (uint32, uint32) {
	typ &^= labelFlags
	if typ == labelContext {
		ident = pmIDNull
	}
	return typ, ident
}

// addLabel files a label record as addlabel does.
func (m *Meta) addLabel(lr *LabelRecord) {
	typ, ident := labelKey(lr.Type, lr.Ident)
	var node *hnode[[]*LabelRecord]
	if tn := m.labels.search(typ); tn != nil {
		node = tn.data.search(ident)
	}
	if node == nil || len(node.data[0].Sets) == 0 {
		tn := m.labels.search(typ)
		if tn == nil {
			tn = m.labels.add(typ, &htab[[]*LabelRecord]{})
		}
		tn.data.add(ident, []*LabelRecord{lr})
		return
	}
	chain := node.data
	i := 0
	for ; i < len(chain); i++ {
		if chain[i].Stamp.Compare(lr.Stamp) < 0 {
			break
		}
	}
	chain = append(chain, nil)
	copy(chain[i+1:], chain[i:])
	chain[i] = lr
	node.data = chain
}

// checkDupLabels drops from each label record the sets that the record
// before it in time also has, and records left empty, as
// check_dup_labels does.
func (m *Meta) checkDupLabels() {
	m.labels.each(func(tn *hnode[*htab[[]*LabelRecord]]) {
		tn.data.each(func(n *hnode[[]*LabelRecord]) {
			chain := n.data
			out := chain[:0]
			for i := 0; i < len(chain); i++ {
				lr := chain[i]
				if i+1 < len(chain) {
					next := chain[i+1]
					kept := lr.Sets[:0]
					for _, s := range lr.Sets {
						dup := false
						for k := range next.Sets {
							if sameLabelSet(&s, &next.Sets[k]) {
								dup = true
								break
							}
						}
						if !dup {
							kept = append(kept, s)
						}
					}
					lr.Sets = kept
					if len(lr.Sets) == 0 {
						continue
					}
				}
				out = append(out, lr)
			}
			n.data = out
		})
	})
}

func sameLabelSet(a, b *pcp.LabelSet) bool {
	if a.Inst != b.Inst || a.NLabels != b.NLabels {
		return false
	}
	for i := 0; i < int(a.NLabels) && i < len(a.Labels); i++ {
		found := false
		for j := 0; j < int(b.NLabels) && j < len(b.Labels); j++ {
			if a.LabelName(i) != b.LabelName(j) {
				continue
			}
			if a.LabelValue(i) != b.LabelValue(j) {
				return false
			}
			found = true
			break
		}
		if !found {
			return false
		}
	}
	return true
}

func (m *Meta) addText(typ, ident uint32, text string) {
	tn := m.texts.search(typ)
	if tn == nil {
		tn = m.texts.add(typ, &htab[string]{})
	}
	if n := tn.data.search(ident); n != nil {
		n.data = text
		return
	}
	tn.data.add(ident, text)
}
