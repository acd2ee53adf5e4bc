package trace_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/trace"
)

// buildFeed compiles testdata/tracefeed.c against libpcp_trace.
func buildFeed(t testing.TB) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tracefeed")
	pcptest.Compile(t, pcptest.C{Src: "testdata/tracefeed.c", Out: out, Libs: []string{"-lpcp_trace"}, Headers: []string{"trace.h"}})
	return out
}

// runFeed runs the C feed with a script; the agent is at port.
func runFeed(t testing.TB, bin string, port int, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append([]string{"PCP_TRACE_HOST=127.0.0.1", "PCP_TRACE_PORT=" + strconv.Itoa(port), "PATH=/usr/bin:/bin"}, env...)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tracefeed: %v\n%s", err, out)
	}
	return string(out)
}

// goFeed runs the same script through a Client, printing what tracefeed
// prints.
func goFeed(t testing.TB, c *trace.Client, script string) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		tag := ""
		if len(f) > 1 && f[1] != "-" {
			tag = f[1]
		}
		v := 0.0
		if len(f) > 2 {
			v, _ = strconv.ParseFloat(f[2], 64)
		}
		var err error
		switch f[0] {
		case "state":
			n, _ := strconv.Atoi(tag)
			var old trace.State
			old, err = c.SetState(trace.State(n))
			if err == nil {
				fmt.Fprintf(&b, "state %d\n", old)
				continue
			}
		case "begin":
			err = c.Begin(ctx, tag)
		case "end":
			err = c.End(ctx, tag)
		case "abort":
			err = c.Abort(tag)
		case "point":
			err = c.Point(ctx, tag)
		case "obs":
			err = c.Observe(ctx, tag, v)
		case "counter":
			err = c.Counter(ctx, tag, v)
		case "sleep":
			ms, _ := strconv.Atoi(tag)
			time.Sleep(time.Duration(ms) * time.Millisecond)
		case "err":
			n, _ := strconv.Atoi(tag)
			fmt.Fprintf(&b, "%s\n", trace.ErrText(n))
			continue
		default:
			t.Fatalf("unknown command %q", f[0])
		}
		fmt.Fprintf(&b, "%s %d\n", f[0], trace.CodeOf(err))
	}
	return b.String()
}

// recorder is a stand-in agent that welcomes clients with the version,
// acknowledges synchronous data and keeps every byte received.
type recorder struct {
	ln     net.Listener
	mu     sync.Mutex
	bytes  []byte
	wg     sync.WaitGroup
	refuse int32 // non-zero: welcome with this error instead
	served int   // connections ended
}

func newRecorder(t testing.TB) *recorder { return newRefuser(t, 0) }

// newRefuser is a recorder that welcomes with refuse when it is not 0.
func newRefuser(t testing.TB, refuse int32) *recorder {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{ln: ln, refuse: refuse}
	r.wg.Add(1)
	go r.accept()
	t.Cleanup(func() { ln.Close(); r.wg.Wait() })
	return r
}

func (r *recorder) port() int { return r.ln.Addr().(*net.TCPAddr).Port }

func (r *recorder) accept() {
	defer r.wg.Done()
	for {
		conn, err := r.ln.Accept()
		if err != nil {
			return
		}
		r.wg.Add(1)
		go r.serve(conn)
	}
}

func (r *recorder) serve(conn net.Conn) {
	defer r.wg.Done()
	defer func() {
		conn.Close()
		r.mu.Lock()
		r.served++
		r.mu.Unlock()
	}()
	welcome := int32(trace.Version)
	if r.refuse != 0 {
		welcome = r.refuse
	}
	conn.Write(trace.AppendAck(nil, 1, welcome))
	if r.refuse != 0 {
		return
	}
	// Its own framing, wider than the agent's, so that the PDUs of
	// tags too long for an agent are recorded too.
	br := bufio.NewReader(conn)
	for {
		var hdr [trace.HeaderLen]byte
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(hdr[:]))
		if n < trace.HeaderLen+8 || n > 4096 {
			return
		}
		pdu := append(hdr[:], make([]byte, n-trace.HeaderLen)...)
		if _, err := io.ReadFull(br, pdu[trace.HeaderLen:]); err != nil {
			return
		}
		r.mu.Lock()
		r.bytes = append(r.bytes, pdu...)
		r.mu.Unlock()
		word := binary.BigEndian.Uint32(pdu[trace.HeaderLen:])
		if word&(1<<7) != 0 {
			conn.Write(trace.AppendAck(nil, 1, int32(word>>8&0xff)))
		}
	}
}

// take waits until the first connection has ended (its client closed
// it) and returns the bytes received, forgetting them.
func (r *recorder) take() []byte {
	for i := 0; i < 3000; i++ {
		r.mu.Lock()
		done := r.served > 0
		r.mu.Unlock()
		if done {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.bytes
	r.bytes = nil
	return b
}

// masked blanks each PDU's sender pid and, for transactions, the
// elapsed time, which no two runs share.
func masked(t testing.TB, stream []byte) []byte {
	t.Helper()
	out := append([]byte(nil), stream...)
	for off := 0; off < len(out); {
		if len(out)-off < trace.HeaderLen {
			t.Fatalf("stream ends inside a header at %d", off)
		}
		n := int(uint32(out[off])<<24 | uint32(out[off+1])<<16 | uint32(out[off+2])<<8 | uint32(out[off+3]))
		if n < trace.AckLen || off+n > len(out) {
			t.Fatalf("bad PDU length %d at %d", n, off)
		}
		copy(out[off+8:off+12], "PPPP")
		if n >= 24 && out[off+13+1] == byte(trace.TypeTransact) {
			copy(out[off+16:off+24], "TTTTTTTT")
		}
		off += n
	}
	return out
}

// feedScript exercises every call, the tag rules and the transaction
// rules; tags of 124 characters are the longest PCP's agent accepts.
var feedScript = `point p1
obs o1 3.25
counter c1 7
begin t1
begin t1
end t1
end t1
abort t1
end nosuch
abort nosuch
begin t2
abort t2
point -
obs ` + strings.Repeat("x", 124) + ` 1e300
counter ` + strings.Repeat("y", 200) + ` -0.5
point ` + strings.Repeat("z", 254) + `
point ` + strings.Repeat("z", 255) + `
point p1
obs odd -1.5e-300
err -12000
err -12001
err -12002
err -12003
err -12004
err -12005
err -12006
err -12007
err -12008
err -12009
err -12010
err -12011
err -12012
err 0
err -111
err 5
`

// TestPDUsAsLibpcpTrace runs one script through libpcp_trace and through
// the Client, each against a recording agent, in both protocols: the
// bytes sent (pids and elapsed times masked) and every status returned
// must be the same.
func TestPDUsAsLibpcpTrace(t *testing.T) {
	bin := buildFeed(t)
	for _, mode := range []struct {
		name  string
		state string
	}{{"sync", ""}, {"async", "state 32\n"}} {
		t.Run(mode.name, func(t *testing.T) {
			script := mode.state + feedScript
			rc := newRecorder(t)
			cOut := runFeed(t, bin, rc.port(), script)
			cBytes := rc.take()
			rg := newRecorder(t)
			c, err := trace.New(trace.Options{Host: "127.0.0.1", Port: rg.port()})
			if err != nil {
				t.Fatal(err)
			}
			gOut := goFeed(t, c, script)
			c.Close()
			gBytes := rg.take()
			// In the asynchronous protocol libpcp_trace returns
			// what its write returned, the PDU's length, where
			// the Client returns nil: statuses above 0 count as 0.
			cOut = positiveAsZero(cOut)
			if gOut != cOut {
				t.Errorf("statuses differ\nlibpcp_trace:\n%s\ngopcp:\n%s", cOut, gOut)
			}
			if len(cBytes) == 0 {
				t.Fatal("libpcp_trace sent nothing")
			}
			if cm, gm := masked(t, cBytes), masked(t, gBytes); string(cm) != string(gm) {
				t.Errorf("PDUs differ\nlibpcp_trace % x\ngopcp        % x", cm, gm)
			}
			t.Logf("%d bytes of PDUs identical, %d statuses", len(cBytes), strings.Count(cOut, "\n"))
		})
	}
}

// TestNoAgent compares both libraries when nothing listens: the first
// call reports the refused connection; later synchronous calls keep
// quiet (data dropped, reconnection later), as libpcp_trace's do.
func TestNoAgent(t *testing.T) {
	bin := buildFeed(t)
	// Nothing may listen there for the whole test: a private port held
	// to the end, not a ":0" port closed again, which any connection on
	// the machine may take and a program may then listen on.
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	script := "point p\nobs o 1\nbegin t\n"
	cOut := runFeed(t, bin, port, script)
	c, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
	gOut := goFeed(t, c, script)
	if gOut != cOut {
		t.Errorf("statuses differ\nlibpcp_trace:\n%s\ngopcp:\n%s", cOut, gOut)
	}
	if !errors.Is(c.Point(context.Background(), "p"), syscall.ECONNREFUSED) {
		t.Log("later call:", c.Point(context.Background(), "p"))
	}
}

// TestRefused checks that an agent's refusal at connection reaches the
// caller as its code, as both libraries return it.
func TestRefused(t *testing.T) {
	bin := buildFeed(t)
	for _, code := range []trace.Error{trace.ErrPermission, trace.ErrConnLimit} {
		rc := newRefuser(t, int32(code))
		cOut := runFeed(t, bin, rc.port(), "point p\n")
		c, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: rc.port()})
		gOut := goFeed(t, c, "point p\n")
		if gOut != cOut || cOut != fmt.Sprintf("point %d\n", code) {
			t.Errorf("refusal %d: libpcp_trace %q, gopcp %q", code, cOut, gOut)
		}
	}
}

// positiveAsZero rewrites "call N" lines with N > 0 as "call 0".
func positiveAsZero(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) == 2 && f[0] != "state" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				lines[i] = f[0] + " 0"
			}
		}
	}
	return strings.Join(lines, "\n")
}
