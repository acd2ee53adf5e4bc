package pmlogger

import (
	"strconv"
	"strings"
	"time"
)

// ArchiveName expands strftime(3) conversions in an archive base name
// at time t, as pmlogger does for names like "%Y%m%d.%H.%M" (the form
// pmlogger_check and re-executions after SIGUSR2 rely on). It reports
// whether the name had any, which is when pmlogger adds a "-NN" suffix
// rather than fail on an existing archive. The conversions are the C
// locale's; one it does not know is kept as written.
func ArchiveName(pattern string, t time.Time) (string, bool) {
	if !strings.Contains(pattern, "%") {
		return pattern, false
	}
	var b strings.Builder
	pad := func(n, w int) {
		s := strconv.Itoa(n)
		for i := len(s); i < w; i++ {
			b.WriteByte('0')
		}
		b.WriteString(s)
	}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c != '%' || i+1 == len(pattern) {
			b.WriteByte(c)
			continue
		}
		i++
		switch pattern[i] {
		case 'Y':
			pad(t.Year(), 1)
		case 'y':
			pad(t.Year()%100, 2)
		case 'C':
			pad(t.Year()/100, 2)
		case 'm':
			pad(int(t.Month()), 2)
		case 'd':
			pad(t.Day(), 2)
		case 'e':
			if t.Day() < 10 {
				b.WriteByte(' ')
			}
			pad(t.Day(), 1)
		case 'H':
			pad(t.Hour(), 2)
		case 'I':
			pad((t.Hour()+11)%12+1, 2)
		case 'M':
			pad(t.Minute(), 2)
		case 'S':
			pad(t.Second(), 2)
		case 'j':
			pad(t.YearDay(), 3)
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'B':
			b.WriteString(t.Month().String())
		case 'u':
			pad((int(t.Weekday())+6)%7+1, 1)
		case 'w':
			pad(int(t.Weekday()), 1)
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(pattern[i])
		}
	}
	return b.String(), true
}
