package testbed

import (
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestStartLogger(t *testing.T) {
	t.Parallel()
	p := StartPMCD(t, Options{})
	l := p.StartLogger(t, LoggerOptions{
		Config: "log mandatory on 100 msec { sample.long.one }\n",
	})
	if l.Port == 0 {
		t.Fatal("pmlogger has no control port")
	}

	// pmlc must reach this pmlogger over its private control port, and
	// that pmlogger must be recording from this bed's pmcd.
	res := p.RunInput([]byte("status\n"), "pmlc", "-h", "localhost", "-p", fmt.Sprint(l.Port))
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if !strings.Contains(res.Stdout, p.Host()) {
		t.Errorf("pmlc status does not name pmcd %s:\n%s", p.Host(), res.Stdout)
	}

	// Wait (boundedly) for a few records, then stop pmlogger so the
	// archive is complete, and read the values back with pmdumplog.
	want := promisedOne(t, p)
	deadline := time.Now().Add(30 * time.Second)
	for {
		res = p.Run("pmdumplog", l.Archive, "sample.long.one")
		if strings.Count(res.Stdout, "(sample.long.one):") >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(pollInterval)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	res = p.Run("pmdumplog", l.Archive, "sample.long.one")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	values := regexp.MustCompile(`\(sample\.long\.one\): value (\S+)`).FindAllStringSubmatch(res.Stdout, -1)
	if len(values) < 3 {
		t.Fatalf("archive holds %d values of sample.long.one, want at least 3:\n%s", len(values), res.Stdout)
	}
	for _, v := range values {
		if v[1] != want {
			t.Errorf("archived sample.long.one = %s, want %s", v[1], want)
		}
	}
}

// TestLoggerStartsAgainWhenIPv4Slips: when something takes the IPv4
// control port between the reservation and pmlogger's bind, PCP's
// pmlogger announces the IPv6 port it got, which 127.0.0.1 does not
// answer on; the bed notices, starts it again on a fresh port, keeps the
// first attempt's log aside, and the logger it returns answers on IPv4
// and records a fresh archive.
func TestLoggerStartsAgainWhenIPv4Slips(t *testing.T) {
	t.Parallel()
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		if _, err := os.Stat(table); err != nil {
			t.Skip("no socket table:", err)
		}
	}
	if l, err := net.Listen("tcp6", "[::1]:0"); err != nil {
		t.Skip("no IPv6 loopback:", err)
	} else {
		l.Close()
	}
	p := StartPMCD(t, Options{})
	var held []net.Listener
	t.Cleanup(func() {
		for _, l := range held {
			l.Close()
		}
	})
	attempts := 0
	l := p.StartLogger(t, LoggerOptions{
		beforeStart: func(port int) {
			attempts++
			if attempts > 1 {
				return
			}
			// IPv4 only, as an outgoing connection or another
			// program's listener would hold it.
			h, err := net.Listen("tcp4", fmt.Sprintf("0.0.0.0:%d", port))
			if err != nil {
				t.Errorf("holding %d: %v", port, err)
				return
			}
			held = append(held, h)
		},
	})
	if attempts != 2 || len(l.restarts) != 1 || !errors.Is(l.restarts[0], errSplitPort) {
		t.Fatalf("%d attempts, restarts %v; want 2 and one split", attempts, l.restarts)
	}
	if len(held) == 1 && l.Port == held[0].Addr().(*net.TCPAddr).Port {
		t.Fatalf("logger announces the held port %d", l.Port)
	}
	c, err := net.Dial("tcp4", fmt.Sprintf("127.0.0.1:%d", l.Port))
	if err != nil {
		t.Fatalf("127.0.0.1 on the announced port: %v", err)
	}
	c.Close()
	if _, err := os.Stat(l.LogPath + ".prev"); err != nil {
		t.Errorf("the first attempt's log: %v", err)
	}
	if _, err := os.Stat(l.LogPath); err != nil {
		t.Errorf("the running logger's log: %v", err)
	}
}
