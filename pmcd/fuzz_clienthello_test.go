package pmcd

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/trivial"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmns"
)

// FuzzClientHello is FuzzClientRequests from a connection's first byte
// after pmcd's greeting: the CREDS (with any flags: TLS, authentication,
// a container) and whatever follows are the input. Every PDU pmcd sends
// must decode, pmcd must close the connection once the client's side
// ends, and then still serve another client.
func FuzzClientHello(f *testing.F) {
	fetch := (&pdu.Fetch{PMIDs: []pcp.PMID{trivial.PMID}}).Append(nil, 1)
	profile := (&pdu.Profile{State: pdu.ProfileInclude}).Append(nil, 1)
	for _, flags := range []pdu.Flags{0, pdu.FlagAuth, pdu.FlagContainer, pdu.FlagSecure, pdu.FlagCredsReqd, 0xff} {
		creds := pdu.VersionCreds(flags).Append(nil, 1)
		f.Add(creds)
		f.Add(append(append(creds, profile...), fetch...))
	}
	f.Add((&pdu.Creds{Creds: []pdu.Cred{{Type: 9}}}).Append(nil, 1))
	f.Add(fetch)
	f.Add([]byte("GET / HTTP/1.0\r\n\r\n"))
	tree, err := pmns.Parse(strings.NewReader("root {\n\ttrivial\n}\ntrivial {\n\ttime\t250:0:0\n}\n"), pmns.Options{})
	if err != nil {
		f.Fatal(err)
	}
	c, err := ParseConf(strings.NewReader("trivial\t250\tdso\ttrivial_init\t/nonexistent/pmda_trivial.so\n"), "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	host := serveOn(f, &Server{PMNS: tree, Conf: c})
	addr := strings.Replace(host, "localhost", "127.0.0.1", 1)
	_, hr, hw := dial(f, host)
	f.Fuzz(func(t *testing.T, data []byte) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r := pdu.NewReader(conn, pdu.DefaultTimeout)
		readMessage(t, ctx, r) // the greeting
		conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
		conn.Write(data) // pmcd may close before taking it all
		conn.(*net.TCPConn).CloseWrite()
		r.Timeout = 0
		for {
			b, err := r.ReadPDU(ctx)
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
				break
			}
			if err != nil {
				t.Fatalf("pmcd did not close the connection: %v", err)
			}
			if _, err := pdu.Decode(b); err != nil {
				t.Fatalf("pmcd sent %x: %v", b, err)
			}
		}
		res, ok := roundTrip(t, hr, hw, &pdu.Fetch{PMIDs: []pcp.PMID{trivial.PMID}}).(*pdu.Result)
		if !ok || len(res.Sets) != 1 || res.Sets[0].NumVal != 1 {
			t.Fatalf("after the input, a fetch gave %+v", res)
		}
	})
}
