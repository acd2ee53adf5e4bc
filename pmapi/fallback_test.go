package pmapi

import (
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// featureProxy relays connections to the bed's pmcd, removing features
// from pmcd's greeting so that clients talk to it as to an older pmcd.
// It returns the host specification of the proxy.
func featureProxy(t *testing.T, bed *testbed.PMCD, remove pdu.Flags) string {
	t.Helper()
	return loopbackServer(t, func(client net.Conn) { relay(client, bed.Host(), remove) }).String()
}

// relay serves one client; failures just end the connection, which the
// test then sees on its side.
func relay(client net.Conn, host string, remove pdu.Flags) {
	server, err := net.Dial("tcp", host)
	if err != nil {
		return
	}
	defer server.Close()
	ctx := context.Background()
	buf, err := pdu.NewReader(server, pdu.DefaultTimeout).ReadPDU(ctx)
	if err != nil {
		return
	}
	var greeting pdu.Error
	if err := greeting.Decode(buf); err != nil {
		return
	}
	info := pdu.UnpackPDUInfo(greeting.Datum)
	info.Features &^= remove
	greeting.Datum = info.Pack()
	if err := pdu.NewWriter(client).WriteMessage(ctx, &greeting, 0); err != nil {
		return
	}
	splice(client, server, nil)
}

// TestOlderPMCD checks the requests for a pmcd without HIGHRES, DESCS and
// LABELS: FETCH instead of HIGHRES_FETCH, one DESC_REQ per metric instead
// of DESC_IDS, and no labels at all, with the same answers otherwise.
func TestOlderPMCD(t *testing.T) {
	bed := startBed(t)
	ctx := testContext(t)
	direct := dial(t, bed)
	old, err := NewHostContext(ctx, featureProxy(t, bed, pdu.FlagHighRes|pdu.FlagDescs|pdu.FlagLabels))
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if f := old.Features(); f&(pdu.FlagHighRes|pdu.FlagDescs|pdu.FlagLabels) != 0 {
		t.Fatalf("proxy left features %s", f)
	}
	_, pmids := leafPMIDs(t, direct)
	pmids = append(pmids, pcp.NewPMID(29, 0, 999))
	want, err := direct.LookupDescs(ctx, pmids)
	if err != nil {
		t.Fatal(err)
	}
	got, err := old.LookupDescs(ctx, pmids)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("LookupDescs without DESCS = %v, %v; with DESCS %v", got, err, want)
	}

	names := []string{"sample.long.one", "sample.string.hullo", "sample.double.one", "sample.aggregate.hullo", "sample.bin"}
	ids, err := direct.LookupNames(ctx, names)
	if err != nil {
		t.Fatal(err)
	}
	var r1, r2 pcp.Result
	if _, err := direct.Fetch(ctx, ids, &r1); err != nil {
		t.Fatal(err)
	}
	if _, err := old.Fetch(ctx, ids, &r2); err != nil {
		t.Fatalf("Fetch without HIGHRES: %v", err)
	}
	if len(r1.Sets) != len(r2.Sets) {
		t.Fatalf("Fetch without HIGHRES: %d sets, with %d", len(r2.Sets), len(r1.Sets))
	}
	for i := range r1.Sets {
		a, b := r1.Sets[i], r2.Sets[i]
		if a.PMID != b.PMID || a.NumVal != b.NumVal || a.ValFmt != b.ValFmt || len(a.Values) != len(b.Values) {
			t.Errorf("set %d: %+v without HIGHRES, %+v with", i, b, a)
			continue
		}
		for j := range a.Values {
			if a.Values[j].Inst != b.Values[j].Inst || a.Values[j].LVal != b.Values[j].LVal || string(a.Values[j].Block.Data) != string(b.Values[j].Block.Data) {
				t.Errorf("set %d value %d: %+v without HIGHRES, %+v with", i, j, b.Values[j], a.Values[j])
			}
		}
	}
	if r2.Timestamp.Nsec%1000 != 0 {
		t.Errorf("FETCH timestamp %+v has more than microsecond resolution", r2.Timestamp)
	}
	if _, err := old.ContextLabels(ctx); !errors.Is(err, pcp.ErrNoLabels) {
		t.Errorf("ContextLabels without LABELS: %v, want %v", err, pcp.ErrNoLabels)
	}
}

// silentPMCD greets clients and then reads their requests without ever
// answering.
func silentPMCD(t *testing.T) string {
	t.Helper()
	return loopbackServer(t, func(conn net.Conn) {
		w := pdu.NewWriter(conn)
		if err := pdu.GreetClient(context.Background(), w, 0, pdu.PMCDInfo(0)); err != nil {
			return
		}
		io.Copy(io.Discard, conn)
	}).String()
}

// silentLimit is the request timeout TestTimeouts gives its contexts: the
// handshake, which silentPMCD does answer, is bound by it too, and under
// -race at load 100 that answer took more than 50 ms.
const silentLimit = 2500 * time.Millisecond

// TestTimeouts checks that a pmcd that does not answer makes calls fail
// with PM_ERR_TIMEOUT (the request timeout) or the caller's context error;
// after a timeout the connection stays, as libpcp's does, and the next
// call times out waiting for the earlier reply first.
func TestTimeouts(t *testing.T) {
	host := silentPMCD(t)
	ctx := testContext(t)
	c, err := NewHostContext(ctx, host, WithRequestTimeout(silentLimit))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.LookupName(ctx, "sample.long.one"); !errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("LookupName from a silent pmcd: %v, want %v", err, pcp.ErrTimeout)
	}
	if _, err := c.LookupName(ctx, "sample.long.one"); !errors.Is(err, pcp.ErrTimeout) || c.Features() == 0 {
		t.Errorf("LookupName after a timeout: %v (features %v), want %v on the same connection", err, c.Features(), pcp.ErrTimeout)
	}

	c2, err := NewHostContext(ctx, host, WithRequestTimeout(0))
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	short, cancel := context.WithCancel(ctx)
	go func() {
		time.Sleep(50 * time.Millisecond)
		cancel()
	}()
	if _, err := c2.LookupDesc(short, pcp.NewPMID(29, 0, 10)); !errors.Is(err, context.Canceled) {
		t.Errorf("LookupDesc cancelled: %v, want %v", err, context.Canceled)
	}

	c3, err := NewHostContext(ctx, host, WithRequestTimeout(pdu.ParseRequestTimeout("2.5")))
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	var r pcp.Result
	if _, err := c3.Fetch(ctx, []pcp.PMID{pcp.NewPMID(29, 0, 10)}, &r); !errors.Is(err, pcp.ErrTimeout) {
		t.Errorf("Fetch with PMCD_REQUEST_TIMEOUT=2.5: %v, want %v", err, pcp.ErrTimeout)
	}
}

func TestConnectTimeoutEnv(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want time.Duration
	}{
		{"", 0},
		{"2.5", 2500 * time.Millisecond},
		{"0", 0},
		{"-1", DefaultConnectTimeout},
		{"soon", DefaultConnectTimeout},
		{"1e1", 10 * time.Second},
	} {
		if got := ParseConnectTimeout(tc.env); got != tc.want {
			t.Errorf("PMCD_CONNECT_TIMEOUT=%q: %v, want %v", tc.env, got, tc.want)
		}
	}
}

// TestHandshakeTimeout connects to a server that accepts connections but
// never greets: the handshake must give up within the request timeout.
func TestHandshakeTimeout(t *testing.T) {
	host := loopbackServer(t, func(conn net.Conn) { io.Copy(io.Discard, conn) }).String()
	ctx := testContext(t)
	_, err := NewHostContext(ctx, host, WithRequestTimeout(50*time.Millisecond))
	if !errors.Is(err, pcp.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("NewHostContext with a silent server: %v, want a timeout", err)
	}
}
