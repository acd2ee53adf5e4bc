package pmapi

import (
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

// gatedProxy relays connections to the bed's pmcd, holding pmcd's
// replies back while gate is locked: a wait for a reply held back is
// missed whatever the machine's load, and the reply still comes later.
func gatedProxy(t *testing.T, bed *testbed.PMCD, gate *sync.Mutex) string {
	t.Helper()
	return loopbackServer(t, func(client net.Conn) {
		server, err := net.Dial("tcp", bed.Host())
		if err != nil {
			client.Close()
			return
		}
		go func() {
			io.Copy(server, client)
			server.Close()
		}()
		buf := make([]byte, 64<<10)
		for {
			n, err := server.Read(buf)
			gate.Lock()
			_, werr := client.Write(buf[:n])
			gate.Unlock()
			if err != nil || werr != nil {
				client.Close()
				server.Close()
				return
			}
		}
	}).String()
}

// TestMissedWaitKeepsConnection: a wait for a reply that runs out before
// any of it came leaves the connection up, as libpcp's does (which then
// takes the late reply for the next request's); ours drops the late
// replies and the next request gets its own, for traversals (their own
// wait) and fetches (here the caller's deadline) alike.
func TestMissedWaitKeepsConnection(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	var gate sync.Mutex
	spec := gatedProxy(t, bed, &gate)
	const wait = 100 * time.Millisecond
	c, err := NewHostContext(ctx, spec, WithTraverseTimeout(wait))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ids, err := c.LookupNames(ctx, []string{"sample.long.one", "sample.long.ten"})
	if err != nil {
		t.Fatal(err)
	}

	gate.Lock()
	for _, name := range []string{"sample.long.one", "sample.long.ten"} {
		if names, err := c.Traverse(ctx, name); !errors.Is(err, pcp.ErrTimeout) {
			t.Errorf("Traverse(%s) with replies held back: %v, %v; want %v", name, names, err, pcp.ErrTimeout)
		}
	}
	if c.Features() == 0 || c.unread != 2 {
		t.Errorf("after the missed waits: features %v, %d replies owed; want a connection, 2", c.Features(), c.unread)
	}
	gate.Unlock()
	// (asked with the usual wait: a short one met depends on the load)
	if kids, err := c.Children(ctx, "sample.long"); err != nil || !slices.Contains(kids, "ten") {
		t.Errorf("Children after the replies came: %v, %v", kids, err)
	}
	if c.unread != 0 {
		t.Errorf("%d replies still owed", c.unread)
	}

	// a fetch whose wait (its ctx's deadline) runs out
	f, err := NewHostContext(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r pcp.Result
	gate.Lock()
	short, cancel := context.WithTimeout(ctx, wait)
	_, err = f.Fetch(short, ids[:1], &r)
	cancel()
	if !errors.Is(err, pcp.ErrTimeout) || f.Features() == 0 {
		t.Errorf("Fetch with the reply held back: %v (features %v); want %v on the same connection", err, f.Features(), pcp.ErrTimeout)
	}
	gate.Unlock()
	// the late reply must not pass for this one's: ask for the other metric
	if _, err := f.Fetch(ctx, ids[1:], &r); err != nil {
		t.Fatalf("Fetch after the reply came: %v", err)
	}
	if len(r.Sets) != 1 || r.Sets[0].PMID != ids[1] || len(r.Sets[0].Values) != 1 || r.Sets[0].Values[0].LVal != 10 {
		t.Errorf("Fetch after the reply came: %+v; want sample.long.ten = 10", r.Sets)
	}
}

// TestZeroWaitTraversalsBounded: zero-wait traversals repeated with no
// other request leave at most maxUnread replies owed (beyond that the
// late ones are read and dropped, where libpcp's pile up in the socket),
// and the next request still gets its own reply.
func TestZeroWaitTraversalsBounded(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	c := dial(t, bed, WithTraverseTimeout(0))
	for i := range 3 * maxUnread {
		if _, err := c.Traverse(ctx, "sample.long.one"); !errors.Is(err, pcp.ErrTimeout) {
			t.Fatalf("Traverse %d: %v; want %v", i, err, pcp.ErrTimeout)
		}
		if c.unread > maxUnread || c.Features() == 0 {
			t.Fatalf("after Traverse %d: %d replies owed, features %v; want at most %d, a connection", i, c.unread, c.Features(), maxUnread)
		}
	}
	if id, err := c.LookupName(ctx, "sample.long.ten"); err != nil || id == pcp.PMIDNull {
		t.Fatalf("LookupName after the traversals: %v, %v", id, err)
	}
	if c.unread != 0 {
		t.Errorf("%d replies still owed after a request", c.unread)
	}
}

// TestTinyWaitAlwaysRunsOut: a wait shorter than any reply can take runs
// out every time, as libpcp's does (it looks at the clock once the reply
// is there), also when the runtime's timer has not ended it before the
// reply came; the connection stays and the next request gets its own.
func TestTinyWaitAlwaysRunsOut(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	c := dial(t, bed, WithTraverseTimeout(time.Nanosecond))
	for i := range 2 * maxUnread {
		if names, err := c.Traverse(ctx, "sample.long.one"); !errors.Is(err, pcp.ErrTimeout) || c.Features() == 0 {
			t.Fatalf("Traverse %d: %v, %v (features %v); want %v on the same connection", i, names, err, c.Features(), pcp.ErrTimeout)
		}
	}
	if kids, err := c.Children(ctx, "sample.long"); err != nil || !slices.Contains(kids, "ten") {
		t.Errorf("Children after the traversals: %v, %v", kids, err)
	}
}
