// Package redistest starts Debian's redis-server privately for tests: on a
// free local port, with its own directory, no persistence, stopped when the
// test ends. It never touches a system Redis.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// Server is one private redis-server.
type Server struct {
	Port int
	Dir  string
	args []string
	cmd  *exec.Cmd
	t    testing.TB
}

// Addr is host:port for clients.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.Port) }

// Need returns redis-server's path, skipping (or failing under
// GOPCP_REQUIRE_PCP=1) when it is not installed.
func Need(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("redis-server")
	if err != nil {
		pcptest.Missing(t, "redis-server is not installed (scripts/setup-pcp.sh installs it)")
	}
	return p
}

// Start starts a redis-server on a free port with a private directory,
// stopped at the test's end. extra are more configuration arguments
// ("--cluster-enabled", "yes", ...).
func Start(t testing.TB, extra ...string) *Server {
	t.Helper()
	bin := Need(t)
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatalf("redistest: free port: %v", err)
	}
	t.Cleanup(release)
	dir := t.TempDir()
	s := &Server{Port: port, Dir: dir, t: t}
	s.args = append([]string{
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--dir", dir, "--save", "", "--appendonly", "no",
		"--logfile", filepath.Join(dir, "redis.log"),
		"--daemonize", "no", "--protected-mode", "yes",
	}, extra...)
	s.start(bin)
	t.Cleanup(s.Stop)
	return s
}

func (s *Server) start(bin string) {
	s.t.Helper()
	cmd := exec.Command(bin, s.args...)
	cmd.Dir = s.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := pcptest.StartKept(cmd); err != nil {
		s.t.Fatalf("redistest: start: %v", err)
	}
	s.cmd = cmd
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	// Bounded wait for PING to answer: the server exiting early ends it too.
	for i := 0; i < 600; i++ {
		if s.ping() == nil {
			return
		}
		select {
		case <-done:
			log, _ := os.ReadFile(filepath.Join(s.Dir, "redis.log"))
			s.t.Fatalf("redistest: redis-server exited: %s", log)
		case <-time.After(50 * time.Millisecond):
		}
	}
	s.t.Fatalf("redistest: redis-server on %d never answered", s.Port)
}

func (s *Server) ping() error {
	c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "+PONG") {
		return fmt.Errorf("ping: %q", line)
	}
	return nil
}

// Stop stops the server (SIGTERM, then SIGKILL) and waits for it.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	p := s.cmd.Process
	s.cmd = nil
	p.Signal(syscall.SIGTERM)
	for i := 0; i < 200; i++ {
		if p.Signal(syscall.Signal(0)) != nil {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	p.Kill()
}

// Restart stops the server and starts it again on the same port and
// directory: its data is kept only when the server was started with
// persistence ("--appendonly", "yes").
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	s.Resume()
}

// Resume starts a stopped server again on its port and directory.
func (s *Server) Resume() {
	s.t.Helper()
	s.start(Need(s.t))
}

// Cluster is a Redis Cluster of private servers, masters only.
type Cluster struct {
	Nodes []*Server
}

// Addrs are the nodes' host:port.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, n := range c.Nodes {
		out = append(out, n.Addr())
	}
	return out
}

// StartCluster starts n (at least 3) redis-servers in cluster mode and
// joins them with redis-cli --cluster create, waiting (bounded) for the
// cluster to report itself ok.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	if n < 3 {
		n = 3
	}
	c := &Cluster{}
	for i := 0; i < n; i++ {
		// the bus port is reserved too: by default it is the port plus
		// 10000, in the kernel's ephemeral range, where another
		// program's connection may hold it
		bus, release, err := testbed.FreePort()
		if err != nil {
			t.Fatalf("redistest: free port: %v", err)
		}
		t.Cleanup(release)
		c.Nodes = append(c.Nodes, Start(t, "--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(bus),
			"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000"))
	}
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		pcptest.Missing(t, "redis-cli is not installed (it comes with redis-server)")
	}
	args := append([]string{"--cluster", "create"}, c.Addrs()...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redistest: cluster create: %v\n%s", err, out)
	}
	for i := 0; i < 600; i++ {
		ok := true
		for _, s := range c.Nodes {
			out, err := exec.Command(cli, "-p", strconv.Itoa(s.Port), "cluster", "info").Output()
			if err != nil || !strings.Contains(string(out), "cluster_state:ok") {
				ok = false
				break
			}
		}
		if ok {
			return c
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("redistest: cluster never reported ok")
	return nil
}
