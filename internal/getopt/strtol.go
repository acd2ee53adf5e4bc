package getopt

import "strings"

// Strtol reads a decimal number as C's strtol(s, &end, 10) does, reporting
// whether the whole string was used (end at the terminating NUL). Leading
// white space and a sign are accepted; an empty string is 0 and complete,
// as in C. Overflow saturates.
func Strtol(s string) (int64, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	i := 0
	var n int64
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		if n < (1<<63-1)/10 {
			n = n*10 + int64(t[i]-'0')
		}
		i++
	}
	if i == 0 {
		// no digits: strtol leaves end at the start of s
		return 0, s == ""
	}
	if neg {
		n = -n
	}
	return n, i == len(t)
}
