package pmcd_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// malformedCases are bytes a client sends after the handshake (or, for
// "before creds", instead of it).
var malformedCases = []struct {
	name      string
	handshake bool
	bytes     []byte
}{
	{"short length", true, header(8, 0x7003)},
	{"length over the limit", true, header(1<<20, 0x7003)},
	{"unknown type", true, append(header(16, 0x7fff), 0, 0, 0, 0)},
	{"negative type", true, append(header(16, -5), 0, 0, 0, 0)},
	{"fetch with too many PMIDs", true, append(header(28, 0x7003), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0, 0, 0)},
	{"truncated fetch", true, header(40, 0x7003)[:12]},
	{"names with a bad length", true, append(header(24, 0x700e), 0, 0, 0, 1, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff)},
	{"fetch before creds", false, append(header(24, 0x7003), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)},
	{"garbage", true, []byte("GET / HTTP/1.0\r\n\r\n")},
	// Well-formed PDUs whose fields are wrong: none may reach an agent.
	{"fetch of context -1", true, (&pdu.Fetch{Context: -1, PMIDs: []pcp.PMID{sampleLongOne}}).Append(nil, 1)},
	{"highres fetch of context -1", true, (&pdu.HighResFetch{Context: -1, PMIDs: []pcp.PMID{sampleLongOne}}).Append(nil, 1)},
	{"fetch before any profile", true, (&pdu.Fetch{PMIDs: []pcp.PMID{sampleLongOne}}).Append(nil, 1)},
	{"highres fetch before any profile", true, (&pdu.HighResFetch{PMIDs: []pcp.PMID{sampleLongOne}}).Append(nil, 1)},
	{"fetch of a context without a profile", true, append(profileOf(0),
		(&pdu.Fetch{Context: 3, PMIDs: []pcp.PMID{sampleLongOne}}).Append(nil, 1)...)},
	{"profile of context -1", true, append(profileOf(-1),
		(&pdu.Fetch{Context: -1, PMIDs: []pcp.PMID{sampleLongOne}}).Append(nil, 1)...)},
	{"profile then a fetch of no PMIDs", true, append(profileOf(0), (&pdu.Fetch{}).Append(nil, 1)...)},
	{"profile then a fetch", true, append(profileOf(0), (&pdu.Fetch{PMIDs: []pcp.PMID{sampleLongOne}}).Append(nil, 1)...)},
}

// sampleLongOne is sample.long.one's PMID.
var sampleLongOne = pcp.NewPMID(29, 0, 10)

// profileOf is a PROFILE PDU for context ctx taking every instance.
func profileOf(ctx int32) []byte {
	return (&pdu.Profile{Context: ctx, State: pdu.ProfileInclude}).Append(nil, 1)
}

// header is a PDU header of length n and type t from pid 1.
func header(n int32, t int32) []byte {
	b := make([]byte, 12)
	binary.BigEndian.PutUint32(b[0:], uint32(n))
	binary.BigEndian.PutUint32(b[4:], uint32(t))
	binary.BigEndian.PutUint32(b[8:], 1)
	return b
}

// TestMalformedClientsLikePCP sends each malformed PDU to PCP's pmcd
// and to ours and compares what comes back (the PDUs, then whether the
// connection is closed); each daemon must then still serve PCP's pminfo.
func TestMalformedClientsLikePCP(t *testing.T) {
	t.Parallel()
	outs := compareAtEnd(t)
	for _, b := range bedStarters {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bed := b.start(t, testbed.Options{})
			for _, c := range malformedCases {
				outs.record(b.name, c.name, sendMalformed(t, bed.Host(), c.handshake, c.bytes))
				res := bed.Run("pminfo", "-h", bed.Host(), "-f", "sample.long.one")
				if res.Err != nil || !strings.Contains(res.Stdout, "value 1") {
					t.Errorf("after %s: %v\n%s", c.name, res.Err, res.Stdout)
				}
			}
		})
	}
}

// sendMalformed connects, greets (if asked), sends b and describes
// everything pmcd answers until it closes the connection or a second
// passes.
func sendMalformed(t *testing.T, host string, handshake bool, b []byte) string {
	conn, err := net.Dial("tcp", strings.Replace(host, "localhost", "127.0.0.1", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r := pdu.NewReader(conn, pdu.DefaultTimeout)
	if handshake {
		if _, err := pdu.ClientHandshake(ctx, conn, 0, pdu.DefaultTimeout); err != nil {
			t.Fatal(err)
		}
	} else if _, err := r.ReadPDU(ctx); err != nil { // the greeting
		t.Fatal(err)
	}
	if _, err := conn.Write(b); err != nil {
		return "write: " + err.Error()
	}
	var out []string
	r.Timeout = time.Second
	for {
		p, err := r.ReadPDU(context.Background())
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || (err != nil && strings.Contains(err.Error(), "reset")):
			return strings.Join(append(out, "closed"), "\n")
		case err != nil:
			return strings.Join(append(out, "still open"), "\n")
		}
		m, err := pdu.Decode(p)
		if e, ok := m.(*pdu.Error); ok && err == nil {
			out = append(out, fmt.Sprintf("ERROR %d", e.Code))
		} else {
			out = append(out, fmt.Sprintf("%T", m))
		}
	}
}
