package trace_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	atrace "github.com/gopcp/gopcp/agents/trace"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/trace"
)

// rawData builds a DATA PDU field by field, for PDUs no library writes.
func rawData(length int, pduType uint32, version, taglen, tagtype byte, sync bool, tag []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(length))
	b = binary.BigEndian.AppendUint32(b, pduType)
	b = binary.BigEndian.AppendUint32(b, 4242)
	word := uint32(version)<<24 | uint32(taglen)<<16 | uint32(tagtype)<<8
	if sync {
		word |= 1 << 7
	}
	b = binary.BigEndian.AppendUint32(b, word)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(1))
	b = append(b, tag...)
	for len(b) < length {
		b = append(b, '~')
	}
	return b
}

// badCases are streams after which an agent must close the connection.
var badCases = []struct {
	name   string
	stream []byte
}{
	{"length under a header", binary.BigEndian.AppendUint32(nil, 8)},
	{"length 15", rawData(15, trace.PDUData, 1, 2, 2, false, []byte("a\x00"))[:15]},
	{"length over 272", rawData(280, trace.PDUData, 1, 2, 2, false, []byte("a\x00"))},
	{"negative length", append(binary.BigEndian.AppendUint32(nil, 0x80000000), make([]byte, 12)...)},
	{"ACK from a program", trace.AppendAck(nil, 1, 1)},
	{"unknown PDU type", rawData(28, 0x1234, 1, 2, 2, false, []byte("a\x00"))},
	{"DATA too short for its double", rawData(20, trace.PDUData, 1, 2, 2, false, nil)},
	{"version 2", rawData(28, trace.PDUData, 2, 2, 2, false, []byte("a\x00"))},
	{"version 0", rawData(28, trace.PDUData, 0, 2, 2, false, []byte("a\x00"))},
	{"tag length 0", rawData(28, trace.PDUData, 1, 0, 2, false, []byte("a\x00"))},
	{"tag length 126", rawData(152, trace.PDUData, 1, 126, 2, false, []byte(strings.Repeat("x", 125)+"\x00"))},
	{"tag length beyond the PDU", rawData(28, trace.PDUData, 1, 40, 2, false, []byte("a\x00"))},
	{"trace type 0", rawData(28, trace.PDUData, 1, 2, 0, false, []byte("a\x00"))},
	{"trace type 5", rawData(28, trace.PDUData, 1, 2, 5, false, []byte("a\x00"))},
	{"tag length changed", append(rawData(28, trace.PDUData, 1, 3, 3, false, []byte("ab\x00")),
		rawData(28, trace.PDUData, 1, 4, 3, false, []byte("ab\x00\x00"))...)},
	{"flood of garbage", []byte(strings.Repeat("\xff\xfe\xfd\xfc", 16384))},
}

// closedAfter sends stream on a new connection and reports whether the
// agent closed it.
func closedAfter(t *testing.T, port int, stream []byte) bool {
	t.Helper()
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	welcome := make([]byte, trace.AckLen)
	if _, err := io.ReadFull(c, welcome); err != nil {
		t.Fatalf("no welcome: %v", err)
	}
	// Writing may fail part way once the agent has closed: that is the
	// answer too.
	c.Write(stream)
	_, err = io.ReadFull(c, make([]byte, 1))
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return err != nil
}

// alive checks that the agent still takes a synchronous datum.
func alive(t *testing.T, port int) {
	t.Helper()
	c, err := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Point(context.Background(), "alive"); err != nil {
		t.Fatalf("the agent no longer serves: %v", err)
	}
}

// serveOurs runs our agent in-process on a loopback port.
func serveOurs(t *testing.T, o atrace.Options) (*atrace.Agent, int) {
	t.Helper()
	o.ManualTicks = true
	a, err := atrace.New(atrace.Domain, o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { a.Serve(ctx, ln) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	return a, ln.Addr().(*net.TCPAddr).Port
}

// TestBadPDUs sends each malformed stream to our agent: the connection is
// closed and the agent goes on serving.
func TestBadPDUs(t *testing.T) {
	a, port := serveOurs(t, atrace.Options{PDUTimeout: 300 * time.Millisecond})
	for _, c := range badCases {
		if !closedAfter(t, port, c.stream) {
			t.Errorf("%s: connection left open", c.name)
		}
		alive(t, port)
	}
	if got := show(t, a, 6); got != "6:1="+strconv.Itoa(len(badCases)) {
		t.Errorf("points: %s", got)
	}
}

// TestBadPDUsAsPCP sends the same streams to PCP's pmdatrace, which must
// close each connection as ours does and go on serving: the cases are
// PCP's behaviour, not only ours.
func TestBadPDUsAsPCP(t *testing.T) {
	programs(t)
	in := testbed.Need(t)
	bed, port := bedWith(t, pmnsRoot(t, in), filepath.Join(in.Var("PCP_PMDAS_DIR"), "trace", "pmdatrace"))
	for _, c := range badCases {
		if !closedAfter(t, port, c.stream) {
			t.Errorf("%s: PCP's pmdatrace left the connection open", c.name)
		}
		alive(t, port)
	}
	// Each alive call was our library's point, acknowledged by PCP's
	// agent: it counted every one.
	r := bed.Run("pminfo", "-f", "trace.point.count")
	if want := `inst [1 or "alive"] value ` + strconv.Itoa(len(badCases)); !strings.Contains(r.Stdout, want) {
		t.Errorf("PCP's agent did not count our points (%q):\n%s%s", want, r.Stdout, r.Stderr)
	}
}

// TestClientBound checks that programs beyond MaxClients are told
// ErrConnLimit and the ones connected keep working.
func TestClientBound(t *testing.T) {
	a, port := serveOurs(t, atrace.Options{MaxClients: 2})
	var held []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.ReadFull(c, make([]byte, trace.AckLen))
		held = append(held, c)
	}
	c, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
	if err := c.Point(context.Background(), "x"); !errors.Is(err, trace.ErrConnLimit) {
		t.Errorf("third program: %v, want %v", err, trace.ErrConnLimit)
	}
	held[0].Close()
	// The agent sees the close in its own time.
	for a.Clients() > 1 {
		time.Sleep(10 * time.Millisecond)
	}
	c2, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
	defer c2.Close()
	if err := c2.Point(context.Background(), "x"); err != nil {
		t.Errorf("a place freed was not given: %v", err)
	}
}

// TestAccess checks -A: a disallowed host is refused with ErrPermission,
// an allowed one with a limit gets ErrConnLimit beyond it.
func TestAccess(t *testing.T) {
	// A loopback client is taken as coming from this host's own
	// addresses, as libpcp takes it, and those are what the host's name
	// resolves to (127.0.0.1 on some machines, 127.0.1.1 or a LAN
	// address on others): the rules name the host.
	// Where the name does not resolve (a container, a fresh root with
	// only localhost in /etc/hosts) a rule cannot name it, and the host
	// is known by localhost's addresses, which "localhost" names.
	me, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := net.LookupHost(me); err != nil {
		t.Logf("host name %q does not resolve (%v): the rules name localhost", me, err)
		me = "localhost"
	}
	_, port := serveOurs(t, atrace.Options{Access: []string{"disallow:" + me}})
	c, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
	if err := c.Point(context.Background(), "x"); !errors.Is(err, trace.ErrPermission) {
		t.Errorf("disallowed: %v", err)
	}
	_, port = serveOurs(t, atrace.Options{Access: []string{"allow:" + me + ":1"}})
	first, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
	defer first.Close()
	if err := first.Point(context.Background(), "x"); err != nil {
		t.Fatalf("allowed: %v", err)
	}
	second, _ := trace.New(trace.Options{Host: "127.0.0.1", Port: port})
	if err := second.Point(context.Background(), "x"); !errors.Is(err, trace.ErrConnLimit) {
		t.Errorf("beyond the limit: %v", err)
	}
	for _, bad := range []string{"allow", "permit:host", "allow:", "allow:h:-1", "allow:h:x", "disallow:"} {
		if atrace.CheckAccess(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
