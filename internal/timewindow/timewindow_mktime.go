package timewindow

import "github.com/gopcp/gopcp/internal/ctime"

// mktime is glibc's mktime(3) for a local time with tm_isdst -1, which
// libpcp uses to turn "@" dates into times. Where the local time does not
// exist or exists twice, glibc's answer depends on the offset found on
// its previous call (ctime.Mktime's Guess), which one value keeps for the
// times of one window as one PCP tool's process does.
type mktime struct{ ctime.Mktime }

// at returns the time whose local reading is the one given (month 0-11),
// or -1 when glibc's probing gives up.
func (m *mktime) at(year, mon, mday, hour, min, sec int) int64 {
	t, ok := m.Time(int64(year), mon, mday, hour, min, sec, -1)
	if !ok {
		return -1
	}
	return t
}
