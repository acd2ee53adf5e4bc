package webapi_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/webapi"
)

// TestBasicCredentialsToPMCDLikePCP puts PCP's pmproxy and ours in front
// of PCP's pmcd demanding authentication (a private SASL configuration)
// and compares status and body, request by request: a context made with
// Basic credentials authenticates to pmcd as that user (right and wrong
// passwords, an unknown user, a mechanism named in the hostspec), later
// requests on it must repeat the credentials (401 without, 403 with
// others), and a hostspec naming its own user. Requests without any
// credentials are left out: PCP's pmproxy would ask for them on a
// terminal (pmapi's TestSASLAgainstPCP compares that case with pminfo).
func TestBasicCredentialsToPMCDLikePCP(t *testing.T) {
	s := testbed.NewSASL(t, "plain login scram-sha-256 digest-md5", "pw")
	bed := testbed.StartPMCD(t, s.Options())
	px := proxybed.Start(t, bed)
	srv := webapi.New(webapi.Options{})
	defer srv.Close()
	ours := httptest.NewServer(httpstd.Handler(srv))
	defer ours.Close()
	b64 := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	right, wrong := b64(s.User+":pw"), b64(s.User+":no")
	hs := "hostspec=" + bed.Host()
	own := "hostspec=" + url.QueryEscape(bed.Host()+"?username="+s.User+"&password=pw")
	plain := "hostspec=" + url.QueryEscape(bed.Host()+"?method=plain")
	send := func(base, path, auth string) (int, string) {
		code, _, body := request(t, http.MethodGet, base+path, auth)
		return code, mask(body)
	}
	// a context each, made with the right credentials; it must outlive
	// the cases that use it, which on a loaded machine take longer than
	// pmproxy's default poll timeout of 5 s
	ctx := map[string]string{}
	for _, base := range []string{px.URL(), ours.URL} {
		code, _, raw := request(t, http.MethodGet, base+"/pmapi/context?"+hs+"&polltimeout=600", right)
		m := ctxRe.FindStringSubmatch(raw)
		if code != 200 || m == nil {
			t.Fatalf("%s: context with credentials: %d %s", base, code, raw)
		}
		ctx[base] = m[1]
	}
	cases := []struct {
		path, auth string
		want       int
	}{
		{"/pmapi/context?HS", right, 200},
		{"/pmapi/context?HS", wrong, 400},
		{"/pmapi/context?HS", b64("nosuchuser-x:pw"), 400},
		{"/pmapi/context?PLAIN", wrong, 400},
		{"/pmapi/context?PLAIN", right, 200},
		{"/pmapi/fetch?HS&names=pmcd.numagents", right, 200},
		{"/pmapi/fetch?HS&names=pmcd.numagents", wrong, 400},
		{"/pmapi/CTX/fetch?names=pmcd.numagents", right, 200},
		{"/pmapi/CTX/fetch?names=pmcd.numagents", "", 401},
		{"/pmapi/CTX/fetch?names=pmcd.numagents", wrong, 403},
		{"/pmapi/CTX/fetch?names=pmcd.numagents", b64("other:pw"), 403},
		{"/pmapi/CTX/metric?names=pmcd.numagents", "Bearer x", 401},
		{"/pmapi/context?OWN", right, 401},
		{"/pmapi/context?OWN", "", 401},
		{"/metrics?HS&names=pmcd.numagents", right, 200},
	}
	for _, c := range cases {
		var got [2]string
		for i, base := range []string{px.URL(), ours.URL} {
			path := strings.NewReplacer("HS", hs, "OWN", own, "PLAIN", plain, "CTX", ctx[base]).Replace(c.path)
			code, body := send(base, path, c.auth)
			got[i] = http.StatusText(code) + " " + body
			if i == 0 && code != c.want {
				t.Errorf("%s (%q): PCP's pmproxy answered %s, the test expects %d", c.path, c.auth, got[i], c.want)
			}
		}
		if got[0] != got[1] {
			t.Errorf("%s (%q):\nPCP's: %s\nours:  %s", c.path, c.auth, got[0], got[1])
		}
		t.Logf("%s: %s", c.path, got[1])
	}
	t.Logf("%d requests with credentials for a pmcd demanding them compared with PCP's pmproxy", len(cases))
}

// request sends method to u with auth as its Authorization header (none
// when empty) on a client of its own, and gives back the status, the
// WWW-Authenticate header and the body.
func request(t *testing.T, method, u, auth string) (status int, www, body string) {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	c := newClient()
	defer c.CloseIdleConnections()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), string(b)
}
