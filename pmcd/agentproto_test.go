package pmcd

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/gopcp/pcp"
	"github.com/gopcp/gopcp/pdu"
	"github.com/gopcp/gopcp/pmda"
	"github.com/gopcp/gopcp/pmns"
)

// recorder is a socket agent run by the test: it answers with a pmda
// Agent and notes each PDU pmcd sends as "TYPE from=N" (with the context
// of PROFILE and FETCH).
type recorder struct {
	mu  sync.Mutex
	log []string
}

func (rec *recorder) take() string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	s := strings.Join(rec.log, "; ")
	rec.log = nil
	return s
}

func (rec *recorder) serve(t *testing.T, ln net.Listener) {
	conn, err := ln.Accept()
	ln.Close()
	if err != nil {
		return
	}
	defer conn.Close()
	a, err := pmda.New(pmda.Config{
		Name: "pmdarec", Domain: 253,
		Metrics: []pmda.Metric{
			{Desc: pcp.Desc{PMID: pcp.NewPMID(253, 0, 0), Type: pcp.Type32, InDom: pcp.InDomNull, Sem: pcp.SemInstant}},
			{Desc: pcp.Desc{PMID: pcp.NewPMID(253, 0, 1), Type: pcp.TypeU32, InDom: pcp.InDomNull, Sem: pcp.SemCounter}},
		},
		Fetcher: pmda.FetchFunc(func(context.Context, *pmda.Metric, int32) (pcp.Atom, error) {
			return pcp.Atom{L: 5, UL: 5}, nil
		}),
	})
	if err != nil {
		t.Error(err)
		return
	}
	ctx := context.Background()
	r, w := pdu.NewReader(conn, pdu.DefaultTimeout), pdu.NewWriter(conn)
	if _, err := pdu.AgentHandshake(ctx, r, w, 0); err != nil {
		t.Error(err)
		return
	}
	d := pmda.NewDispatcher(a, w)
	for {
		b, err := r.ReadPDU(ctx)
		if err != nil {
			return
		}
		h, _ := pdu.ParseHeader(b)
		note := fmt.Sprintf("%v from=%d", h.Type, h.From)
		if m, err := pdu.Decode(b); err == nil {
			switch m := m.(type) {
			case *pdu.Profile:
				note += fmt.Sprintf(" ctx=%d", m.Context)
			case *pdu.Fetch:
				note += fmt.Sprintf(" ctx=%d", m.Context)
			case *pdu.Error:
				note += fmt.Sprintf(" %v", pcp.Error(m.Code))
			}
		}
		rec.mu.Lock()
		rec.log = append(rec.log, note)
		rec.mu.Unlock()
		if err := d.Dispatch(ctx, b); err != nil {
			return
		}
	}
}

// TestAgentConversation checks what pmcd sends an agent for its clients,
// as PCP's pmcd does in the golden captures: a client's profile before
// its first fetch and again only when it or the client changes, the
// client's number as "from", one DESC_REQ per metric of a DESC_IDS, and
// an ERROR of PM_ERR_NOTCONN when a client goes. It also checks socket
// agents on a Unix socket.
func TestAgentConversation(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "rec.socket")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		rec.serve(t, ln)
	}()
	tree, err := pmns.Parse(strings.NewReader("root {\n\trec\n}\nrec {\n\ta\t253:0:0\n\tb\t253:0:1\n}\n"), pmns.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Cleanups run last first: the agent ends once the server has closed.
	t.Cleanup(func() { <-done })
	host := startWithConf(t, tree, "rec 253 socket unix "+sock+"\n", 0)

	a, b := pcp.NewPMID(253, 0, 0), pcp.NewPMID(253, 0, 1)
	conn1, r1, w1 := dial(t, host)
	_, r2, w2 := dial(t, host)
	steps := []struct {
		r    *pdu.Reader
		w    *pdu.Writer
		req  pdu.Message
		want string
	}{
		{r1, w1, &pdu.Fetch{Context: 0, PMIDs: []pcp.PMID{a}}, "PROFILE from=0 ctx=0; FETCH from=0 ctx=0"},
		{r1, w1, &pdu.Fetch{Context: 0, PMIDs: []pcp.PMID{a, b}}, "FETCH from=0 ctx=0"},
		{r1, w1, &pdu.Profile{Context: 0, State: pdu.ProfileInclude}, ""},
		{r1, w1, &pdu.Fetch{Context: 0, PMIDs: []pcp.PMID{b}}, "PROFILE from=0 ctx=0; FETCH from=0 ctx=0"},
		// Fetches of a context without a profile (a negative one
		// among them) are pmcd's PM_ERR_NOPROFILE: nothing reaches
		// the agent.
		{r1, w1, &pdu.Fetch{Context: 1, PMIDs: []pcp.PMID{b}}, ""},
		{r1, w1, &pdu.Fetch{Context: -1, PMIDs: []pcp.PMID{b}}, ""},
		{r1, w1, &pdu.HighResFetch{Context: -1, PMIDs: []pcp.PMID{b}}, ""},
		{r1, w1, &pdu.Profile{Context: 1, State: pdu.ProfileInclude}, ""},
		{r1, w1, &pdu.Fetch{Context: 1, PMIDs: []pcp.PMID{b}}, "PROFILE from=0 ctx=1; FETCH from=0 ctx=1"},
		{r2, w2, &pdu.Fetch{Context: 0, PMIDs: []pcp.PMID{b}}, "PROFILE from=1 ctx=0; FETCH from=1 ctx=0"},
		{r1, w1, &pdu.Fetch{Context: 1, PMIDs: []pcp.PMID{a}}, "PROFILE from=0 ctx=1; FETCH from=0 ctx=1"},
		{r1, w1, &pdu.DescIDs{PMIDs: []pcp.PMID{a, b}}, "DESC_REQ from=0; DESC_REQ from=0"},
		{r2, w2, &pdu.TextReq{Ident: uint32(a), Type: pdu.TextOneLine | pdu.TextPMID}, "TEXT_REQ from=1"},
	}
	for i, s := range steps {
		if _, ok := s.req.(*pdu.Profile); ok {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if err := s.w.WriteMessage(ctx, s.req, 0); err != nil {
				t.Fatal(err)
			}
			cancel()
		} else if reply := roundTrip(t, s.r, s.w, s.req); s.want == "" {
			wantError(t, reply, pcp.ErrNoProfile)
		}
		if got := rec.take(); got != s.want {
			t.Errorf("step %d (%T): agent saw %q, want %q", i, s.req, got, s.want)
		}
	}
	conn1.Close()
	want := "ERROR from=0 " + pcp.ErrNotConn.Error()
	deadline := time.Now().Add(10 * time.Second)
	got := ""
	for got == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		got = rec.take()
	}
	if got != want {
		t.Errorf("after client 0 closed, agent saw %q, want %q", got, want)
	}
}
