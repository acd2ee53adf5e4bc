package pdu

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
	"github.com/gopcp/gopcp/pcp"
)

// TestGreetingCaptured checks every captured client connection: pmcd's
// greeting, then the client's CREDS asking for what libpcp would ask for
// given pmcd's features, byte for byte as our handshake builds them.
func TestGreetingCaptured(t *testing.T) {
	n := 0
	for _, f := range loadGolden(t) {
		if !f.toPMCD() {
			continue
		}
		if len(f.pdus) < 2 {
			t.Errorf("%s: %d PDUs", f.name, len(f.pdus))
			continue
		}
		n++
		g0, c0 := f.pdus[0], f.pdus[1]
		var e Error
		if err := e.Decode(g0.b); err != nil {
			t.Fatalf("%s: %v", g0.where(), err)
		}
		g, err := ParseGreeting(&e)
		if err != nil {
			t.Fatalf("%s: %v", g0.where(), err)
		}
		// pmcd.c's CheckNewClient: version 2, licensed, and always
		// DESCS, LABELS and HIGHRES.
		if g.Status != 0 || g.Info.Version != PDUVersion2 || g.Info.Licensed != 1 || g.Info.Features&pmcdBaseFlags != pmcdBaseFlags {
			t.Errorf("%s: greeting %+v (features %v)", g0.where(), g, g.Info.Features)
		}
		extra := g.Info.Features &^ pmcdBaseFlags
		if got := (Greeting{Info: PMCDInfo(extra)}).Message().Append(nil, g0.h.From); string(got) != string(g0.b) {
			t.Errorf("%s: greeting re-encoded as %x", g0.where(), got)
		}

		if !c0.connector || c0.h.Type != TypeCreds {
			t.Errorf("%s: the client's first PDU is %v", c0.where(), c0.h.Type)
			continue
		}
		var m Creds
		if err := m.Decode(c0.b); err != nil {
			t.Fatalf("%s: %v", c0.where(), err)
		}
		v, err := versionOf(&m, true)
		if err != nil {
			t.Fatalf("%s: %v", c0.where(), err)
		}
		want := v.Flags & (FlagSecure | FlagAuth | FlagContainer)
		flags, err := ClientFlags(want, g.Info.Features, true)
		if err != nil {
			t.Errorf("%s: asking for %v of %v: %v", c0.where(), want, g.Info.Features, err)
			continue
		}
		if got := VersionCreds(flags).Append(nil, c0.h.From); string(got) != string(c0.b) {
			t.Errorf("%s: client CREDS %x, ours would be %x", c0.where(), c0.b, got)
		}
	}
	if n == 0 {
		t.Error("no capture of a client connection")
	}
}

// TestAgentHandshakeCaptured checks the pmcd-agent captures: the agent
// speaks first with its CREDS, and pmcd answers with version 2 and of the
// agent's flags only AUTH, as AcceptAgent does.
func TestAgentHandshakeCaptured(t *testing.T) {
	n := 0
	for _, f := range loadGolden(t) {
		if !f.toAgent() || len(f.pdus) < 2 {
			continue
		}
		n++
		a, p := f.pdus[0], f.pdus[1]
		// pmcd connects to a socket agent, which speaks first.
		if a.h.Type != TypeCreds || p.h.Type != TypeCreds || a.connector || !p.connector {
			t.Errorf("%s: opens with %v (connector %v) then %v", f.name, a.h.Type, a.connector, p.h.Type)
			continue
		}
		var am Creds
		if err := am.Decode(a.b); err != nil {
			t.Fatalf("%s: %v", a.where(), err)
		}
		av, err := versionOf(&am, false)
		if err != nil || av.Version != PDUVersion2 {
			t.Errorf("%s: agent credential %+v, %v", a.where(), av, err)
		}
		if got := VersionCreds(av.Flags&FlagAuth).Append(nil, p.h.From); string(got) != string(p.b) {
			t.Errorf("%s: pmcd answered %x, AcceptAgent would send %x", p.where(), p.b, got)
		}
	}
	if n == 0 {
		t.Error("no capture of a pmcd-agent connection")
	}
}

func TestPDUInfoPacking(t *testing.T) {
	info := PMCDInfo(FlagAuth | FlagContainer)
	if got := UnpackPDUInfo(info.Pack()); got != info {
		t.Errorf("UnpackPDUInfo(Pack(%+v)) = %+v", info, got)
	}
	if info.Pack()>>31 != 0 {
		t.Error("the zero bit is set")
	}
	if got := UnpackPDUInfo(1<<31 | info.Pack()); got != info {
		t.Errorf("the zero bit leaks into %+v", got)
	}
}

func TestFlagsString(t *testing.T) {
	for f, want := range map[Flags]string{
		0:                             "0x0",
		FlagAuth | FlagDescs:          "AUTH|DESCS",
		pmcdBaseFlags:                 "LABELS|HIGHRES|DESCS",
		FlagSecure | 1<<15:            "SECURE|0x8000",
		FlagCredsReqd | FlagSecureAck: "CREDS_REQD|SECURE_ACK",
	} {
		if got := f.String(); got != want {
			t.Errorf("Flags(%#x).String() = %q, want %q", uint16(f), got, want)
		}
	}
}

func TestClientFlags(t *testing.T) {
	all := FlagSecure | FlagSecureAck | FlagAuth | FlagContainer | FlagCredsReqd | FlagCertReqd
	for _, tc := range []struct {
		want, offered Flags
		local         bool
		out           Flags
		err           error
	}{
		{0, pmcdBaseFlags, false, 0, nil},
		{FlagContainer, pmcdBaseFlags | FlagContainer, false, FlagContainer, nil},
		{0, FlagCredsReqd, true, FlagCredsReqd, nil},
		{0, FlagCertReqd, true, 0, nil},
		{0, FlagCertReqd, false, 0, pcp.ErrNeedClientCert},
		{FlagSecure, FlagCertReqd | FlagSecure | FlagSecureAck, false, FlagCertReqd | FlagSecure | FlagSecureAck, nil},
		{FlagSecure, FlagSecure, false, FlagSecure, nil},
		{FlagSecure | FlagAuth | FlagContainer, all, true, FlagSecure | FlagSecureAck | FlagAuth | FlagContainer | FlagCredsReqd, nil},
		{FlagSecure, pmcdBaseFlags, false, 0, eOpNotSupp},
		{FlagAuth, pmcdBaseFlags, false, 0, eOpNotSupp},
		{FlagContainer, pmcdBaseFlags, false, 0, eOpNotSupp},
		{FlagCompress, all&^FlagCertReqd | FlagCompress, false, 0, eOpNotSupp},
	} {
		out, err := ClientFlags(tc.want, tc.offered, tc.local)
		if out != tc.out || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("ClientFlags(%v, %v, %v) = %v, %v; want %v, %v", tc.want, tc.offered, tc.local, out, err, tc.out, tc.err)
		}
	}
}

// pipeEnds returns the two ends of an in-memory connection with a Reader
// and Writer on each.
func pipeEnds(t *testing.T) (cr *Reader, cw *Writer, sr *Reader, sw *Writer) {
	c, s := net.Pipe()
	t.Cleanup(func() { c.Close(); s.Close() })
	return NewReader(c, DefaultTimeout), NewWriter(c), NewReader(s, DefaultTimeout), NewWriter(s)
}

func TestClientHandshakePipe(t *testing.T) {
	ctx := context.Background()
	cr, cw, sr, sw := pipeEnds(t)
	type accepted struct {
		hello ClientHello
		err   error
	}
	done := make(chan accepted, 1)
	go func() {
		if err := GreetClient(ctx, sw, 0, PMCDInfo(FlagContainer|FlagAuth)); err != nil {
			done <- accepted{err: err}
			return
		}
		h, err := AcceptClient(ctx, sr)
		done <- accepted{h, err}
	}()
	hs, err := clientHandshake(ctx, cr, cw, FlagContainer, false, 1234)
	if err != nil {
		t.Fatal(err)
	}
	if hs.Sent != FlagContainer || hs.Greeting.Info != PMCDInfo(FlagContainer|FlagAuth) {
		t.Errorf("client side: %+v", hs)
	}
	a := <-done
	if a.err != nil || a.hello != (ClientHello{From: 1234, Version: PDUVersion2, Flags: FlagContainer}) {
		t.Errorf("server side: %+v, %v", a.hello, a.err)
	}
}

// TestClientHandshakeRefused: a refusing pmcd sends its code in PCP 1.x
// numbering, and the client reports it in today's.
func TestClientHandshakeRefused(t *testing.T) {
	ctx := context.Background()
	cr, cw, sr, sw := pipeEnds(t)
	go GreetClient(ctx, sw, int32(pcp.ErrPermission), PMCDInfo(0))
	raw := make(chan []byte, 1)
	go func() {
		b, _ := cr.ReadPDU(ctx)
		raw <- append([]byte(nil), b...)
	}()
	var e Error
	if err := e.Decode(<-raw); err != nil {
		t.Fatal(err)
	}
	if e.Code != -1042 || e.Datum != 0 || !e.Extended {
		t.Errorf("refusal on the wire: %+v", e)
	}
	go GreetClient(ctx, sw, int32(pcp.ErrConnLimit), PMCDInfo(0))
	if _, err := clientHandshake(ctx, cr, cw, 0, true, 1); !errors.Is(err, pcp.ErrConnLimit) {
		t.Errorf("refused client: %v, want pcp.ErrConnLimit", err)
	}
	_ = sr
}

func TestClientHandshakeBadGreeting(t *testing.T) {
	ctx := context.Background()
	for name, m := range map[string]Message{
		"short ERROR": &Error{},
		"version 3":   &Error{Datum: PDUInfo{Version: 3, Licensed: 1}.Pack(), Extended: true},
		"CREDS":       VersionCreds(0),
	} {
		cr, cw, _, sw := pipeEnds(t)
		go sw.WriteMessage(ctx, m, 0)
		if _, err := clientHandshake(ctx, cr, cw, 0, true, 1); !errors.Is(err, pcp.ErrIPC) {
			t.Errorf("%s: %v, want pcp.ErrIPC", name, err)
		}
	}
	cr, cw, _, sw := pipeEnds(t)
	sw.w.(net.Conn).Close()
	if _, err := clientHandshake(ctx, cr, cw, 0, true, 1); !errors.Is(err, pcp.ErrIPC) {
		t.Errorf("closed before greeting: %v, want pcp.ErrIPC", err)
	}
}

func TestAcceptClientBad(t *testing.T) {
	ctx := context.Background()
	for name, m := range map[string]Message{
		"FETCH first":     &Fetch{PMIDs: []pcp.PMID{1}},
		"unknown cred":    &Creds{Creds: []Cred{{Type: 9}}},
		"no version cred": &Creds{},
	} {
		_, cw, sr, _ := pipeEnds(t)
		go cw.WriteMessage(ctx, m, 0)
		if _, err := AcceptClient(ctx, sr); !errors.Is(err, pcp.ErrIPC) {
			t.Errorf("%s: %v, want pcp.ErrIPC", name, err)
		}
	}
}

func TestAgentHandshakePipe(t *testing.T) {
	ctx := context.Background()
	ar, aw, pr, pw := pipeEnds(t)
	type accepted struct {
		v   VersionCred
		err error
	}
	done := make(chan accepted, 1)
	go func() {
		v, err := AcceptAgent(ctx, pr, pw, 999)
		done <- accepted{v, err}
	}()
	v, err := agentHandshake(ctx, ar, aw, FlagAuth|FlagContainer, 4321)
	if err != nil || v != (VersionCred{Version: PDUVersion2, Flags: FlagAuth}) {
		t.Errorf("agent got %+v, %v", v, err)
	}
	a := <-done
	if a.err != nil || a.v != (VersionCred{Version: PDUVersion2, Flags: FlagAuth | FlagContainer}) {
		t.Errorf("pmcd got %+v, %v", a.v, a.err)
	}
}

// TestHandshakeWithPMCD connects to PCP's own pmcd, then fetches the
// sample agent's metrics both ways and checks the values pminfo reports.
func TestHandshakeWithPMCD(t *testing.T) {
	p := testbed.StartPMCD(t, testbed.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(p.Port()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hs, err := ClientHandshake(ctx, conn, 0, DefaultTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if hs.Greeting.Info.Version != PDUVersion2 || hs.Greeting.Info.Features&pmcdBaseFlags != pmcdBaseFlags {
		t.Errorf("pmcd greeted with %+v", hs.Greeting)
	}
	r, w := NewReader(conn, DefaultTimeout), NewWriter(conn)
	pid := int32(os.Getpid())
	if err := w.WriteMessage(ctx, &Profile{State: ProfileInclude}, pid); err != nil {
		t.Fatal(err)
	}
	pmids := []pcp.PMID{pmidSampleLongOne, pmidSampleLongLongOne, pmidSampleDoubleOne, pmidSampleFloatOne,
		pmidSampleStringHullo, pmidSampleULLMillion, pmidSampleEvents, pmidSampleHighResEvent, pcp.NewPMID(511, 0, 0)}
	for _, fetch := range []Message{&Fetch{PMIDs: pmids}, &HighResFetch{PMIDs: pmids}} {
		if err := w.WriteMessage(ctx, fetch, pid); err != nil {
			t.Fatal(err)
		}
		b, err := r.ReadPDU(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(b)
		if err != nil {
			t.Fatalf("answer to %v: %v", fetch.PDUType(), err)
		}
		var res *pcp.Result
		switch m := m.(type) {
		case *Result:
			res = &m.Result
		case *HighResResult:
			res = &m.Result
		default:
			t.Fatalf("answer to %v is %v", fetch.PDUType(), m.PDUType())
		}
		if m.PDUType() != map[Type]Type{TypeFetch: TypeResult, TypeHighResFetch: TypeHighResResult}[fetch.PDUType()] {
			t.Errorf("answer to %v is %v", fetch.PDUType(), m.PDUType())
		}
		if len(res.Sets) != len(pmids) {
			t.Fatalf("%d value sets for %d PMIDs", len(res.Sets), len(pmids))
		}
		where := fetch.PDUType().String()
		want := map[pcp.PMID]func(*pcp.ValueSet) bool{
			pmidSampleLongOne:     func(s *pcp.ValueSet) bool { return extract(t, where, s, pcp.Type32).L == 1 },
			pmidSampleLongLongOne: func(s *pcp.ValueSet) bool { return extract(t, where, s, pcp.Type64).LL == 1 },
			pmidSampleDoubleOne:   func(s *pcp.ValueSet) bool { return extract(t, where, s, pcp.TypeDouble).D == 1 },
			pmidSampleFloatOne:    func(s *pcp.ValueSet) bool { return extract(t, where, s, pcp.TypeFloat).F == 1 },
			pmidSampleStringHullo: func(s *pcp.ValueSet) bool { return extract(t, where, s, pcp.TypeString).CP == "hullo world!" },
			pmidSampleULLMillion:  func(s *pcp.ValueSet) bool { return extract(t, where, s, pcp.TypeU64).ULL == 1000000 },
		}
		for i := range res.Sets {
			s := &res.Sets[i]
			if s.PMID != pmids[i] {
				t.Errorf("%s: set %d is %v, want %v", where, i, s.PMID, pmids[i])
			}
			if check, ok := want[s.PMID]; ok && !check(s) {
				t.Errorf("%s: wrong value for %v: %+v", where, s.PMID, s.Values)
			}
			if s.PMID == pmidSampleEvents || s.PMID == pmidSampleHighResEvent {
				for _, v := range s.Values {
					if _, _, ok := walkEvents(v.Block.Data, s.PMID == pmidSampleHighResEvent); !ok {
						t.Errorf("%s: %v: events do not parse: %x", where, s.PMID, v.Block.Data)
					}
				}
			}
		}
		if last := res.Sets[len(res.Sets)-1]; last.NumVal >= 0 {
			t.Errorf("%s: a PMID of no agent gave %d values", where, last.NumVal)
		}
	}
}

// TestAcceptClientFromPCP greets a real PCP client and reads its CREDS.
func TestAcceptClientFromPCP(t *testing.T) {
	pmprobe := pcptest.NeedTool(t, "pmprobe")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pmprobe, "-h", ln.Addr().String(), "sample.long.one")
	cmd.Env = append(os.Environ(), "PMCD_CONNECT_TIMEOUT=30", "PMCD_REQUEST_TIMEOUT=30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r, w := NewReader(conn, DefaultTimeout), NewWriter(conn)
	r.MaxLen = ClientMaxLen
	if err := GreetClient(ctx, w, 0, PMCDInfo(0)); err != nil {
		t.Fatal(err)
	}
	hello, err := AcceptClient(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if hello != (ClientHello{From: int32(cmd.Process.Pid), Version: PDUVersion2}) {
		t.Errorf("pmprobe (pid %d) said %+v", cmd.Process.Pid, hello)
	}
}

// TestAcceptAgentFromPCP plays pmcd to PCP's sample agent over a pipe:
// the version exchange, then a fetch of sample.long.one.
func TestAcceptAgentFromPCP(t *testing.T) {
	in := testbed.Need(t)
	agent := filepath.Join(in.Var("PCP_PMDAS_DIR"), "sample", "pmdasample")
	if _, err := os.Stat(agent); err != nil {
		pcptest.Missing(t, "the sample agent: "+err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, agent, "-p", "-d", "29", "-l", filepath.Join(t.TempDir(), "sample.log"))
	toAgent, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	fromAgent, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer toAgent.Close()
	r, w := NewReader(fromAgent, DefaultTimeout), NewWriter(toAgent)
	v, err := AcceptAgent(ctx, r, w, int32(os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	if v.Version != PDUVersion2 {
		t.Errorf("agent credential %+v", v)
	}
	if err := w.WriteMessage(ctx, &Profile{State: ProfileInclude}, 0); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteMessage(ctx, &Fetch{PMIDs: []pcp.PMID{pmidSampleLongOne}}, 0); err != nil {
		t.Fatal(err)
	}
	b, err := r.ReadPDU(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := res.Decode(b); err != nil {
		t.Fatal(err)
	}
	if len(res.Sets) != 1 || extract(t, "agent", &res.Sets[0], pcp.Type32).L != 1 {
		t.Errorf("agent answered %+v", res.Sets)
	}
	toAgent.Close()
	if _, err := r.ReadPDU(ctx); err != io.EOF {
		t.Errorf("after closing the agent's input: %v, want io.EOF", err)
	}
}

// TestAcceptAgentLenient: pmcd ignores an agent's credentials of unknown
// type, where it refuses a client's.
func TestAcceptAgentLenient(t *testing.T) {
	ctx := context.Background()
	_, aw, pr, pw := pipeEnds(t)
	go func() {
		m := &Creds{Creds: []Cred{{Type: 9}, VersionCred{Version: PDUVersion2, Flags: FlagAuth}.Cred()}}
		aw.WriteMessage(ctx, m, 1)
	}()
	go func() { // drain pmcd's answer
		r := NewReader(aw.w.(net.Conn), DefaultTimeout)
		r.ReadPDU(ctx)
	}()
	v, err := AcceptAgent(ctx, pr, pw, 2)
	if err != nil || v != (VersionCred{Version: PDUVersion2, Flags: FlagAuth}) {
		t.Errorf("AcceptAgent = %+v, %v", v, err)
	}
}
