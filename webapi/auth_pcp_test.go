package webapi_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/webapi"
)

// TestAuthAgainstPCP sends requests with Authorization headers to PCP's
// pmproxy and ours over one PCP pmcd and compares status, body and
// WWW-Authenticate: malformed Basic credentials are refused with 401
// (pmproxy 6.0.3 sends no WWW-Authenticate: its realm is never set),
// other schemes and well-formed credentials on a context made without
// them are let through.
func TestAuthAgainstPCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	px := proxybed.Start(t, bed)
	srv := webapi.New(webapi.Options{})
	defer srv.Close()
	ours := httptest.NewServer(httpstd.Handler(srv))
	defer ours.Close()
	b64 := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	type answer struct {
		status int
		www    string
		body   string
	}
	send := func(base, method, path, auth string) answer {
		status, www, body := request(t, method, base+path, auth)
		return answer{status, www, body}
	}
	// a context each, made without credentials, with a life longer than
	// the cases take on a loaded machine (the default 5 s is not)
	ctx := map[string]string{}
	for _, base := range []string{px.URL(), ours.URL} {
		a := send(base, http.MethodGet, "/pmapi/context?hostspec="+bed.Host()+"&polltimeout=3600", "")
		m := ctxRe.FindStringSubmatch(a.body)
		if a.status != 200 || m == nil {
			t.Fatalf("%s: context: %v", base, a)
		}
		ctx[base] = m[1]
	}
	cases := []struct {
		method, path, auth string
		want               int
	}{
		{"GET", "/pmapi/context?HS", "Basic !!", 401},
		{"GET", "/pmapi/context?HS", "Basic !!!!", 401},
		{"GET", "/pmapi/context?HS", b64("nocolon"), 401},
		{"GET", "/pmapi/context?HS", "Basic ", 200}, // the trailing space is not part of the value: no "Basic " prefix
		{"GET", "/pmapi/context?HS", "Basic  dTpw", 401},
		{"GET", "/pmapi/context?HS", "basic !!", 200},
		{"GET", "/pmapi/context?HS", "Bearer abc", 200},
		{"GET", "/pmapi/CTX/fetch?names=sample.long.one", "Basic !!", 401},
		{"GET", "/pmapi/CTX/fetch?names=sample.long.one", b64("user:secret"), 200},
		{"GET", "/pmapi/CTX/fetch?names=sample.long.one", b64("a\x00:b"), 401},
		{"GET", "/pmapi/CTX/metric?names=sample.long.one", "Basic Og==", 200},
		{"GET", "/pmapi/fetch?HS&names=sample.long.one", "Basic !!", 401},
		{"GET", "/metrics?HS&names=sample.long.one", "Basic !!", 401},
		{"POST", "/pmapi/CTX/derive?name=d1&expr=sample.long.one", "Basic !!", 401},
		{"OPTIONS", "/pmapi/context", "Basic !!", 401},
		{"GET", "/pmapi/99/fetch?names=sample.long.one", "Basic !!", 401},
	}
	for _, c := range cases {
		var got [2]answer
		for i, base := range []string{px.URL(), ours.URL} {
			path := strings.ReplaceAll(c.path, "HS", "hostspec="+bed.Host())
			path = strings.ReplaceAll(path, "CTX", ctx[base])
			got[i] = send(base, c.method, path, c.auth)
			got[i].body = mask(got[i].body)
		}
		if got[0].status != c.want {
			t.Errorf("%s %s (%q): PCP's pmproxy answered %d, the test expects %d", c.method, c.path, c.auth, got[0].status, c.want)
		}
		if got[0] != got[1] {
			t.Errorf("%s %s (%q):\nPCP's: %+v\nours:  %+v", c.method, c.path, c.auth, got[0], got[1])
		}
	}
	t.Logf("%d requests with credentials compared with PCP's pmproxy", len(cases))
}
