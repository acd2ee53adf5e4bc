package archive

import (
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// Select makes the reader deliver only the value sets of the metrics keep
// accepts (nil: all of them, as by default). Records are read and checked
// as before, so damage is found where it was; a record that held none of
// the chosen metrics comes as a Result without value sets, which Mark
// tells from a <mark> record. A reader of a few metrics out of many
// skips decoding the rest.
func (r *Reader) Select(keep func(pcp.PMID) bool) { r.keep = keep }

// Mark says whether the last record read was a <mark> record, one with
// no value sets on disk (with Select, a Result without value sets may be
// a record holding none of the chosen metrics).
func (r *Reader) Mark() bool { return r.sets == 0 }

// decode decodes the record in r.buf into res, all of it or the value
// sets Select chose.
func (r *Reader) decode(res *pcp.Result) error {
	v3 := r.a.Version() == Version3
	if r.keep == nil {
		err := pdu.DecodeLogRecordInto(res, r.buf, v3)
		r.sets = int32(len(res.Sets))
		return err
	}
	n, err := pdu.DecodeLogRecordSelectInto(res, r.buf, v3, r.keep)
	r.sets = n
	return err
}
