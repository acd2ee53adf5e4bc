package pmcd

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pdu"
)

// logSettled is the size of path once it has stopped growing for half a
// second (at most ten seconds of waiting): what a daemon logs about
// connections it is still finishing comes in after the clients are gone.
func logSettled(path string) int64 {
	var last int64 = -1
	for range 20 {
		fi, err := os.Stat(path)
		size := int64(0)
		if err == nil {
			size = fi.Size()
		}
		if size == last {
			return size
		}
		last = size
		time.Sleep(500 * time.Millisecond)
	}
	return last
}

// TestProbeConnectClose makes 2,000 connections that close before
// sending anything, as port scanners and health checks do, to PCP's
// pmcd and to gopcp's (GOPCP_PMCD names another build of it to compare),
// and prints how much each log grew.
func TestProbeConnectClose(t *testing.T) {
	probeOnly(t)
	for _, b := range []struct {
		name  string
		start func(testing.TB, testbed.Options) *testbed.PMCD
	}{{"PCP", testbed.StartPMCD}, {"gopcp", testbed.StartGoPMCD}} {
		t.Run(b.name, func(t *testing.T) {
			bed := b.start(t, testbed.Options{})
			addr := strings.Replace(bed.Host(), "localhost", "127.0.0.1", 1)
			before := logSettled(bed.LogPath())
			for i := range 2000 {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatalf("probe %d: %v", i, err)
				}
				if i%2 == 1 {
					c.(*net.TCPConn).SetLinger(0) // a reset rather than a close
				}
				c.Close()
			}
			after := logSettled(bed.LogPath())
			res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one")
			if res.Err != nil {
				t.Errorf("after the probes: %v\n%s", res.Err, res.Stderr)
			}
			t.Logf("%s pmcd: 2000 connect-and-close probes grew its log by %d bytes", b.name, after-before)
		})
	}
}

// setNoFile sets process pid's soft limit of open files.
func setNoFile(pid, n int) error {
	var old syscall.Rlimit
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_NOFILE, 0, uintptr(unsafe.Pointer(&old)), 0, 0); e != 0 {
		return e
	}
	lim := syscall.Rlimit{Cur: uint64(n), Max: old.Max}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_NOFILE, uintptr(unsafe.Pointer(&lim)), 0, 0, 0); e != 0 {
		return e
	}
	return nil
}

// TestProbeDescriptorExhaustion lowers gopcp's pmcd's limit of open
// files to a few more than it has, holds enough connections to use them
// up (accepts then fail with EMFILE), lets them go, and prints how long
// a new client then waited to be served.
func TestProbeDescriptorExhaustion(t *testing.T) {
	probeOnly(t)
	bed := testbed.StartGoPMCD(t, testbed.Options{})
	pid := bed.PID()
	addr := strings.Replace(bed.Host(), "localhost", "127.0.0.1", 1)
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	if err := setNoFile(pid, len(ents)+8); err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	for range 40 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	// The last of them is queued behind accepts that fail: it gets no
	// greeting while the descriptors are used up.
	last := held[len(held)-1]
	last.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := last.Read(make([]byte, 1)); err == nil {
		t.Logf("the last held connection was greeted: descriptors were not used up")
	}
	freed := time.Now()
	for _, c := range held {
		c.Close()
	}
	var served time.Duration
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err == nil {
			_, err = pdu.ClientHandshake(ctx, c, 0, pdu.DefaultTimeout)
			c.Close()
		}
		cancel()
		if err == nil {
			served = time.Since(freed)
			break
		}
		if time.Since(freed) > 60*time.Second {
			t.Fatalf("no client served a minute after descriptors were freed: %v", err)
		}
	}
	_ = setNoFile(pid, 1024)
	res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one")
	if res.Err != nil {
		t.Errorf("after recovery: %v\n%s", res.Err, res.Stderr)
	}
	logged, _ := os.ReadFile(bed.LogPath())
	var lines []string
	for _, l := range strings.Split(string(logged), "\n") {
		if strings.Contains(l, "accept") {
			lines = append(lines, l)
		}
	}
	t.Logf("a new client was served %v after the held connections closed; accept lines logged:\n%s", served.Round(time.Millisecond), strings.Join(lines, "\n"))
}

// TestProbeKilledAgent SIGKILLs the sample agent of gopcp's pmcd (PCP's
// pmdasample on a pipe) while no client asks anything, and prints how
// soon a new agent process was running, then whether the first request
// after that was answered.
func TestProbeKilledAgent(t *testing.T) {
	probeOnly(t)
	bed := testbed.StartGoPMCD(t, testbed.Options{Env: []string{"PMCD_RESTART_AGENTS=1"}})
	pid := bed.PID()
	agents := childPIDs(pid)
	if len(agents) != 1 {
		t.Fatalf("agent processes %v", agents)
	}
	if err := syscall.Kill(agents[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	restarted := "none within 10 s"
	for time.Since(killed) < 10*time.Second {
		if now := childPIDs(pid); len(now) == 1 && now[0] != agents[0] {
			restarted = time.Since(killed).Round(time.Millisecond).String()
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one")
	t.Logf("agent %d killed: a new agent process after %s; the first request after: %q %v",
		agents[0], restarted, strings.TrimSpace(res.Stdout), res.Err)
}
