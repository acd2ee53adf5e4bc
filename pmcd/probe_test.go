package pmcd

import (
	"bytes"
	"context"
	"log"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// lockedBuffer is a log destination several goroutines write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serveUntil serves srv on a loopback port while probe runs, then stops
// it and waits for every client to be finished with.
func serveUntil(t *testing.T, srv *Server, clients int32, probe func(addr string)) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	probe(l.Addr().String())
	// Every client the probe made is seen to the end before the
	// shutdown, whose own errors would be something else.
	for {
		srv.numMu.Lock()
		busy := len(srv.nums)
		srv.numMu.Unlock()
		if busy == 0 && srv.clientSeq.Load() >= clients {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	srv.Close()
}

// TestProbesNotLogged connects and goes away before sending a PDU, as
// port scanners and health checks do: PCP's pmcd logs nothing for that,
// and neither may this one. A client that sends garbage in place of the
// handshake is logged.
func TestProbesNotLogged(t *testing.T) {
	t.Parallel()
	probes := []struct {
		name  string
		probe func(t *testing.T, addr string)
	}{
		{"close at once", func(t *testing.T, addr string) {
			c := dialRaw(t, addr)
			c.Close()
		}},
		{"close after the greeting", func(t *testing.T, addr string) {
			c := dialRaw(t, addr)
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			c.Read(make([]byte, 12))
			c.Close()
		}},
		{"reset", func(t *testing.T, addr string) {
			c := dialRaw(t, addr)
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		}},
	}
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			var buf lockedBuffer
			srv := &Server{PMNS: testTree(t), Log: log.New(&buf, "", 0)}
			serveUntil(t, srv, 50, func(addr string) {
				for i := 0; i < 50; i++ {
					p.probe(t, addr)
				}
			})
			if buf.String() != "" {
				t.Errorf("probes logged:\n%s", buf.String())
			}
		})
	}
	t.Run("garbage is logged", func(t *testing.T) {
		t.Parallel()
		var buf lockedBuffer
		srv := &Server{PMNS: testTree(t), Log: log.New(&buf, "", 0)}
		serveUntil(t, srv, 1, func(addr string) {
			c := dialRaw(t, addr)
			c.Write([]byte("GET / HTTP/1.0\r\n\r\n"))
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			for _, err := c.Read(make([]byte, 64)); err == nil; _, err = c.Read(make([]byte, 64)) {
			}
			c.Close()
		})
		if !strings.Contains(buf.String(), "handshake") {
			t.Errorf("garbage handshake not logged:\n%s", buf.String())
		}
	})
}

func dialRaw(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestProfilesBounded sends PROFILEs for ever new contexts: once their
// bytes pass maxProfileBytes, pmcd refuses more with PM_ERR_TOOBIG (and
// keeps serving the client), while replacing a kept one is still
// allowed.
func TestProfilesBounded(t *testing.T) {
	t.Parallel()
	host := serveOn(t, &Server{PMNS: testTree(t)})
	conn, r, w := dial(t, host)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A profile of 1,000 instances is about 4 KB: a thousand fill the
	// budget, so 1,100 go over it.
	insts := make([]int32, 1000)
	var buf []byte
	for i := range 1100 {
		p := &pdu.Profile{Context: int32(i), State: pdu.ProfileExclude,
			InDoms: []pdu.InDomProfile{{InDom: pcp.NewInDom(60, 1), State: pdu.ProfileInclude, Insts: insts}}}
		buf = p.Append(buf[:0], 1)
		if _, err := conn.Write(buf); err != nil {
			t.Fatal(err)
		}
	}
	// Replies come only for refused profiles; a lookup marks the end.
	refused := 0
	if err := w.WriteMessage(ctx, &pdu.PMNSNames{Names: []string{"kernel.all.load"}}, 1); err != nil {
		t.Fatal(err)
	}
	for {
		m := readMessage(t, ctx, r)
		if e, ok := m.(*pdu.Error); ok {
			if pcp.Error(e.Code) != pcp.ErrTooBig {
				t.Fatalf("refusal %v", pcp.Error(e.Code))
			}
			refused++
			continue
		}
		break
	}
	if refused == 0 || refused == 1100 {
		t.Errorf("%d of 1100 profiles refused", refused)
	}
	// Context 0's profile may still be replaced, and fetched with.
	if err := w.WriteMessage(ctx, &pdu.Profile{State: pdu.ProfileInclude}, 1); err != nil {
		t.Fatal(err)
	}
	if _, ok := roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(60, 2, 0)}}).(*pdu.Result); !ok {
		t.Error("no fetch after the refusals")
	}
}

// TestTinyProfilesBounded: many small profiles count against the bound
// too, each with what keeping it costs, not only its bytes on the wire
// (40,000 empty profiles were all kept before).
func TestTinyProfilesBounded(t *testing.T) {
	t.Parallel()
	host := serveOn(t, &Server{PMNS: testTree(t)})
	conn, _, w := dial(t, host)
	// pmcd keeps the profiles under the bound without a word, so the
	// first refusal comes only after it has taken all of those in: under
	// -race on a loaded machine longer than libpcp's 10 s for one PDU.
	// The test's deadline bounds the reads instead.
	r := pdu.NewReader(conn, 0)
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-5*time.Second))
		defer cancel()
	}
	const n = 40000
	var buf []byte
	for i := range n {
		buf = (&pdu.Profile{Context: int32(i), State: pdu.ProfileInclude}).Append(buf, 1)
	}
	if _, err := conn.Write(buf); err != nil {
		t.Fatal(err)
	}
	refused := 0
	if err := w.WriteMessage(ctx, &pdu.PMNSNames{Names: []string{"kernel.all.load"}}, 1); err != nil {
		t.Fatal(err)
	}
	for {
		m := readMessage(t, ctx, r)
		if e, ok := m.(*pdu.Error); ok && pcp.Error(e.Code) == pcp.ErrTooBig {
			refused++
			continue
		}
		break
	}
	if refused == 0 || refused == n {
		t.Errorf("%d of %d tiny profiles refused", refused, n)
	}
}
