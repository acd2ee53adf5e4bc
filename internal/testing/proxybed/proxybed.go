// Package proxybed runs PCP's own pmproxy for tests: on a private port,
// with private PCP_RUN_DIR, PCP_TMP_DIR and Unix socket, and a pmproxy.conf
// with Redis, discovery, search and series off, so that only its REST API
// (/pmapi/*, /metrics) and its PCP protocol proxy answer. It is the
// reference the webapi, pcpproxy and bench tests compare gopcp's pmproxy
// with. PCP 6.0.3's pmproxy now and then dies under them (TimerRace);
// Ended says how, in which of the requests Forward passed on, and what
// its log said last.
package proxybed

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// Conf is the pmproxy.conf the bed writes: the REST API and the PCP
// proxy on, everything that would look for Redis off.
const Conf = `[pmproxy]
pcp.enabled = true
http.enabled = true
redis.enabled = false
secure.enabled = false

[redis]
enabled = false

[discover]
enabled = false

[pmsearch]
enabled = false

[pmseries]
enabled = false
`

// Proxy is a running PCP pmproxy.
type Proxy struct {
	Port int
	Dir  string
	cmd  *exec.Cmd
	done chan struct{}
	// release gives back the port's reservation, once pmproxy has exited.
	release func()
	// started and ended bound its life; ended is set before done is
	// closed.
	started, ended time.Time
	// closed is set once Close has been called: an end it brings is
	// not the proxy's own.
	closed atomic.Bool
	// seen is what Forward passed on, for Ended to say in which
	// request the proxy died.
	seen requests
}

// URL is the base URL of the proxy's REST API.
func (p *Proxy) URL() string { return "http://localhost:" + strconv.Itoa(p.Port) }

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return "localhost:" + strconv.Itoa(p.Port) }

// PID is the proxy's process id.
func (p *Proxy) PID() int { return p.cmd.Process.Pid }

// Exited says how the proxy ended ("signal: segmentation fault", ...),
// or "" while it runs; Ended says more.
func (p *Proxy) Exited() string {
	select {
	case <-p.done:
		return p.cmd.ProcessState.String()
	default:
		return ""
	}
}

// StatsDir is where the proxy writes its own metrics' MMV files, its
// PCP_TMP_DIR/pmproxy.
func (p *Proxy) StatsDir() string { return filepath.Join(p.Dir, "tmp", "pmproxy") }

// Log returns what pmproxy wrote to its log.
func (p *Proxy) Log() string {
	b, _ := os.ReadFile(filepath.Join(p.Dir, "pmproxy.log"))
	return string(b)
}

// Start runs PCP's pmproxy beside the bed's pmcd (for its environment) and
// stops it when the test ends. A missing pmproxy skips the test unless
// GOPCP_REQUIRE_PCP=1.
func Start(t testing.TB, bed *testbed.PMCD) *Proxy {
	t.Helper()
	bin, err := bed.Install().Tool("pmproxy")
	if err != nil {
		if os.Getenv(testbed.RequireEnv) == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	dir := t.TempDir()
	// tmp/pmproxy, as PCP's packaging makes it: pmproxy writes its own
	// metrics there only when it exists
	for _, d := range []string{"run", "tmp", filepath.Join("tmp", "pmproxy")} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "pmproxy.conf")
	if err := os.WriteFile(conf, []byte(Conf), 0o644); err != nil {
		t.Fatal(err)
	}
	var last error
	for attempt := 0; attempt < 5; attempt++ {
		p, err := launch(bin, dir, conf, bed)
		if err == nil {
			t.Cleanup(func() {
				if ended := p.Ended(); ended != "" && !p.closed.Load() {
					t.Logf("proxybed: PCP's pmproxy ended before its test: %s", ended)
				} else if t.Failed() {
					t.Logf("proxybed: PCP pmproxy log:\n%s", p.Log())
				}
				p.Close()
			})
			return p
		}
		last = err
	}
	t.Fatalf("proxybed: starting PCP pmproxy: %v", last)
	return nil
}

func launch(bin, dir, conf string, bed *testbed.PMCD) (*Proxy, error) {
	port, release, err := testbed.FreePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-f", "-A", "-p", strconv.Itoa(port), "-c", conf,
		"-l", filepath.Join(dir, "pmproxy.log"), "-s", filepath.Join(dir, "run", "pmproxy.socket"))
	env := []string{}
	for _, kv := range bed.Env() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "PCP_RUN_DIR", "PCP_TMP_DIR", "PMPROXY_PORT", "PMPROXY_LOCAL", "PMPROXY_SOCKET":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "PCP_RUN_DIR="+filepath.Join(dir, "run"), "PCP_TMP_DIR="+filepath.Join(dir, "tmp"))
	cmd.Dir = dir
	// Killed with the test binary should it die without its cleanups.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := pcptest.StartKept(cmd); err != nil {
		release()
		return nil, err
	}
	// The port stays reserved until pmproxy has exited (Close), so that
	// no other test run is given it before pmproxy binds it.
	p := &Proxy{Port: port, Dir: dir, cmd: cmd, done: make(chan struct{}), release: release, started: time.Now()}
	go func() {
		cmd.Wait()
		p.ended = time.Now()
		close(p.done)
	}()
	if err := p.waitReady(30 * time.Second); err != nil {
		p.Close()
		return nil, fmt.Errorf("%w; log:\n%s", err, p.Log())
	}
	return p, nil
}

// waitReady waits until the REST API answers.
func (p *Proxy) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	client := &http.Client{Timeout: 5 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return errors.New("pmproxy " + pcptest.HowEnded(p.cmd.ProcessState))
		default:
		}
		c, err := net.DialTimeout("tcp", p.Addr(), time.Second)
		if err == nil {
			c.Close()
			resp, err := client.Get(p.URL() + "/pmapi/metric?names=")
			if err == nil {
				resp.Body.Close()
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("pmproxy did not answer")
}

// Close stops the proxy (SIGTERM, then SIGKILL of its group).
func (p *Proxy) Close() {
	p.closed.Store(true)
	defer p.release()
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return
	case <-time.After(5 * time.Second):
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// Get fetches path from the proxy and returns the status and body.
func Get(ctx context.Context, base, path string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, []byte(b.String()), nil
}
