package webid

// AppendUnicode appends s quoted as libpcp_web's unicode_encode writes
// it: in double quotes, letters, digits, space and printable punctuation
// other than '\\' and '"' as they are, any other ASCII byte as \u00XX
// (upper-case hex) and every byte outside ASCII as \uFFFD. Values of
// string type and help texts are written so.
func AppendUnicode[S ~string | ~[]byte](dst []byte, s S) []byte {
	const hex = "0123456789ABCDEF"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			dst = append(dst, `\uFFFD`...)
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == ' ':
			dst = append(dst, c)
		case c > ' ' && c < 0x7f && c != '\\' && c != '"':
			dst = append(dst, c)
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
	}
	return append(dst, '"')
}

// AppendRepr appends s quoted as the sds library's sdscatrepr does: C's
// escapes for \\ \" \n \r \t \a \b and other bytes outside printable
// ASCII as \xhh (lower-case hex). pmproxy quotes names, messages and
// series values so.
func AppendRepr(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '"':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		case '\t':
			dst = append(dst, `\t`...)
		case '\a':
			dst = append(dst, `\a`...)
		case '\b':
			dst = append(dst, `\b`...)
		default:
			if c >= ' ' && c < 0x7f {
				dst = append(dst, c)
			} else {
				dst = append(dst, '\\', 'x', hex[c>>4], hex[c&0xf])
			}
		}
	}
	return append(dst, '"')
}
