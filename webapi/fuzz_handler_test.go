package webapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/webapi"
)

// FuzzHandler sends arbitrary /pmapi/ and /metrics requests (path,
// query, method and form body) to the REST API over an archive context:
// whatever they ask, the server answers with a status and, where it says
// the answer is JSON, a JSON text, and serves on. (Except where the
// request's context number is not written as JSON writes a number, or a
// parameter holds bytes outside printable ASCII: PCP's pmproxy echoes
// the number as given, "context":00, and quotes names with sdscatrepr's
// \xHH escapes, which JSON has not; ours answers byte for byte as it.)
func FuzzHandler(f *testing.F) {
	for _, s := range []struct{ method, target, body string }{
		{"GET", "/pmapi/metric?names=kernel.all.load,kernel.all.uptime", ""},
		{"GET", "/pmapi/fetch?names=kernel.all.load&polltimeout=1", ""},
		{"GET", "/pmapi/indom?name=kernel.all.load&instance=1,5&iname=15%20minute", ""},
		{"GET", "/pmapi/children?prefix=kernel", ""},
		{"POST", "/pmapi/derive", "name=load.sum&expr=sum(kernel.all.load)"},
		{"GET", "/pmapi/profile?indom=60.2&instance=1&expr=add", ""},
		{"GET", "/pmapi/store?name=kernel.all.load&value=1", ""},
		{"GET", "/pmapi/1/_fetch?pmids=60.2.0,0x7400001", ""},
		{"GET", "/metrics?names=kernel.all", ""},
		{"GET", "/pmapi/context?hostspec=localhost&polltimeout=99999999999", ""},
		{"PUT", "/pmapi/metric?prefix=%zz", "x"},
	} {
		f.Add(s.method, s.target, s.body)
	}
	s := webapi.New(webapi.Options{Open: func(ctx context.Context, hostspec string) (pmapi.Source, error) {
		return pmapi.NewArchiveContext(ctx, "../pmapi/testdata/archives/pcp-uptime2")
	}})
	f.Cleanup(s.Close)
	h := httpstd.Handler(s)
	methods := []string{"GET", "POST", "PUT", "HEAD", "DELETE", "OPTIONS"}
	f.Fuzz(func(t *testing.T, method, target, body string) {
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n\t#") || strings.Contains(target, "//") {
			return // not a request line net/http's client could send
		}
		if _, err := url.ParseRequestURI(target); err != nil {
			return // nor one net/http's server would take
		}
		m := method
		if !slices.Contains(methods, m) {
			m = methods[len(method)%len(methods)]
		}
		req := httptest.NewRequest(m, target, strings.NewReader(body))
		if m == "POST" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code < 100 || rec.Code > 599 {
			t.Fatalf("%s %s: status %d", m, target, rec.Code)
		}
		b, _ := io.ReadAll(rec.Result().Body)
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && m != "HEAD" && jsonExpected(req) && !json.Valid(b) {
			t.Fatalf("%s %s: %d, not JSON: %q", m, target, rec.Code, b)
		}
	})
}

// jsonExpected says the request's parameters are printable ASCII and it
// names no context, or names it in the digits JSON would write.
func jsonExpected(r *http.Request) bool {
	for _, vs := range r.URL.Query() {
		for _, v := range vs {
			for i := 0; i < len(v); i++ {
				if v[i] < 0x20 || v[i] > 0x7e {
					return false
				}
			}
		}
	}
	ids := []string{r.URL.Query().Get("context")}
	if rest, ok := strings.CutPrefix(r.URL.Path, "/pmapi/"); ok {
		if id, _, ok := strings.Cut(rest, "/"); ok {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		n, err := strconv.ParseUint(id, 10, 64)
		if err != nil || strconv.FormatUint(n, 10) != id {
			return false
		}
	}
	return true
}
