package ctime

import "time"

// Mktime is glibc's mktime(3) in a zone: a broken-down local time to
// seconds since the epoch by probing localtime, as glibc does, so that
// the hours a change of offset skips or repeats come out as glibc's. Guess
// is the offset glibc keeps from its previous call (seconds from the
// wanted local reading to the answer), zero in a new process; each call
// updates it.
type Mktime struct {
	Loc   *time.Location
	Guess int64
}

// probes is how many conversions glibc tries before giving up.
const probes = 6

// Distances for the search of an offset with the asked tm_isdst: glibc
// steps by the shortest run of daylight (or standard) time known, up to
// half the longest one.
const (
	dstStride = 601200
	dstBound  = 536454000/2 + dstStride
)

// wall is a local reading as seconds, fields out of range carried as
// mktime carries them (month from 0).
func wall(year int64, mon, mday, hour, minute, sec int) int64 {
	return time.Date(int(year), time.Month(mon+1), mday, hour, minute, sec, 0, time.UTC).Unix()
}

func wallOf(t time.Time) int64 {
	return wall(int64(t.Year()), int(t.Month())-1, t.Day(), t.Hour(), t.Minute(), t.Second())
}

// Time returns the instant whose reading in m.Loc is the one given (month
// 0-11, every field carried when out of range, as mktime normalizes), and
// false where glibc's mktime returns -1 for want of a match. isdst is
// tm_isdst: negative lets the zone decide; otherwise a reading whose
// daylight flag differs is taken at the offset of the nearest instant
// with the flag asked for, so that 11:00 in daylight time asked in
// winter is 10:00 standard time.
func (m *Mktime) Time(year int64, mon, mday, hour, minute, sec, isdst int) (int64, bool) {
	asked := sec
	sec = min(max(sec, 0), 59) // the probing counts 60-second minutes
	want := wall(year, mon, mday, hour, minute, sec)
	t := want + m.Guess
	t1, t2 := t, t
	prevDST := false
	wantDST := isdst > 0
	var at time.Time
	for left := probes; ; {
		at = time.Unix(t, 0).In(m.Loc)
		dt := want - wallOf(at)
		if dt == 0 {
			break
		}
		// two readings in turn: the wanted one is in a gap; glibc keeps
		// the one whose flag differs from the asked (or, with none
		// asked, the daylight one unless the one before was daylight)
		if t == t1 && t != t2 {
			if isdst < 0 && (!prevDST || at.IsDST()) || isdst >= 0 && wantDST != at.IsDST() {
				return m.found(t, want, asked, sec), true
			}
		}
		left--
		if left == 0 {
			return -1, false
		}
		t1, t2, t, prevDST = t2, t, t+dt, at.IsDST()
	}
	if isdst >= 0 && wantDST != at.IsDST() {
		return m.found(m.otherOffset(t, want, wantDST, at.IsDST()), want, asked, sec), true
	}
	return m.found(t, want, asked, sec), true
}

// otherOffset is the answer when the reading matched at t has the wrong
// daylight flag: the wanted reading at the offset of the nearest instant
// (a week's steps either way, earlier first) with the right one, else an
// hour's difference.
func (m *Mktime) otherOffset(t, want int64, wantDST, gotDST bool) int64 {
	for delta := int64(dstStride); delta < dstBound; delta += dstStride {
		for _, ot := range [2]int64{t - delta, t + delta} {
			o := time.Unix(ot, 0).In(m.Loc)
			if o.IsDST() == wantDST {
				return ot + want - wallOf(o)
			}
		}
	}
	switch {
	case !wantDST && gotDST:
		return t + 3600
	case wantDST && !gotDST:
		return t - 3600
	}
	return t
}

// found keeps the offset as the next call's guess and gives back the
// seconds the probing set aside.
func (m *Mktime) found(t, want int64, asked, sec int) int64 {
	m.Guess = t - want
	return t + int64(asked-sec)
}
