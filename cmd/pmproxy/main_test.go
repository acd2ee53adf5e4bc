package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

func TestMain(m *testing.M) { os.Exit(testbed.Main(m)) }

// startOurs runs our pmproxy in this process on a private port, with a
// private log, socket and configuration, until the test ends.
func startOurs(t *testing.T, conf string) string {
	t.Helper()
	dir := t.TempDir()
	cpath := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(cpath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	release()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-f", "-p", strconv.Itoa(port), "-c", cpath,
			"-l", filepath.Join(dir, "pmproxy.log"), "-s", filepath.Join(dir, "pmproxy.socket")}, ready)
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("pmproxy: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("pmproxy: %v", err)
		}
	})
	return "localhost:" + strconv.Itoa(port)
}

// TestPMInfoThroughProxy runs PCP's pminfo against a private PCP pmcd
// directly, through our pmproxy ("host@proxyhost") and through PCP's,
// which must all print the same; the same port answers HTTP too, as PCP's
// pmproxy's does.
func TestPMInfoThroughProxy(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	proxy := startOurs(t, proxybed.Conf)
	args := []string{"-f", "-d", "sample.long", "sample.bin", "pmcd.agent.status"}
	direct := bed.Run("pminfo", append([]string{"-h", bed.Host()}, args...)...)
	if direct.Err != nil {
		t.Fatal(direct.Err)
	}
	via := bed.Run("pminfo", append([]string{"-h", bed.Host() + "@" + proxy}, args...)...)
	if via.Err != nil {
		t.Fatal(via.Err)
	}
	if direct.Stdout != via.Stdout {
		t.Errorf("pminfo through our proxy differs:\ndirect:\n%s\nvia proxy:\n%s", direct.Stdout, via.Stdout)
	}
	// And through PCP's own pmproxy, for the record: the same again.
	pcpProxy := proxybed.Start(t, bed)
	viaPCP := bed.Run("pminfo", append([]string{"-h", bed.Host() + "@" + pcpProxy.Addr()}, args...)...)
	if viaPCP.Err != nil {
		t.Fatal(viaPCP.Err)
	}
	if viaPCP.Stdout != via.Stdout {
		t.Errorf("pminfo through PCP's pmproxy and ours differ:\nPCP's:\n%s\nours:\n%s", viaPCP.Stdout, via.Stdout)
	}
	if !strings.Contains(via.Stdout, "sample.long.one") {
		t.Errorf("pminfo printed no sample.long.one:\n%s", via.Stdout)
	}
	resp, err := http.Get("http://" + proxy + "/pmapi/context?hostspec=" + bed.Host())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `{"context":`) {
		t.Errorf("HTTP on the proxy port: %d %s", resp.StatusCode, body)
	}
}

// TestBadHandshake sends what is not the proxy's greeting: that
// connection is closed and the proxy goes on serving.
func TestBadHandshake(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	proxy := startOurs(t, proxybed.Conf)
	for _, hello := range []string{"pmproxy-client 2\n", "p", "pmproxy-client 1\nno-port-here\n", "pmproxy-client 1\n" + strings.Repeat("x", 5000), "\x00\x01"} {
		c, err := net.DialTimeout("tcp", proxy, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(30 * time.Second))
		_, _ = io.WriteString(c, hello)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		_, _ = io.ReadAll(c) // ends when the proxy closes
		c.Close()
	}
	via := bed.Run("pminfo", "-h", bed.Host()+"@"+proxy, "sample.long.one")
	if via.Err != nil {
		t.Fatalf("after bad handshakes: %v", via.Err)
	}
}
