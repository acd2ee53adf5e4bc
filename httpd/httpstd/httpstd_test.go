package httpstd

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd"
)

type ctxKey struct{}

// TestHandler: a request reaches the httpd handler with its method,
// URL, headers, body, address and context, and the answer's status,
// headers and body reach the client.
func TestHandler(t *testing.T) {
	h := httpd.HandlerFunc(func(w httpd.ResponseWriter, r *httpd.Request) {
		b, _ := io.ReadAll(r.Body)
		v, _ := r.Context().Value(ctxKey{}).(string)
		if err := httpd.SetWriteDeadline(w, time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetWriteDeadline: %v", err)
		}
		w.Header().Set("x-got", r.Method+" "+r.URL.Path+" "+r.URL.RawQuery+" "+r.Header.Get("x-in")+" "+string(b)+" "+v)
		if r.RemoteAddr == "" || r.Host == "" {
			w.WriteHeader(httpd.StatusBadRequest)
			return
		}
		w.WriteHeader(httpd.StatusAccepted)
		io.WriteString(w, "answer")
	})
	srv := httptest.NewUnstartedServer(Handler(h))
	wrapped := srv.Config.Handler
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wrapped.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, "ctx")))
	})
	srv.Start()
	defer srv.Close()
	req, _ := http.NewRequest("POST", srv.URL+"/p/q?a=1", strings.NewReader("body"))
	req.Header.Set("X-In", "hdr")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 202 || string(b) != "answer" || resp.Header.Get("X-Got") != "POST /p/q a=1 hdr body ctx" {
		t.Errorf("answer %d %q, X-Got %q", resp.StatusCode, b, resp.Header.Get("X-Got"))
	}
}
