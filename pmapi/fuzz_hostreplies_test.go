package pmapi

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/clitest"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// replyTypes are the PDU types a fuzzed reply may carry: every answer
// pmcd gives a client, and two it never gives.
var replyTypes = []pdu.Type{
	pdu.TypeError, pdu.TypeResult, pdu.TypeHighResResult, pdu.TypeDesc, pdu.TypeDescs, pdu.TypeInstance,
	pdu.TypeText, pdu.TypePMNSIDs, pdu.TypePMNSNames, pdu.TypeLabel, pdu.TypeCreds, pdu.TypeFetch,
}

// replyScript is a fuzzed pmcd's answers, one per request in turn, each
// written as [type selector][length, 2 bytes][body]; the header is made
// here (length and type right) so the fuzzer works on bodies. A selector
// of 0xff sends the body as it is, header and all.
type replyScript struct {
	mu   sync.Mutex
	rest []byte
}

// pduTracker follows a stream of PDUs by their headers, to tell whether
// it ends inside one.
type pduTracker struct {
	header []byte // the header read so far
	owed   int    // bytes of the current PDU after its header
	whole  int    // PDUs ended since the count was last cleared
}

func (p *pduTracker) feed(b []byte) {
	for len(b) > 0 {
		if p.owed > 0 {
			n := min(p.owed, len(b))
			p.owed, b = p.owed-n, b[n:]
			if p.owed == 0 {
				p.whole++
			}
			continue
		}
		n := min(pdu.HeaderSize-len(p.header), len(b))
		p.header, b = append(p.header, b[:n]...), b[n:]
		if len(p.header) == pdu.HeaderSize {
			// a length below a header's is refused by the client
			// once the header is in, and it reads no further
			p.owed = max(int(int32(binary.BigEndian.Uint32(p.header)))-pdu.HeaderSize, 0)
			if p.owed == 0 {
				p.whole++
			}
			p.header = p.header[:0]
		}
	}
}

func (p *pduTracker) midPDU() bool { return len(p.header) > 0 || p.owed > 0 }

func (s *replyScript) next() ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.rest) < 3 {
		return nil, false
	}
	sel, n := s.rest[0], int(binary.BigEndian.Uint16(s.rest[1:]))
	body := s.rest[3:min(3+n, len(s.rest))]
	s.rest = s.rest[3+len(body):]
	if sel == 0xff {
		return body, true
	}
	out := pdu.AppendHeader(nil, pdu.Header{Len: int32(pdu.HeaderSize + len(body)), Type: replyTypes[int(sel)%len(replyTypes)]})
	return append(out, body...), true
}

// scriptRecord appends one reply of an encoded message to a script.
func scriptRecord(script []byte, m pdu.Message) []byte {
	b := m.Append(nil, 0)[pdu.HeaderSize:]
	sel := 0
	for i, t := range replyTypes {
		if t == m.PDUType() {
			sel = i
		}
	}
	script = append(script, byte(sel), byte(len(b)>>8), byte(len(b)))
	return append(script, b...)
}

// FuzzHostReplies puts a host context in front of a pmcd whose answers
// are fuzzed: after a proper greeting, each request gets the next
// scripted reply, and the connection ends when the script does. The
// client asks what tools ask (a name, a descriptor, an instance domain,
// a fetch, help text, labels, children). Whatever pmcd sends, no call may
// panic or hang, every failure carries a PCP error code (PM_ERR_IPC for
// what does not decode), and Close returns.
func FuzzHostReplies(f *testing.F) {
	pmid := pcp.PMID(29<<22 | 0<<10 | 1)
	indom := pcp.InDom(29<<22 | 2)
	var good []byte
	good = scriptRecord(good, &pdu.PMNSIDs{Status: 1, PMIDs: []pcp.PMID{pmid}})
	good = scriptRecord(good, &pdu.Desc{Desc: pcp.Desc{PMID: pmid, Type: pcp.TypeU32, InDom: indom, Sem: pcp.SemInstant}})
	good = scriptRecord(good, &pdu.Instance{InDom: indom, Entries: []pdu.InstEntry{{Inst: 1, Name: "one"}, {Inst: 2, Name: "two"}}})
	res := &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmid, NumVal: 1, ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: 1, LVal: 7}}}}}
	// pmcd's greeting offers high resolution fetches: a HIGHRES_RESULT
	good = append(good, 2)
	r := pdu.AppendHighResResult(nil, 0, res)[pdu.HeaderSize:]
	good = append(append(good, byte(len(r)>>8), byte(len(r))), r...)
	good = scriptRecord(good, &pdu.Text{Ident: uint32(pmid), Text: "a metric"})
	good = scriptRecord(good, &pdu.Label{Ident: uint32(pmid), Type: int32(pcp.LabelItem), Sets: []pcp.LabelSet{{Inst: pcp.InstNull, JSON: `{"a":1}`}}})
	good = scriptRecord(good, &pdu.PMNSNames{Names: []string{"one", "two"}})
	f.Add(good)
	f.Add(scriptRecord(nil, &pdu.Error{Code: int32(pcp.ErrPMID)}))
	f.Add([]byte{0xff, 0, 12, 0, 0, 0, 12, 0, 0, 0x70, 0x0d, 0, 0, 0, 0})
	f.Add([]byte{7, 0, 4, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, script []byte) {
		s := &replyScript{rest: script}
		sock := unixServer(t, func(conn net.Conn) {
			ctx := context.Background()
			w := pdu.NewWriter(conn)
			if pdu.GreetClient(ctx, w, 0, pdu.PMCDInfo(0)) != nil {
				return
			}
			rd := pdu.NewReader(conn, 0)
			if _, err := pdu.AcceptClient(ctx, rd); err != nil {
				return
			}
			sent := pduTracker{whole: 1}
			for {
				// A new request is awaited only once the answer to the
				// last one holds a whole PDU and ends with one: while
				// the client still waits for one, the next scripted
				// bytes follow at once, and the script's end ends the
				// connection. So no script makes a pmcd that goes quiet
				// before its answer is whole, which only the request
				// timeout would end, 10 s later.
				if !sent.midPDU() && sent.whole > 0 {
					if _, err := rd.ReadPDU(ctx); err != nil {
						return
					}
					sent.whole = 0
				}
				reply, ok := s.next()
				if !ok {
					return
				}
				if _, err := conn.Write(reply); err != nil {
					return
				}
				sent.feed(reply)
			}
		})
		// A fuzzed reply never hangs a call: the connection ends with
		// the script. The timeout only stops a fault from hanging the
		// fuzzer; no property depends on it.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := NewHostContext(ctx, "unix:"+sock, WithReconnectBackoff([]time.Duration{time.Hour}))
		if err != nil {
			t.Fatalf("connecting to the fake pmcd: %v", err)
		}
		check := func(call string, err error) {
			if err == nil {
				return
			}
			var pe pcp.Error
			if !errors.As(err, &pe) {
				t.Fatalf("%s: error %T %v carries no PCP code", call, err, err)
			}
		}
		_, err = c.LookupName(ctx, "sample.long.one")
		check("LookupName", err)
		_, err = c.LookupDesc(ctx, pmid)
		check("LookupDesc", err)
		_, err = c.GetInDom(ctx, indom)
		check("GetInDom", err)
		var res pcp.Result
		_, err = c.Fetch(ctx, []pcp.PMID{pmid}, &res)
		check("Fetch", err)
		_, err = c.LookupText(ctx, pmid, TextOneLine)
		check("LookupText", err)
		_, err = c.ItemLabels(ctx, pmid)
		check("ItemLabels", err)
		_, err = c.Children(ctx, "sample")
		check("Children", err)
		if ctx.Err() != nil {
			t.Fatalf("calls took the whole minute: %v", ctx.Err())
		}
		if err := c.Close(); err != nil {
			check("Close", err)
		}
	})
}

// unixServer is loopbackServer on a Unix socket of the test's own: tens
// of thousands of fuzzed connections over TCP leave the loopback's
// ephemeral ports in TIME_WAIT until a listen fails. The socket's
// directory is a short one of its own: t.TempDir's path, named after the
// fuzz target and input, takes about 62 bytes of sun_path's 108 under
// /tmp, so a $TMPDIR of 46 bytes or more made every bind fail.
func unixServer(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "h")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "pmcd.socket")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	clitest.ServeEach(t, ln, serve)
	return path
}
