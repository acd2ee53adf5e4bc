package pmns

// PCP's readers classify bytes with the C library in the "C" locale; these
// are those classes, so that bytes above 0x7f are never letters or space.

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }
