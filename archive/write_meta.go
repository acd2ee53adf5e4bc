package archive

import (
	"encoding/binary"

	"github.com/gopcp/gopcp/pcp"
)

// putMeta frames body (built after an 8-byte hole in w.buf) with the
// record's length words and type and writes it to the metadata file.
func (w *Writer) putMeta(typ uint32, b []byte) error {
	b = binary.BigEndian.AppendUint32(b, 0)
	n := uint32(len(b))
	binary.BigEndian.PutUint32(b, n)
	binary.BigEndian.PutUint32(b[4:], typ)
	binary.BigEndian.PutUint32(b[len(b)-4:], n)
	w.buf = b
	return write(w.meta, b, &w.metaOff)
}

func (w *Writer) metaStart() ([]byte, error) {
	if !w.started {
		return nil, ErrNotStarted
	}
	return append(w.buf[:0], make([]byte, 8)...), nil
}

// PutDesc appends a metric descriptor record with the metric's names.
func (w *Writer) PutDesc(d pcp.Desc, names []string) error {
	b, err := w.metaStart()
	if err != nil {
		return err
	}
	b = binary.BigEndian.AppendUint32(b, uint32(d.PMID))
	b = binary.BigEndian.AppendUint32(b, uint32(int32(d.Type)))
	b = binary.BigEndian.AppendUint32(b, uint32(d.InDom))
	b = binary.BigEndian.AppendUint32(b, uint32(int32(d.Sem)))
	b = binary.BigEndian.AppendUint32(b, d.Units.Pack())
	if len(names) > 0 {
		b = binary.BigEndian.AppendUint32(b, uint32(len(names)))
		for _, n := range names {
			b = binary.BigEndian.AppendUint32(b, uint32(len(n)))
			b = append(b, n...)
		}
	}
	return w.putMeta(TypeDesc, b)
}

// PutInDom appends an instance domain record stamped id.Stamp: a full
// one, or with delta set (version 3 only) a delta record whose instances
// with Deleted set are removals. Instances are written in id's order.
func (w *Writer) PutInDom(indom pcp.InDom, id *InDom, delta bool) error {
	b, err := w.metaStart()
	if err != nil {
		return err
	}
	typ := uint32(TypeInDom)
	switch {
	case w.Version() == Version2 && delta:
		return &Error{Code: pcp.ErrRecType, Msg: "delta instance domain in a version 2 archive"}
	case w.Version() == Version2:
		typ = TypeInDomV2
	case delta:
		typ = TypeInDomDelta
	}
	b = w.appendStamp(b, id.Stamp)
	b = binary.BigEndian.AppendUint32(b, uint32(indom))
	n := len(id.Insts)
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for _, inst := range id.Insts {
		b = binary.BigEndian.AppendUint32(b, uint32(inst))
	}
	at := len(b)
	b = append(b, make([]byte, 4*n)...)
	off := 0
	for i := range id.Insts {
		if delta && id.Deleted != nil && id.Deleted[i] {
			binary.BigEndian.PutUint32(b[at+4*i:], 0xffffffff)
			continue
		}
		binary.BigEndian.PutUint32(b[at+4*i:], uint32(off))
		b = append(b, id.Names[i]...)
		b = append(b, 0)
		off += len(id.Names[i]) + 1
	}
	return w.putMeta(typ, b)
}

// PutLabels appends a label record: the label sets of typ (PM_LABEL_*)
// and ident at t.
func (w *Writer) PutLabels(typ, ident uint32, t pcp.Timestamp, sets []pcp.LabelSet) error {
	b, err := w.metaStart()
	if err != nil {
		return err
	}
	rt := uint32(TypeLabel)
	if w.Version() == Version2 {
		rt = TypeLabelV2
	}
	b = w.appendStamp(b, t)
	b = binary.BigEndian.AppendUint32(b, typ)
	b = binary.BigEndian.AppendUint32(b, ident)
	b = binary.BigEndian.AppendUint32(b, uint32(len(sets)))
	for i := range sets {
		s := &sets[i]
		b = binary.BigEndian.AppendUint32(b, uint32(s.Inst))
		b = binary.BigEndian.AppendUint32(b, uint32(len(s.JSON)))
		b = append(b, s.JSON...)
		b = binary.BigEndian.AppendUint32(b, uint32(s.NLabels))
		for j := 0; j < int(s.NLabels) && j < len(s.Labels); j++ {
			l := s.Labels[j]
			b = binary.BigEndian.AppendUint16(b, l.Name)
			b = append(b, l.NameLen, l.Flags)
			b = binary.BigEndian.AppendUint16(b, l.Value)
			b = binary.BigEndian.AppendUint16(b, l.ValueLen)
		}
	}
	return w.putMeta(rt, b)
}

// PutText appends a help text record; kind combines TextOneLine or
// TextHelp with TextPMID or TextInDom.
func (w *Writer) PutText(kind, ident uint32, text string) error {
	b, err := w.metaStart()
	if err != nil {
		return err
	}
	b = binary.BigEndian.AppendUint32(b, kind)
	b = binary.BigEndian.AppendUint32(b, ident)
	b = append(b, text...)
	b = append(b, 0)
	return w.putMeta(TypeText, b)
}
