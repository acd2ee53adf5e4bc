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
