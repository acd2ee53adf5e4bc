package webapi

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi"
)

func TestBasicAuth(t *testing.T) {
	b := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, c := range []struct {
		values     []string
		ok         bool
		user, pass string
		has        bool
	}{
		{nil, true, "", "", false},
		{[]string{b("u:p")}, true, "u", "p", true},
		{[]string{b(":")}, true, "", "", true},
		{[]string{b("user:")}, true, "user", "", true},
		{[]string{b("u:p:q\x00r")}, true, "u", "p:q\x00r", true}, // the rest is the password
		{[]string{b("nocolon")}, false, "", "", false},
		{[]string{b("a\x00:b")}, false, "", "", false},  // the colon is past a NUL
		{[]string{"Basic "}, false, "", "", false},      // empty: no colon
		{[]string{"Basic !!"}, false, "", "", false},    // a length pmproxy refuses
		{[]string{"Basic !!!!"}, false, "", "", false},  // decoded, to zeros
		{[]string{"Basic  dTpw"}, false, "", "", false}, // five characters
		{[]string{"Basic Og=="}, true, "", "", true},    // ":" with padding
		{[]string{"Basic ==Og"}, false, "", "", false},  // '=' first: garbage, then stop
		{[]string{"basic !!"}, true, "", "", false},     // another scheme: ignored
		{[]string{"Bearer x"}, true, "", "", false},
		{[]string{b("u:p"), "Basic !!"}, false, "u", "p", true},
		{[]string{b("u:p"), b("v:q")}, true, "v", "q", true}, // the last wins
	} {
		got, ok := basicAuth(c.values)
		if ok != c.ok || got.user != c.user || got.pass != c.pass || got.has != c.has {
			t.Errorf("basicAuth(%q) = %+v %v, want %q %q %v", c.values, got, ok, c.user, c.pass, c.ok)
		}
	}
}

// TestContextAuth: what a new context's host specification becomes with
// the request's credentials, and the credentials its later requests must
// repeat, as libpcp_web's webgroup_access leaves them.
func TestContextAuth(t *testing.T) {
	basic := credentials{user: "u", pass: "p\x00q", has: true}
	for _, c := range []struct {
		spec       string
		basic      credentials
		want       string
		user, pass string // "-" for none
	}{
		{"localhost:44321", basic, "localhost:44321?username=u&password=p", "u", "p\x00q"},
		{"localhost:44321", credentials{}, "localhost:44321", "-", "-"},
		{"h?username=x", basic, "h?username=x", "x", "-"},
		{"h?username=x&password=y", basic, "h?username=x&password=y", "x", "-"},
		{"h?password=y", credentials{}, "h?password=y", "-", "y"},
		{"h?password=y", basic, "h?password=y&username=u&password=p", "u", "p\x00q"},
		{"h?container=c", basic, "h?container=c&username=u&password=p", "u", "p\x00q"},
		{"h?", basic, "h?username=u&password=p", "u", "p\x00q"},
		{"h?container=c/x", basic, "h?container=c&username=u&password=p/x", "u", "p\x00q"},
		{"local:", basic, "local:?username=u&password=p", "u", "p\x00q"},
		{"[::1]:4", basic, "[::1]:4?username=u&password=p", "u", "p\x00q"},
		{"h", credentials{user: "a b&c", pass: "=%", has: true}, "h?username=a+b%26c&password=%3D%25", "a b&c", "=%"},
	} {
		spec, user, pass := contextAuth(c.spec, c.basic)
		str := func(p *string) string {
			if p == nil {
				return "-"
			}
			return *p
		}
		if spec != c.want || str(user) != c.user || str(pass) != c.pass {
			t.Errorf("%q: %q %q %q, want %q %q %q", c.spec, spec, str(user), str(pass), c.want, c.user, c.pass)
		}
		// what pmapi is given names the user and password pmcd is sent
		if hs, err := pmapi.ParseHostSpec(spec); err != nil || user != nil && hs.Attrs[pdu.AttrUsername] != *user {
			t.Errorf("%q: parsed %v, %v", spec, hs, err)
		} else if sent, _, _ := strings.Cut(c.basic.pass, "\x00"); c.basic.has && c.want != c.spec && hs.Attrs[pdu.AttrPassword] != sent {
			t.Errorf("%q: password %q, want %q", spec, hs.Attrs[pdu.AttrPassword], sent)
		}
	}
}

// FuzzBasicAuth: any header value is answered without panic, and
// standard base64 of text with a colon before any NUL always passes,
// giving the text before and after the colon.
func FuzzBasicAuth(f *testing.F) {
	for _, s := range []string{"u:p", "", "nocolon", "a\x00:b", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		basicAuth([]string{"Basic " + s})
		enc := base64.StdEncoding.EncodeToString([]byte(s))
		i, nul := strings.IndexByte(s, ':'), strings.IndexByte(s, 0)
		want := i >= 0 && (nul < 0 || i < nul)
		got, ok := basicAuth([]string{"Basic " + enc})
		if ok != want {
			t.Errorf("%q encoded: %v, want %v", s, ok, want)
		}
		if ok && (got.user != s[:i] || got.pass != s[i+1:] || !got.has) {
			t.Errorf("%q encoded: %+v", s, got)
		}
	})
}
