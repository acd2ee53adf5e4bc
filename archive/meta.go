package archive

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
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
// its deleted instances having Deleted set.
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
	descs  htab[*pcp.Desc]
	names  *nameTree
	indoms htab[[]*InDom]              // newest first
	labels htab[*htab[[]*LabelRecord]] // type, ident: newest first
	texts  htab[*htab[string]]         // type, ident
	nDesc  int
}

// metaReader walks metadata records with fread's semantics on a buffer.
type metaReader struct {
	b   []byte
	off int
}

func (r *metaReader) u32() (uint32, bool) {
	if len(r.b)-r.off < 4 {
		r.off = len(r.b)
		return 0, false
	}
	v := binary.BigEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v, true
}

// loadMeta parses a whole metadata file (label included).
func loadMeta(b []byte, version int) (*Meta, error) {
	m := &Meta{names: newNameTree()}
	err := m.load(b, version)
	m.checkDupLabels()
	if err == nil && m.nDesc == 0 {
		err = errLogRec(int64(len(b)), "no metric descriptors")
	}
	m.names.finish()
	m.resolveDeltas()
	return m, err
}

func (m *Meta) load(b []byte, version int) error {
	r := &metaReader{b: b, off: labelSize(version)}
	if r.off > len(b) {
		return nil
	}
	for {
		start := r.off
		if len(b)-start < 8 {
			return nil // a partial header at the end of the file is its end
		}
		hlen := int32(binary.BigEndian.Uint32(b[start:]))
		htype := int32(binary.BigEndian.Uint32(b[start+4:]))
		if hlen <= 0 {
			return errLogRec(int64(start), fmt.Sprintf("record length %d", hlen))
		}
		r.off += 8
		rlen := int(hlen) - 12
		body := func() ([]byte, error) {
			if rlen < 0 || rlen > len(b)-r.off {
				r.off = len(b)
				return nil, errLogRec(int64(start), fmt.Sprintf("record of %d bytes is cut short", hlen))
			}
			p := b[r.off : r.off+rlen]
			r.off += rlen
			return p, nil
		}
		switch htype {
		case TypeDesc:
			if err := m.loadDesc(r, start); err != nil {
				return err
			}
		case TypeInDom, TypeInDomDelta, TypeInDomV2:
			p, err := body()
			if err != nil {
				return err
			}
			id, indom, _, err := decodeInDom(p, int(htype))
			if err != nil {
				return withOffset(err, start)
			}
			if len(id.Insts) > 0 {
				sortInsts(id)
				m.addInDom(indom, id)
			}
		case TypeLabel, TypeLabelV2:
			p, err := body()
			if err != nil {
				return err
			}
			lr, err := decodeLabelRecord(p, int(htype))
			if err != nil {
				return withOffset(err, start)
			}
			m.addLabel(lr)
		case TypeText:
			p, err := body()
			if err != nil {
				return err
			}
			ok, typ, ident, text := decodeText(p)
			if !ok {
				// libpcp skips such a record without reading its
				// trailer, which it then takes for the next header.
				continue
			}
			m.addText(typ, ident, text)
		default:
			return &Error{Code: pcp.ErrRecType, Offset: int64(start), Msg: fmt.Sprintf("metadata record type %d", htype)}
		}
		check, ok := r.u32()
		if !ok || int32(check) != hlen {
			return errLogRec(int64(start), "record trailer does not match its header")
		}
	}
}

func withOffset(err error, off int) error {
	if e, ok := err.(*Error); ok && e.Offset == 0 {
		e.Offset = int64(off)
	}
	return err
}

// loadDesc reads a descriptor and its names, field by field as libpcp
// does, without regard to the record's length.
func (m *Meta) loadDesc(r *metaReader, start int) error {
	short := func() error { return errLogRec(int64(start), "descriptor record cut short") }
	if len(r.b)-r.off < 20 {
		r.off = len(r.b)
		return short()
	}
	p := r.b[r.off:]
	d := pcp.Desc{
		PMID:  pcp.PMID(binary.BigEndian.Uint32(p)),
		Type:  pcp.Type(int32(binary.BigEndian.Uint32(p[4:]))),
		InDom: pcp.InDom(binary.BigEndian.Uint32(p[8:])),
		Sem:   pcp.Sem(int32(binary.BigEndian.Uint32(p[12:]))),
		Units: pcp.UnpackUnits(binary.BigEndian.Uint32(p[16:])),
	}
	r.off += 20
	m.nDesc++
	if err := m.addDesc(&d); err != nil {
		return withOffset(err, start)
	}
	n, ok := r.u32()
	if !ok {
		return short()
	}
	for i := 0; i < int(int32(n)); i++ {
		l, ok := r.u32()
		if !ok {
			return short()
		}
		if int(int32(l)) < 0 || int(l) > len(r.b)-r.off {
			r.off = len(r.b)
			return short()
		}
		name := r.b[r.off : r.off+int(l)]
		r.off += int(l)
		if j := bytes.IndexByte(name, 0); j >= 0 {
			name = name[:j]
		}
		m.names.add(d.PMID, string(name))
	}
	return nil
}

func (m *Meta) addDesc(d *pcp.Desc) error {
	if n := m.descs.search(uint32(d.PMID)); n != nil {
		old := n.data
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
	m.descs.add(uint32(d.PMID), d)
	return nil
}

// decodeInDom parses the body of an instance domain record (after the
// length and type words) of the given record type, instances in record
// order, with the count the record gives. Deleted instances of a delta
// record have Deleted set.
func decodeInDom(p []byte, typ int) (*InDom, pcp.InDom, int32, error) {
	bad := func(msg string) (*InDom, pcp.InDom, int32, error) {
		return nil, 0, 0, errLogRec(0, "instance domain record: "+msg)
	}
	var id InDom
	var fixed int
	if typ == TypeInDomV2 {
		fixed = 16
		if len(p) < fixed {
			return bad("cut short")
		}
		id.Stamp = loadTimeval(p)
		p = p[8:]
	} else {
		fixed = 20
		if len(p) < fixed {
			return bad("cut short")
		}
		id.Stamp = loadTimestamp(p)
		p = p[12:]
	}
	indom := pcp.InDom(binary.BigEndian.Uint32(p))
	n := int32(binary.BigEndian.Uint32(p[4:]))
	p = p[8:]
	rlen := len(p) + fixed
	if n <= 0 {
		return &id, indom, n, nil
	}
	if int64(n)*8 > int64(len(p)) {
		return bad(fmt.Sprintf("%d instances cannot fit", n))
	}
	id.Insts = make([]int32, n)
	id.Names = make([]string, n)
	delta := typ == TypeInDomDelta
	if delta {
		id.Delta = true
		id.Deleted = make([]bool, n)
	}
	names := p[8*int(n):]
	maxIdx := rlen - fixed - 8*int(n)
	for i := 0; i < int(n); i++ {
		inst := int32(binary.BigEndian.Uint32(p[4*i:]))
		if inst < 0 {
			return bad(fmt.Sprintf("instance %d has identifier %d", i, inst))
		}
		id.Insts[i] = inst
		idx := int32(binary.BigEndian.Uint32(p[4*(int(n)+i):]))
		switch {
		case idx >= 0:
			if int(idx) > maxIdx || int(idx) > len(names) {
				return bad(fmt.Sprintf("instance %d name index %d beyond the record", i, idx))
			}
			s := names[idx:]
			if j := bytes.IndexByte(s, 0); j >= 0 {
				s = s[:j]
			}
			id.Names[i] = string(s)
		case delta && idx == -1:
			id.Deleted[i] = true
		default:
			return bad(fmt.Sprintf("instance %d name index %d", i, idx))
		}
	}
	return &id, indom, n, nil
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

// decodeLabelRecord parses the body of a label set record.
func decodeLabelRecord(p []byte, typ int) (*LabelRecord, error) {
	bad := func(msg string) (*LabelRecord, error) {
		return nil, errLogRec(0, "label record: "+msg)
	}
	lr := &LabelRecord{}
	k := 0
	if typ == TypeLabelV2 {
		if len(p) < 20 {
			return bad("cut short")
		}
		lr.Stamp = loadTimeval(p)
		k = 8
	} else {
		if len(p) < 24 {
			return bad("cut short")
		}
		lr.Stamp = loadTimestamp(p)
		k = 12
	}
	lr.Type = binary.BigEndian.Uint32(p[k:])
	lr.Ident = binary.BigEndian.Uint32(p[k+4:])
	nsets := int32(binary.BigEndian.Uint32(p[k+8:]))
	k += 12
	if nsets < 0 {
		return bad(fmt.Sprintf("%d label sets", nsets))
	}
	if int64(nsets)*12 > int64(len(p)-k) {
		return bad(fmt.Sprintf("%d label sets cannot fit", nsets))
	}
	lr.Sets = make([]pcp.LabelSet, nsets)
	for i := range lr.Sets {
		s := &lr.Sets[i]
		if len(p)-k < 8 {
			return bad("cut short")
		}
		s.Inst = int32(binary.BigEndian.Uint32(p[k:]))
		jl := int32(binary.BigEndian.Uint32(p[k+4:]))
		k += 8
		if jl < 0 || jl > pcp.MaxLabelJSONLen || int(jl) > len(p)-k {
			return bad(fmt.Sprintf("JSON length %d", jl))
		}
		s.JSON = string(p[k : k+int(jl)])
		k += int(jl)
		if len(p)-k < 4 {
			return bad("cut short")
		}
		s.NLabels = int32(binary.BigEndian.Uint32(p[k:]))
		k += 4
		if s.NLabels > 0 {
			if s.NLabels > pcp.MaxLabels || k+int(s.NLabels)*8 > len(p) {
				return bad(fmt.Sprintf("%d labels", s.NLabels))
			}
			s.Labels = make([]pcp.Label, s.NLabels)
			for j := range s.Labels {
				b := p[k:]
				s.Labels[j] = pcp.Label{
					Name:     binary.BigEndian.Uint16(b),
					NameLen:  b[2],
					Flags:    b[3],
					Value:    binary.BigEndian.Uint16(b[4:]),
					ValueLen: binary.BigEndian.Uint16(b[6:]),
				}
				k += 8
			}
		}
	}
	return lr, nil
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

// decodeText parses a help text record: its kind, identifier and text.
// ok is false for a record libpcp skips.
func decodeText(p []byte) (ok bool, typ, ident uint32, text string) {
	if len(p) < 8 {
		return false, 0, 0, ""
	}
	typ = binary.BigEndian.Uint32(p)
	if typ&(TextOneLine|TextHelp) == 0 || typ&(TextInDom|TextPMID) == 0 {
		return false, 0, 0, ""
	}
	ident = binary.BigEndian.Uint32(p[4:])
	t := p[8:]
	if j := bytes.IndexByte(t, 0); j >= 0 {
		t = t[:j]
	}
	return true, typ, ident, string(t)
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
