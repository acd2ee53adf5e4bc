package httpd

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestKeptAliveRequestAllocates: a GET on a kept-alive connection,
// answered by a handler that derives a timeout from its request's
// context as pmproxy's REST API does, allocates at most 1 KiB in the
// server and a raw client together. The head, the Request and the
// response come from a pool and the request's context is the server's;
// a context, a Request, a response and a head for each request made it
// 1.3 KiB. So it does with a ChunkSize of MaxChunkSize: a short answer's
// buffer is not grown to a chunk's size (it was, 1 MiB a request), and
// with a Head of its own (pmproxy's writes PCP's).
func TestKeptAliveRequestAllocates(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops what is put back at random")
	}
	for _, chunk := range []int{0, MaxChunkSize} {
		t.Run(strconv.Itoa(chunk), func(t *testing.T) { keptAliveAllocates(t, chunk, nil) })
	}
	t.Run("head", func(t *testing.T) {
		keptAliveAllocates(t, 4096, func(b []byte, a *Answer) []byte {
			b = append(b, "HTTP/1.1 200 OK\r\nContent-Length: "...)
			b = strconv.AppendInt(b, a.Length, 10)
			b = append(b, "\r\n"...)
			b = AppendHeader(b, a.Header, func(k string) bool { return k != "Content-Length" })
			return append(append(append(b, "Date: "...), Date()...), "\r\n\r\n"...)
		})
	})
}

func keptAliveAllocates(t *testing.T, chunk int, head func([]byte, *Answer) []byte) {
	srv := start(t, Options{ChunkSize: chunk, Head: head, Handler: HandlerFunc(func(w ResponseWriter, r *Request) {
		ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
		defer cancel()
		_ = ctx
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok")
	})}, nil)
	c, _ := dial(t, srv.addr)
	req := []byte("GET /pmapi/1/fetch?names=sample.long.one,sample.bin HTTP/1.1\r\nHost: localhost\r\nUser-Agent: test\r\nAccept: */*\r\n\r\n")
	buf := make([]byte, 4096)
	get := func() {
		if _, err := c.Write(req); err != nil {
			t.Fatal(err)
		}
		// the answer is small and ends with its body, "ok"
		have := 0
		for !bytes.HasSuffix(buf[:have], []byte("\r\n\r\nok")) {
			n, err := c.Read(buf[have:])
			if err != nil {
				t.Fatalf("after %q: %v", buf[:have], err)
			}
			have += n
		}
	}
	for range 20 { // the pools
		get()
	}
	const n = 1000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		get()
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d bytes allocated per request", per)
	if per > 1024 {
		t.Errorf("%d bytes allocated per request, want at most 1 KiB", per)
	}
}
