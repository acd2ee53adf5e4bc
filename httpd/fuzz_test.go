package httpd

import (
	"bytes"
	"testing"
)

// FuzzRequest feeds bytes to the request parser: the head's end found
// whole or a byte at a time gives the same length, a parsed head is
// consistent (a token method, one framing), and a chunked body decodes
// to the same bytes whether it arrives whole or in pieces, never beyond
// its bound.
func FuzzRequest(f *testing.F) {
	for _, s := range []string{
		"GET /a HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /a HTTP/1.0\nConnection: keep-alive\n\n",
		"POST /p HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
		"POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n",
		"POST /p HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"GET /a HTTP/1.1\r\nX: a\r\n b\r\n\r\n",
		"OPTIONS * HTTP/1.1\r\n\r\n",
		"CONNECT host:1 HTTP/1.1\r\n\r\n",
		"GET http://h/p?q HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n := headEnd(b, 0)
		if n > len(b) || (n > 0 && !bytes.HasSuffix(b[:n], []byte("\n\n")) && !bytes.HasSuffix(b[:n], []byte("\n\r\n"))) {
			t.Fatalf("headEnd %d of %q", n, b)
		}
		step := 0
		for i := 1; i <= len(b); i++ {
			if step = headEnd(b[:i], i-1); step != 0 {
				break
			}
		}
		if step != n {
			t.Fatalf("headEnd whole %d, a byte at a time %d", n, step)
		}
		if n == 0 {
			return
		}
		h, err := parseHead(b[:n])
		if err != nil {
			if _, ok := err.(*refusal); !ok {
				t.Fatalf("error %v is no refusal", err)
			}
			return
		}
		if !isToken(h.method) || h.url == nil || h.contentLength < -1 || (h.chunked && h.contentLength >= 0) {
			t.Fatalf("inconsistent head %+v", h)
		}
		if !h.chunked {
			return
		}
		const max = 1 << 10
		whole := append([]byte(nil), b[n:]...)
		var d dechunker
		done, err := d.decode(whole, max)
		if d.out > max {
			t.Fatalf("decoded %d bytes past the bound", d.out)
		}
		// the same body fed in three pieces, compacted between them as
		// the server compacts it
		rest := b[n:]
		var buf []byte
		var p dechunker
		var pdone bool
		var perr error
		fed := 0
		for _, cut := range []int{len(rest) / 3, 2 * len(rest) / 3, len(rest)} {
			buf = append(buf, rest[fed:cut]...)
			fed = cut
			pdone, perr = p.decode(buf, max)
			if pdone || perr != nil {
				break
			}
			k := copy(buf[p.out:], buf[p.raw:])
			buf = buf[:p.out+k]
			p.raw = p.out
		}
		if (err == nil) != (perr == nil) || done != pdone {
			t.Fatalf("whole: %v %v, in pieces: %v %v", done, err, pdone, perr)
		}
		if done && !bytes.Equal(whole[:d.out], buf[:p.out]) {
			t.Fatalf("whole %q, in pieces %q", whole[:d.out], buf[:p.out])
		}
	})
}
