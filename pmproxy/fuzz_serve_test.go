package pmproxy

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// FuzzServe writes any bytes to a port that speaks both HTTP and the PCP
// proxy, then ends its side: the server must answer what it can and close
// the connection, and then still serve a plain GET. The proxy dials
// nothing (its Dial refuses), so that no input reaches another host.
func FuzzServe(f *testing.F) {
	for _, s := range []string{
		"GET /ok HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.0\r\n\r\n",
		"pmproxy-client 1\nlocalhost 44321\n",
		"pmproxy-client 1\n",
		"p",
		"\x00\x00\x00\x0c\x00\x00\x70\x00\x00\x00\x00\x00",
		"",
	} {
		f.Add([]byte(s))
	}
	refuse := func(context.Context, string, string) (net.Conn, error) { return nil, syscall.ECONNREFUSED }
	cfg := Config{HTTP: echo(), PCP: true, MaxHeaderBytes: 4096, MaxBodyBytes: 4096, FirstByteTimeout: 5 * time.Second}
	cfg.Proxy.Dial = refuse
	cfg.Proxy.HandshakeTimeout = 5 * time.Second
	addr := serve(f, cfg)
	client := &http.Client{Timeout: 30 * time.Second}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(30 * time.Second))
		// The server may close before taking all of it.
		c.Write(data)
		c.(*net.TCPConn).CloseWrite()
		if _, err := io.Copy(io.Discard, c); err != nil && !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("the server did not close the connection: %v", err)
		}
		resp, err := client.Get("http://" + addr + "/ok")
		if err != nil {
			t.Fatalf("after the input: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("after the input, GET /ok: %d", resp.StatusCode)
		}
	})
}
