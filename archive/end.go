package archive

import (
	"encoding/binary"

	"github.com/gopcp/gopcp/pcp"
)

// End returns the time of the archive's last good record, as
// pmGetArchiveEnd finds it: reading back from the physical end of the
// last volume and, when that record is damaged, forward from the last
// index entry before it, then trying earlier volumes. An archive with no
// good record gives pcp.ErrLogRec.
func (a *Archive) End() (pcp.Timestamp, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.endSet {
		a.end, a.endErr = a.findEnd()
		a.endSet = true
	}
	return a.end, a.endErr
}

func (a *Archive) findEnd() (pcp.Timestamp, error) {
	var res pcp.Result
	hdr := labelSize(a.Version())
	for vol := a.MaxVol; vol >= a.MinVol; vol-- {
		if !a.vols[vol] {
			continue
		}
		v, err := a.openVolume(vol, false)
		if err != nil {
			continue
		}
		if len(v.data) <= hdr {
			continue
		}
		r := &Reader{a: a, cur: v, seen: map[int]bool{vol: true}}
		physend := len(v.data)
		r.pos = physend
		if r.readHere(Backward, &res) == nil {
			return res.Timestamp, nil
		}
		logend := hdr
		i := len(a.Index) - 1
		for ; i >= 0; i-- {
			if int(a.Index[i].Vol) != vol {
				continue
			}
			if a.Index[i].DataOffset <= int64(physend) {
				logend = int(a.Index[i].DataOffset)
				break
			}
		}
		if i < 0 {
			continue
		}
		r.pos = logend
		if logend > hdr {
			if r.readHere(Backward, &res) != nil {
				break
			}
			// Reading backwards leaves the position at the record's
			// start; libpcp's peek stream is left there too.
		}
		found := false
		var last pcp.Timestamp
		for {
			off := r.pos
			if off < 0 || len(v.data)-off < 4 {
				break
			}
			head := int(int32(binary.BigEndian.Uint32(v.data[off:])))
			if off+head > physend {
				break
			}
			if r.readHere(Forward, &res) != nil {
				break
			}
			found = true
			last = res.Timestamp
		}
		if found {
			return last, nil
		}
	}
	return pcp.Timestamp{}, &Error{File: a.Base, Code: pcp.ErrLogRec, Msg: "no complete record found"}
}

// readHere reads one record in the current volume only, with the
// end-of-archive checks.
func (r *Reader) readHere(m Mode, res *pcp.Result) error {
	if m == Backward && r.pos <= r.cur.hdr {
		return pcp.ErrEOL
	}
	if m == Forward && len(r.cur.data)-r.pos < 4 {
		return pcp.ErrEOL
	}
	return r.read(m, res, true)
}
