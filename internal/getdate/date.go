package getdate

import "time"

const secsPerDay = 24 * 60 * 60

// clock holds the zone every local time is read in.
type clock struct{ loc *time.Location }

// local is localtime(3) of t in the zone.
func (c clock) local(t int64) time.Time { return time.Unix(t, 0).In(c.loc) }

// secondsOfDay is the time of day in seconds, or false when the fields
// are out of range for the meridian.
func secondsOfDay(h, m, s int64, mer meridian) (int64, bool) {
	if m < 0 || m > 59 || s < 0 || s > 59 {
		return 0, false
	}
	switch mer {
	case h24:
		if h < 0 || h > 23 {
			return 0, false
		}
	default:
		if h < 1 || h > 12 {
			return 0, false
		}
		if h == 12 {
			h = 0
		}
		if mer == pm {
			h += 12
		}
	}
	return (h*60+m)*60 + s, true
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// leapsSince1970 counts the years from 1970 up to (not including) y that
// the day count treats as leap years: every fourth one. PCP counts the
// days before a year this way while it checks February with the full
// Gregorian rule, so dates from 2100 on come out a day late there, and
// here too.
func leapsSince1970(y int64) int64 {
	if y <= 1970 {
		return 0
	}
	return (y-1)/4 - 1969/4
}

// date converts a calendar date and time of day, written in the parsed
// zone (minutes west, plus an hour in summer time), to seconds since the
// epoch; false when the date is invalid or before 1970. Two digit years
// are 1969-2068; a negative year counts as its absolute value.
func (c clock) date(st *state, month, day, year, h, m, s int64, mer meridian, dst dstMode) (int64, bool) {
	if year < 0 {
		year = -year
	}
	switch {
	case year < 69:
		year += 2000
	case year < 100:
		year += 1900
	}
	if year < 1970 || month < 1 || month > 12 || day < 1 {
		return 0, false
	}
	monthDays := [12]int64{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if isLeap(year) {
		monthDays[1] = 29
	}
	if day > monthDays[month-1] {
		return 0, false
	}
	days := day - 1
	for i := int64(0); i < month-1; i++ {
		days += monthDays[i]
	}
	days += (year-1970)*365 + leapsSince1970(year)
	t := days*secsPerDay + st.zone*60
	tod, ok := secondsOfDay(h, m, s, mer)
	if !ok {
		return 0, false
	}
	t += tod
	if dst == dstOn || dst == dstMaybe && c.local(t).IsDST() {
		t -= 60 * 60
	}
	return t, true
}

// dstCorrect is the distance from start to future, less the change in
// the zone's offset between them, so that moving by days keeps the hour.
func (c clock) dstCorrect(start, future int64) int64 {
	startHour := int64(c.local(start).Hour()+1) % 24
	futureHour := int64(c.local(future).Hour()+1) % 24
	return (future - start) + (startHour-futureHour)*60*60
}

// weekdayOffset moves from start to the weekday asked for: the coming one
// (today's counts), then ordinal-1 weeks on, or back for ordinals below 1.
func (c clock) weekdayOffset(start, ordinal, weekday int64) int64 {
	wday := int64(c.local(start).Weekday())
	t := start + secsPerDay*((weekday-wday+7)%7)
	if ordinal > 0 {
		ordinal--
	}
	t += 7 * secsPerDay * ordinal
	return c.dstCorrect(start, t)
}

// monthOffset moves start by months on the calendar, keeping the day of
// the month and time of day. A day the month lacks (January 31 plus a
// month) gives what PCP gives: a distance to an invalid date's -1.
func (c clock) monthOffset(st *state, start, months int64) int64 {
	if months == 0 {
		return 0
	}
	lt := c.local(start)
	m := 12*int64(lt.Year()) + int64(lt.Month()) - 1 + months
	t, ok := c.date(st, m%12+1, int64(lt.Day()), m/12, int64(lt.Hour()), int64(lt.Minute()), int64(lt.Second()), h24, dstMaybe)
	if !ok {
		t = -1
	}
	return c.dstCorrect(start, t)
}
