package pmproxy

import (
	"bufio"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/httpd"
	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/internal/testing/goroutines"
	"github.com/gopcp/gopcp/internal/testing/tlstest"
)

// startRelay starts the companion (the test binary standing in) with the
// files' certificate and key.
func startRelay(t *testing.T, f tlstest.Files, logs io.Writer) *TLSRelay {
	t.Helper()
	tlstest.Companion(t)
	bin, err := FindTLSCompanion()
	if err != nil {
		t.Fatal(err)
	}
	r, err := StartTLSRelay(bin, &TLSSettings{CertFile: f.Cert, KeyFile: f.Key}, log.New(logs, "", 0))
	if err != nil {
		t.Fatalf("StartTLSRelay: %v (log %s)", err, logs)
	}
	return r
}

// TestTLSRelay serves HTTPS and HTTP on one port through the companion:
// the handler sees the TLS client's own address; a second TLS connection
// waits for the first's slot (MaxConns 1); when the companion dies that
// is logged, TLS connections are refused and HTTP goes on; Close leaves
// no goroutine behind.
func TestTLSRelay(t *testing.T) {
	f := tlstest.Certs(t)
	var logs clitest.SyncBuffer
	r := startRelay(t, f, &logs)
	if !strings.Contains(logs.String(), "Info: Go crypto/tls") {
		t.Errorf("start-up logged %q", logs.String())
	}
	h := httpd.HandlerFunc(func(w httpd.ResponseWriter, req *httpd.Request) {
		io.WriteString(w, req.URL.Path+" "+req.RemoteAddr)
	})
	addr := serve(t, Config{HTTP: h, PCP: true, TLS: r, MaxConns: 1})
	first, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: f.Pool, ServerName: "localhost"})
	if err != nil {
		t.Fatalf("TLS: %v", err)
	}
	if got, want := getOn(t, first, "/secure"), "/secure "+first.LocalAddr().String(); got != want {
		t.Errorf("over TLS: %q, want %q", got, want)
	}
	// the TLS connection holds the only slot: the next waits for it
	second := make(chan string, 1)
	go func() {
		c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: f.Pool, ServerName: "localhost"})
		if err != nil {
			second <- err.Error()
			return
		}
		defer c.Close()
		second <- getOn(t, c, "/second")
	}()
	select {
	case got := <-second:
		t.Fatalf("a second connection was served beside the first: %q", got)
	case <-time.After(200 * time.Millisecond):
	}
	first.Close()
	if got := <-second; !strings.HasPrefix(got, "/second ") {
		t.Errorf("second TLS connection: %q", got)
	}
	plain, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if got := getOn(t, plain, "/plain"); !strings.HasPrefix(got, "/plain ") {
		t.Errorf("HTTP on the same port: %q", got)
	}
	plain.Close()

	r.cmd.Process.Kill()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(logs.String(), "TLS connections are refused"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the companion's death was not logged: %q", logs.String())
		}
	}
	if c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: f.Pool, ServerName: "localhost"}); err == nil {
		c.Close()
		t.Errorf("a TLS connection was served after the companion died")
	}
	plain, err = net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if got := getOn(t, plain, "/after"); !strings.HasPrefix(got, "/after ") {
		t.Errorf("HTTP after the companion died: %q", got)
	}
	plain.Close()
	r.Close()
	if left := goroutines.Left("github.com/gopcp/gopcp/pmproxy.(*TLSRelay)", "github.com/gopcp/gopcp/pmproxy.StartTLSRelay", "github.com/gopcp/gopcp/internal/childproc.Watch"); len(left) > 0 {
		t.Errorf("goroutines left:\n%s", strings.Join(left, "\n\n"))
	}
}

// getOn asks for path on c (HTTP/1.1, kept alive) and returns the body.
func getOn(t *testing.T, c net.Conn, path string) string {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		return err.Error()
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// TestTLSOff: without TLS, a connection that starts with a TLS record
// is closed without an answer, as PCP's pmproxy closes it.
func TestTLSOff(t *testing.T) {
	addr := serve(t, Config{HTTP: echo(), PCP: true})
	c, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true})
	if err == nil {
		c.Close()
		t.Fatal("TLS handshake succeeded on a pmproxy without TLS")
	}
}
