package archive

import (
	"fmt"
	"math"
	"strings"

	"github.com/gopcp/gopcp/pcp"
)

// Desc returns the descriptor of pmid; pcp.ErrPMIDLog when the archive
// has none.
func (m *Meta) Desc(pmid pcp.PMID) (pcp.Desc, error) {
	if n := m.descs.search(uint32(pmid)); n != nil {
		return n.data, nil
	}
	return pcp.Desc{}, pcp.ErrPMIDLog
}

// EachDesc calls f for every descriptor in libpcp's order (the order
// pmdumplog -d prints them in).
func (m *Meta) EachDesc(f func(d pcp.Desc)) {
	m.descs.each(func(n *hnode[pcp.Desc]) { f(n.data) })
}

// NumDescs is the number of distinct metrics described.
func (m *Meta) NumDescs() int { return m.descs.nodes }

// Names returns the names of pmid in pmNameAll's order; pcp.ErrPMID when
// it has none.
func (m *Meta) Names(pmid pcp.PMID) ([]string, error) {
	if l := m.names.namesOf(pmid); len(l) > 0 {
		return l, nil
	}
	return nil, pcp.ErrPMID
}

// LookupName returns the PMID of a metric name; pcp.ErrNonLeaf for an
// inner node of the name space, pcp.ErrName for an unknown name.
func (m *Meta) LookupName(name string) (pcp.PMID, error) {
	n := m.names.locate(name)
	switch {
	case n == nil:
		return 0, pcp.ErrName
	case n.pmid == pmIDNull:
		if n.first != nil {
			return 0, pcp.ErrNonLeaf
		}
		return 0, pcp.ErrName
	}
	return pcp.PMID(n.pmid), nil
}

// Traverse returns the names of the leaves at and under name ("" for the
// whole name space), pcp.ErrName when there is no such node.
func (m *Meta) Traverse(name string) ([]string, error) {
	n := &m.names.root
	if name != "" {
		n = m.names.locate(name)
		if n == nil {
			return nil, pcp.ErrName
		}
	}
	return leaves(n, name, nil), nil
}

// Children calls f for each child of name ("" for the root) in the
// name space's order, with its PMID (pcp.PMIDNull for an inner node) and
// whether it has children of its own; pcp.ErrName when there is no such
// node. A leaf has no children: f is not called. It answers what a
// namespace built from Traverse's names would, without building one.
func (m *Meta) Children(name string, f func(child string, pmid pcp.PMID, inner bool)) error {
	n := &m.names.root
	if name != "" {
		if n = m.names.locate(name); n == nil {
			return pcp.ErrName
		}
	}
	for c := n.first; c != nil; c = c.next {
		f(c.name(), pcp.PMID(c.pmid), c.first != nil)
	}
	return nil
}

// EachInDom calls f for every instance domain in libpcp's order, with its
// records oldest first.
func (m *Meta) EachInDom(f func(indom pcp.InDom, history []*InDom)) {
	m.indoms.each(func(n *hnode[[]*InDom]) {
		h := make([]*InDom, len(n.data))
		for i, id := range n.data {
			h[len(h)-1-i] = id
		}
		f(pcp.InDom(n.key), h)
	})
}

// InDomAt returns the instance domain as recorded at or before t, as
// __pmLogSearchInDom finds it; pcp.ErrInDomLog when there is none.
func (m *Meta) InDomAt(indom pcp.InDom, t pcp.Timestamp) (*InDom, error) {
	n := m.indoms.search(uint32(indom))
	if n == nil {
		return nil, pcp.ErrInDomLog
	}
	for _, id := range n.data {
		if id.Stamp.Compare(t) <= 0 {
			return id, nil
		}
	}
	return nil, pcp.ErrInDomLog
}

// LatestInDom returns the last instance domain recorded.
func (m *Meta) LatestInDom(indom pcp.InDom) (*InDom, error) {
	n := m.indoms.search(uint32(indom))
	if n == nil || len(n.data) == 0 {
		return nil, pcp.ErrInDomLog
	}
	return n.data[0], nil
}

// NameInDom returns the name of instance inst of indom at time t,
// pcp.ErrInstLog when that instance domain lacks it.
func (m *Meta) NameInDom(indom pcp.InDom, inst int32, t pcp.Timestamp) (string, error) {
	id, err := m.InDomAt(indom, t)
	if err != nil {
		return "", err
	}
	for i, x := range id.Insts {
		if x == inst {
			return id.Names[i], nil
		}
	}
	return "", pcp.ErrInstLog
}

// LookupInDom returns the instance of indom at time t named name, or
// failing an exact match the first whose name up to its first space is
// name, as __pmLogLookupInDom does.
func (m *Meta) LookupInDom(indom pcp.InDom, name string, t pcp.Timestamp) (int32, error) {
	id, err := m.InDomAt(indom, t)
	if err != nil {
		return 0, err
	}
	for i, n := range id.Names {
		if n == name {
			return id.Insts[i], nil
		}
	}
	for i, n := range id.Names {
		if j := strings.IndexByte(n, ' '); j >= 0 && strings.HasPrefix(name, n[:j]) {
			return id.Insts[i], nil
		}
	}
	return 0, pcp.ErrInstLog
}

// LabelGroup is the label sets of one kind and identifier recorded at one
// time.
type LabelGroup struct {
	Type  uint32 // PM_LABEL_* level (flags cleared)
	Ident uint32
	Sets  []pcp.LabelSet
}

// LabelTime is every label record of one time, in pmdumplog's order.
type LabelTime struct {
	Stamp  pcp.Timestamp
	Groups []LabelGroup
}

// LabelHistory returns the label metadata by time, oldest first, each time
// with its records by level (context, domain, cluster, item, indom,
// instances) and identifier, as pmdumplog -e orders them.
func (m *Meta) LabelHistory() []LabelTime {
	var out []LabelTime
	prev := pcp.Timestamp{}
	for {
		minDiff := math.MaxFloat64
		var this pcp.Timestamp
		m.labels.each(func(tn *hnode[*htab[[]*LabelRecord]]) {
			tn.data.each(func(n *hnode[[]*LabelRecord]) {
				for _, lr := range n.data {
					d := lr.Stamp.Sub(prev)
					if d <= 0 {
						break
					}
					if d < minDiff {
						minDiff = d
						this = lr.Stamp
					}
				}
			})
		})
		if minDiff == math.MaxFloat64 {
			return out
		}
		lt := LabelTime{Stamp: this}
		for _, typ := range []uint32{labelContext, labelDomain, labelCluster, labelItem, labelInDom, labelInstances} {
			tn := m.labels.search(typ)
			if tn == nil {
				continue
			}
			emit := func(n *hnode[[]*LabelRecord]) {
				for _, lr := range n.data {
					if lr.Stamp.Sub(this) != 0 {
						continue
					}
					lt.Groups = append(lt.Groups, LabelGroup{Type: typ, Ident: n.key, Sets: lr.Sets})
				}
			}
			if typ == labelContext {
				// One chain holds them all; walk it from its head on.
				var first *hnode[[]*LabelRecord]
				for _, b := range tn.data.buckets {
					if b != nil {
						first = b
						break
					}
				}
				for n := first; n != nil; n = n.next {
					emit(n)
				}
				continue
			}
			var prevNode *hnode[[]*LabelRecord]
			for {
				var next *hnode[[]*LabelRecord]
				tn.data.each(func(n *hnode[[]*LabelRecord]) {
					if prevNode != nil && n.key <= prevNode.key {
						return
					}
					if next == nil || n.key < next.key {
						next = n
					}
				})
				if next == nil {
					break
				}
				emit(next)
				prevNode = next
			}
		}
		out = append(out, lt)
		prev = this
	}
}

// LabelsAt returns the label sets of a level and identifier in force at
// time t (the latest recorded at or before it); pcp.ErrNoLabels when
// there are none.
func (m *Meta) LabelsAt(typ, ident uint32, t pcp.Timestamp) ([]pcp.LabelSet, error) {
	typ, ident = labelKey(typ, ident)
	tn := m.labels.search(typ)
	if tn == nil {
		return nil, pcp.ErrNoLabels
	}
	n := tn.data.search(ident)
	if n == nil {
		return nil, pcp.ErrNoLabels
	}
	for _, lr := range n.data {
		if lr.Stamp.Compare(t) <= 0 {
			return lr.Sets, nil
		}
	}
	return nil, nil
}

// HelpText is one help text of the archive.
type HelpText struct {
	Kind  uint32 // TextPMID or TextInDom
	Class uint32 // TextOneLine or TextHelp
	Ident uint32
	Text  string
}

// HelpTexts returns the help texts as pmdumplog -h orders them: metrics
// before instance domains, by identifier, the one-line text before the
// full one.
func (m *Meta) HelpTexts() []HelpText {
	var out []HelpText
	for _, kind := range []uint32{TextPMID, TextInDom} {
		var prev [2]*hnode[string]
		for {
			var this [2]*hnode[string]
			for c, class := range []uint32{TextOneLine, TextHelp} {
				tn := m.textTable().search(kind | class)
				if tn == nil {
					continue
				}
				tn.data.each(func(n *hnode[string]) {
					if prev[c] != nil && n.key <= prev[c].key {
						return
					}
					if this[c] == nil || n.key < this[c].key {
						this[c] = n
					}
				})
			}
			if this[0] == nil && this[1] == nil {
				break
			}
			for c, class := range []uint32{TextOneLine, TextHelp} {
				if this[c] == nil {
					continue
				}
				if this[c^1] == nil || this[c].key <= this[c^1].key {
					out = append(out, HelpText{Kind: kind, Class: class, Ident: this[c].key, Text: this[c].data})
					prev[c] = this[c]
				}
			}
		}
	}
	return out
}

// Text returns the help text of an identifier; pcp.ErrText when there is
// none.
func (m *Meta) Text(kind, class, ident uint32) (string, error) {
	if tn := m.textTable().search(kind | class); tn != nil {
		if n := tn.data.search(ident); n != nil {
			return n.data, nil
		}
	}
	return "", pcp.ErrText
}

// EachDiskInDom calls f for every instance domain record of the metadata
// file in file order, as recorded (instances unsorted, deltas not
// resolved), with the record type and the instance count it gives.
func (a *Archive) EachDiskInDom(f func(typ int, indom pcp.InDom, id *InDom, numinst int32)) error {
	fd, err := openFile(a.metaFile)
	if err != nil {
		return err
	}
	d := metaDecoder(fd.b, labelSize(a.Version()))
	for d.Off <= len(d.B)-8 {
		start := d.Off
		hlen := d.I32("record length")
		typ := d.I32("record type")
		if hlen <= 0 {
			return errLogRec(int64(start), fmt.Sprintf("record length %d", hlen))
		}
		body := recordBody(&d, hlen)
		if typ == TypeInDom || typ == TypeInDomDelta || typ == TypeInDomV2 {
			id, indom, n := decodeInDom(&body, int(typ))
			if body.Err != nil {
				return inRecord(body.Err, typ, start)
			}
			f(int(typ), indom, id, n)
		}
		at := d.Off
		if check := d.I32("record trailer"); d.Err == nil && check != hlen {
			d.Fail(at, fmt.Sprintf("trailer %d does not match the length %d", check, hlen))
		}
		if d.Err != nil {
			return inRecord(d.Err, typ, start)
		}
	}
	return nil
}

// Find returns the index of instance inst in id, by binary search over
// the sorted instances (linear for an unresolved delta record).
func (id *InDom) Find(inst int32) (int, bool) {
	if id == nil {
		return 0, false
	}
	if id.Delta {
		for i, x := range id.Insts {
			if x == inst {
				return i, true
			}
		}
		return 0, false
	}
	lo, hi := 0, len(id.Insts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if id.Insts[m] < inst {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(id.Insts) && id.Insts[lo] == inst {
		return lo, true
	}
	return 0, false
}
