package archive

import "github.com/gopcp/gopcp/pcp"

// setTime places the reader near its origin with the temporal index, as
// __pmLogSetTime does; Fetch then steps record by record to the exact
// place. Without an index it starts at the first (or, backwards, after
// the last) record.
func (r *Reader) setTime() error {
	a := r.a
	ti := a.Index
	if len(ti) == 0 {
		if r.mode == Forward {
			vol := a.MinVol
			for ; vol <= a.MaxVol; vol++ {
				if r.changeVol(vol) == nil {
					break
				}
			}
			if vol > a.MaxVol {
				r.cur = nil
				return pcp.ErrLogFile
			}
			r.pos = r.cur.hdr
		} else {
			vol := a.MaxVol
			for ; vol >= a.MinVol; vol-- {
				if r.changeVol(vol) == nil {
					break
				}
			}
			if vol < a.MinVol {
				r.cur = nil
				return pcp.ErrLogFile
			}
			r.pos = r.cur.size
		}
		r.save()
		return nil
	}

	j := -1
	toobig, match := false, false
	var size int64 = -1
	i := 0
	for ; i < len(ti); i++ {
		e := &ti[i]
		if int(e.Vol) < a.MinVol {
			continue
		}
		if int(e.Vol) == a.MaxVol {
			if size < 0 {
				size = 0
				if r.seen[a.MaxVol] || a.endPeeked() {
					if r.cur != nil {
						size = int64(r.cur.size)
					}
				} else if v, err := a.openVolume(a.MaxVol, false); err == nil {
					size = int64(v.size)
					v.close()
				}
			}
			if e.DataOffset > size {
				j = i
				toobig = true
				break
			}
		}
		d := e.Stamp.Sub(r.origin)
		if d > 0 {
			j = i
			break
		} else if d == 0 {
			j = i
			match = true
			break
		}
	}
	if i == len(ti) {
		j = len(ti)
	}
	r.serial = true
	seek := func(mode Mode, k int) error {
		k, err := r.volSkip(mode, k)
		if err != nil {
			return pcp.ErrLogFile
		}
		r.pos = int(min(ti[k].DataOffset, int64(1)<<40))
		return nil
	}
	switch {
	case match:
		if err := seek(r.mode, j); err != nil {
			return err
		}
		if r.mode == Backward {
			r.serial = false
		}
	case j < 1:
		if err := seek(Forward, 0); err != nil {
			return err
		}
	case j == len(ti):
		if err := seek(Backward, len(ti)-1); err != nil {
			return err
		}
		if r.mode == Backward {
			r.serial = false
		}
	default:
		hi := ti[j].Stamp.Sub(r.origin)
		lo := r.origin.Sub(ti[j-1].Stamp)
		if hi <= lo && !toobig {
			if err := seek(r.mode, j); err != nil {
				return err
			}
			if r.mode == Forward {
				r.serial = false
			}
		} else {
			if err := seek(r.mode, j-1); err != nil {
				return err
			}
			if r.mode == Backward {
				r.serial = false
			}
		}
		if r.serial && r.mode == Forward {
			// The index gives the end of a record: step back over it.
			// libpcp decodes it, but where the step leaves the reader
			// does not depend on the body: it is not decoded (a 41 KB
			// record of 3,000 values for each placing of the 100 MB
			// archive).
			_ = r.read(Backward, nil, false)
		}
	}
	r.save()
	return nil
}

func (r *Reader) save() {
	if r.cur != nil {
		r.savedVol, r.savedPos = r.cur.num, r.pos
	}
}

// volSkip opens the volume of index entry j, or failing that the next
// volume the index names in direction m, returning the entry used.
func (r *Reader) volSkip(m Mode, j int) (int, error) {
	ti := r.a.Index
	vol := int(ti[j].Vol)
	for r.a.MinVol <= vol && vol <= r.a.MaxVol {
		if r.changeVol(vol) == nil {
			return j, nil
		}
		if m == Forward {
			for j++; j < len(ti) && int(ti[j].Vol) == vol; j++ {
			}
			if j == len(ti) {
				return 0, pcp.ErrEOL
			}
		} else {
			for j--; j >= 0 && int(ti[j].Vol) == vol; j-- {
			}
			if j < 0 {
				return 0, pcp.ErrEOL
			}
		}
		vol = int(ti[j].Vol)
	}
	return 0, pcp.ErrEOL
}
