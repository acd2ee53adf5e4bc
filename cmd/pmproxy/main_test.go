package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/proxybed"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/internal/testing/tlstest"
)

func TestMain(m *testing.M) {
	tlstest.MainIfCompanion()
	os.Exit(testbed.Main(m))
}

// startOurs runs our pmproxy in this process on a private port, with a
// private log, socket, configuration and PCP_TMP_DIR (so its statistics
// stay out of the system's), until the test ends.
func startOurs(t *testing.T, conf string) string {
	t.Helper()
	return startOursIn(t, conf, t.TempDir())
}

// startOursIn is startOurs with PCP_TMP_DIR set to tmp for the test.
func startOursIn(t *testing.T, conf, tmp string) string {
	t.Helper()
	return startOursAt(t, conf, tmp, t.TempDir())
}

// startOursAt is startOursIn with the configuration, log (pmproxy.log)
// and socket in dir, and more arguments.
func startOursAt(t *testing.T, conf, tmp, dir string, args ...string) string {
	t.Helper()
	t.Setenv("PCP_TMP_DIR", tmp)
	cpath := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(cpath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"-f", "-p", strconv.Itoa(port), "-c", cpath,
			"-l", filepath.Join(dir, "pmproxy.log"), "-s", filepath.Join(dir, "pmproxy.socket")}, args...), ready)
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

// TestOurPMInfoThroughProxy runs gopcp's own pminfo (its host context's
// proxy client) against a private PCP pmcd directly, then through our
// pmproxy and PCP's, by "host@proxyhost:port" and by PMPROXY_HOST and
// PMPROXY_PORT: all print what PCP's pminfo prints directly.
func TestOurPMInfoThroughProxy(t *testing.T) {
	bed := testbed.StartPMCD(t, testbed.Options{})
	bin := pcptest.GoCommand(t, "github.com/gopcp/gopcp/cmd/pminfo")
	ours := startOurs(t, proxybed.Conf)
	pcps := proxybed.Start(t, bed).Addr()
	args := []string{"-f", "-d", "sample.long", "sample.bin", "sample.string", "pmcd.agent.status"}
	want := bed.Run("pminfo", append([]string{"-h", bed.Host()}, args...)...)
	if want.Err != nil {
		t.Fatal(want.Err)
	}
	if !strings.Contains(want.Stdout, "sample.long.one") {
		t.Fatalf("PCP's pminfo printed no sample.long.one:\n%s", want.Stdout)
	}
	run := func(env []string, host string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, append([]string{"-h", host}, args...)...)
		cmd.Env = append(bed.Env(), env...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			err = fmt.Errorf("%w: %s", err, stderr.String())
		}
		return string(out), err
	}
	for _, c := range []struct {
		name string
		env  []string
		host string
	}{
		{"direct", nil, bed.Host()},
		{"ours@", nil, bed.Host() + "@" + ours},
		{"pcp@", nil, bed.Host() + "@" + pcps},
		{"ours env", proxyEnv(ours), bed.Host()},
		{"pcp env", proxyEnv(pcps), bed.Host()},
	} {
		got, err := run(c.env, c.host)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != want.Stdout {
			t.Errorf("%s: our pminfo -h %s printed\n%s\nPCP's pminfo directly\n%s", c.name, c.host, got, want.Stdout)
		}
	}
	// PMPROXY_HOST naming a proxy that is not there fails as PCP's does.
	free, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	env := proxyEnv("localhost:" + strconv.Itoa(free))
	_, err = run(env, bed.Host())
	ctx, cancel := context.WithTimeout(context.Background(), testbed.RunTimeout)
	defer cancel()
	cmd, cerr := bed.Command(ctx, "pminfo", append([]string{"-h", bed.Host()}, args...)...)
	if cerr != nil {
		t.Fatal(cerr)
	}
	cmd.Env = append(cmd.Env, env...)
	pcpOut, pcpErr := cmd.CombinedOutput()
	const refused = `Cannot connect to PMCD on host "` // then the host and "Connection refused"
	if err == nil || pcpErr == nil || !strings.Contains(err.Error(), refused) || !strings.Contains(err.Error(), "Connection refused") || !strings.Contains(string(pcpOut), "Connection refused") {
		t.Errorf("no proxy: ours %v; PCP's %v %s", err, pcpErr, pcpOut)
	}
}

// proxyEnv is PMPROXY_HOST and PMPROXY_PORT for a host:port.
func proxyEnv(addr string) []string {
	host, port, _ := net.SplitHostPort(addr)
	return []string{"PMPROXY_HOST=" + host, "PMPROXY_PORT=" + port}
}
