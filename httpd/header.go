package httpd

import "slices"

// Header is a request's or an answer's headers, keyed by canonical name
// (CanonicalHeaderKey), as net/http's Header.
type Header map[string][]string

// Add appends a value to key's.
func (h Header) Add(key, value string) {
	key = CanonicalHeaderKey(key)
	h[key] = append(h[key], value)
}

// Set replaces key's values with value.
func (h Header) Set(key, value string) { h[CanonicalHeaderKey(key)] = []string{value} }

// Get is key's first value, "" if none.
func (h Header) Get(key string) string {
	if v := h[CanonicalHeaderKey(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Values are key's values (the map's own slice).
func (h Header) Values(key string) []string { return h[CanonicalHeaderKey(key)] }

// Del removes key.
func (h Header) Del(key string) { delete(h, CanonicalHeaderKey(key)) }

// Clone is a copy of h whose slices are its own.
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	c := make(Header, len(h))
	for k, v := range h {
		c[k] = slices.Clone(v)
	}
	return c
}

// CanonicalHeaderKey is key with its first letter and each letter after
// a hyphen in upper case and the others in lower case
// ("content-type" is "Content-Type"); a key that is not a token (it has
// a space, say) is left as it is, as net/textproto leaves it.
func CanonicalHeaderKey(key string) string {
	if !isToken(key) {
		return key
	}
	upper := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			return canonicalize(key)
		}
		upper = c == '-'
	}
	return key
}

func canonicalize(key string) string {
	b := []byte(key)
	upper := true
	for i, c := range b {
		switch {
		case upper && 'a' <= c && c <= 'z':
			b[i] = c - ('a' - 'A')
		case !upper && 'A' <= c && c <= 'Z':
			b[i] = c + ('a' - 'A')
		}
		upper = c == '-'
	}
	return string(b)
}
