package httpd

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"slices"
	"strings"
	"testing"
)

// recorder is a ResponseWriter that keeps the answer, for comparing
// with httptest's recorder.
type recorder struct {
	h      Header
	status int
	body   strings.Builder
}

func newRecorder() *recorder { return &recorder{h: Header{}} }

func (r *recorder) Header() Header { return r.h }
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *recorder) Write(p []byte) (int, error) {
	if _, typed := r.h["Content-Type"]; r.status == 0 && !typed {
		// as httptest's recorder, which stands in for the server's sniffing
		r.h.Set("Content-Type", DetectContentType(p))
	}
	r.WriteHeader(StatusOK)
	return r.body.Write(p)
}

// answerText is an answer as compared: status, sorted headers, body.
func answerText(status int, h map[string][]string, body string) string {
	var hs []string
	for k, v := range h {
		hs = append(hs, k+": "+strings.Join(v, ", "))
	}
	slices.Sort(hs)
	return http.StatusText(status) + " " + strings.Join(hs, " | ") + " | " + body
}

// bothRequests reads raw (a request's line and headers) as net/http's
// server would and as ours does.
func bothRequests(t testing.TB, raw string) (*http.Request, *Request, bool) {
	hr, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
	if err != nil {
		return nil, nil, false
	}
	h, err := parseHead([]byte(raw))
	if err != nil {
		return nil, nil, false
	}
	r := &Request{Method: h.method, URL: h.url, RequestURI: h.target, Proto: h.proto,
		ProtoMajor: h.major, ProtoMinor: h.minor, Header: h.header, Host: h.host, Body: NoBody}
	return hr, r, true
}

// TestCanonicalHeaderKey: keys canonicalised as net/textproto does.
func TestCanonicalHeaderKey(t *testing.T) {
	for _, k := range []string{"", "a", "content-type", "CONTENT-TYPE", "Content-Type", "x-forwarded-for",
		"-a-", "a--b", "with space", "ümlaut", "a_b", "WWW-AUTHENTICATE", "1a-2b", "a:b", "Access-Control-Allow-Origin"} {
		if got, want := CanonicalHeaderKey(k), textproto.CanonicalMIMEHeaderKey(k); got != want {
			t.Errorf("%q: %q, net/textproto %q", k, got, want)
		}
	}
	h := Header{}
	h.Add("x-a", "1")
	h.Add("X-A", "2")
	h.Set("content-type", "t")
	if got := h.Values("X-a"); !slices.Equal(got, []string{"1", "2"}) || h.Get("Content-Type") != "t" {
		t.Errorf("header %v", h)
	}
	h.Del("CONTENT-type")
	if _, ok := h["Content-Type"]; ok {
		t.Errorf("Del left %v", h)
	}
}

// TestStatusText: every code net/http names has its phrase.
func TestStatusText(t *testing.T) {
	n := 0
	for code := 0; code < 1000; code++ {
		if got, want := StatusText(code), http.StatusText(code); got != want {
			t.Errorf("%d: %q, net/http %q", code, got, want)
		}
		if StatusText(code) != "" {
			n++
		}
	}
	if n < 60 {
		t.Errorf("only %d status texts", n)
	}
}

// sniffCases cover every signature and the text test's edges.
var sniffCases = []string{
	"", "hello", "  \n<html>x", "<HtMl>", "<html", "<!DOCTYPE html>", "<!-- c -->", "<p>", "<PX",
	"<?xml version", "  <?xml", "%PDF-1.4", "%!PS-Adobe-3", "\xFE\xFF\x00\x41", "\xFF\xFE\x41\x00",
	"\xEF\xBB\xBFx", "\x00\x00\x01\x00", "\x00\x00\x02\x00", "BMxx", "GIF87a", "GIF89a",
	"RIFF\x01\x02\x03\x04WEBPVP8 ", "\x89PNG\x0D\x0A\x1A\x0A", "\xFF\xD8\xFF\xE0", "FORM\x00\x00\x00\x00AIFF",
	"ID3\x04", "OggS\x00", "MThd\x00\x00\x00\x06", "RIFF\x00\x00\x00\x00AVI ", "RIFF\x00\x00\x00\x00WAVE",
	"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp41isom", "\x00\x00\x00\x10ftypisom\x00\x00\x00\x00",
	"\x1A\x45\xDF\xA3", strings.Repeat("\x00", 34) + "LP", "\x00\x01\x00\x00", "OTTO", "ttcf", "wOFF", "wOF2",
	"\x1F\x8B\x08", "PK\x03\x04", "Rar!\x1A\x07\x00", "Rar!\x1A\x07\x01\x00", "\x00asm", "a\x01b", "a\x1bb",
	"\x0c\r\t text", strings.Repeat("a", 511) + "\x01", strings.Repeat("a", 512) + "\x01",
}

// TestDetectContentType: the same type as net/http's sniffing.
func TestDetectContentType(t *testing.T) {
	for _, s := range sniffCases {
		if got, want := DetectContentType([]byte(s)), http.DetectContentType([]byte(s)); got != want {
			t.Errorf("%q: %q, net/http %q", s, got, want)
		}
	}
}

func FuzzDetectContentType(f *testing.F) {
	for _, s := range sniffCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := DetectContentType(b), http.DetectContentType(b); got != want {
			t.Fatalf("%q: %q, net/http %q", b, got, want)
		}
	})
}

// TestErrorAndRedirect: Error's and Redirect's answers are net/http's.
func TestErrorAndRedirect(t *testing.T) {
	for _, c := range []struct{ method, target, to string }{
		{"GET", "/a/b", "/c"}, {"HEAD", "/a/b", "/c/"}, {"POST", "/a/b", "c?x=1"},
		{"GET", "/a/b/", "../d/./e/"}, {"GET", "/", "/ü?q=<&>"}, {"GET", "/x", "http://h/p"},
	} {
		hr, r, ok := bothRequests(t, c.method+" "+c.target+" HTTP/1.1\r\n\r\n")
		if !ok {
			t.Fatalf("%s %s not read", c.method, c.target)
		}
		want := httptest.NewRecorder()
		http.Redirect(want, hr, c.to, http.StatusTemporaryRedirect)
		got := newRecorder()
		Redirect(got, r, c.to, StatusTemporaryRedirect)
		if w, g := answerText(want.Code, want.Header(), want.Body.String()), answerText(got.status, got.h, got.body.String()); w != g {
			t.Errorf("redirect %s %s to %s:\n net/http %s\n ours     %s", c.method, c.target, c.to, w, g)
		}
	}
	want := httptest.NewRecorder()
	want.Header().Set("Content-Length", "9")
	http.Error(want, "no such thing", 404)
	got := newRecorder()
	got.Header().Set("Content-Length", "9")
	Error(got, "no such thing", 404)
	if w, g := answerText(want.Code, want.Header(), want.Body.String()), answerText(got.status, got.h, got.body.String()); w != g {
		t.Errorf("Error:\n net/http %s\n ours     %s", w, g)
	}
}

// TestMaxBytesReader: a body at the bound reads whole, one past it
// gives the bound's bytes and *MaxBytesError, as net/http's reader.
func TestMaxBytesReader(t *testing.T) {
	for _, n := range []int{0, 1, 9, 10, 11, 5000} {
		body := strings.Repeat("x", n)
		got, gerr := io.ReadAll(MaxBytesReader(io.NopCloser(strings.NewReader(body)), 10))
		want, werr := io.ReadAll(http.MaxBytesReader(nil, io.NopCloser(strings.NewReader(body)), 10))
		var me *MaxBytesError
		if string(got) != string(want) || (werr == nil) != (gerr == nil) || (gerr != nil && !errors.As(gerr, &me)) {
			t.Errorf("%d bytes: %d, %v; net/http %d, %v", n, len(got), gerr, len(want), werr)
		}
	}
}

func FuzzCanonicalHeaderKey(f *testing.F) {
	for _, k := range []string{"content-type", "with space", "a--b", "ü"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, k string) {
		if got, want := CanonicalHeaderKey(k), textproto.CanonicalMIMEHeaderKey(k); got != want {
			t.Fatalf("%q: %q, net/textproto %q", k, got, want)
		}
	})
}
