package getopt

// Strtol reads a decimal number as C's strtol(s, &end, 10) does, reporting
// whether the whole string was used (end at the terminating NUL). Leading
// white space and a sign are accepted; an empty string is 0 and complete,
// as in C. Overflow saturates (see CStrtol).
func Strtol(s string) (int64, bool) {
	n, end, _ := CStrtol(s, 10)
	return n, end == len(s)
}
