package pmcd

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

const testPMNS = `root {
	kernel
	mmv	70:*:*
}
kernel {
	all
}
kernel.all {
	load	60:2:0
	uptime	60:26:0
}
`

func testTree(t *testing.T) *pmns.Tree {
	t.Helper()
	tree, err := pmns.Parse(strings.NewReader(testPMNS), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// dial connects to a server and completes the client's handshake.
func dial(t testing.TB, host string) (net.Conn, *pdu.Reader, *pdu.Writer) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.Replace(host, "localhost", "127.0.0.1", 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := pdu.ClientHandshake(ctx, conn, 0, pdu.DefaultTimeout); err != nil {
		t.Fatalf("handshake: %v", err)
	}
	// As libpcp does before its first fetch: pmcd answers a fetch of a
	// context it has no profile for with PM_ERR_NOPROFILE.
	w := pdu.NewWriter(conn)
	if err := w.WriteMessage(ctx, &pdu.Profile{State: pdu.ProfileInclude}, 1); err != nil {
		t.Fatalf("profile: %v", err)
	}
	return conn, pdu.NewReader(conn, pdu.DefaultTimeout), w
}

// readMessage reads and decodes pmcd's next PDU; an error ends the test.
func readMessage(t testing.TB, ctx context.Context, r *pdu.Reader) pdu.Message {
	t.Helper()
	b, err := r.ReadPDU(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pdu.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func roundTrip(t *testing.T, r *pdu.Reader, w *pdu.Writer, m pdu.Message) pdu.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.WriteMessage(ctx, m, 1); err != nil {
		t.Fatal(err)
	}
	for {
		reply := readMessage(t, ctx, r)
		// pmcd's notices of state changes (a positive code before a
		// fetch's RESULT) are passed over, as libpcp's pmFetch returns
		// them beside the result; fetchAfterChanges keeps them.
		_, fetch := m.(*pdu.Fetch)
		_, hrFetch := m.(*pdu.HighResFetch)
		if e, ok := reply.(*pdu.Error); ok && e.Code > 0 && (fetch || hrFetch) {
			continue
		}
		return reply
	}
}

func wantError(t *testing.T, m pdu.Message, want pcp.Error) {
	t.Helper()
	e, ok := m.(*pdu.Error)
	if !ok {
		t.Fatalf("reply is %T, want ERROR %v", m, want)
	}
	if pcp.Error(e.Code) != want {
		t.Fatalf("reply is ERROR %v, want %v", pcp.Error(e.Code), want)
	}
}

func TestNamespaceRequests(t *testing.T) {
	t.Parallel()
	_, r, w := dial(t, startOurs(t, testTree(t)))

	ids := roundTrip(t, r, w, &pdu.PMNSNames{Names: []string{"kernel.all.load", "nosuch", "mmv.a.b", "kernel"}}).(*pdu.PMNSIDs)
	wantIDs := []pcp.PMID{pcp.NewPMID(60, 2, 0), pcp.PMIDNull, pcp.PMIDNull, pcp.PMIDNull}
	if ids.Status != 1 || len(ids.PMIDs) != 4 {
		t.Fatalf("lookup: %+v", ids)
	}
	for i := range wantIDs {
		if ids.PMIDs[i] != wantIDs[i] {
			t.Errorf("lookup[%d] = %v, want %v", i, ids.PMIDs[i], wantIDs[i])
		}
	}
	wantError(t, roundTrip(t, r, w, &pdu.PMNSNames{Names: []string{"nosuch"}}), pcp.ErrName)
	wantError(t, roundTrip(t, r, w, &pdu.PMNSNames{Names: []string{"kernel.all"}}), pcp.ErrNonLeaf)
	wantError(t, roundTrip(t, r, w, &pdu.PMNSNames{Names: []string{"mmv.x"}}), pcp.ErrNoAgent)

	names := roundTrip(t, r, w, &pdu.PMNSIDs{PMIDs: []pcp.PMID{pcp.NewPMID(60, 26, 0)}}).(*pdu.PMNSNames)
	if len(names.Names) != 1 || names.Names[0] != "kernel.all.uptime" {
		t.Errorf("name of 60.26.0: %v", names.Names)
	}
	wantError(t, roundTrip(t, r, w, &pdu.PMNSIDs{PMIDs: []pcp.PMID{pcp.NewPMID(1, 2, 3)}}), pcp.ErrNoAgent)

	// libpcp reports the root of a dynamic subtree as a non-leaf.
	kids := roundTrip(t, r, w, &pdu.PMNSChild{Name: "", Subtype: pdu.PMNSChildStatus}).(*pdu.PMNSNames)
	if strings.Join(kids.Names, ",") != "kernel,mmv" || len(kids.Status) != 2 ||
		kids.Status[0] != pdu.PMNSNonLeafStatus || kids.Status[1] != pdu.PMNSNonLeafStatus {
		t.Errorf("children of root: %+v", kids)
	}
	wantError(t, roundTrip(t, r, w, &pdu.PMNSChild{Name: "mmv"}), pcp.ErrNoAgent)

	all := roundTrip(t, r, w, &pdu.PMNSTraverse{Name: "kernel"}).(*pdu.PMNSNames)
	if strings.Join(all.Names, ",") != "kernel.all.load,kernel.all.uptime" {
		t.Errorf("traverse kernel: %v", all.Names)
	}

	wantError(t, roundTrip(t, r, w, &pdu.DescReq{PMID: pcp.NewPMID(60, 2, 0)}), pcp.ErrPMID)
	wantError(t, roundTrip(t, r, w, &pdu.TextReq{Ident: uint32(pcp.NewPMID(60, 2, 0)), Type: pdu.TextOneLine | pdu.TextPMID}), pcp.ErrPMID)
	wantError(t, roundTrip(t, r, w, &pdu.InstanceReq{InDom: pcp.NewInDom(60, 2), Inst: pcp.InstNull}), pcp.ErrInDom)

	res := roundTrip(t, r, w, &pdu.Fetch{PMIDs: []pcp.PMID{pcp.NewPMID(60, 2, 0), pcp.NewPMID(60, 26, 0)}}).(*pdu.Result)
	if len(res.Sets) != 2 || res.Sets[0].NumVal != int32(pcp.ErrNoAgent) || res.Sets[1].PMID != pcp.NewPMID(60, 26, 0) {
		t.Errorf("fetch: %+v", res.Sets)
	}
}

// TestBadPDUEndsOnlyThatClient sends PDUs that lie about themselves; each
// gets PM_ERR_IPC, and one that cannot even be framed has its connection
// closed (a whole PDU leaves the stream in step, so as with PCP's pmcd
// the connection stays), while another client is served throughout.
func TestBadPDUEndsOnlyThatClient(t *testing.T) {
	t.Parallel()
	host := startOurs(t, testTree(t))
	_, gr, gw := dial(t, host)
	bad := []struct {
		b      []byte
		closes bool
	}{
		// PMNS_NAMES claiming a million names in 12 bytes of body.
		{[]byte{0, 0, 0, 24, 0, 0, 0x70, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0f, 0x42, 0x40}, false},
		// A PDU type nobody knows.
		{[]byte{0, 0, 0, 12, 0, 0, 0x71, 0x99, 0, 0, 0, 1}, false},
		// A length shorter than a header.
		{[]byte{0, 0, 0, 4, 0, 0, 0x70, 0x03, 0, 0, 0, 1}, true},
		// A length over the client limit: refused before reading the body.
		{[]byte{0, 0x10, 0, 0, 0, 0, 0x70, 0x03, 0, 0, 0, 1}, true},
	}
	for i, tc := range bad {
		b := tc.b
		conn, r, _ := dial(t, host)
		if _, err := conn.Write(b); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		reply, err := r.ReadPDU(ctx)
		if err == nil {
			m, derr := pdu.Decode(reply)
			if derr != nil {
				t.Fatalf("case %d: undecodable reply: %v", i, derr)
			}
			wantError(t, m, pcp.ErrIPC)
			if !tc.closes {
				// Still in step: a good request on the same connection.
				ids := roundTrip(t, r, pdu.NewWriter(conn), &pdu.PMNSNames{Names: []string{"kernel.all.load"}}).(*pdu.PMNSIDs)
				if ids.PMIDs[0] != pcp.NewPMID(60, 2, 0) {
					t.Errorf("case %d: lookup after it gave %v", i, ids.PMIDs)
				}
				cancel()
				continue
			}
			_, err = r.ReadPDU(ctx)
		}
		cancel()
		if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && !strings.Contains(err.Error(), "reset") {
			t.Errorf("case %d: connection not closed: %v", i, err)
		}
		// The good client is still served.
		ids := roundTrip(t, gr, gw, &pdu.PMNSNames{Names: []string{"kernel.all.load"}}).(*pdu.PMNSIDs)
		if ids.PMIDs[0] != pcp.NewPMID(60, 2, 0) {
			t.Fatalf("after case %d: lookup gave %v", i, ids.PMIDs)
		}
	}
}
