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
	hdr := labelSize(a.Version())
	for vol := a.MaxVol; vol >= a.MinVol; vol-- {
		if !a.vols[vol] {
			continue
		}
		v, err := a.openVolume(vol, false)
		if err != nil {
			continue
		}
		if vol == a.MaxVol {
			a.endSawLast = true
		}
		if v.size <= hdr {
			v.close()
			continue
		}
		r := &Reader{a: a, cur: v, seen: map[int]bool{vol: true}}
		ts, ok, stop := r.endOf(hdr)
		v.close()
		if ok {
			return ts, nil
		}
		if stop {
			break
		}
	}
	return pcp.Timestamp{}, &Error{File: a.Base, Code: pcp.ErrLogRec, Msg: "no complete record found"}
}

// endOf finds the last good record of the reader's volume; stop says the
// volume is too damaged to look at earlier ones.
func (r *Reader) endOf(hdr int) (ts pcp.Timestamp, ok, stop bool) {
	var res pcp.Result
	a, v, vol := r.a, r.cur, r.cur.num
	physend := v.size
	{
		r.pos = physend
		if r.readHere(Backward, &res) == nil {
			return res.Timestamp, true, false
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
			return ts, false, false
		}
		r.pos = logend
		if logend > hdr {
			if r.readHere(Backward, &res) != nil {
				return ts, false, true
			}
			// Reading backwards leaves the position at the record's
			// start; libpcp's peek stream is left there too.
		}
		found := false
		var last pcp.Timestamp
		for {
			off := r.pos
			b := v.at(off, 4)
			if b == nil {
				break
			}
			head := int(int32(binary.BigEndian.Uint32(b)))
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
			return last, true, false
		}
	}
	return ts, false, false
}

// readHere reads one record in the current volume only, with the
// end-of-archive checks.
func (r *Reader) readHere(m Mode, res *pcp.Result) error {
	if m == Backward && r.pos <= r.cur.hdr {
		return pcp.ErrEOL
	}
	if m == Forward && r.cur.size-r.pos < 4 {
		return pcp.ErrEOL
	}
	return r.read(m, res, true)
}
