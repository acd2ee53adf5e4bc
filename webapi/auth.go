package webapi

import "strings"

// basicAuthOK says whether a request's Authorization headers pass
// pmproxy's check of HTTP Basic credentials: a "Basic " value must
// decode, as pmproxy's base64_decode decodes it, to text with a ':'
// (user:password) before any NUL, else the request is refused with 401
// before anything else is done. Other schemes are ignored, as pmproxy
// ignores them. The credentials themselves are not used here: pmproxy
// hands them to pmcd as a SASL user, which pmapi does not speak.
func basicAuthOK(values []string) bool {
	for _, v := range values {
		cred, ok := strings.CutPrefix(v, "Basic ")
		if !ok {
			continue
		}
		if !hasColon(cred) {
			return false
		}
	}
	return true
}

// b64 is pmproxy's decoding table: the base64 alphabet's values, -1 for
// '=', and 0 for every other byte (which it decodes without complaint).
var b64 = func() (t [256]int8) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = int8(i)
	}
	t['='] = -1
	return t
}()

// hasColon decodes s as pmproxy does (refusing only a length that is not
// a multiple of four, stopping at a '=' in the third or fourth place of a
// quantum) and reports whether a ':' comes before the first NUL.
func hasColon(s string) bool {
	if len(s)%4 != 0 {
		return false
	}
	for i := 0; i+4 <= len(s); i += 4 {
		a, b, c, d := int(b64[s[i]]), int(b64[s[i+1]]), int(b64[s[i+2]]), int(b64[s[i+3]])
		out := [3]byte{byte(a<<2 | (b&0x30)>>4), byte((b&0x0f)<<4 | (c&0x3c)>>2), byte((c&0x03)<<6 | d)}
		n := 3
		if c == -1 {
			n = 1
		} else if d == -1 {
			n = 2
		}
		for _, x := range out[:n] {
			switch x {
			case ':':
				return true
			case 0:
				return false
			}
		}
		if n < 3 {
			return false
		}
	}
	return false
}
