package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestChunkSizeLikePCP: [pmproxy] chunksize frames answers to HTTP/1.1
// requests as PCP 6.0.3's pmproxy frames them: an answer that reaches
// it goes chunked, a shorter one with its length (C's atoi of the text,
// the page size unset, 128 at least). PCP's chunks are what its
// servlets had appended when the buffer passed the size, ours exactly
// the size, so what is compared is the framing and that every chunk but
// the last holds at least the size, for two answers of PCP's REST API
// (3 KB and 100 KB) on a private pmcd. An HTTP/1.0 request's answer
// that reaches the size is refused, 413 and PCP's page: its status,
// Content-Type and body are compared, and a shorter one's status.
func TestChunkSizeLikePCP(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	for _, c := range []struct {
		v    string
		size int
	}{{"unset", 4096}, {"500", 500}, {"10", 128}, {"abc", 128}, {"100000", 100000}, {"4096x", 4096}} {
		t.Run(c.v, func(t *testing.T) {
			conf := "[pmproxy]\npcp.enabled = false\n[redis]\nenabled = false\n"
			if c.v != "unset" {
				conf = "[pmproxy]\nchunksize = " + c.v + "\n[redis]\nenabled = false\n"
			}
			pcps, _ := startPCPConf(t, conf, nil)
			ours := startOursAt(t, conf, t.TempDir(), t.TempDir())
			for _, prefix := range []string{"sample.long", "sample"} {
				path := "/pmapi/metric?hostspec=" + bed.Host() + "&prefix=" + prefix
				want, got := framing(t, pcps, path, c.size), framing(t, ours, path, c.size)
				if want != got {
					t.Errorf("GET %s: ours %s, PCP's %s", path, got, want)
				}
				want, got = answer10(t, pcps, path), answer10(t, ours, path)
				if want != got {
					t.Errorf("GET %s HTTP/1.0: ours\n%s\nPCP's\n%s", path, got, want)
				}
			}
		})
	}
}

// framing GETs path over HTTP/1.1 and says how the answer was framed:
// "length" or "chunked", and for the latter whether a chunk but the
// last was shorter than size.
func framing(t *testing.T, addr, path string, size int) string {
	t.Helper()
	c := dialV4(t, addr)
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: localhost\r\n\r\n", path)
	r := textproto.NewReader(bufio.NewReader(c))
	status, err := r.ReadLine()
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	h, err := r.ReadMIMEHeader()
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	if !strings.Contains(status, " 200 ") {
		t.Fatalf("GET %s: %s", path, status)
	}
	if !strings.EqualFold(h.Get("Transfer-Encoding"), "chunked") {
		return "length"
	}
	var sizes []int
	for {
		l, err := r.ReadLine()
		if err != nil {
			t.Fatalf("GET %s: chunk: %v", path, err)
		}
		n, err := strconv.ParseInt(l, 16, 32)
		if err != nil {
			t.Fatalf("GET %s: chunk size %q", path, l)
		}
		if n == 0 {
			break
		}
		sizes = append(sizes, int(n))
		if _, err := io.CopyN(io.Discard, r.R, n+2); err != nil {
			t.Fatalf("GET %s: chunk: %v", path, err)
		}
	}
	for _, n := range sizes[:len(sizes)-1] {
		if n < size {
			return fmt.Sprintf("chunked, a chunk of %d before the last (%v)", n, sizes)
		}
	}
	return "chunked"
}

// answer10 GETs path over HTTP/1.0: the status code, then for a refusal
// its Content-Type and body.
func answer10(t *testing.T, addr, path string) string {
	t.Helper()
	c := dialV4(t, addr)
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	fmt.Fprintf(c, "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n", path)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %s HTTP/1.0: %v", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return "200"
	}
	b, _ := io.ReadAll(resp.Body)
	return fmt.Sprintf("%d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
}
