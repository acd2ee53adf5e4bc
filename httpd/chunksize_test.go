package httpd

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestChunkSize: with Options.ChunkSize an HTTP/1.1 answer whose body
// reaches the size goes chunked in chunks of that size, whether or not
// its handler set a Content-Length; a shorter one, an HTTP/1.0 one and
// a HEAD keep their framing (cmd/pmproxy's TestChunkSizeLikePCP compares
// with PCP's pmproxy).
func TestChunkSize(t *testing.T) {
	h := HandlerFunc(func(w ResponseWriter, r *Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if r.URL.Query().Get("len") != "" {
			w.Header().Set("Content-Length", strconv.Itoa(n))
		}
		body := strings.Repeat("x", n)
		for len(body) > 0 { // in pieces, as handlers write
			k := min(len(body), 333)
			w.Write([]byte(body[:k]))
			body = body[k:]
		}
	})
	for _, c := range []struct {
		chunk      int
		method     string
		minor      int
		query      string
		wantChunks string // the chunk sizes, "" for a length
	}{
		{500, "GET", 1, "n=499", ""},
		{500, "GET", 1, "n=499&len=1", ""},
		{500, "GET", 1, "n=1200", "500 500 200"},
		{500, "GET", 1, "n=1200&len=1", "500 500 200"},
		{500, "GET", 0, "n=1200&len=1", ""},
		{500, "HEAD", 1, "n=1200&len=1", ""},
		{10000, "GET", 1, "n=9000&len=1", ""},
		{10000, "GET", 1, "n=25000", "10000 10000 5000"},
		{0, "GET", 1, "n=9000&len=1", ""},
		{0, "GET", 1, "n=9000", "4096 4096 808"},
	} {
		name := fmt.Sprintf("%d %s 1.%d %s", c.chunk, c.method, c.minor, c.query)
		srv := start(t, Options{Handler: h, ChunkSize: c.chunk}, nil)
		conn, r := dial(t, srv.addr)
		fmt.Fprintf(conn, "%s /?%s HTTP/1.%d\r\nHost: x\r\nConnection: close\r\n\r\n", c.method, c.query, c.minor)
		resp, err := http.ReadResponse(r, &http.Request{Method: c.method})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got string
		if len(resp.TransferEncoding) > 0 {
			resp.Body.Close()
			// read again, raw, for the chunk sizes
			conn, r = dial(t, srv.addr)
			fmt.Fprintf(conn, "%s /?%s HTTP/1.%d\r\nHost: x\r\nConnection: close\r\n\r\n", c.method, c.query, c.minor)
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if l == "\r\n" {
					break
				}
			}
			var sizes []string
			for {
				l, _ := r.ReadString('\n')
				n, err := strconv.ParseInt(strings.TrimSpace(l), 16, 32)
				if err != nil || n == 0 {
					break
				}
				sizes = append(sizes, strconv.Itoa(int(n)))
				r.Discard(int(n) + 2)
			}
			got = strings.Join(sizes, " ")
		} else {
			resp.Body.Close()
		}
		if got != c.wantChunks {
			t.Errorf("%s: chunks %q, want %q", name, got, c.wantChunks)
		}
	}
}

// TestChunkRefusal: with ChunkRefusal an HTTP/1.0 answer whose body
// reaches ChunkSize is replaced by a 413 with the refusal's body and
// headers; a shorter one, and HTTP/1.1 ones, are sent.
func TestChunkRefusal(t *testing.T) {
	h := HandlerFunc(func(w ResponseWriter, r *Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("X-Handler", "1")
		if r.URL.Query().Get("len") != "" {
			w.Header().Set("Content-Length", strconv.Itoa(n))
		}
		for i := 0; i < n; i += 100 {
			w.Write([]byte(strings.Repeat("x", min(100, n-i))))
		}
	})
	refusal := func(r *Request, h Header) []byte {
		h.Set("Content-Type", "text/html")
		return []byte("too large: " + r.URL.Path)
	}
	srv := start(t, Options{Handler: h, ChunkSize: 500, ChunkRefusal: refusal}, nil)
	for _, c := range []struct {
		minor  int
		query  string
		status int
		body   string
	}{
		{0, "n=499", 200, strings.Repeat("x", 499)},
		{0, "n=500", 413, "too large: /a"},
		{0, "n=1200&len=1", 413, "too large: /a"},
		{1, "n=1200&len=1", 200, strings.Repeat("x", 1200)},
	} {
		conn, r := dial(t, srv.addr)
		fmt.Fprintf(conn, "GET /a?%s HTTP/1.%d\r\nHost: x\r\n\r\n", c.query, c.minor)
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("1.%d %s: %v", c.minor, c.query, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || string(b) != c.body || (c.status == 413) != (resp.Header.Get("X-Handler") == "") {
			t.Errorf("1.%d %s: %d %q %v, want %d %q", c.minor, c.query, resp.StatusCode, b, resp.Header, c.status, c.body)
		}
	}
}
