package webapi

import (
	"strconv"
)

// appendJSONString appends s as libpcp_web's unicode_encode writes it: in
// double quotes, letters, digits, space and printable punctuation other
// than '\\' and '"' as they are, any other ASCII byte as \u00XX (upper
// case hex) and every byte outside ASCII as \uFFFD.
func appendJSONString(dst []byte, s string) []byte {
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

// appendRepr appends s quoted as the sds library's sdscatrepr does (C
// escapes, other unprintable bytes as \xNN), which pmproxy uses for an
// unknown metric name and OpenMetrics label values.
func appendRepr(dst []byte, s string) []byte {
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

// suffix is the stack of closing brackets a streamed JSON answer still
// owes, as pmproxy's json_push_suffix keeps it: the innermost first and
// "\r\n" at the end.
type suffix []byte

func (s suffix) push(c byte) suffix {
	if len(s) == 0 {
		return suffix{c, '\r', '\n'}
	}
	return append(suffix{c}, s...)
}

func (s suffix) pop() suffix {
	if len(s) == 0 {
		return s
	}
	return s[1:]
}

func appendUint(dst []byte, v uint64) []byte { return strconv.AppendUint(dst, v, 10) }
func appendInt(dst []byte, v int64) []byte   { return strconv.AppendInt(dst, v, 10) }
