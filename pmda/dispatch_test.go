package pmda

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
)

// fakePMCD is pmcd's end of a connection to an agent served by Serve.
type fakePMCD struct {
	t    *testing.T
	conn net.Conn
	r    *pdu.Reader
	w    *pdu.Writer
	done chan error
}

// startAgent serves a over net.Pipe and does pmcd's side of the handshake.
func startAgent(t *testing.T, a *Agent) *fakePMCD {
	t.Helper()
	ours, theirs := net.Pipe()
	p := &fakePMCD{t: t, conn: ours, r: pdu.NewReader(ours, pdu.DefaultTimeout), w: pdu.NewWriter(ours), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		p.done <- a.Serve(ctx, theirs, theirs)
		theirs.Close()
	}()
	t.Cleanup(func() {
		cancel()
		ours.Close()
		<-p.done
	})
	v, err := pdu.AcceptAgent(ctx, p.r, p.w, 4321)
	if err != nil {
		t.Fatalf("handshake: %v", err)
	}
	if v.Version != pdu.PDUVersion2 {
		t.Fatalf("agent's version %d", v.Version)
	}
	return p
}

func (p *fakePMCD) send(m pdu.Message, from int32) {
	p.t.Helper()
	if err := p.w.WriteMessage(context.Background(), m, from); err != nil {
		p.t.Fatalf("send %v: %v", m.PDUType(), err)
	}
}

// call sends m and decodes the agent's reply.
func (p *fakePMCD) call(m pdu.Message, from int32) pdu.Message {
	p.t.Helper()
	p.send(m, from)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := p.r.ReadPDU(ctx)
	if err != nil {
		p.t.Fatalf("reply to %v: %v", m.PDUType(), err)
	}
	h, _ := pdu.ParseHeader(b)
	if h.From != 0 {
		p.t.Errorf("reply to %v from %d, want 0 (FROM_ANON)", m.PDUType(), h.From)
	}
	reply, err := pdu.Decode(b)
	if err != nil {
		p.t.Fatalf("reply to %v: %v", m.PDUType(), err)
	}
	return reply
}

// wait returns what Serve returned.
func (p *fakePMCD) wait() error {
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup
		return err
	case <-time.After(10 * time.Second):
		p.t.Fatal("Serve did not return")
		return nil
	}
}

func errorCode(m pdu.Message) (int32, bool) {
	e, ok := m.(*pdu.Error)
	if !ok {
		return 0, false
	}
	return e.Code, true
}

func TestDispatchRequests(t *testing.T) {
	p := startAgent(t, newTestAgent(t, &testFetcher{}))
	store := &pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{PMID: pmid(itemU32), NumVal: 1, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 7}}}}}}
	cases := []struct {
		name  string
		req   pdu.Message
		check func(pdu.Message) bool
	}{
		{"desc", &pdu.DescReq{PMID: pmid(itemInst)}, func(m pdu.Message) bool {
			d, ok := m.(*pdu.Desc)
			return ok && d.Desc.PMID == pmid(itemInst) && d.Desc.InDom == testInDom
		}},
		{"desc unknown", &pdu.DescReq{PMID: pmid(77)}, isError(pcp.ErrPMID)},
		{"fetch", &pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemU32), pmid(77), pmid(itemInst)}}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.Result)
			return ok && len(r.Sets) == 3 && r.Sets[0].NumVal == 1 && r.Sets[0].Values[0].LVal == int32(-559038737) &&
				r.Sets[1].NumVal == int32(pcp.ErrPMID) && r.Sets[2].NumVal == 3
		}},
		{"instances", &pdu.InstanceReq{InDom: testInDom, Inst: pcp.InstNull}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.Instance)
			return ok && len(r.Entries) == 3 && r.Entries[1].Name == "one two"
		}},
		{"instance unknown", &pdu.InstanceReq{InDom: testInDom, Inst: 42}, isError(pcp.ErrInst)},
		{"indom unknown", &pdu.InstanceReq{InDom: pcp.NewInDom(testDomain, 3), Inst: pcp.InstNull}, isError(pcp.ErrInDom)},
		{"text", &pdu.TextReq{Ident: uint32(pmid(itemU32)), Type: pdu.TextPMID | pdu.TextHelp}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.Text)
			return ok && r.Text == "full\nhelp" && r.Ident == uint32(pmid(itemU32))
		}},
		{"no text", &pdu.TextReq{Ident: uint32(pmid(itemString)), Type: pdu.TextPMID | pdu.TextOneLine}, isError(pcp.ErrText)},
		{"domain labels", &pdu.LabelReq{Ident: testDomain, Type: int32(pcp.LabelDomain)}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.Label)
			return ok && len(r.Sets) == 1 && r.Sets[0].JSON == `{"agent":"test"}` && r.Type == int32(pcp.LabelDomain)
		}},
		{"no item labels", &pdu.LabelReq{Ident: uint32(pmid(itemInst)), Type: int32(pcp.LabelItem)}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.Label)
			return ok && len(r.Sets) == 0
		}},
		{"instance labels", &pdu.LabelReq{Ident: uint32(testInDom), Type: int32(pcp.LabelInstances)}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.Label)
			return ok && len(r.Sets) == 3 && r.Sets[1].JSON == `{"odd":true}`
		}},
		{"store refused", store, isError(pcp.ErrPermission)},
		{"name", &pdu.PMNSNames{Names: []string{"test.string"}}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.PMNSIDs)
			return ok && r.Status == 0 && len(r.PMIDs) == 1 && r.PMIDs[0] == pmid(itemString)
		}},
		{"unknown name", &pdu.PMNSNames{Names: []string{"test.nosuch"}}, isError(pcp.ErrName)},
		{"two names", &pdu.PMNSNames{Names: []string{"test.u32", "test.inst"}}, isError(pcp.ErrIPC)},
		{"pmid to name", &pdu.PMNSIDs{PMIDs: []pcp.PMID{pmid(itemFloat)}}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.PMNSNames)
			return ok && len(r.Names) == 1 && r.Names[0] == "test.float"
		}},
		{"children", &pdu.PMNSChild{Subtype: pdu.PMNSChildStatus, Name: "test"}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.PMNSNames)
			return ok && len(r.Names) > 0 && len(r.Status) == len(r.Names)
		}},
		{"children without status", &pdu.PMNSChild{Subtype: pdu.PMNSChildNames, Name: "test"}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.PMNSNames)
			return ok && len(r.Names) > 0 && len(r.Status) == 0
		}},
		{"traverse", &pdu.PMNSTraverse{Name: "test.bad"}, func(m pdu.Message) bool {
			r, ok := m.(*pdu.PMNSNames)
			return ok && len(r.Names) == 4
		}},
	}
	for _, c := range cases {
		if reply := p.call(c.req, 0); !c.check(reply) {
			t.Errorf("%s: reply %T %+v", c.name, reply, reply)
		}
	}
}

func isError(want pcp.Error) func(pdu.Message) bool {
	return func(m pdu.Message) bool {
		code, ok := errorCode(m)
		return ok && code == int32(want)
	}
}

// TestDispatchNotifications checks that PROFILE, ATTR and ERROR get no
// answer, and that the end of a client context and attributes reach the
// agent's hooks with the client's number.
func TestDispatchNotifications(t *testing.T) {
	f := &testFetcher{}
	p := startAgent(t, newTestAgent(t, f))
	p.send(&pdu.Profile{State: pdu.ProfileInclude, InDoms: []pdu.InDomProfile{{InDom: testInDom, State: pdu.ProfileExclude, Insts: []int32{1}}}}, 0)
	p.send(&pdu.Attr{Key: pdu.AttrContainer, Value: []byte("box\x00")}, 5)
	p.send(&pdu.Error{Code: int32(pcp.ErrNotConn)}, 5)
	p.send(&pdu.Error{Code: int32(pcp.ErrGeneric)}, 6)
	// The next reply must be the fetch's: nothing answered the above.
	reply := p.call(&pdu.Fetch{PMIDs: []pcp.PMID{pmid(itemInst)}}, 0)
	r, ok := reply.(*pdu.Result)
	if !ok || r.Sets[0].NumVal != 1 || r.Sets[0].Values[0].Inst != 1 {
		t.Fatalf("fetch after profile: %T %+v", reply, reply)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.ended) != 1 || f.ended[0] != 5 {
		t.Errorf("ended contexts %v, want [5]", f.ended)
	}
	if len(f.attrs) != 1 || f.attrs[0] != "box\x00" {
		t.Errorf("attributes %q", f.attrs)
	}
}

func TestDispatchStoreAccepted(t *testing.T) {
	f := &testFetcher{}
	p := startAgent(t, newTestAgent(t, storer{f}))
	store := &pdu.Result{Result: pcp.Result{Sets: []pcp.ValueSet{{PMID: pmid(itemU32), NumVal: 1, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 7}}}}}}
	if code, ok := errorCode(p.call(store, 9)); !ok || code != 0 {
		t.Errorf("store: code %d (error PDU %v), want 0", code, ok)
	}
}

func TestServeEndsAtEOF(t *testing.T) {
	p := startAgent(t, newTestAgent(t, &testFetcher{}))
	p.conn.Close()
	if err := p.wait(); err != nil {
		t.Errorf("Serve after pmcd closed: %v, want nil", err)
	}
}

// TestServeSurvivesMalformedPDU sends PDUs that frame but do not decode:
// as libpcp_pmda does, a request gets an ERROR PDU with PM_ERR_IPC, a
// notification (ERROR, PROFILE, ATTR) nothing, and the agent goes on to
// answer the next request. Only bytes that cannot be framed end it,
// since the stream is then out of step.
func TestServeSurvivesMalformedPDU(t *testing.T) {
	cases := []struct {
		name  string
		pdu   []byte
		reply bool // an ERROR PDU comes back
	}{
		{"short DESC_REQ", []byte{0, 0, 0, 12, 0, 0, 0x70, 0x04, 0, 0, 0, 0}, true},
		{"empty FETCH", (&pdu.Fetch{}).Append(nil, 0), true},
		{"FETCH cut short", []byte{0, 0, 0, 20, 0, 0, 0x70, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5}, true},
		{"RESULT with a bad value format", []byte{0, 0, 0, 36, 0, 0, 0x70, 0x01, 0, 0, 0, 0,
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 9}, true},
		{"bad PROFILE", []byte{0, 0, 0, 16, 0, 0, 0x70, 0x02, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, false},
		{"truncated ERROR", []byte{0, 0, 0, 14, 0, 0, 0x70, 0x00, 0, 0, 0, 0, 1, 2}, false},
		{"truncated ATTR", []byte{0, 0, 0, 14, 0, 0, 0x70, 0x11, 0, 0, 0, 0, 1, 2}, false},
		{"unknown type", []byte{0, 0, 0, 12, 0, 0, 0x7f, 0x7f, 0, 0, 0, 0}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := startAgent(t, newTestAgent(t, &testFetcher{}))
			if _, err := p.conn.Write(c.pdu); err != nil {
				t.Fatal(err)
			}
			if c.reply {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				b, err := p.r.ReadPDU(ctx)
				if err != nil {
					t.Fatalf("no reply: %v", err)
				}
				m, err := pdu.Decode(b)
				if e, ok := m.(*pdu.Error); err != nil || !ok || pcp.Error(e.Code) != pcp.ErrIPC {
					t.Fatalf("reply %T %+v (%v), want ERROR PM_ERR_IPC", m, m, err)
				}
			}
			d, ok := p.call(&pdu.DescReq{PMID: pmid(itemU32)}, 0).(*pdu.Desc)
			if !ok || d.Desc.PMID != pmid(itemU32) {
				t.Errorf("after it, a DESC_REQ gave %+v", d)
			}
		})
	}
	t.Run("header length under 12", func(t *testing.T) {
		p := startAgent(t, newTestAgent(t, &testFetcher{}))
		go p.conn.Write([]byte{0, 0, 0, 4, 0, 0, 0x70, 0x04, 0, 0, 0, 0}) // the agent may stop reading mid-way
		if err := p.wait(); !errors.Is(err, pcp.ErrIPC) {
			t.Errorf("Serve: %v, want PM_ERR_IPC", err)
		}
	})
}

func TestServeListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := newTestAgent(t, &testFetcher{})
	done := make(chan error, 1)
	go func() { done <- a.ServeListener(context.Background(), ln) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	r, w := pdu.NewReader(conn, pdu.DefaultTimeout), pdu.NewWriter(conn)
	if _, err := pdu.AcceptAgent(context.Background(), r, w, 1); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteMessage(context.Background(), &pdu.DescReq{PMID: pmid(itemU32)}, 0); err != nil {
		t.Fatal(err)
	}
	b, err := r.ReadPDU(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if m, err := pdu.Decode(b); err != nil || m.PDUType() != pdu.TypeDesc {
		t.Errorf("reply %v, %v", m, err)
	}
	conn.Close()
	if err := <-done; err != nil {
		t.Errorf("ServeListener: %v", err)
	}
}

func TestServeListenerCanceled(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := newTestAgent(t, &testFetcher{}).ServeListener(ctx, ln); !errors.Is(err, context.Canceled) {
		t.Errorf("ServeListener canceled: %v", err)
	}
}

// TestStoreWithPCPsTimestamp stores with the RESULT PCP's pmcd passed on
// from PCP's pmstore on a fresh machine, whose timestamp has -99185
// microseconds: libpcp_pmda takes it, and so must this agent, which
// died on it.
func TestStoreWithPCPsTimestamp(t *testing.T) {
	f := &testFetcher{}
	p := startAgent(t, newTestAgent(t, storer{f}))
	b := pdu.AppendResult(nil, 0, &pcp.Result{Sets: []pcp.ValueSet{{PMID: pmid(itemU32), NumVal: 1,
		ValFmt: pcp.ValInSitu, Values: []pcp.Value{{Inst: pcp.InstNull, LVal: 42}}}}})
	binary.BigEndian.PutUint32(b[12:], 1764000000)
	binary.BigEndian.PutUint32(b[16:], uint32(0xffffffff-99185+1)) // -99185
	if _, err := p.conn.Write(b); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	reply, err := p.r.ReadPDU(ctx)
	if err != nil {
		t.Fatalf("no answer to the store: %v", err)
	}
	m, err := pdu.Decode(reply)
	if e, ok := m.(*pdu.Error); err != nil || !ok || e.Code != 0 {
		t.Fatalf("store answered %+v (%v), want ERROR 0", m, err)
	}
	f.mu.Lock()
	stored := f.stored
	f.mu.Unlock()
	if len(stored) != 1 {
		t.Errorf("stored %v", stored)
	}
}
