package series

// Fnmatch reports whether s matches the shell pattern as C's fnmatch(3)
// with no flags matches it (glibc, C locale), which is how libpcp_web
// filters names with pmseries -g and pmproxy's match parameter: '*' and
// '?' match '/' and a leading '.' too, a backslash quotes the next
// character (a pattern ending in one matches nothing), "[...]" takes
// ranges, [:class:] names and '!' or '^' to negate, and a '[' with no
// closing ']' is an ordinary character. Unlike path.Match it has no
// malformed patterns: every pattern matches something or nothing.
//
// The match is iterative (a '*' retried from one place at a time), so
// its time is bounded by the lengths' product whatever the pattern.
func Fnmatch(pattern, s string) bool {
	p, n := 0, 0
	starP, starN := -1, 0
	for n < len(s) || p < len(pattern) {
		if p < len(pattern) {
			switch c := pattern[p]; c {
			case '*':
				starP, starN = p, n
				p++
				continue
			default:
				if n < len(s) {
					ok, width, lost := matchOne(pattern, p, s[n])
					if lost {
						return false
					}
					if ok {
						p += width
						n++
						continue
					}
				}
			}
		}
		if starP >= 0 && starN < len(s) {
			starN++
			p, n = starP+1, starN
			continue
		}
		return false
	}
	return true
}

// matchOne matches byte b against the pattern element at p (not '*'):
// whether it matches, the element's width, and lost when the pattern can
// match nothing from here (a trailing backslash, a bad class name).
func matchOne(pattern string, p int, b byte) (ok bool, width int, lost bool) {
	switch c := pattern[p]; c {
	case '?':
		return true, 1, false
	case '\\':
		if p+1 >= len(pattern) {
			return false, 0, true
		}
		return pattern[p+1] == b, 2, false
	case '[':
		if ok, end, lost, closed := bracket(pattern, p+1, b); closed || lost {
			return ok, end - p, lost
		}
		return b == '[', 1, false // unterminated: an ordinary '['
	default:
		return c == b, 1, false
	}
}

// bracket matches b against the bracket expression whose body starts at
// p (after '['). end is the offset after its ']'; closed is false when
// there is none.
func bracket(pattern string, p int, b byte) (ok bool, end int, lost, closed bool) {
	not := false
	if p < len(pattern) && (pattern[p] == '!' || pattern[p] == '^') {
		not = true
		p++
	}
	first, matched := true, false
	for {
		if p >= len(pattern) {
			return false, p, false, false
		}
		c := pattern[p]
		if c == ']' && !first {
			return matched != not, p + 1, false, true
		}
		first = false
		p++
		switch {
		case c == '\\':
			if p >= len(pattern) {
				return false, p, true, false
			}
			c = pattern[p]
			p++
		case c == '[' && p < len(pattern) && pattern[p] == ':':
			name, next, isClass := className(pattern, p+1)
			if isClass {
				in, known := inClass(name, b)
				if !known {
					return false, p, true, false
				}
				if in {
					matched = true
				}
				p = next
				continue
			}
		}
		// a range c-e, unless '-' ends the expression
		if p+1 < len(pattern) && pattern[p] == '-' && pattern[p+1] != ']' {
			e := pattern[p+1]
			p += 2
			if e == '\\' {
				if p >= len(pattern) {
					return false, p, true, false
				}
				e = pattern[p]
				p++
			}
			if c <= b && b <= e {
				matched = true
			}
			continue
		}
		if c == b {
			matched = true
		}
	}
}

// className reads a [:name:] class whose name starts at p: the name, the
// offset after ":]", and whether it is one (a name of lower-case letters
// closed by ":]", else the '[' is an ordinary member).
func className(pattern string, p int) (string, int, bool) {
	start := p
	for p < len(pattern) {
		c := pattern[p]
		if c == ':' && p+1 < len(pattern) && pattern[p+1] == ']' {
			return pattern[start:p], p + 2, true
		}
		if c < 'a' || c >= 'z' {
			return "", 0, false
		}
		p++
	}
	return "", 0, false
}

// inClass is isw<name>(b) in the C locale; known is false for a name
// wctype does not know.
func inClass(name string, b byte) (in, known bool) {
	upper := 'A' <= b && b <= 'Z'
	lower := 'a' <= b && b <= 'z'
	digit := '0' <= b && b <= '9'
	space := b == ' ' || ('\t' <= b && b <= '\r')
	print := 0x20 <= b && b < 0x7f
	switch name {
	case "alnum":
		return upper || lower || digit, true
	case "alpha":
		return upper || lower, true
	case "blank":
		return b == ' ' || b == '\t', true
	case "cntrl":
		return b < 0x20 || b == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return print && b != ' ', true
	case "lower":
		return lower, true
	case "print":
		return print, true
	case "punct":
		return print && b != ' ' && !upper && !lower && !digit, true
	case "space":
		return space, true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || ('a' <= b && b <= 'f') || ('A' <= b && b <= 'F'), true
	}
	return false, false
}
