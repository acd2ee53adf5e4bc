package archive

import "github.com/gopcp/gopcp/pcp"

// ReadFrom places the reader at byte offset off of data volume vol, a
// record boundary such as a temporal index entry names, to read records
// in direction m from there with Next. This is how libpcp gets past a
// damaged record: the index takes it to the records beyond, which it
// then reads on from, forwards or backwards.
func (r *Reader) ReadFrom(m Mode, vol int, off int64) error {
	if vol < r.a.MinVol || vol > r.a.MaxVol {
		return pcp.ErrLogFile
	}
	if err := r.changeVol(vol); err != nil {
		return err
	}
	r.mode, r.serial = m, true
	// an index entry past the end of a cut volume is kept: libpcp's
	// reads from there find the end of the data, not damage
	r.pos = int(min(off, int64(1)<<40))
	r.save()
	return nil
}

// Next reads the record next to the reader's place in its direction,
// without Fetch's placing by time or skipping of records out of time
// order: pcp.ErrEOL past the end (or before the start), an *Error
// wrapping pcp.ErrLogRec at a damaged record, where the reader stays.
func (r *Reader) Next(res *pcp.Result) error {
	if err := r.changeVol(r.savedVol); err != nil {
		return err
	}
	r.pos = r.savedPos
	if err := r.read(r.mode, res, false); err != nil {
		return err
	}
	r.origin = res.Timestamp
	r.save()
	return nil
}

// Where a read that fails leaves the reader matters: libpcp's next read,
// the one after a backing-up loop stopped by damage, goes on from the
// file position __pmLogRead left, which differs with the fault. offset
// is where the read began (a record's start forwards, its end
// backwards), start the start of the record's header word, rlen the
// length of its body.

// afterBadLength is the place after a length word that cannot be a
// record's: just past the word read.
func afterBadLength(m Mode, offset int) int {
	if m == Backward {
		return offset
	}
	return offset + 4
}

// afterBadTrailer is the place after a record whose two length words
// differ (or that fails the end-of-archive checks): past the second word
// read, the trailer forwards, the header backwards.
func afterBadTrailer(m Mode, start, rlen int) int {
	if m == Backward {
		return start + 4
	}
	return start + 8 + rlen
}

// afterBadBody is the place after a record whose body does not decode:
// past it forwards, at its start backwards.
func afterBadBody(m Mode, start, rlen int) int {
	if m == Backward {
		return start
	}
	return start + 8 + rlen
}

// endPeeked reports whether End has looked at the last volume and found
// its label good. libpcp's look marks such a volume seen, and for a seen
// last volume __pmLogSetTime takes the size of whichever volume is open
// as the last one's when it checks the index against a truncated last
// volume; a last volume whose label fails is peeked at again, and
// counts as empty.
func (a *Archive) endPeeked() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.endSet && a.endSawLast
}

// PastEnd reports whether index entry e names a place beyond the end of
// its volume: the entry of a record lost when the volume was cut.
func (a *Archive) PastEnd(e IndexEntry) bool {
	v, err := a.openVolume(int(e.Vol), false)
	if err != nil {
		return false
	}
	defer v.close()
	return e.DataOffset > int64(v.size)
}

// HasVolume reports whether data volume vol was found when the archive
// was opened. A damaged temporal index can name any volume number.
func (a *Archive) HasVolume(vol int) bool { return a.vols[vol] }
