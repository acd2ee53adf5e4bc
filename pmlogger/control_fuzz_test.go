package pmlogger

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/gopcp/agents/sample"
	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmapi/local"
)

// fuzzConfig is the configuration every fuzzed logger starts from: tasks
// mandatory and advisory, singular metrics and ones with instances.
const fuzzConfig = `log mandatory on 1 sec { sample.long.one sample.colour }
log advisory on 2 sec { sample.bin sample.hordes.one }
log mandatory off { sample.float.one }
`

// fuzzControlSeeds are pmlc's conversations: status, queries, log
// requests of every kind, new volume and sync.
func fuzzControlSeeds() [][]byte {
	bin := pcp.PMID(29<<22 | 6)    // sample.bin
	colour := pcp.PMID(29<<22 | 5) // sample.colour
	long := pcp.PMID(29<<22 | 10)  // sample.long.one
	creds := (&pdu.Creds{Creds: []pdu.Cred{pdu.VersionCred{Version: 2}.Cred()}}).Append(nil, 0)
	status := (&pdu.LogRequest{Request: pdu.LogRequestStatus}).Append(nil, 0)
	set := func(pmid pcp.PMID, insts ...int32) pcp.ValueSet {
		vs := pcp.ValueSet{PMID: pmid, ValFmt: pcp.ValInSitu}
		for _, in := range insts {
			vs.Values = append(vs.Values, pcp.Value{Inst: in})
		}
		vs.NumVal = int32(len(insts))
		return vs
	}
	ctl := func(c, s, d int32, sets ...pcp.ValueSet) []byte {
		return (&pdu.LogControl{Control: c, State: s, Delta: d, Sets: sets}).Append(nil, 0)
	}
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	return [][]byte{
		join(creds, status),
		join(creds, ctl(pdu.LogEnquire, 0, 0, set(bin), set(colour, 0, 1, 2), set(long))),
		join(creds, ctl(pdu.LogMandatory, pdu.LogOn, 500, set(bin, 100, 200)), ctl(pdu.LogEnquire, 0, 0, set(bin))),
		join(creds, ctl(pdu.LogAdvisory, pdu.LogOff, 0, set(bin), set(long)), ctl(pdu.LogMandatory, pdu.LogMaybe, 0, set(colour))),
		join(creds, ctl(pdu.LogAdvisory, pdu.LogOn, 0, set(pcp.PMID(29<<22|999)), set(bin, -1))),
		join(creds, (&pdu.LogRequest{Request: pdu.LogRequestNewVolume}).Append(nil, 0),
			(&pdu.LogRequest{Request: pdu.LogRequestSync}).Append(nil, 0),
			(&pdu.LogRequest{Request: 77}).Append(nil, 0), ctl(99, 0, 0, set(bin))),
		join(status, (&pdu.Error{Code: -1}).Append(nil, 0), status),
		join(status, []byte{0, 0, 0, 3}),
	}
}

// FuzzControlRequests sends fuzzed bytes to a logger's control service as
// pmlc would after its acknowledgement, and checks the answers PDU by PDU:
// CREDS gets none; each LOG_REQUEST and LOG_CONTROL gets exactly one, of
// the kind pmlogger sends (LOG_STATUS for status, an ERROR PDU for the
// others, a RESULT naming the same metrics in order for a query or log
// request, PM_ERR_IPC for an unknown control); the first PDU that does
// not decode, or of another type, gets at most one PM_ERR_IPC and ends
// the conversation; the answers stay bounded by what was asked, and the
// logger keeps working.
func FuzzControlRequests(f *testing.F) {
	for _, s := range fuzzControlSeeds() {
		f.Add(s)
	}
	tree, err := sample.Namespace(29)
	if err != nil {
		f.Fatal(err)
	}
	agents := local.NewTable()
	for _, spec := range []string{"clear", "add,29,/nowhere/pmda_sample.so,sample_init"} {
		if err := agents.Spec(spec); err != nil {
			f.Fatal(err)
		}
	}
	src, err := local.NewContext(context.Background(), local.WithTable(agents),
		local.WithNamespace(tree), local.WithWarnings(io.Discard))
	if err != nil {
		f.Fatal(err)
	}
	cfg, err := ParseConfig(fuzzConfig, "fuzz", time.Second)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var log bytes.Buffer
		l, err := New(ctx, src, cfg, Options{Archive: filepath.Join(t.TempDir(), "a"), Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		defer l.w.Close()
		tasks := len(l.tasks)
		go func() { // Run's part: the requests, between no samples
			for {
				select {
				case fn := <-l.ctl:
					fn()
				case <-ctx.Done():
					return
				}
			}
		}()
		cli, srv := socketPair(t)
		defer cli.Close()
		served := make(chan struct{})
		go func() {
			defer close(served)
			defer srv.Close()
			l.serveClient(ctx, srv)
		}()
		r := pdu.NewReader(cli, pdu.DefaultTimeout)
		if _, err := r.ReadPDU(ctx); err != nil {
			t.Fatalf("no acknowledgement: %v", err)
		}
		go func() {
			cli.Write(input) // the logger may stop reading first
			cli.CloseWrite()
		}()
		var replies []pdu.Message
		for {
			b, err := r.ReadPDU(ctx)
			if err != nil {
				if ctx.Err() != nil {
					t.Fatalf("hung after %d answers", len(replies))
				}
				break
			}
			m, err := pdu.Decode(b)
			if err != nil {
				t.Fatalf("answer %d does not decode: %v", len(replies), err)
			}
			replies = append(replies, m)
		}
		<-served
		checkControlReplies(t, input, replies)
		if n := len(l.tasks); n > tasks+bytes.Count(input, []byte{0, 0, 0x80, 0}) {
			t.Fatalf("%d tasks after the requests, %d before", n, tasks)
		}
		var st pdu.LoggerStatus
		if err := l.do(ctx, func() { st = l.status() }); err != nil || st.PMCDHost == "" {
			t.Fatalf("the logger no longer answers: %v %+v", err, st)
		}
	})
}

// checkControlReplies walks the requests in input and matches each with
// its answers.
func checkControlReplies(t *testing.T, input []byte, replies []pdu.Message) {
	t.Helper()
	next := func() pdu.Message {
		if len(replies) == 0 {
			t.Fatalf("a request went unanswered")
		}
		m := replies[0]
		replies = replies[1:]
		return m
	}
	errCode := func(m pdu.Message) int32 {
		e, ok := m.(*pdu.Error)
		if !ok {
			t.Fatalf("answer %T, want an ERROR PDU", m)
		}
		return e.Code
	}
	for len(input) >= 12 {
		n := int(binary.BigEndian.Uint32(input))
		if n < 12 || n > len(input) {
			break
		}
		m, err := pdu.Decode(input[:n])
		input = input[n:]
		if err != nil {
			break
		}
		switch m := m.(type) {
		case *pdu.Creds:
			continue
		case *pdu.LogRequest:
			a := next()
			switch m.Request {
			case pdu.LogRequestStatus:
				_, v3 := a.(*pdu.LogStatus)
				_, v2 := a.(*pdu.LogStatusV2)
				if !v3 && !v2 {
					t.Fatalf("status answered by %T", a)
				}
			case pdu.LogRequestNewVolume:
				if c := errCode(a); c < 1 {
					t.Fatalf("new volume answered %d", c)
				}
			case pdu.LogRequestSync, pdu.LogRequestQAOff:
				if c := errCode(a); c != 0 {
					t.Fatalf("request %d answered %d", m.Request, c)
				}
			default:
				if c := errCode(a); c != int32(pcp.ErrIPC) {
					t.Fatalf("bad request %d answered %d", m.Request, c)
				}
			}
			continue
		case *pdu.LogControl:
			a := next()
			switch m.Control {
			case pdu.LogEnquire, pdu.LogMandatory, pdu.LogAdvisory:
				res, ok := a.(*pdu.Result)
				if !ok {
					t.Fatalf("control %d answered by %T", m.Control, a)
				}
				if len(res.Sets) != len(m.Sets) {
					t.Fatalf("%d sets answer %d", len(res.Sets), len(m.Sets))
				}
				for i, vs := range res.Sets {
					req := m.Sets[i]
					if vs.PMID != req.PMID {
						t.Fatalf("set %d is %s, asked %s", i, vs.PMID, req.PMID)
					}
					if req.NumVal > 0 && len(vs.Values) > len(req.Values) || len(vs.Values) > 4096 {
						t.Fatalf("set %d: %d values for %d asked", i, len(vs.Values), req.NumVal)
					}
				}
			default:
				if c := errCode(a); c != int32(pcp.ErrIPC) {
					t.Fatalf("bad control %d answered %d", m.Control, c)
				}
			}
			continue
		}
		break // another type: the conversation ends
	}
	if len(replies) > 1 {
		t.Fatalf("%d answers after the conversation should have ended: %T", len(replies), replies[0])
	}
	if len(replies) == 1 {
		if pe, ok := replies[0].(*pdu.Error); !ok || pe.Code != int32(pcp.ErrIPC) {
			t.Fatalf("last answer %#v, want PM_ERR_IPC", replies[0])
		}
	}
}

// socketPair is a connected pair of Unix stream sockets: the logger's end
// has peer credentials (this process's) and the client's can be half
// closed.
func socketPair(t *testing.T) (cli, srv *net.UnixConn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) *net.UnixConn {
		f := os.NewFile(uintptr(fd), "socketpair")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		return c.(*net.UnixConn)
	}
	return conn(fds[0]), conn(fds[1])
}
