package archive

import (
	"slices"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Select makes the reader deliver only the value sets of the metrics keep
// accepts (nil: all of them, as by default). Records are read and checked
// as before, so damage is found where it was; a record that held none of
// the chosen metrics comes as a Result without value sets, which Mark
// tells from a <mark> record. A reader of a few metrics out of many
// skips decoding the rest.
func (r *Reader) Select(keep func(pcp.PMID) bool) { r.keep, r.ids = keep, nil }

// SelectPMIDs is Select of the metrics listed. A reader told the list
// finds them in a record it has cached (a record read again, as after
// each placing at the same time) by their PMIDs instead of testing
// every set of the record.
func (r *Reader) SelectPMIDs(pmids []pcp.PMID) {
	r.idBuf = append(r.idBuf[:0], pmids...)
	slices.Sort(r.idBuf)
	r.ids = slices.Compact(r.idBuf)
	if r.keepID == nil {
		r.keepID = r.listed
	}
	r.keep = r.keepID
}

// listed says whether pmid is in the SelectPMIDs list.
func (r *Reader) listed(pmid pcp.PMID) bool {
	if len(r.ids) > 16 {
		_, ok := slices.BinarySearch(r.ids, pmid)
		return ok
	}
	for _, id := range r.ids {
		if id == pmid {
			return true
		}
	}
	return false
}

// Mark says whether the last record read was a <mark> record, one with
// no value sets on disk (with Select, a Result without value sets may be
// a record holding none of the chosen metrics).
func (r *Reader) Mark() bool { return r.sets == 0 }

// decode decodes the record in frame (pdu.LogRecordPrefix bytes, then
// the body) into res, all of it or the value sets Select chose.
func (r *Reader) decode(res *pcp.Result, frame []byte) error {
	v3 := r.a.Version() == Version3
	if r.keep == nil {
		err := pdu.DecodeLogRecordInto(res, frame, v3)
		r.sets = int32(len(res.Sets))
		return err
	}
	var n int32
	var err error
	if r.ids != nil {
		n, err = pdu.DecodeLogRecordSelectShapeInto(res, frame, v3, r.ids, &r.shape)
	} else {
		n, err = pdu.DecodeLogRecordSelectInto(res, frame, v3, r.keep)
	}
	r.sets = n
	return err
}
