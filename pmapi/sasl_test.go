package pmapi

import (
	"strings"
	"testing"

)

// TestDigestMD5RFC2831 checks the response and rspauth against RFC 2831's
// example (section 4).
func TestDigestMD5RFC2831(t *testing.T) {
	m := &digestMD5{c: saslCreds{user: "chris", pass: "secret", host: "elwood.innosoft.com"}, cnonce: "OA6MHXh6VqTrRk"}
	out, done, err := m.step([]byte(`realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8`))
	if err != nil || done {
		t.Fatalf("step 1: done %v, err %v", done, err)
	}
	// the RFC's example digests the URI imap/elwood.innosoft.com
	got := string(out)
	for _, want := range []string{`username="chris"`, `realm="elwood.innosoft.com"`, `nonce="OA6MG9tEQGm2hh"`, `cnonce="OA6MHXh6VqTrRk"`, `nc=00000001`, `qop=auth`, `charset=utf-8`, `digest-uri="PCP Collector/elwood.innosoft.com"`} {
		if !strings.Contains(got, want) {
			t.Errorf("response %q lacks %s", got, want)
		}
	}
	resp, rsp := digestResponse("chris", "elwood.innosoft.com", "secret", "OA6MG9tEQGm2hh", "OA6MHXh6VqTrRk", "imap/elwood.innosoft.com")
	if resp != "d388dad90d4bbd760a152321f2143af7" || rsp != "ea40f60335c427b5527b84dbabcdfffd" {
		t.Errorf("RFC 2831 example: response %s rspauth %s", resp, rsp)
	}
}
