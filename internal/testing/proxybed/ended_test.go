package proxybed

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestEndedSaysHowAndWhere kills PCP's pmproxy with SIGSEGV while a
// request Forward passed on is in it (a context on a "pmcd" that
// accepts and never greets, so that pmproxy is still waiting when
// killed), then sends one more: Ended names the signal, both requests,
// the one answered before, the likely cause and the log's end.
func TestEndedSaysHowAndWhere(t *testing.T) {
	pcptest.NoCores(t)
	bed := testbed.StartPMCD(t, testbed.Options{})
	p := Start(t, bed)
	if p.Ended() != "" {
		t.Fatalf("Ended while running: %q", p.Ended())
	}
	front := httptest.NewServer(p.Forward())
	defer front.Close()
	get := func(path string) int {
		resp, err := http.Get(front.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	first := "/pmapi/metric?hostspec=" + bed.Host() + "&names=sample.long.one"
	if code := get(first); code != 200 {
		t.Fatalf("first request: %d", code)
	}
	// The client has the answer's end before Forward's handler returns.
	for idle := false; !idle; {
		p.seen.mu.Lock()
		idle = len(p.seen.inFlight) == 0
		p.seen.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	mute, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer mute.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := mute.Accept()
		if err == nil {
			accepted <- c
		}
		close(accepted)
	}()
	hung := "/pmapi/context?hostspec=127.0.0.1:" + strconv.Itoa(mute.Addr().(*net.TCPAddr).Port)
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Get(front.URL + hung)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	c, ok := <-accepted
	if !ok {
		t.Fatal("pmproxy never connected to the mute pmcd")
	}
	defer c.Close()
	if err := syscall.Kill(p.PID(), syscall.SIGSEGV); err != nil {
		t.Fatal(err)
	}
	if code := <-answered; code != http.StatusBadGateway {
		t.Errorf("the request pmproxy died in: %d, want 502", code)
	}
	<-p.done
	get("/pmapi/metric?names=sample.long.one")
	ended := p.Ended()
	t.Logf("Ended: %s", ended)
	for _, want := range []string{
		"killed by segmentation fault",
		"3 requests passed on",
		"the first unanswered: GET " + hung,
		"in flight then: GET " + hung + ";",
		"the last answered before: GET " + first + ";",
		"likely " + TimerRace,
		"pmproxy.log ends:\n",
	} {
		if !strings.Contains(ended, want) {
			t.Errorf("Ended lacks %q", want)
		}
	}
}
