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

// shapeAfter is how many records a reader decodes in a row, after a
// placing and for one SelectPMIDs list, before it keeps their layout in
// a Shape. Learning a layout costs two words of memory for every 8
// bytes of record and a walk over it, repaid only over a long run of
// records: pminfo -f places the reader at the start for every metric
// and reads on to the first record holding it, and learnt records of
// 176 KB that it never matched (352 KB of its 2.4 MB of heap over
// 20180415.09.16); an interpolating walk reads thousands.
const shapeAfter = 8

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
	if r.ids != nil && !slices.Equal(r.ids, r.shapeIDs) {
		r.shapeIDs = append(r.shapeIDs[:0], r.ids...)
		r.shapeRun = 0
	}
	switch {
	case r.ids != nil && r.shapeRun >= shapeAfter:
		n, err = pdu.DecodeLogRecordSelectShapeInto(res, frame, v3, r.ids, &r.shape)
	case r.ids != nil:
		r.shapeRun++
		n, err = pdu.DecodeLogRecordSelectPMIDsInto(res, frame, v3, r.ids)
	default:
		n, err = pdu.DecodeLogRecordSelectInto(res, frame, v3, r.keep)
	}
	r.sets = n
	return err
}
