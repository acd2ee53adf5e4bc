package mmv

import (
	"context"
	"math"
	"runtime/debug"
	"slices"
	"unsafe"

	"github.com/gopcp/gopcp/mmv"
	"github.com/gopcp/gopcp/mmv/mmvfile"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
)

// inNull is PM_IN_NULL as the files and pmdammv compare it.
const inNull = 0xffffffff

// lookup finds the value of pmid's instance inst as pmdammv does: in the
// files of pmid's cluster in scan order, the metrics with pmid's item in
// file order, the first value of such a metric whose instance is inst (any
// value for a metric without instance domain, or for inst PM_IN_NULL).
// The error is that of the last file looked at: ErrPMID when it has no
// such item, ErrInst when it has no such value.
func (s *state) lookup(pmid pcp.PMID, inst uint32) (*source, mmvfile.Metric, mmvfile.Value, error) {
	err := pcp.ErrPMID
	for _, src := range s.files {
		if src.cluster != pmid.Cluster() {
			continue
		}
		err = pcp.ErrPMID
		for _, m := range src.metrics {
			if m.Item != pmid.Item() {
				continue
			}
			err = pcp.ErrInst
			for _, v := range src.values {
				if v.Metric != uint64(m.Offset) {
					continue
				}
				if m.InDom == inNull || m.InDom == 0 || inst == inNull {
					return src, m, v, nil
				}
				if in, ok := src.f.InternalAt(v.Instance); ok && uint32(in) == inst {
					return src, m, v, nil
				}
			}
		}
	}
	return nil, mmvfile.Metric{}, mmvfile.Value{}, err
}

// Refresh takes a.mu and makes faults reading a mapping panics for the
// whole request, which FetchEnd undoes: a fetch's FetchSet calls run
// under it without taking the lock and switching fault handling once per
// metric.
func (a *agent) Refresh(ctx context.Context, pmids []pcp.PMID) error {
	a.mu.Lock()
	a.oldFault = debug.SetPanicOnFault(true)
	return nil
}

// FetchEnd undoes Refresh, as pmda.FetchEnder.
func (a *agent) FetchEnd() { a.leave() }

// FetchSet gives a metric's values: the control metrics' own, or for a
// file's metric those of every instance the profile selects, read from
// the mapping now; under the a.mu Refresh took.
func (a *agent) FetchSet(ctx context.Context, c pmda.Client, pmid pcp.PMID, p pmda.ProfileView, add func(inst int32, t pcp.Type, atom *pcp.Atom) error) (err error) {
	defer a.guard(&err)
	atom := &a.atom
	if pmid.Cluster() == 0 {
		var v int32
		switch pmid.Item() {
		case 0:
			v = a.reload
		case 1:
			v = a.debug
		case 2:
			v = int32(len(a.state.files))
		default:
			return pcp.ErrPMID
		}
		*atom = pcp.Atom{L: v}
		return add(pcp.InstNull, pcp.Type32, atom)
	}
	m := a.state.metrics[pmid]
	if m == nil {
		return pcp.ErrPMID
	}
	var last error
	got := false
	// The files read from, checked once the values are read: usually
	// one, held without allocating.
	var readBuf [2]*source
	read := readBuf[:0]
	one := func(inst int32) {
		src, ok, err := a.value(pmid, uint32(inst), atom)
		if src != nil && !slices.Contains(read, src) {
			read = append(read, src)
		}
		if err == nil && ok {
			err = add(inst, m.desc.Type, atom)
			got = got || err == nil
		}
		// A string points into the mapping: not kept past add, so
		// that no pointer to it outlives an unmapping (the collector
		// would find it in whatever takes the addresses next).
		atom.CP = ""
		if err != nil {
			last = err
		}
	}
	if m.desc.InDom == pcp.InDomNull {
		one(pcp.InstNull)
	} else if d := a.state.indoms[m.desc.InDom]; d != nil {
		for _, in := range d.insts {
			if p.Selects(m.desc.InDom, in.ID) {
				one(in.ID)
			}
		}
	}
	// A file cut short under its mapping read zeros past its new end:
	// nothing read from it is served, and the next request rescans.
	for _, src := range read {
		if src.cut() {
			a.noteCut(src)
			return pcp.ErrValue
		}
	}
	if !got {
		if last != nil {
			return last
		}
		return pmda.ErrNoValue
	}
	return nil
}

// noteCut logs a file cut short under its mapping, once, and asks for a
// rescan at the next request; a.mu is held.
func (a *agent) noteCut(src *source) {
	if a.reload == 0 {
		a.log.Printf("%s: %s was cut short under its mapping; rescanning", a.prefix, src.path)
	}
	a.reload = 1
}

// value reads one value as pmdammv's fetch callback does; false means no
// value (a sentinel). src is the file read, if any.
func (a *agent) value(pmid pcp.PMID, inst uint32, atom *pcp.Atom) (src *source, ok bool, err error) {
	src, m, v, err := a.state.lookup(pmid, inst)
	if err != nil {
		return nil, false, err
	}
	bits, extra := src.f.Value(v)
	sentinel := src.f.Flags&mmv.Sentinel != 0
	switch m.Type {
	case mmv.Int32, mmv.Uint32, mmv.Int64, mmv.Uint64:
		if sentinel && bits == math.MaxUint64 {
			return src, false, nil
		}
		atom.L, atom.UL, atom.LL, atom.ULL = int32(bits), uint32(bits), int64(bits), bits
	case mmv.Float:
		// pmdammv compares with NaN, which is never equal: a float is
		// always served.
		atom.F = math.Float32frombits(uint32(bits))
	case mmv.Double:
		atom.D = math.Float64frombits(bits)
	case mmv.Elapsed:
		if sentinel && bits == math.MaxUint64 {
			return src, false, nil
		}
		atom.LL = int64(bits)
		if extra < 0 { // a timed section in progress, started at -extra µs
			now := a.now()
			atom.LL += now.Unix()*1e6 + int64(now.Nanosecond()/1000) + extra
		}
	case mmv.String:
		b := src.f.B
		off := uint64(extra)
		// pmdammv checks only that 4 bytes are there, then copies a
		// whole slot; here the copy stops at the end of the file.
		if off > uint64(len(b)) || uint64(len(b))-off < 4 {
			return src, false, pcp.ErrGeneric
		}
		slot := b[off:min(uint64(len(b)), off+mmv.StringSize-1)]
		if sentinel && slot[0] == 0 {
			return src, false, nil
		}
		n := 0
		for n < len(slot) && slot[n] != 0 {
			n++
		}
		// The string points into the mapping: add copies it into the
		// answer at once, under a.mu, before any unmapping could come,
		// and FetchSet clears it after.
		atom.CP = unsafe.String(unsafe.SliceData(slot), n)
	default:
		return src, false, pcp.ErrAppVersion
	}
	return src, true, nil
}

// Text answers help text: the control metrics' own, a file metric's from
// its file; never an instance domain's (pmdammv serves none).
func (a *agent) Text(ctx context.Context, c pmda.Client, ident uint32, typ int32) (s string, err error) {
	if typ&pdu.TextInDom != 0 {
		return "", pcp.ErrText
	}
	a.enter()
	defer a.leave()
	defer a.guard(&err)
	pmid := pcp.PMID(ident)
	if pmid.Cluster() == 0 {
		if pmid.Item() > 2 {
			return "", pcp.ErrPMID
		}
		if typ&pdu.TextOneLine != 0 {
			return controlText[pmid.Item()][0], nil
		}
		return controlText[pmid.Item()][1], nil
	}
	src, m, _, err := a.state.lookup(pmid, inNull)
	if err != nil {
		return "", pcp.ErrPMID
	}
	at := uint64(0)
	switch {
	case typ&pdu.TextOneLine != 0 && m.ShortText != 0:
		at = m.ShortText
	case typ&pdu.TextHelp != 0 && m.HelpText != 0:
		at = m.HelpText
	default:
		return "", pcp.ErrText
	}
	text, err := src.f.String(at)
	if err != nil {
		return "", pcp.ErrGeneric
	}
	if src.cut() { // the text may be zeros read past a new end
		a.noteCut(src)
		return "", pcp.ErrText
	}
	return text, nil
}

// LabelSets answers the cluster, item and instance domain levels as
// pmdammv does: every label of the files whose flags include the level
// and whose identity is the cluster or the item (in the files of the
// PMID's cluster), or whose identity, with its file's cluster above it,
// is the instance domain's serial (in any file). Labels found later
// override earlier ones of the same name. Other levels are the tables'
// (the domain's agent label; instances' labels come with Instances).
func (a *agent) LabelSets(ctx context.Context, c pmda.Client, ident uint32, level uint8) (sets []pcp.LabelSet, handled bool, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var id, cluster uint32
	switch level {
	case pcp.LabelCluster:
		cluster = pcp.PMID(ident).Cluster()
		id = cluster
	case pcp.LabelItem:
		cluster, id = pcp.PMID(ident).Cluster(), pcp.PMID(ident).Item()
	case pcp.LabelInDom:
		id = pcp.InDom(ident).Serial()
	case pcp.LabelInstances:
	default:
		return nil, false, nil
	}
	if level == pcp.LabelInstances {
		return a.instanceLabelSets(pcp.InDom(ident))
	}
	var found []label
	for _, src := range a.state.files {
		if level != pcp.LabelInDom && src.cluster != cluster {
			continue
		}
		for _, l := range src.labels {
			lid := l.Identity
			if level == pcp.LabelInDom {
				lid = src.cluster<<11 | l.Identity
			}
			if l.Flags&uint32(level) != 0 && lid == id {
				found = mergeLabels(found, labelsOf(l.Payload, l.Flags))
			}
		}
	}
	if len(found) == 0 {
		return nil, true, nil
	}
	s, err := labelSet(pcp.InstNull, found)
	if err != nil {
		return nil, true, err
	}
	return []pcp.LabelSet{s}, true, nil
}

// instanceLabelSets gives a set per instance of indom, empty ones
// included, as libpcp_pmda does: the labels of every file's records whose
// flags include the instances level, whose internal number is the
// instance's and whose identity, with its file's cluster above it, is the
// domain's serial.
func (a *agent) instanceLabelSets(indom pcp.InDom) ([]pcp.LabelSet, bool, error) {
	d := a.state.indoms[indom]
	if d == nil {
		return nil, true, nil
	}
	if d.labels != nil {
		return d.labels, true, nil
	}
	// The labels of the domain, by instance, in one pass over the files.
	byInst := map[int32][]label{}
	for _, src := range a.state.files {
		for _, l := range src.labels {
			if l.Flags&uint32(pcp.LabelInstances) != 0 && d.known[l.Internal] && src.cluster<<11|l.Identity == indom.Serial() {
				byInst[l.Internal] = mergeLabels(byInst[l.Internal], labelsOf(l.Payload, l.Flags))
			}
		}
	}
	sets := make([]pcp.LabelSet, 0, len(d.insts))
	for _, in := range d.insts {
		s := pcp.LabelSet{Inst: in.ID}
		if found := byInst[in.ID]; len(found) > 0 {
			var err error
			if s, err = labelSet(in.ID, found); err != nil {
				return nil, true, err
			}
		}
		sets = append(sets, s)
	}
	d.labels = sets
	return sets, true, nil
}
