package webapi

import (
	"bytes"
	"crypto/subtle"
	"net/url"
	"strings"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
)

// basicAuth reads a request's Authorization headers as pmproxy does: a
// "Basic " value must decode, as pmproxy's base64_decode decodes it, to
// text with a ':' (user:password) before any NUL, else ok is false and
// the request is refused with 401 before anything else is done. Other
// schemes are ignored, as pmproxy ignores them; of several Basic values
// the last gives the credentials. has says credentials were given.
func basicAuth(values []string) (c credentials, ok bool) {
	ok = true
	for _, v := range values {
		cred, found := strings.CutPrefix(v, "Basic ")
		if !found {
			continue
		}
		dec, good := b64decode(cred)
		colon := bytes.IndexByte(dec, ':')
		if !good || colon < 0 || bytes.IndexByte(dec[:colon], 0) >= 0 {
			ok = false
			continue
		}
		c = credentials{user: string(dec[:colon]), pass: string(dec[colon+1:]), has: true}
	}
	return c, ok
}

// credentials are a request's Basic user and password, which pmproxy
// hands to pmcd (as SASL's user) when it makes a context for the
// request, and which later requests on that context must repeat.
type credentials struct {
	user, pass string
	has        bool
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

// b64decode decodes s as pmproxy does, refusing only a length that is
// not a multiple of four and stopping at a '=' in the third or fourth
// place of a quantum.
func b64decode(s string) ([]byte, bool) {
	if len(s)%4 != 0 {
		return nil, false
	}
	out := make([]byte, 0, len(s)/4*3)
	for i := 0; i+4 <= len(s); i += 4 {
		a, b, c, d := int(b64[s[i]]), int(b64[s[i+1]]), int(b64[s[i+2]]), int(b64[s[i+3]])
		out = append(out, byte(a<<2|(b&0x30)>>4))
		if c == -1 {
			break
		}
		out = append(out, byte((b&0x0f)<<4|(c&0x3c)>>2))
		if d == -1 {
			break
		}
		out = append(out, byte((c&0x03)<<6|d))
	}
	return out, true
}

// contextAuth is what libpcp_web's webgroup_access does with a new
// context's host specification: its own username (else its password) is
// the context's; without a username there, the request's Basic
// credentials are added to it, so pmcd is asked as that user (SASL).
// spec is returned with them added; a specification that does not parse
// is left for the connection to refuse.
func contextAuth(spec string, basic credentials) (string, *string, *string) {
	hs, err := pmapi.ParseHostSpec(spec)
	if err != nil {
		return spec, nil, nil
	}
	if u, ok := hs.Attrs[pdu.AttrUsername]; ok {
		return spec, &u, nil
	}
	var pass *string
	if p, ok := hs.Attrs[pdu.AttrPassword]; ok {
		// libpcp_web keeps it, and as it forgets the username's
		// password, such a context can never be used again
		pass = &p
	}
	if !basic.has {
		return spec, nil, pass
	}
	// pmproxy hands libpcp the password as a C string
	p, _, _ := strings.Cut(basic.pass, "\x00")
	return withAttrs(spec, "username="+url.QueryEscape(basic.user)+"&password="+url.QueryEscape(p)), &basic.user, &basic.pass
}

// withAttrs adds attributes to a host specification (libpcp_web renders
// the whole specification anew; adding to the text keeps what it does not
// show, such as the default socket of a "local:" one). Attributes end at
// a '/', so they go before one; a later attribute overrides an earlier.
func withAttrs(spec, attrs string) string {
	q := strings.IndexByte(spec, '?')
	if q < 0 {
		return spec + "?" + attrs
	}
	end := len(spec)
	if i := strings.IndexByte(spec[q:], '/'); i >= 0 {
		end = q + i
	}
	sep := "&"
	if end == q+1 {
		sep = ""
	}
	return spec[:end] + sep + attrs + spec[end:]
}

// checkAuth is pmproxy's check of a request against a context's
// credentials: a context with a user wants the same user and password in
// the request's Basic credentials, else 401 "authentication required"
// (none given, or the context lacks a password) or 403 "authentication
// failed".
func checkAuth(user, pass *string, basic credentials) (int, string, bool) {
	if user == nil {
		return 0, "", true
	}
	if pass == nil || !basic.has {
		return statusAgain, "authentication required", false
	}
	// constant time, so a request's timing says nothing of how much of
	// the password it got right
	if subtle.ConstantTimeCompare([]byte(*user), []byte(basic.user)) != 1 ||
		subtle.ConstantTimeCompare([]byte(*pass), []byte(basic.pass)) != 1 {
		return statusPerm, "authentication failed", false
	}
	return 0, "", true
}
