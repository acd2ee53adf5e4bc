// Package getdate reads free-form dates the way PCP's libpcp does when a
// time given to -S, -T or -O is neither a ctime-style date after "@" nor
// an interval: "yesterday", "@ 10:30 tomorrow", "last week", "2 days
// ago", "next Monday", "25 Nov 2004 05:30", "2004-11-25", "10:30pm EST".
//
// PCP 6.0.3 builds this from its own copy of the public-domain getdate
// grammar (src/libpcp/src/getdate.y), not from glibc's getdate(3) with
// DATEMSK templates. This package reads the same language with the same
// results, including that grammar's quirks: "next" is 2 and "last" is -1,
// "ago" negates every relative time before it, a zone in the string
// takes the place of the local one, and days are counted with a
// four-year leap rule. The zone used for local dates is a *time.Location
// (the one PCP's pmLocaltime would use: $TZ, -Z's or the archive's with
// -z).
//
// Functions are safe for concurrent use.
package getdate

import (
	"errors"
	"time"
)

// ErrSyntax is a string that is not a date in the grammar, or names one
// that does not exist (a 31st of February, a 13th hour).
var ErrSyntax = errors.New("not a recognised date")

// Parse returns the time, in seconds since the epoch, that s names when
// the time now is now (seconds since the epoch) in zone loc.
//
// Items a date may hold, in any order and each at most once (relative
// times may repeat): a time of day ("10:30", "10:30:15pm", "1030", "10pm",
// "10:30 +0100"), a zone ("UTC", "EST", "CEST"-style "cet dst", a
// military letter), a date ("11/25", "11/25/2004", "2004/11/25",
// "2004-11-25", "25-Nov-2004", "Nov 25", "Nov 25, 2004", "25 Nov 2004",
// "20041125"), a weekday with an optional ordinal ("Mon", "next Monday",
// "last fri"), and relative times ("3 days", "-2 hours", "1 year ago",
// "now", "today", "tomorrow", "yesterday"). Without a date the date is
// today's; without a time it is midnight, unless only relative times were
// given, which count from now.
func Parse(s string, now int64, loc *time.Location) (int64, error) {
	if loc == nil {
		loc = time.UTC
	}
	c := clock{loc}
	lt := c.local(now)
	_, off := lt.Zone()
	zone := int64(-off / 60)
	if lt.IsDST() {
		zone += 60 // the standard offset, as summer time is taken to be an hour
	}
	p := parser{lex: lexer{s: s}}
	p.st = state{
		year: int64(lt.Year()), month: int64(lt.Month()), day: int64(lt.Day()),
		zone: zone, dst: dstMaybe, meridian: h24,
	}
	st := &p.st
	if !p.parse() || st.haveTime > 1 || st.haveZone > 1 || st.haveDate > 1 || st.haveDay > 1 || st.haveAlign > 1 {
		return 0, ErrSyntax
	}
	var t int64
	if st.haveDate > 0 || st.haveTime > 0 || st.haveDay > 0 || st.haveAlign > 0 {
		var ok bool
		t, ok = c.date(st, st.month, st.day, st.year, st.hour, st.minute, st.sec, st.meridian, st.dst)
		if !ok || t < 0 {
			return 0, ErrSyntax
		}
	} else {
		t = now
		if st.haveRel == 0 {
			t -= int64(lt.Hour()*3600 + lt.Minute()*60 + lt.Second())
		}
	}
	t += st.relSeconds
	t += c.monthOffset(st, t, st.relMonths)
	if st.haveDay > 0 && st.haveDate == 0 {
		t += c.weekdayOffset(t, st.dayOrdinal, st.weekday)
	}
	return t, nil
}
