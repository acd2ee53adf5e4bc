package pcp

import "time"

// Timestamp is a high-resolution time as PCP 6 carries it: seconds and
// nanoseconds since the Unix epoch.
type Timestamp struct {
	Sec  int64
	Nsec int32
}

// Time converts t to a time.Time in UTC.
func (t Timestamp) Time() time.Time { return time.Unix(t.Sec, int64(t.Nsec)).UTC() }

// TimestampOf converts a time.Time to a Timestamp.
func TimestampOf(t time.Time) Timestamp {
	return Timestamp{Sec: t.Unix(), Nsec: int32(t.Nanosecond())}
}

// Sub returns t-u in seconds, the form rate and delta computations want.
func (t Timestamp) Sub(u Timestamp) float64 {
	return float64(t.Sec-u.Sec) + float64(t.Nsec-u.Nsec)/1e9
}

// Compare returns -1, 0 or +1 as t is before, equal to or after u, in the
// manner of time.Time.Compare and for use with slices.SortFunc. It compares
// the fields as stored, so an unnormalised Nsec orders as written.
func (t Timestamp) Compare(u Timestamp) int {
	switch {
	case t.Sec < u.Sec:
		return -1
	case t.Sec > u.Sec:
		return 1
	case t.Nsec < u.Nsec:
		return -1
	case t.Nsec > u.Nsec:
		return 1
	}
	return 0
}
