package linux

import (
	"strconv"
	"unsafe"
)

// Byte-level parsing of /proc text: no strings, no allocation.

// nextLine splits off the first line of b.
func nextLine(b []byte) (line, rest []byte) {
	for i, c := range b {
		if c == '\n' {
			return b[:i], b[i+1:]
		}
	}
	return b, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// fields appends the whitespace-separated fields of line to dst[:0].
func fields(line []byte, dst [][]byte) [][]byte {
	dst = dst[:0]
	i := 0
	for i < len(line) {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if j > i {
			dst = append(dst, line[i:j])
		}
		i = j
	}
	return dst
}

// nextField splits off the first whitespace-separated field of b.
func nextField(b []byte) (f, rest []byte) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isSpace(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

// parseU64 reads the decimal digits at the start of b (after a '+' or
// spaces); it stops at the first other byte and wraps silently as the
// kernel's counters do.
func parseU64(b []byte) uint64 {
	i := 0
	for i < len(b) && (isSpace(b[i]) || b[i] == '+') {
		i++
	}
	var n uint64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		n = n*10 + uint64(b[i]-'0')
	}
	return n
}

// parseI64 is parseU64 with an optional minus sign.
func parseI64(b []byte) int64 {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i < len(b) && b[i] == '-' {
		return -int64(parseU64(b[i+1:]))
	}
	return int64(parseU64(b[i:]))
}

// parseHex reads hexadecimal digits, with or without a 0x prefix.
func parseHex(b []byte) uint64 {
	if len(b) > 1 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') {
		b = b[2:]
	}
	var n uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | uint64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | uint64(c-'A'+10)
		default:
			return n
		}
	}
	return n
}

// parseFloat reads the decimal number at the start of b ("12.34",
// "-0.5"), rounded correctly as C's strtod rounds it, and 0 when there is
// none. The bytes are viewed as a string for strconv without a copy.
func parseFloat(b []byte) float64 {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	j := i
	if j < len(b) && (b[j] == '-' || b[j] == '+') {
		j++
	}
	for j < len(b) && (isDigit(b[j]) || b[j] == '.') {
		j++
	}
	if j == i {
		return 0
	}
	v, err := strconv.ParseFloat(unsafe.String(&b[i], j-i), 64)
	if err != nil && v == 0 {
		return 0
	}
	return v
}

// hasPrefix is bytes.HasPrefix for a string prefix.
func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}

// trimSpace trims white space at both ends.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// keepString returns old when it already holds b, else a new string: text
// values that rarely change (a model name, a scheduler) allocate only when
// they do.
func keepString(old string, b []byte) string {
	if old == string(b) {
		return old
	}
	return string(b)
}

// indexString is bytes.Index for a string needle, without converting it.
func indexString(b []byte, s string) int {
	if len(s) == 0 {
		return 0
	}
	for i := 0; i+len(s) <= len(b); i++ {
		if b[i] == s[0] && string(b[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}
