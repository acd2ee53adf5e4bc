package pmproxy

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd"
)

// serve runs Serve on a loopback port until the test ends.
func serve(t testing.TB, cfg Config) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, cfg, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

func echo() httpd.Handler {
	return httpd.HandlerFunc(func(w httpd.ResponseWriter, r *httpd.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			httpd.Error(w, "body: "+err.Error(), httpd.StatusRequestEntityTooLarge)
			return
		}
		io.WriteString(w, r.URL.Path+" "+strings.Repeat("x", int(n%10)))
	})
}

// TestServeBounds checks the HTTP bounds on a port that also speaks the
// PCP proxy: headers past the limit are refused (431), a body past the
// limit too (413, before the handler runs), and a connection
// whose first byte is neither protocol's is closed without an answer.
func TestServeBounds(t *testing.T) {
	addr := serve(t, Config{HTTP: echo(), PCP: true, MaxHeaderBytes: 4096, MaxBodyBytes: 1024})
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Get("http://" + addr + "/ok")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("plain GET: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/big", nil)
	req.Header.Set("X-Big", strings.Repeat("y", 64<<10))
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("64 KiB header: %d", resp.StatusCode)
		}
	}
	resp, err = c.Post("http://"+addr+"/post", "text/plain", strings.NewReader(strings.Repeat("z", 4096)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("4 KiB body with a 1 KiB bound: %d", resp.StatusCode)
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	io.WriteString(conn, "\x00garbage\r\n\r\n")
	if b, _ := io.ReadAll(conn); len(b) != 0 {
		t.Errorf("unknown protocol answered %q", b)
	}
}

// TestServeMaxConns holds the only connection slot with an idle
// connection: another client's request is served once that one closes.
func TestServeMaxConns(t *testing.T) {
	addr := serve(t, Config{HTTP: echo(), MaxConns: 1})
	hold, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(hold, "GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
	_ = hold.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(hold)
	if line, err := r.ReadString('\n'); err != nil || !strings.Contains(line, "200") {
		t.Fatalf("first request: %q %v", line, err)
	}
	got := make(chan string, 1)
	go func() {
		c := &http.Client{Timeout: 60 * time.Second}
		resp, err := c.Get("http://" + addr + "/second")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	select {
	case s := <-got:
		t.Fatalf("second connection served while the slot was held: %q", s)
	case <-time.After(200 * time.Millisecond):
	}
	hold.Close()
	if s := <-got; !strings.HasPrefix(s, "/second") {
		t.Errorf("second request: %q", s)
	}
}
