package timewindow

import "time"

// mktime is glibc's mktime(3) for a local time with tm_isdst -1, which
// libpcp uses to turn "@" dates into times. Where the local time does not
// exist (the hour skipped when summer time starts) or exists twice (the
// hour repeated when it ends), glibc's answer depends on the offset it
// found on its previous call, a guess it keeps between calls and which a
// new process starts at zero; guess is that offset, shared by the times
// of one window as they are in one PCP tool. Go's time.Date resolves
// these hours its own way, so this follows glibc's probing instead.
type mktime struct {
	loc   *time.Location
	guess int64 // seconds west of UTC found last time
}

// localSeconds is a broken-down time read as if it were UTC, with
// fields out of range carried over as mktime carries them.
func localSeconds(year, mon, mday, hour, min, sec int) int64 {
	return time.Date(year, time.Month(mon+1), mday, hour, min, sec, 0, time.UTC).Unix()
}

// at returns the time whose local reading in m.loc is the one given
// (month 0-11), or -1 when glibc's probing gives up.
func (m *mktime) at(year, mon, mday, hour, min, sec int) int64 {
	secAsked := sec
	// leap seconds: the search uses 0-59 and adds the rest at the end
	if sec < 0 {
		sec = 0
	} else if sec > 59 {
		sec = 59
	}
	want := localSeconds(year, mon, mday, hour, min, sec)
	t0 := want + m.guess
	t, t1, t2 := t0, t0, t0
	prevDST := false
	var found time.Time
	for probes := 6; ; {
		found = time.Unix(t, 0).In(m.loc)
		dt := want - localSeconds(found.Year(), int(found.Month())-1, found.Day(), found.Hour(), found.Minute(), found.Second())
		if dt == 0 {
			break
		}
		// oscillating across a gap: take the reading in summer time
		// when the one before was not
		if t == t1 && t != t2 && (!prevDST || found.IsDST()) {
			break
		}
		probes--
		if probes == 0 {
			return -1
		}
		t1, t2, t, prevDST = t2, t, t+dt, found.IsDST()
	}
	m.guess = t - want
	if secAsked != found.Second() {
		t += int64(secAsked - sec)
	}
	return t
}
